"""Replay logs: stored records run back through the engine reproduce every event."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from arena.games.truf.replay import REQUIRED_FIELDS, ReplayMismatch, group_by_match, replay_match
from arena.games.truf.rules import TrufRules
from arena.games.truf.state import TrufMatch

DATA = Path(__file__).parent / "data"


def random_match(rules: TrufRules, seed: int, match_id: str = "m1") -> list[dict[str, Any]]:
    m = TrufMatch(rules, match_id=match_id, seed=seed, names=["a", "b", "c", "d"])
    rng = random.Random(seed)
    while not m.is_over:
        for seat in m.to_act():
            m.apply(seat, rng.choice(m.legal_actions(seat)))
    return m.finished


@pytest.mark.parametrize(
    "rules",
    [TrufRules(), TrufRules(scoring="2+3", multiplier=3), TrufRules(variant="target")],
    ids=["classic", "classic-2+3", "target"],
)
def test_logged_matches_replay_exactly(rules: TrufRules) -> None:
    for seed in range(5):
        records = json.loads(json.dumps(random_match(rules, seed)))  # through JSON, as stored
        assert replay_match(records) == rules.deals


def test_records_carry_every_field_readers_rely_on() -> None:
    for rules in (TrufRules(), TrufRules(variant="target")):
        for rec in random_match(rules, 3):
            missing = [f for f in REQUIRED_FIELDS if f not in rec]
            assert not missing
            assert rec["schema"] == 1 and rec["game"] == "truf"
            assert ("scoring" in rec) == (rules.variant == "classic")
            assert rec["direction"] == ("ccw" if rec["deal"] % 2 else "cw")  # C6


def test_stored_sample_logs_replay() -> None:
    """Logs written by an earlier version of the engine still replay (tests/data)."""
    lines = (DATA / "replays-sample.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line]
    matches = group_by_match(records)
    assert len(matches) >= 2
    assert sum(replay_match(recs) for recs in matches.values()) == len(records)


@pytest.mark.parametrize(
    ("field", "change"),
    [
        ("scores", lambda r: r["scores"].__setitem__(0, r["scores"][0] + 1)),
        ("high_bidder", lambda r: r.__setitem__("high_bidder", (r["high_bidder"] + 1) % 4)),
        ("dealer", lambda r: r.__setitem__("dealer", (r["dealer"] + 1) % 4)),
        (
            "tricks",
            lambda r: r["tricks"][5].__setitem__("winner", (r["tricks"][5]["winner"] + 1) % 4),
        ),
        ("totals", lambda r: r["totals"].__setitem__(2, 99)),
    ],
)
def test_a_tampered_log_is_caught_naming_the_field(field: str, change: Any) -> None:
    records = json.loads(json.dumps(random_match(TrufRules(deals=3), 11)))
    bad = copy.deepcopy(records)
    target = bad[1] if field == "dealer" else bad[0]
    change(target)
    with pytest.raises(ReplayMismatch, match=rf"match m1 deal \d: field '{field}'"):
        replay_match(bad)


def test_a_log_with_an_illegal_play_is_refused() -> None:
    records = json.loads(json.dumps(random_match(TrufRules(deals=1), 12)))
    trick = records[0]["tricks"][0]["cards"]
    trick[0], trick[1] = trick[1], trick[0]  # out of turn
    with pytest.raises(ReplayMismatch, match="refuses the logged play"):
        replay_match(records)
