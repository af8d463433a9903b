"""No view leaks: spies record every view over whole tournaments, in both variants,
in-process and over gRPC, and each view is audited against the replay log.

A view may hold (the rulings' last section): the seat's own hand, the revealed bids,
the cards played face up, and the open trick with every other seat's face-down trump
shown without its rank (C11). It may never hold another seat's unplayed card, a bid
before all are revealed (C3/T2), or the rank of a face-down trump before its trick
closes (C11).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from spybot import Spy

from arena.core.cards import CODES, Card
from arena.games.registry import make_game
from arena.games.truf.rules import TrufRules
from arena.games.truf.view import SeatView
from arena.play.tournament import MatchContext, play_match

ROOT = Path(__file__).resolve().parents[1]

# Every field a seat may see. A new field must be added here on purpose, after
# checking it against the rulings: then this audit checks it too.
FIELDS = (
    "game", "variant", "match_id", "deal", "deals", "seat", "names", "dealer",
    "direction", "order", "phase", "to_act", "hand", "bids", "bid_total", "high_bidder",
    "trump", "no_truf", "mode", "final_bids", "tricks", "trick_leader", "trick",
    "trump_broken", "tricks_won", "totals",
)  # fmt: skip


def test_a_view_has_exactly_the_fields_this_audit_knows() -> None:
    assert SeatView._fields == FIELDS


def code(card: int) -> str:
    return CODES[card]


def audit(view: dict[str, Any], deal: dict[str, Any]) -> None:
    """One recorded view against the replay record of its deal (which knows all)."""
    seat, where = view["seat"], f"{view['match_id']} deal {view['deal']} seat {view['seat']}"
    closed = view["tricks"]
    # The public history is exactly the replay's, trick for trick.
    for got, want in zip(closed, deal["tricks"], strict=False):
        assert got[0] == want["leader"] and got[2] == want["winner"], where
        assert [[s, code(c)] for s, c in got[1]] == want["cards"], where
    played_by_me = {code(c) for t in closed for s, c in t[1] if s == seat}
    # The open trick: own card and face-up cards as played; others' face-down cards hidden.
    if view["trick"]:
        truth = deal["tricks"][len(closed)]["cards"]
        trump = deal["trump"]
        for (s, card, face_down), (true_seat, true_code) in zip(view["trick"], truth, strict=False):
            assert s == true_seat, where
            is_trump = trump is not None and true_code[-1] == trump
            assert face_down == (view["variant"] == "classic" and is_trump), where
            if face_down and s != seat:
                assert card is None, f"{where}: the rank of a face-down trump leaked (C11)"
            else:
                assert code(card) == true_code, where
            if s == seat:
                played_by_me.add(true_code)
    # The hand: exactly what this seat still holds; nothing of anybody else's.
    assert sorted(code(c) for c in view["hand"]) == sorted(
        set(deal["hands"][seat]) - played_by_me
    ), where
    # Bids: nothing before all are revealed, then exactly the bids made.
    if view["phase"] in ("bid", "declare"):
        assert view["bids"] is None and view["bid_total"] is None, f"{where}: a bid leaked"
        assert view["trump"] is None and view["high_bidder"] is None, where
    else:
        assert view["bids"] == deal["bids"], where
    # Every card anywhere in the view is one this seat may know.
    allowed = set(deal["hands"][seat]) | {c for t in deal["tricks"][: len(closed)]
                                          for _, c in t["cards"]}  # fmt: skip
    if view["bids"] is not None:
        for b in view["bids"]:
            allowed |= {b} if isinstance(b, str) else set(b["cards"])
    for s, card, _ in view["trick"]:
        if card is not None and s != seat:
            allowed.add(code(card))
    for card in cards_in(view):
        assert code(card) in allowed, f"{where}: {code(card)} is not this seat's to know"


def cards_in(view: dict[str, Any]) -> Iterator[int]:
    yield from view["hand"]
    for t in view["tricks"]:
        for _, c in t[1]:
            yield c
    for _, c, _ in view["trick"]:
        if c is not None:
            yield c


def audit_run(spy_dir: Path, replays: list[dict[str, Any]]) -> int:
    by_deal = {(r["match"], r["deal"]): r for r in replays}
    views = 0
    for log in spy_dir.glob("*.jsonl"):
        for line in log.read_text(encoding="utf-8").splitlines():
            view = json.loads(line)
            audit(view, by_deal[view["match_id"], view["deal"]])
            views += 1
    return views


@pytest.mark.parametrize("variant", ["classic", "target"])
def test_in_process_views_leak_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant: str
) -> None:
    monkeypatch.setenv("SPY_LOG_DIR", str(tmp_path))
    game = make_game(rules=TrufRules(variant=variant, deals=6))
    replays: list[dict[str, Any]] = []
    for m in range(4):
        spies = [Spy(seed=f"{m}:{s}") for s in range(4)]
        out = play_match(
            game, spies, ctx=MatchContext(f"m{m}", seed=str(m)), names=[f"spy{s}" for s in range(4)]
        )
        replays += out.deals
    # 4 matches x 6 deals x (4 bids + 52 plays), and a mode choice now and then.
    assert audit_run(tmp_path, replays) >= 4 * 6 * 56


@pytest.mark.parametrize("variant", ["classic", "target"])
def test_views_over_grpc_leak_nothing(tmp_path: Path, variant: str) -> None:
    spies = tmp_path / "spies"
    spies.mkdir()
    out = tmp_path / "run"
    env = dict(os.environ, SPY_LOG_DIR=str(spies))
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "tests"), str(ROOT), env.get("PYTHONPATH")) if p
    )
    cmd = [sys.executable, "-m", "arena.cli", "tournament", "--bots", "spybot:Spy",
           "--bots", "spybot:Spy,spybot:Spy,spybot:Spy", "--variant", variant,
           "--rounds", "2", "--deals", "3", "--results", str(out), "-q"]  # fmt: skip
    done = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    replays = [json.loads(line) for line in (out / "replays.jsonl").read_text().splitlines()]
    assert len(replays) == 2 * 3
    assert audit_run(spies, replays) >= 2 * 3 * 56


def test_the_audit_catches_a_leak() -> None:
    """The audit itself can fail: a view showing another seat's face-down trump is caught."""
    game = make_game(rules=TrufRules(deals=1))

    class Leaky(Spy):
        def act(self, view: SeatView, legal: Any) -> int:
            self.seen.append(view)
            return 0

    spies = [Leaky() for _ in range(4)]
    for spy in spies:
        spy.seen = []  # type: ignore[attr-defined]
    out = play_match(game, spies, ctx=MatchContext("leak", seed="3"), names=list("abcd"))
    (deal,) = out.deals
    from spybot import view_to_json

    hidden = [
        (spy, v)
        for spy in spies
        for v in spy.seen  # type: ignore[attr-defined]
        if any(p.card is None for p in v.trick)
    ]
    assert hidden, "this deal has no face-down trump to leak"
    _, view = hidden[0]
    data = view_to_json(view)
    audit(data, deal)  # the true view passes
    i = next(i for i, p in enumerate(view.trick) if p.card is None)
    truth = deal["tricks"][len(view.tricks)]["cards"][i][1]
    data["trick"][i][1] = int(Card.parse(truth))  # now it shows the rank
    with pytest.raises(AssertionError, match="face-down trump leaked"):
        audit(data, deal)
