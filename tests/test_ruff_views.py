"""View invariance (ruling F11): a seat's view cannot tell apart two deals that differ
only in cards it has not seen: the other seats' hands (a partner's too) and the head's
unseen cards, the turned card and the trump ace's place (which decides the rubber) kept."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from arena.core.cards import Card, Rank
from arena.core.errors import RuleError
from arena.games.ruff.actions import Announce
from arena.games.ruff.deal import DealSpec, seeded_deal
from arena.games.ruff.rules import RUB_CARDS, RuffRules
from arena.games.ruff.state import Phase, RuffMatch

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


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(
    rules=st.sampled_from(FORMS),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 60),
    swap_seed=st.integers(0, 2**32),
)
def test_f11_cards_a_seat_has_not_seen_do_not_change_its_view_in_play(
    rules: RuffRules, seed: int, steps: int, swap_seed: int
) -> None:
    """Random play to a random point of deal 1 (every seat announcing 0, so that any hand
    may announce it), then every card the viewer has not seen dealt anew among the places
    it cannot see; the same actions give the viewer the same view. Kept in place: the
    viewer's cards, the cards played, the turned card and the trump ace (public: who rubs),
    the discards (the log names them), the ruff winner's hand once its ruff is shown (the
    suit shown is public), and the head cards the viewer took if it rubbed."""
    m = RuffMatch(rules, match_id="v", seed=str(seed))
    rng = random.Random(seed)
    log = []
    for _ in range(steps):
        (seat,) = m.to_act()
        legal = m.legal_actions(seat)
        action = Announce(0) if m.phase is Phase.ANNOUNCE else rng.choice(legal)
        m.apply(seat, action)
        log.append((seat, action))
        if m.finished:
            return
    viewer = random.Random(swap_seed).randrange(rules.seats)
    head = list(m.head)
    fixed = set(m.dealt[viewer]) | {c for t in m.tricks for _, c in t.cards}
    fixed |= {c for _, c in m.trick} | {m.turned, Card.of(Rank.ACE, m.trump)}
    fixed |= set(m.discards or ())
    if m.shown is not None:
        fixed |= set(m.dealt[m.shown.seat])
    if viewer == m.rubber_seat:
        fixed |= set(head[:RUB_CARDS])
    places = [(s, i) for s in range(rules.seats) for i in range(rules.hand_size)]
    places += [(-1, i) for i in range(len(head))]

    def card_at(place: tuple[int, int]) -> Card:
        s, i = place
        return head[i] if s < 0 else m.dealt[s][i]

    free = [p for p in places if card_at(p) not in fixed]
    pool = [card_at(p) for p in free]
    random.Random(swap_seed).shuffle(pool)
    hands = [list(h) for h in m.dealt]
    for (s, i), card in zip(free, pool, strict=True):
        if s < 0:
            head[i] = card
        else:
            hands[s][i] = card
    spec = DealSpec(tuple(map(tuple, hands)), tuple(head), m.dealer)
    other = RuffMatch(rules, match_id="v", seed=str(seed), deals=[spec])
    try:
        for seat, action in log:
            other.apply(seat, action)
    except RuleError:
        assume(False)  # a seat shown void in a suit now holds one: not the same play
    assert other.view(viewer) == m.view(viewer)
