"""The Ruff and Trump simulator (``arena.games.ruff.sim``) plays the rules exactly as the engine.

About 1,400 random deals in every form and seat count (F1: double; single at 4, 3 and
2 seats; the alternative deals too, F2) go through both: the same random moves, the same
legal moves at every step (announcements F4, the rubber's discards F5, cards F7), and
the same points at the end of each deal (the ruff's 12 and the card points, F8, F9).
"""

from __future__ import annotations

import random

import pytest

from arena.core.cards import CARDS, mask_of
from arena.games.ruff import sim
from arena.games.ruff.actions import Discard, Play
from arena.games.ruff.rules import RuffRules
from arena.games.ruff.state import RuffMatch

FORMS = {
    "double": (RuffRules(), 70),
    "single-4": (RuffRules(form="single", seats=4), 50),  # type: ignore[arg-type]
    "single-3": (RuffRules(form="single", seats=3), 70),  # type: ignore[arg-type]
    "single-2": (RuffRules(form="single", seats=2), 90),  # type: ignore[arg-type]
    "single-3-alt": (RuffRules(form="single", seats=3, alt_deals=True), 15),  # type: ignore[arg-type]
}  # matches per form: about 1,400 deals in all, 300 or more per form of the main deal


def random_move(legal, rng: random.Random):  # type: ignore[no-untyped-def]
    return legal[rng.randrange(len(legal))]


def play_both(match: RuffMatch, rng: random.Random) -> int:
    """Play ``match`` to its end through both; returns the deals checked."""
    deals = 0
    while not match.is_over:
        deal_no = match.deal_no
        state = sim.Sim.start(
            match.rules, match.dealt, match.head, match.dealer, match.scores_before
        )
        while not state.is_over:
            (seat,) = state.to_act()
            assert match.to_act() == (seat,)
            moves = state.legal()
            assert list(moves) == list(match.legal_actions(seat))
            move = random_move(moves, rng)
            state.apply(move, seat)
            match.apply(seat, move)
            if not state.is_over:
                assert state.hands == [mask_of(h) for h in match._hands]
        record = match.finished[-1]
        assert record["deal"] == deal_no
        assert list(state.points) == record["points"]
        assert list(state.scores()) == record["scores"]
        deals += 1
    return deals


@pytest.mark.parametrize("form", sorted(FORMS))
def test_the_simulator_plays_every_deal_as_the_engine_does(form: str) -> None:
    rules, matches = FORMS[form]
    rng = random.Random(f"ruff-sim-{form}")
    deals = sum(
        play_both(RuffMatch(rules, match_id=f"m{m}", seed=f"sim:{form}:{m}"), rng)
        for m in range(matches)
    )
    assert deals >= 3 * matches


@pytest.mark.parametrize("form", ["double", "single-3", "single-2"])
def test_a_state_built_from_a_view_on_the_true_cards_is_the_engines(form: str) -> None:
    rules, _ = FORMS[form]
    rng = random.Random(f"ruff-view-{form}")
    match = RuffMatch(rules, seed=f"view:{form}")
    for _ in range(400):
        if match.is_over:
            break
        (seat,) = match.to_act()
        view = match.view(seat)
        discards = None if match.discards is None else tuple(match.discards)
        deal = sim.Deal(tuple(tuple(h) for h in match.dealt), tuple(match.head), discards)
        state = sim.from_view(view, deal)
        assert list(state.legal()) == list(match.legal_actions(seat))
        assert state.scores() == tuple(match.scores)
        match.apply(seat, random_move(match.legal_actions(seat), rng))


def test_illegal_moves_are_refused_with_the_reason() -> None:
    rules = RuffRules()
    deal = sim.random_deal(random.Random(1), rules)
    state = sim.Sim.start(rules, deal.dealt, deal.head, dealer=3)
    with pytest.raises(ValueError, match="may announce 0 to"):
        state.apply(sim.ANNOUNCES[state.ruffs[0] + 1])
    with pytest.raises(ValueError, match="not 2"):
        state.apply(sim.ANNOUNCES[0], seat=2)
    for _ in range(4):
        state.apply(sim.ANNOUNCES[0])
    outside = next(c for c in range(52) if not state.hands[state.turn] >> c & 1)
    bad = Discard((CARDS[outside], *CARDS_OF(state.hands[state.turn])[:3]))
    with pytest.raises(ValueError, match="four of its cards"):
        state.apply(bad)
    state.apply(state.legal()[0])
    with pytest.raises(ValueError, match="may not play"):
        state.apply(Play(CARDS[outside]))


def CARDS_OF(mask: int) -> list[int]:  # noqa: N802
    return [CARDS[c] for c in range(52) if mask >> c & 1]
