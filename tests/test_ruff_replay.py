"""Ruff replay records: the fields are the ones docs/results.md lists, a stored log
replays through the engine, a damaged one is named by line, and ``check_dealt`` knows
the deals the match key gives."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest
from test_results_doc import table_fields

from arena.core.replaycheck import ReplayMismatch
from arena.games.ruff.replay import PUBLIC_DEAL_KEYS, check_dealt, public_deal, replay_log
from arena.games.ruff.rules import RuffRules
from arena.games.ruff.state import RuffMatch

DOC = Path(__file__).resolve().parent.parent / "docs" / "results.md"


def ruff_doc_fields(table: str) -> set[str]:
    """The backticked names in the first column of a table of the Ruff section."""
    ruff = DOC.read_text(encoding="utf-8").split('## Ruff and Trump (`"game": "ruff"`', 1)[1]
    return table_fields(ruff.split(f"### `{table}`", 1)[1].split("\n### ", 1)[0])


def records(rules: RuffRules, seed: str) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    m = RuffMatch(rules, match_id=f"m-{seed}", seed=seed)
    while not m.is_over:
        (seat,) = m.to_act()
        legal = m.legal_actions(seat)
        m.apply(seat, legal[rng.randrange(len(legal))])
    return m.finished


def test_a_deal_record_holds_exactly_the_documented_fields() -> None:
    for rec in records(RuffRules(form="single", seats=3), "d1"):
        assert set(rec) == ruff_doc_fields("replays.jsonl"), set(rec) ^ ruff_doc_fields(
            "replays.jsonl"
        )


def test_the_public_summary_hides_the_unplayed_cards() -> None:  # ruling F11
    rec = records(RuffRules(), "d2")[0]
    summary = public_deal(rec)
    assert set(summary) == set(PUBLIC_DEAL_KEYS)
    assert not {"hands", "head", "ruffs", "discards"} & set(summary)
    summary["scores"].append(99)
    assert rec["scores"] != summary["scores"]  # a copy: nothing a bot does reaches the log


def test_a_stored_log_replays_and_a_damaged_one_is_named_by_line() -> None:
    recs = records(RuffRules(), "d3") + records(RuffRules(), "d4")
    lines = list(enumerate(recs, start=1))
    assert replay_log(lines, "replays.jsonl") == (len(recs), 2)
    bad = copy.deepcopy(recs)
    bad[1]["card_points"] = [p + 1 for p in bad[1]["card_points"]]
    with pytest.raises(ReplayMismatch, match=r"replays.jsonl line 2: .* field 'card_points'"):
        replay_log(list(enumerate(bad, start=1)), "replays.jsonl")
    bad = copy.deepcopy(recs)
    bad[0]["actions"][0][1] = "announce 999"
    with pytest.raises(ReplayMismatch, match="line 1: .*the engine refuses the logged play"):
        replay_log(list(enumerate(bad, start=1)), "replays.jsonl")
    bad = copy.deepcopy(recs)
    del bad[0]["head"]
    with pytest.raises(ValueError, match="line 1: missing field"):
        replay_log(list(enumerate(bad, start=1)), "replays.jsonl")


def test_check_dealt_knows_the_match_keys_deals() -> None:
    recs = records(RuffRules(form="single", seats=2), "key")
    assert check_dealt(recs, "key") == len(recs)
    with pytest.raises(ReplayMismatch, match="the dealer is not the one|not the ones"):
        check_dealt(recs, "another key")


def test_seat_outcomes_give_each_seat_its_sides_points() -> None:
    from arena.games.ruff.replay import seat_outcomes

    rec = records(RuffRules(), "d5")[0]
    out = seat_outcomes(rec)
    assert [p for p, _, _ in out] == [rec["points"][s % 2] for s in range(4)]
