"""Ruff's search bot, ``bots.ruff.pimc``: the parts its strength rests on, each checked
against a plainer version of itself (the strength is measured in bench/ruff_duplicate.py
and bench/ruff_strength.py, never asserted here)."""

from __future__ import annotations

import random

import pytest

from arena.games.ruff import sim
from arena.games.ruff.rules import RuffRules
from bots.ruff import pimc

FORMS = [
    RuffRules(),
    RuffRules(form="single", seats=4),
    RuffRules(form="single", seats=3),
    RuffRules(form="single", seats=2),
]


def midway(rules: RuffRules, seed: int) -> sim.Sim:
    """A seeded deal played at random to a point in its play (F7), or its announcing."""
    rng = random.Random(seed)
    deal = sim.random_deal(rng, rules)
    state = sim.Sim.start(rules, deal.dealt, deal.head, dealer=seed % rules.seats)
    for _ in range(rng.randrange(30)):
        if state.is_over:
            break
        moves = state.legal()
        state.apply(moves[rng.randrange(len(moves))])
    return state


@pytest.mark.parametrize("rules", FORMS, ids=lambda r: f"{r.form}-{r.seats}")
def test_the_fast_playout_makes_the_policys_moves(rules: RuffRules) -> None:
    """``pimc.playout`` plays the tricks straight from ``card_policy``: it must end every
    deal with the points of the plain ``Sim.playout`` under ``pimc.policy``, move for
    move (the same hands left at every step is checked through the final points and the
    cards each side won)."""
    for seed in range(60):
        state = midway(rules, seed)
        plain, fast = state.copy(), state.copy()
        expected = plain.playout(random.Random(seed), pimc.policy)
        assert tuple(pimc.playout(fast, random.Random(seed))) == expected
        assert fast.cards_won == plain.cards_won
