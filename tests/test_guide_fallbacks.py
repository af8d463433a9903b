"""The fallback each game documents (docs/protocol.md §5, the rules pages' "The fallback",
truco.proto and ruff.proto) is the one the engine plays: each is written here from the
documents alone, over the legal list and the view a bot gets, and compared with
``fallback_action`` at every decision of random playouts."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from arena.games.registry import make_game
from arena.games.ruff.actions import Announce, Discard
from arena.games.ruff.actions import Play as RuffPlay
from arena.games.ruff.rules import Form, RuffRules
from arena.games.truco.actions import QUIERO, SON_BUENAS, Declare
from arena.games.truco.actions import Play as TrucoPlay
from arena.games.truco.rules import TrucoRules
from arena.games.truf.rules import TrufRules, Variant

SUITS = "SHDC"
RANKS = "23456789TJQKA"


def truf_fallback(view: Any, legal: Sequence[Any]) -> Any:
    """Truf: the first legal action, index 0."""
    return legal[0]


def truco_fallback(view: Any, legal: Sequence[Any]) -> Any:
    """Truco: the weakest card when asked to play (the first card listed: cards come
    first, weakest first, never a call or al mazo); Quiero when asked to answer (never a
    raise); the true envido when it is a legal declaration, else son buenas."""
    if view.asked == "play":
        return next(a for a in legal if isinstance(a, TrucoPlay))
    if view.asked in ("answer-truco", "answer-envido"):
        return QUIERO
    declarations = [a for a in legal if isinstance(a, Declare)]
    return declarations[0] if declarations else SON_BUENAS


def _rank_then_suit(code: str) -> tuple[int, int]:
    return RANKS.index(code[0]), SUITS.index(code[1])


def ruff_fallback(view: Any, legal: Sequence[Any]) -> Any:
    """Ruff: the true ruff (the last announcement listed); the four lowest-ranked cards
    outside trump, then the lowest trumps, equal ranks S, H, D, C; the lowest-ranked
    legal card, equal ranks S, H, D, C."""
    if view.phase == "announce":
        return legal[-1]
    if view.phase == "rub":
        trump = SUITS[view.trump]
        hand = sorted((c.code for c in view.hand),
                      key=lambda c: (c[1] == trump, *_rank_then_suit(c)))  # fmt: skip
        return Discard(tuple(hand[:4]))
    return min(legal, key=lambda a: _rank_then_suit(a.card.code))


Documented = Callable[[Any, Sequence[Any]], Any]
GAMES: dict[str, tuple[str, Any, Documented]] = {
    "truf classic": ("truf", TrufRules(), truf_fallback),
    "truf target": ("truf", TrufRules(variant=Variant.TARGET), truf_fallback),
    "truco 2": ("truco", TrucoRules(seats=2, points=15), truco_fallback),
    "truco 4": ("truco", TrucoRules(seats=4, points=15), truco_fallback),
    "truco 6": ("truco", TrucoRules(seats=6, points=15), truco_fallback),
    "ruff double": ("ruff", RuffRules(), ruff_fallback),
    "ruff single 3": ("ruff", RuffRules(form=Form.SINGLE, seats=3), ruff_fallback),
    "ruff single 2": ("ruff", RuffRules(form=Form.SINGLE, seats=2), ruff_fallback),
}


@pytest.mark.parametrize("form", list(GAMES))
def test_the_documented_fallback_is_the_one_the_engine_plays(form: str) -> None:
    game, rules, documented = GAMES[form]
    kinds: set[str] = set()
    for seed in range(3):
        match = make_game(game, rules=rules).new_match(
            match_id=f"fb{seed}",
            seed=f"fallback:{seed}",
            names=[f"s{i}" for i in range(rules.seats)],
        )
        pick = random.Random(seed)
        while not match.is_over:
            seat = match.to_act()[0]
            legal = match.legal_actions(seat)
            view = match.view(seat)
            engine = match.fallback_action(seat)
            assert engine == documented(view, legal), (form, view, engine)
            assert engine in legal
            kinds.add(type(engine).__name__)
            # play on: the fallback half the time, so fallbacks meet every phase
            match.apply(seat, engine if pick.random() < 0.5 else legal[pick.randrange(len(legal))])
    if game == "ruff":
        assert {Announce.__name__, Discard.__name__, RuffPlay.__name__} <= kinds
    if game == "truco":
        assert {"Play", "Answer"} <= kinds
