"""bots.truco.exact, the card play solved with every card seen: checked against a brute
force that enumerates every line of play of the rest of a play (R4, R5) on random
positions at 2, 4 and 6 seats and in the duels (R13)."""

from __future__ import annotations

import random

import pytest

from arena.games.truco import sim
from arena.games.truco.rules import TrucoRules
from bots.truco import exact, pimc


def brute(state: sim.Sim, team: int, cur: int, points: tuple[int, int]) -> bool:
    """Whether ``team`` takes play ``cur``'s tricks (R5) with its best card play against
    every answer, the cards only (no call, no fold): a plain game-tree search on the
    simulator's own moves, no pruning, no strengths. The play over, its winner is the
    team whose points grew from ``points`` (no Envido is called in these positions)."""
    if state.over or state.cur != cur:
        return state.points[team] > points[team]
    asked, seat = state.asked()
    assert asked == sim.PLAY
    outcomes = []
    for c in list(state.hands[seat]):
        child = state.copy()
        child.step(sim.PLAYS[c])
        outcomes.append(brute(child, team, cur, points))
    return any(outcomes) if seat % 2 == team else all(outcomes)


def after(state: sim.Sim, card: int) -> sim.Sim:
    child = state.copy()
    child.step(sim.PLAYS[card])
    return child


def positions(seats: int, duels: bool, n: int) -> list[sim.Sim]:
    """Random positions of a play with the cards only: a fresh deal, then some cards
    played at random (at least enough to bring it under ``exact.LIMIT``)."""
    rng = random.Random(seats * 10 + duels)
    out = []
    while len(out) < n:
        state = sim.Sim.start(
            TrucoRules(seats=seats), sim.random_dealt(rng, seats), rng.randrange(seats), duels=duels
        )
        for _ in range(rng.randrange(0, seats + 2)):
            seat = state.bout.turn
            state.step(sim.PLAYS[rng.choice(state.hands[seat])])
            if state.cur != 0:
                break
        if state.cur == 0 and not state.over and exact.cards_left(state) <= exact.LIMIT:
            out.append(state)
    return out


@pytest.mark.parametrize(("seats", "duels"), [(2, False), (4, False), (6, False), (6, True)])
def test_the_solved_card_wins_exactly_when_some_card_wins(seats: int, duels: bool) -> None:
    for state in positions(seats, duels, 150 if seats < 6 else 40):
        seat = state.bout.turn
        team = seat % 2
        points = (state.points[0], state.points[1])
        wins = brute(state, team, state.cur, points)
        card = exact.solved_card(state)
        assert (card is not None) == wins
        if card is not None:  # the card given wins against every answer, and is the cheapest
            assert brute(after(state, card), team, state.cur, points)
            for c in state.hands[seat]:
                if sim.STRENGTH[c] < sim.STRENGTH[card]:
                    assert not brute(after(state, c), team, state.cur, points)


def test_solving_keeps_the_models_bets_and_plays_only_legal_moves() -> None:
    rng = random.Random(3)
    move = exact.solving(pimc.team_policy)
    for hand in range(60):
        seats = (2, 4, 6)[hand % 3]
        state = sim.Sim.start(
            TrucoRules(seats=seats),
            sim.random_dealt(rng, seats),
            0,
            duels=seats == 6 and hand % 2 == 1,
        )
        while not state.is_over:
            draws = [rng.random() for _ in range(8)]
            mine = move(state, pimc.Draws(draws, random.Random(1)))
            theirs = pimc.team_policy(state, pimc.Draws(draws, random.Random(1)))
            assert mine in state.legal()
            assert isinstance(mine, type(theirs))  # a bet stays the bet, a card a card
            if not isinstance(theirs, sim.Play):
                assert mine == theirs
            state.apply(mine)


def test_pimc_solves_the_cards_only_with_the_option() -> None:
    assert pimc.Bot(samples=4).move is pimc.team_policy
    assert pimc.Bot(samples=4, exact=True).move is not pimc.team_policy
