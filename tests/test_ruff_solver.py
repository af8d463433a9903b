"""Ruff's exact end-of-deal solver, ``bots.ruff.solver``, checked against brute force: a
plain minimax that tries every legal card (F7) of every hand, with no pruning, no
equal-card merging and no table, on thousands of small positions in every form (F1) and
seat count, some in the middle of a trick."""

from __future__ import annotations

import random

import pytest

from arena.games.ruff import sim
from arena.games.ruff.rules import RuffRules
from bots.ruff import pimc
from bots.ruff.solver import _distinct, solve

FORMS = [
    RuffRules(),
    RuffRules(form="single", seats=4),
    RuffRules(form="single", seats=3),
    RuffRules(form="single", seats=2),
]


def brute(state: sim.Sim, side: int) -> float:
    """Minimax over every legal card: ``side``'s seats maximise ``pimc.value``, the others
    minimise it (F7, F8)."""
    if state.is_over:
        return pimc.value(state.points, side)
    values = []
    for move in state.legal():
        child = state.copy()
        child.apply(move)
        values.append(brute(child, side))
    return max(values) if state.side[state.turn] == side else min(values)


def late(rules: RuffRules, seed: int, tricks_left: int) -> sim.Sim:
    """A seeded deal, announced and rubbed at random, played at random until
    ``tricks_left`` tricks are left, and then a random number of cards into that trick."""
    rng = random.Random(seed)
    while True:
        deal = sim.random_deal(rng, rules)
        state = sim.Sim.start(rules, deal.dealt, deal.head, dealer=seed % rules.seats)
        while not state.is_over and (
            state.phase != sim.PLAY or state.hands[state.turn].bit_count() > tricks_left
        ):
            moves = state.legal()
            state.apply(moves[rng.randrange(len(moves))])
        if state.is_over:  # the ruff ended the set (F9): draw again
            continue
        for _ in range(rng.randrange(rules.seats)):
            moves = state.legal()
            state.apply(moves[rng.randrange(len(moves))])
        return state


@pytest.mark.parametrize("rules", FORMS, ids=lambda r: f"{r.form}-{r.seats}")
def test_the_solver_finds_the_brute_force_value(rules: RuffRules) -> None:
    """Exact: the same value as brute force for every side, with 1 to 3 tricks left
    (4 at two seats)."""
    most = 4 if rules.seats == 2 else 3
    for seed in range(300):
        state = late(rules, seed, 1 + seed % most)
        for side in range(len(rules.teams)):
            assert solve(state.copy(), side) == pytest.approx(brute(state, side)), (seed, side)


def test_the_solver_leaves_the_state_as_it_was_and_scores_a_finished_deal() -> None:
    rules = RuffRules(form="single", seats=3)
    state = late(rules, 7, 3)
    before = (tuple(state.hands), tuple(state.trick), tuple(state.cards_won))
    solve(state, 0)
    assert (tuple(state.hands), tuple(state.trick), tuple(state.cards_won)) == before
    while not state.is_over:
        state.apply(state.legal()[0])
    assert solve(state, 1) == pimc.value(state.points, 1)
    with pytest.raises(ValueError, match="F7"):
        solve(sim.Sim.start(rules, *sim.random_deal(random.Random(1), rules)[:2], 0), 0)


def test_equal_cards_are_searched_once() -> None:
    """Cards of one suit in one hand with no live card between them are one choice; a
    live card of another hand (or of the trick) between them keeps them apart."""
    two, three, four, five = 0, 1, 2, 3  # spades 2, 3, 4, 5
    assert _distinct(1 << two | 1 << three, 1 << two | 1 << three) == [two]
    assert _distinct(1 << two | 1 << four, 1 << two | 1 << four) == [two]  # 3 is dead
    live = 1 << two | 1 << three | 1 << four
    assert _distinct(1 << two | 1 << four, live) == [two, four]
    assert _distinct(1 << two | 1 << five | 1 << 13, live | 1 << five | 1 << 13) == [
        two, five, 13
    ]  # fmt: skip
