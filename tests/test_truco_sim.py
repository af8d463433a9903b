"""The Truco simulator (``arena.games.truco.sim``) plays the rules exactly as the referee's engine.

Thousands of random hands at 2, 4 and 6 seats (duel hands included, R13) go through
both: the same random moves, the same legal moves at every step (calls, answers,
declarations, al mazo and cards, R6..R10), and the same points at the end of each hand.
"""

from __future__ import annotations

import random

import pytest

from arena.games.truco import sim
from arena.games.truco.actions import MAZO, Play
from arena.games.truco.rules import TrucoRules
from arena.games.truco.state import TrucoMatch

MATCHES = {2: 200, 4: 230, 6: 350}  # 1,000 hands or more per seat count, to 30 points


def random_move(legal: list, rng: random.Random):  # type: ignore[no-untyped-def]
    """Mostly uniform, al mazo rarely (else few hands reach their tricks)."""
    if MAZO in legal and rng.random() < 0.9:
        legal = [a for a in legal if a is not MAZO]
    return legal[rng.randrange(len(legal))]


def play_both(match: TrucoMatch, rng: random.Random) -> int:
    """Play ``match`` to its end through both; returns the hands checked."""
    hands = 0
    while not match.is_over:
        hand_no = match.hand_no
        dealt = [[sim.CARD_INDEX[c] for c in h] for h in match.dealt]
        state = sim.Sim.start(
            match.rules,
            dealt,
            match.dealer,
            duels=match.kind == "duels",
            scores=match.scores_before,
        )
        before = list(match.scores)
        while not state.is_over:
            (seat,) = state.to_act()
            assert match.to_act() == (seat,)
            moves = state.legal()
            assert moves == list(match.legal_actions(seat))
            move = random_move(moves, rng)
            state.apply(move, seat)
            match.apply(seat, move)
            if not state.is_over:
                assert match.hand_no == hand_no
                assert [sorted(h) for h in state.hands] == [
                    sorted(sim.CARD_INDEX[c] for c in h) for h in match._hands
                ]
        assert match.hand_no != hand_no or match.is_over
        record = match.finished[-1]
        assert list(state.points) == record["points"]
        assert [a + p for a, p in zip(before, state.points, strict=True)] == record["scores"]
        hands += 1
    return hands


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_the_simulator_plays_every_hand_as_the_engine_does(seats: int) -> None:
    rng = random.Random(f"truco-sim-{seats}")
    rules = TrucoRules(seats=seats, points=30)
    hands = sum(
        play_both(TrucoMatch(rules, match_id=f"m{m}", seed=f"sim:{seats}:{m}"), rng)
        for m in range(MATCHES[seats])
    )
    assert hands >= 1000


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_a_state_built_from_a_view_on_the_true_cards_is_the_engines(seats: int) -> None:
    """``from_view`` with the true dealt cards replays to the engine's position: the same
    legal moves, and the same points once both play the hand out alike."""
    rng = random.Random(f"truco-view-{seats}")
    match = TrucoMatch(TrucoRules(seats=seats, points=15), seed=f"view:{seats}")
    checked = 0
    while not match.is_over and checked < 300:
        (seat,) = match.to_act()
        view = match.view(seat)
        state = sim.from_view(view, match.dealt)
        assert state.legal() == list(match.legal_actions(seat))
        if rng.random() < 0.2:  # now and then play the hand out through both
            copy = state.copy()
            hand_no, before = match.hand_no, list(match.scores)
            while match.hand_no == hand_no and not match.is_over:
                (s,) = match.to_act()
                move = random_move(list(match.legal_actions(s)), rng)
                copy.apply(move, s)
                match.apply(s, move)
            assert copy.is_over
            assert [b + p for b, p in zip(before, copy.points, strict=True)] == match.scores
        else:
            match.apply(seat, random_move(list(match.legal_actions(seat)), rng))
        checked += 1


def test_illegal_moves_are_refused_with_the_reason() -> None:
    rules = TrucoRules(seats=2)
    state = sim.Sim.start(rules, [(0, 1, 2), (3, 4, 5)], dealer=1)
    with pytest.raises(ValueError, match="seat 0 may not"):
        state.apply(Play(sim.DECK[9]))  # not in its hand
    with pytest.raises(ValueError, match="not seat 1"):
        state.apply(state.legal()[0], seat=1)


def test_envido_counts_as_ruling_r9() -> None:
    card = {c.code: i for i, c in enumerate(sim.DECK)}
    assert sim.envido_of([card["7O"], card["6O"], card["1E"]]) == 33
    assert sim.envido_of([card["12O"], card["11O"], card["1E"]]) == 20
    assert sim.envido_of([card["7O"], card["6C"], card["5E"]]) == 13
    assert sim.envido_of([card["7O"], card["6C"], card["5E"]], sim.EnvidoCount.TRADITIONAL) == 7


def test_random_playouts_end_with_points_for_the_stake() -> None:
    rng = random.Random(3)
    for seats in (2, 4, 6):
        for duels in (False, True) if seats == 6 else (False,):
            for _ in range(200):
                state = sim.Sim.start(
                    TrucoRules(seats=seats), sim.random_dealt(rng, seats), 0, duels=duels
                )
                points = state.playout(rng)
                assert state.is_over and sum(points) >= (3 if duels else 1)
