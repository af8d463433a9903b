"""``sim.sample_hands``: every draw is a deal the view allows, and the draws are uniform.

A deal is *consistent* with a view when, dealt that way, the deal could have gone as the
view shows: the seat's own hand, 13 cards per original hand that C2 does not throw in,
the revealed bid cards in their owners' hands (C3/T2), every card played legal when it
was played (C9, C10, T5: voids, only-trumps leads), every face-down card a trump (C11).
The check below replays the view's history through the engine's own legality rule
(``legal_play_mask``) and deal check (``check_deal``); it shares nothing with the sampler.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from arena.core.cards import CARDS, SUIT_MASKS, Card, cards_of, mask_of
from arena.games.truf import sampling, sim
from arena.games.truf.actions import BIDS, PLAYS, Bid
from arena.games.truf.errors import DealError
from arena.games.truf.rules import TrufRules
from arena.games.truf.state import DealSpec, TrufMatch, check_deal
from arena.games.truf.tricks import legal_play_mask
from arena.games.truf.view import SeatView

FULL = (1 << 52) - 1
DRAWS_PER_DEAL = 25


def consistent(view: SeatView, hands: sim.Hands) -> str | None:
    """None if the deal ``hands`` pictures could have led to ``view``, else why not."""
    me, trump, target = view.seat, view.trump, view.variant == "target"
    held = list(hands.held)
    if held[me] != mask_of(view.hand):
        return "own hand differs"
    hidden = dict(hands.face_down)
    history = [list(t.cards) for t in view.tricks]
    open_trick = []
    for pc in view.trick:
        card = pc.card if pc.card is not None else hidden.get(pc.seat)
        if card is None:
            return f"no card for seat {pc.seat}'s face-down trump"
        if pc.face_down and card // 13 != trump:
            return "a face-down card that is not a trump (C11)"
        open_trick.append((pc.seat, card))
    original = held[:]
    for trick in [*history, open_trick]:
        for seat, card in trick:
            if original[seat] >> card & 1:
                return f"card {card} both held and played"
            original[seat] |= 1 << card
    try:
        check_deal([cards_of(h) for h in original])  # 13 distinct cards each, C2
    except DealError as exc:
        return str(exc)
    if view.bids is not None:
        for seat, bid in enumerate(view.bids):
            cards = (bid.card,) if isinstance(bid, Bid) else bid.cards
            if any(not original[seat] >> c & 1 for c in cards):
                return f"seat {seat}'s bid card is not in its hand (C3/T2)"
    hand, broken = original[:], False
    for trick in [*history, open_trick]:
        led = None
        for seat, card in trick:
            if not legal_play_mask(hand[seat], led, trump, broken, target) >> card & 1:
                return f"seat {seat} could not have played {card} (C9/C10/T5)"
            hand[seat] ^= 1 << card
            led = card // 13 if led is None else led
        if trump is not None and len(trick) == 4 and any(c // 13 == trump for _, c in trick):
            broken = True
    return None if hand == held else "the hands do not end as held"


def views_of(rules: TrufRules, matches: int, seed: str) -> Iterator[SeatView]:
    """Every view of every decision in random matches."""
    rng = random.Random(seed)
    for i in range(matches):
        m = TrufMatch(rules, match_id=f"m{i}", seed=f"{seed}:{i}")
        while not m.is_over:
            for seat in m.to_act():
                yield m.view(seat)
                legal = m.legal_actions(seat)
                m.apply(seat, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("variant", ["classic", "target"])
def test_every_sample_is_a_deal_the_view_allows(variant: str) -> None:
    rng = random.Random(7)
    checked = 0
    for view in views_of(TrufRules(variant=variant, deals=4), 2, f"consistent-{variant}"):
        sampler = sim.Sampler(view)
        for _ in range(2):
            hands = sampler.sample(rng)
            assert consistent(view, hands) is None, (view, hands)
            state = sim.from_view(view, hands)  # and the simulator takes it up from there
            assert state.hands[view.seat] == mask_of(view.hand)
            checked += 1
    assert checked > 800


def test_a_face_down_trump_lead_before_trump_is_broken_shows_only_trumps() -> None:
    """C10 + C11: seat 0 holds the thirteen hearts, bids TH, so hearts are trump, and
    leads a heart face down before trump is broken: it held only trumps. The next seat's
    samples give seat 0 hearts only, its bid card TH among them or behind the lead."""
    hearts = [c for c in CARDS if c.suit == 1]
    rest = [c for c in CARDS if c.suit != 1]
    hands = (tuple(hearts), *(tuple(rest[i::3]) for i in range(3)))
    m = TrufMatch(TrufRules(), seed="only-trumps", deals=[DealSpec(hands, dealer=1)])
    m.apply(0, BIDS[Card.parse("TH")])
    for seat in (1, 2, 3):  # a zero bid each: 10 in all, bawah, seat 0 leads (C8)
        m.apply(seat, next(a for a in m.legal_actions(seat) if a.card.value == 0))
    m.apply(0, PLAYS[Card.parse("2H")])
    view = m.view(m.to_act()[0])
    assert view.trick[0].face_down and not view.trump_broken
    rng = random.Random(3)
    behind = Counter()
    for _ in range(200):
        drawn = sim.sample_hands(view, rng)
        assert consistent(view, drawn) is None
        assert drawn.held[0] & ~SUIT_MASKS[1] == 0
        behind[dict(drawn.face_down)[0] == Card.parse("TH")] += 1
    # 12 hearts remain unseen and every one is equally likely to be the one led.
    assert 0 < behind[True] < behind[False]


def all_consistent_deals(view: SeatView) -> list[sim.Hands]:
    """Brute force: every way to place every card the seat has not seen (in the other
    hands and behind the hidden face-down trumps), kept if consistent."""
    seen = mask_of(view.hand)
    for trick in view.tricks:
        seen |= mask_of(c for _, c in trick.cards)
    seen |= mask_of(pc.card for pc in view.trick if pc.card is not None)
    others = [s for s in range(4) if s != view.seat]
    hidden = [pc.seat for pc in view.trick if pc.card is None]
    in_trick = {pc.seat for pc in view.trick}
    caps = [13 - len(view.tricks) - (s in in_trick) for s in others] + [1] * len(hidden)
    out = []

    def place(i: int, left: list[int], masks: list[int]) -> None:
        if i == len(caps):
            held = [0] * 4
            held[view.seat] = mask_of(view.hand)
            for k, seat in enumerate(others):
                held[seat] = masks[k]
            face_down = tuple(
                (seat, masks[len(others) + k].bit_length() - 1) for k, seat in enumerate(hidden)
            )
            hands = sim.Hands(tuple(held), face_down)
            if consistent(view, hands) is None:
                out.append(hands)
            return
        for combo in itertools.combinations(left, caps[i]):
            rest = [c for c in left if c not in combo]
            place(i + 1, rest, [*masks, mask_of(combo)])

    place(0, list(cards_of(FULL & ~seen)), [])
    return out


def small_positions(per_variant: int) -> list[SeatView]:
    """Late-deal views of both variants with voids shown (in classic, one with a hidden
    face-down trump), few enough unseen cards to list every deal."""
    out: list[SeatView] = []
    for variant in ("classic", "target"):
        found: list[SeatView] = []
        for view in views_of(TrufRules(variant=variant, deals=13), 4, f"small-{variant}"):
            know = sim.knowledge(view)
            unseen = sum(know.holds[s] for s in range(4) if s != view.seat) + len(know.face_down)
            voids = any(a != 0xF for s, a in enumerate(know.allowed) if s != view.seat)
            if view.phase != "play" or not voids or unseen > 9:
                continue
            if variant == "classic" and not know.face_down and len(found) == per_variant - 1:
                continue  # keep the last place for a hidden face-down trump
            found.append(view)
            if len(found) == per_variant:
                break
        out += found
    return out


def chi_square_ok(counts: Counter[sim.Hands], support: list[sim.Hands], draws: int) -> bool:
    """Whether ``counts`` fit the uniform law on ``support`` at the 0.1% level
    (Wilson-Hilferty's approximation of the chi-square quantile)."""
    k = len(support)
    if k == 1:
        return counts[support[0]] == draws
    expected = draws / k
    stat = sum((counts[h] - expected) ** 2 / expected for h in support)
    df = k - 1
    z = 3.09  # the 99.9% normal quantile
    limit = df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3
    return stat <= limit


class ExactSampler(sim.Sampler):
    SHUFFLE_TRIES = 0  # every draw through the counting path


POSITIONS = small_positions(3)


@functools.cache
def support_of(index: int) -> list[sim.Hands]:
    return all_consistent_deals(POSITIONS[index])


@pytest.mark.parametrize("index", range(len(POSITIONS)))
@pytest.mark.parametrize("sampler", [sim.Sampler, ExactSampler])
def test_samples_are_uniform_over_every_consistent_deal(
    index: int, sampler: type[sim.Sampler]
) -> None:
    view = POSITIONS[index]
    support = support_of(index)
    assert support, "the true deal at least is consistent"
    draws = DRAWS_PER_DEAL * len(support)
    rng = random.Random(f"uniform:{index}")
    s = sampler(view)
    counts = Counter(s.sample(rng) for _ in range(draws))
    assert set(counts) <= set(support)  # never a deal outside the consistent ones
    assert chi_square_ok(counts, support, draws)


def test_the_uniformity_check_catches_a_sampler_that_ignores_the_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The classic mistake: each way to share a suit group's cards among the seats is
    drawn as likely as any other, whatever number of deals it stands for."""

    def equal_odds(
        self: sampling._Case, group: int, caps: tuple[int, ...]
    ) -> tuple[list[tuple[int, ...]], list[int]]:
        rests, _ = real(self, group, caps)
        return rests, list(range(1, len(rests) + 1))

    real = sampling._Case._choices
    monkeypatch.setattr(sampling._Case, "_choices", equal_odds)
    caught = 0
    for index, view in enumerate(POSITIONS):
        support = support_of(index)
        draws = DRAWS_PER_DEAL * len(support)
        rng = random.Random(f"biased:{index}")
        sampler = ExactSampler(view)
        counts = Counter(sampler.sample(rng) for _ in range(draws))
        caught += not chi_square_ok(counts, support, draws)
    assert caught >= 3


def test_positions_cover_voids_and_a_hidden_face_down_trump() -> None:
    assert len(POSITIONS) == 6
    assert any(sim.knowledge(v).face_down for v in POSITIONS)
    assert any(v.variant == "target" for v in POSITIONS)
