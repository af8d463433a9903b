"""The bundled Truco bots play every table size without a fault, are graded in
strength, and the in-process runner turns a bad answer into a fault and the fallback."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from test_truco_cli import default_field_order

from arena.bot import BaseBot
from arena.games.registry import make_game
from arena.games.truco.actions import QUIERO, Play
from arena.games.truco.rules import TrucoRules
from arena.play.tournament import MatchContext, play_match
from bots.truco import BUNDLED, bot_class


@pytest.mark.parametrize("name", BUNDLED)
@pytest.mark.parametrize("seats", [2, 4, 6])
def test_bundled_bots_play_every_table_size_without_faults(name: str, seats: int) -> None:
    game = make_game("truco", rules=TrucoRules(seats=seats, points=15))
    bots = [bot_class(name)() for _ in range(seats)]
    out = play_match(
        game, bots, ctx=MatchContext("b1", seed="b"), names=[f"{name}{s}" for s in range(seats)]
    )
    assert sum(out.record["faults"]["illegal"]) == 0
    assert out.record["ranks"].count(1) in (seats // 2, seats)


def wins(a: str, b: str, *, seats: int, matches: int, points: int) -> int:
    """Matches ``a`` wins against ``b``, the two swapping teams every match."""
    game = make_game("truco", rules=TrucoRules(seats=seats, points=points))
    won = 0
    for m in range(matches):
        first = m % 2  # the team ``a`` plays
        names = [f"{a if s % 2 == first else b}#{s}" for s in range(seats)]
        bots = [bot_class(a if s % 2 == first else b)() for s in range(seats)]
        out = play_match(game, bots, ctx=MatchContext(f"g{m}", seed=f"g{m}"), names=names)
        won += out.record["ranks"][first] == 1 and out.record["ranks"][1 - first] == 2
    return won


# Graded strength on fixed seeds, with a wide margin: bench/truco_bots.py measures it
# over more matches (docs/rules.md has the figures).
def test_basic_beats_random() -> None:
    assert wins("basic", "random", seats=4, matches=40, points=15) >= 24


def test_shrewd_beats_basic() -> None:
    assert wins("shrewd", "basic", seats=2, matches=20, points=15) >= 13


def test_the_default_field_finishes_in_the_order_of_strength(tmp_path: Path) -> None:
    """Issue 14.6: in a 100-round run of the default field at 4 seats (random, basic and
    two shrewd, partners rotating), both shrewds rank above basic and basic above random.
    Seeds 1..8 were measured (docs/rules.md, Truco house choice 13); seed 7 has the
    narrowest gap between a shrewd and basic."""
    kinds = default_field_order("truco", 7, tmp_path / "r")
    assert kinds == ["shrewd", "shrewd", "basic", "random"]


class Garbage(BaseBot):
    """Answers with whatever it is given: an index out of range, text, a card it does
    not hold, or an exception."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def act(self, view: Any, legal: Sequence[Any]) -> Any:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


@pytest.mark.parametrize(
    ("answer", "kind"),
    [(99, "illegal"), ("play 1E", "illegal"), (RuntimeError("boom"), "crash")],
)
def test_a_bad_answer_is_a_fault_and_the_seat_plays_its_fallback(answer: Any, kind: str) -> None:
    game = make_game("truco", rules=TrucoRules(seats=2, points=15))
    out = play_match(
        game,
        [Garbage(answer), bot_class("basic")()],
        ctx=MatchContext("f1", seed="f"),
        names=["bad", "basic"],
        strike_limit=3,
    )
    counted = out.record["faults"]
    assert counted.get(kind, [3])[0] == 3 or counted["illegal"][0] == 3
    assert out.record["disqualified"] == [True, False]
    faults = [f for deal in out.deals for f in deal["faults"]]
    assert len(faults) == 3 and all(f["seat"] == 0 for f in faults)


def test_fallback_plays_the_weakest_card_and_accepts_calls() -> None:
    from truco_helpers import cards

    from arena.games.truco.state import HandSpec, TrucoMatch

    m = TrucoMatch(TrucoRules(seats=2), hands=[HandSpec((cards("1E 4C 3O"), cards("7B 5C 6C")), 1)])
    assert m.fallback_action(0) == Play(cards("4C")[0])
    m.apply(0, m.legal_actions(0)[3])  # call truco
    assert m.fallback_action(1) == QUIERO
