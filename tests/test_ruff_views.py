"""View invariance (ruling F11): a seat's view cannot tell apart two deals that differ
only in cards it has not seen: the other seats' hands (a partner's too) and the head's
unseen cards, the turned card and the trump ace's place (which decides the rubber) kept."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.cards import Card, Rank
from arena.ruff.actions import Announce
from arena.ruff.deal import DealSpec, seeded_deal
from arena.ruff.rules import RUB_CARDS, RuffRules
from arena.ruff.state import Phase, RuffMatch

FORMS = [RuffRules(), RuffRules(form="single", seats=3), RuffRules(form="single", seats=2)]


def reshuffled(spec: DealSpec, seat: int, rubber: int, rng: random.Random) -> DealSpec:
    """``spec`` with every card ``seat`` does not see dealt anew among the places it
    cannot see, the trump ace and the cards the rubber takes staying where they are."""
    turned = spec.head[0]
    ace = Card.of(Rank.ACE, turned.suit)
    hands = [list(h) for h in spec.hands]
    head = list(spec.head)
    fixed_head = RUB_CARDS if seat == rubber else 1
    places = [(s, i) for s in range(len(hands)) if s != seat for i in range(len(hands[s]))]
    places += [(-1, i) for i in range(fixed_head, len(head))]
    places = [(s, i) for s, i in places if (hands[s][i] if s >= 0 else head[i]) != ace]
    pool = [hands[s][i] if s >= 0 else head[i] for s, i in places]
    rng.shuffle(pool)
    for (s, i), card in zip(places, pool, strict=True):
        if s >= 0:
            hands[s][i] = card
        else:
            head[i] = card
    return DealSpec(tuple(map(tuple, hands)), tuple(head), spec.dealer, spec.source)


def views_through_the_rub(m: RuffMatch, seat: int) -> list[object]:
    """``seat``'s view at every decision from the deal to the end of the rub, every seat
    announcing 0 (always legal), up to the rubber's decision."""
    out: list[object] = []
    while m.phase is Phase.ANNOUNCE:
        out.append(m.view(seat))
        (who,) = m.to_act()
        m.apply(who, Announce(0))
    out.append(m.view(seat))
    return out


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.integers(0, 10**6), st.sampled_from(FORMS), st.integers(0, 3))
def test_a_seat_cannot_tell_deals_apart_by_cards_it_has_not_seen(
    seed: int, rules: RuffRules, seat: int
) -> None:
    seat %= rules.seats
    hands, head = seeded_deal(str(seed), 1, 0, rules)
    spec = DealSpec(tuple(hands), head, dealer=rules.seats - 1)
    first = RuffMatch(rules, seed="a", deals=[spec])
    rubber_seat = next(
        (s for s, h in enumerate(hands) if Card.of(Rank.ACE, head[0].suit) in h), spec.dealer
    )
    other = RuffMatch(
        rules, seed="b", deals=[reshuffled(spec, seat, rubber_seat, random.Random(seed))]
    )
    a, b = views_through_the_rub(first, seat), views_through_the_rub(other, seat)
    assert a == b
