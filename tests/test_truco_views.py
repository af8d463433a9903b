"""Ruling R14: a seat's view holds what it may know and nothing more. Two matches that
differ only in cards a seat has not seen give that seat equal views."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from arena.core.errors import RuleError
from arena.games.truco.cards import DECK, Card
from arena.games.truco.rules import TrucoRules
from arena.games.truco.state import HandSpec, TrucoMatch

SETTINGS = settings(
    max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


def played_cards(m: TrucoMatch) -> set[Card]:
    out: set[Card] = set()
    for b in m.bouts:
        out.update(c for t in b.tricks for _, c in t.cards)
        out.update(c for _, c in b.trick)
    return out


@SETTINGS
@given(
    seats=st.sampled_from([2, 4, 6]),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 40),
    swap_seed=st.integers(0, 2**32),
)
def test_r14_cards_a_seat_has_not_seen_do_not_change_its_view(
    seats: int, seed: int, steps: int, swap_seed: int
) -> None:
    rules = TrucoRules(seats=seats)
    m = TrucoMatch(rules, match_id="v", seed=str(seed))
    rng = random.Random(seed)
    log = []
    for _ in range(steps):  # a random point within the first hand
        (seat,) = m.to_act()
        action = rng.choice(m.legal_actions(seat))
        m.apply(seat, action)
        log.append((seat, action))
        if m.finished:
            return
    dealt = [list(h) for h in m.dealt]
    viewer = random.Random(swap_seed).randrange(seats)
    # Shuffle every card the viewer has not seen: the others' unplayed cards and the
    # cards nobody was dealt.
    seen = set(dealt[viewer]) | played_cards(m)
    hidden = [c for c in DECK if c not in seen]
    random.Random(swap_seed).shuffle(hidden)
    hands = []
    for s, hand in enumerate(dealt):
        hands.append(tuple(c if s == viewer or c in seen else hidden.pop() for c in hand))
    other = TrucoMatch(
        rules, match_id="v", seed=str(seed), hands=[HandSpec(tuple(hands), m.dealer)]
    )
    try:
        for seat, action in log:
            other.apply(seat, action)
    except RuleError:
        assume(False)  # a declared envido pins the hand: that swap is not possible
    assert other.view(viewer) == m.view(viewer)
    assert other.lazy_view(viewer) == m.lazy_view(viewer)


def test_r14_a_view_never_holds_another_seats_unplayed_cards() -> None:
    for seats in (2, 4, 6):
        m = TrucoMatch(TrucoRules(seats=seats), seed="leak")
        view = repr(m.view(0))
        for s in range(1, seats):
            for card in m.dealt[s]:
                assert repr(card) not in view
