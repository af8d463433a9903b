"""Random legal Ruff and Trump playouts in every form and seat count: the API stays
consistent, card points add up to the cards in play (F8), the set ends the match exactly
as F9 says, ranks follow F10, and every record replays through the engine."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruff_helpers import cards_in

from arena.core.cards import CARDS
from arena.core.errors import RuleError
from arena.games.ruff.actions import Announce, Play, sort_key
from arena.games.ruff.replay import replay_match
from arena.games.ruff.rules import RUFF_POINTS, RuffRules
from arena.games.ruff.state import Phase, RuffMatch

SETTINGS = settings(
    max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
FORMS = [
    RuffRules(),
    RuffRules(form="single", seats=4),
    RuffRules(form="single", seats=3),
    RuffRules(form="single", seats=2),
    RuffRules(form="single", seats=3, alt_deals=True),
    RuffRules(form="single", seats=2, alt_deals=True),
]


def check_deal(rec: dict[str, Any], rules: RuffRules) -> None:
    sides = len(rules.teams)
    assert sum(rec["ruff_points"]) == RUFF_POINTS  # ruling F4: one ruff, 12 points
    winner_side = rules.side_of(rec["ruff_winner"])
    assert rec["ruff_points"][winner_side] == RUFF_POINTS
    after_ruff = list(rec["scores_before"])
    after_ruff[winner_side] += RUFF_POINTS
    if rec["ended"] == "ruff":  # ruling F9: the set reached by the ruff alone
        assert max(after_ruff) >= rules.set_points
        assert rec["tricks"] == [] and rec["rubber"] is None and rec["shown"] is None
        assert rec["card_points"] == [0] * sides
    else:
        assert max(after_ruff) < rules.set_points  # otherwise the match would have ended
        assert len(rec["tricks"]) == rules.hand_size
        # ruling F8: the tricks hold every seat's hand, nothing of the dead head or discards
        assert sum(rec["cards_won"]) == rules.seats * rules.hand_size
        assert rec["card_points"] == [max(0, w - rules.par) for w in rec["cards_won"]]
        played = {c for t in rec["tricks"] for _, c in t["cards"]}
        assert played.isdisjoint(rec["discards"])
        assert played.isdisjoint(rec["head"][4:])
    assert rec["scores"] == [
        b + p for b, p in zip(rec["scores_before"], rec["points"], strict=True)
    ]


def ranks_oracle(scores: list[int], target: int) -> list[int] | None:
    """F9/F10 from the rulings' text: None while no side has reached the set."""
    reached = [s for s in scores if s >= target]
    if not reached:
        return None
    top = max(reached)
    return [1 if s == top else 1 + sum(1 for o in scores if o > s or o == top) for s in scores]


def play_out(rules: RuffRules, seed: int) -> RuffMatch:
    rng = random.Random(seed)
    m = RuffMatch(rules, match_id=f"p{seed}", seed=str(seed))
    records: list[dict[str, Any]] = []
    while not m.is_over:
        (seat,) = m.to_act()
        legal = m.legal_actions(seat)
        assert list(legal) == sorted(legal, key=sort_key) and legal
        for other in range(rules.seats):
            if other != seat:
                assert m.legal_actions(other) == ()
        view = m.view(seat)
        known = set(view.hand) | set(view.dealt) | {view.turned}
        known |= {c for t in view.tricks for _, c in t.cards} | {c for _, c in view.trick}
        known |= set(view.shown.cards) if view.shown else set()
        known |= set(view.discards or ())
        assert set(cards_in(view)) <= known  # ruling F11: nothing more
        if m.phase is Phase.PLAY:
            foreign = next(c for c in CARDS if c not in m.hand(seat))
            with pytest.raises(RuleError):
                m.apply(seat, Play(foreign))
        elif m.phase is Phase.ANNOUNCE:
            with pytest.raises(RuleError):
                m.apply(seat, Announce(m.ruffs[seat] + 1))
        m.apply(seat, legal[rng.randrange(len(legal))])
        for rec in m.finished:
            check_deal(rec, rules)
            records.append(rec)
            expected = ranks_oracle(rec["scores"], rules.set_points)
            if expected is None:
                assert not m.is_over
        m.finished.clear()
    final = ranks_oracle(m.scores, rules.set_points)
    assert final is not None
    assert m.ranks == [final[rules.side_of(s)] for s in range(rules.seats)]
    assert replay_match(records) == len(records)
    return m


@pytest.mark.parametrize("rules", FORMS, ids=lambda r: f"{r.form}-{r.seats}-{r.alt_deals}")
@SETTINGS
@given(seed=st.integers(0, 10**6))
def test_random_playouts_follow_the_rulings(rules: RuffRules, seed: int) -> None:
    play_out(rules, seed)
