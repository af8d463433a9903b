"""Drawing the cards a seat cannot see, uniformly among the deals its view allows.

What a view shows about the unseen cards (``knowledge``): how many cards each other seat
holds; the suits it showed out of (C9, T5); that a seat which led a trump before trump
was broken held only trumps (C10); the revealed bid cards, which went back into their
owners' hands (C3/T2); that a face-down card in the open trick is a trump of its owner's
(C11), possibly its bid card; and that every original hand held a court card and a
numeral (C2: other deals were thrown in). ``Sampler`` draws uniformly among the deals
that fit all of it. Public through ``arena.games.truf.sim`` (``sample_hands``, ``Sampler``).
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Mapping
from math import comb
from typing import Any, NamedTuple

from arena.core.cards import CARD_SLICES, SUIT_MASKS, mask_of
from arena.games.truf.actions import Bid, Declare
from arena.games.truf.state import COURT_MASK, NUMERAL_MASK
from arena.games.truf.view import SeatView

SEATS = 4
TRICKS = 13
FULL = (1 << 52) - 1


class Hands(NamedTuple):
    """A full deal as a bot may picture it: what each seat holds now (four masks), and
    the cards behind the face-down trumps of the open trick that it could not see
    (C11), as (seat, card) pairs."""

    held: tuple[int, ...]
    face_down: tuple[tuple[int, int], ...] = ()


def bid_cards(bid: Bid | Declare) -> tuple[int, ...]:
    return (bid.card,) if isinstance(bid, Bid) else bid.cards


class Knowledge(NamedTuple):
    """What a view tells of the cards its seat cannot see (see ``knowledge``)."""

    seat: int
    own: int  # the seat's own hand
    pool: int  # unseen cards whose owner is not known
    holds: tuple[int, ...]  # per seat: how many cards it holds now
    fixed: tuple[int, ...]  # per seat: unseen cards known to be its own (revealed bids)
    allowed: tuple[int, ...]  # per seat: the suits (4-bit mask) it may still hold
    face_down: tuple[int, ...]  # seats whose face-down trump in the open trick is hidden
    trump: int | None
    court_needed: tuple[bool, ...]  # C2: its original hand's court card is still unseen
    numeral_needed: tuple[bool, ...]  # C2: its numeral is still unseen


def knowledge(view: SeatView) -> Knowledge:
    """Everything ``view`` shows about the cards its seat has not seen."""
    me, trump = view.seat, view.trump
    target = view.variant == "target"
    own = mask_of(view.hand)
    seen = own
    allowed = [0xF] * SEATS
    played = [0] * SEATS
    broken = False
    face_down: list[int] = []

    def observe(first: bool, seat: int, suit: int, led: int) -> None:
        if seat == me:
            return
        if first:
            if not target and suit == trump and not broken:
                allowed[seat] &= 1 << suit  # C10: led trump before broken: only trumps
        elif suit != led:
            allowed[seat] &= ~(1 << led)  # C9/T5: showed out of the led suit

    for trick in view.tricks:
        led = trick.cards[0][1] // 13
        for i, (seat, card) in enumerate(trick.cards):
            seen |= 1 << card
            played[seat] |= 1 << card
            observe(i == 0, seat, card // 13, led)
        broken = broken or any(c // 13 == trump for _, c in trick.cards)
    open_led = view.led_suit
    for i, pc in enumerate(view.trick):
        if pc.card is not None:
            seen |= 1 << pc.card
            played[pc.seat] |= 1 << pc.card
            suit = pc.card // 13
        else:  # C11: a face-down card is a trump
            assert trump is not None
            suit = trump
            face_down.append(pc.seat)
        if open_led is not None:
            observe(i == 0, pc.seat, suit, open_led)
    left = TRICKS - len(view.tricks)
    in_trick = {pc.seat for pc in view.trick}
    fixed = [0] * SEATS
    if view.bids is not None:
        for seat, bid in enumerate(view.bids):
            if seat != me:
                for c in bid_cards(bid):
                    if not seen >> c & 1:
                        fixed[seat] |= 1 << c
    pool = FULL & ~seen & ~(fixed[0] | fixed[1] | fixed[2] | fixed[3])
    holds = tuple(left - (s in in_trick) for s in range(SEATS))
    return Knowledge(
        seat=me,
        own=own,
        pool=pool,
        holds=holds,
        fixed=tuple(fixed),
        allowed=tuple(allowed),
        face_down=tuple(face_down),
        trump=trump,
        court_needed=tuple(s != me and not (played[s] | fixed[s]) & COURT_MASK for s in range(4)),
        numeral_needed=tuple(
            s != me and not (played[s] | fixed[s]) & NUMERAL_MASK for s in range(4)
        ),
    )


class _Case:
    """The deals in which each hidden face-down trump is a given bid card or comes from
    the pool: slots (the other seats' holdings, then one per face-down card from the
    pool), what each may take, and the exact count of deals."""

    def __init__(
        self, know: Knowledge, suit_cards: tuple[tuple[int, ...], ...], known_fd: Mapping[int, int]
    ) -> None:
        self.known_fd = dict(known_fd)  # seat -> its face-down card, a bid card of its own
        seats = [s for s in range(SEATS) if s != know.seat]
        pooled_fd = [s for s in know.face_down if s not in known_fd]
        self.slots = seats + pooled_fd
        self.held_fixed = {s: know.fixed[s] & ~_bit(known_fd.get(s)) for s in seats}
        self.caps = tuple(know.holds[s] - self.held_fixed[s].bit_count() for s in seats) + (
            1,
        ) * len(pooled_fd)
        trump_bit = 1 << know.trump if know.trump is not None else 0
        self.slot_suits = tuple(know.allowed[s] for s in seats) + tuple(
            trump_bit & know.allowed[s] for s in pooled_fd
        )
        # Suits that the same slots may hold are one group: their cards are alike to the
        # count, so the counting runs over at most four groups (usually one or two).
        groups: dict[int, list[int]] = {}
        for suit, cards in enumerate(suit_cards):
            if cards:
                takers = sum(1 << i for i, a in enumerate(self.slot_suits) if a >> suit & 1)
                groups.setdefault(takers, []).extend(cards)
        self.group_slots = [[i for i in range(len(self.caps)) if t >> i & 1] for t in groups]
        self.group_cards = [tuple(cards) for cards in groups.values()]
        # A slot's last group must fill it: no later card may go there.
        self.last_group = [
            max((g for g, slots in enumerate(self.group_slots) if i in slots), default=-1)
            for i in range(len(self.caps))
        ]
        self.pool = [c for cards in suit_cards for c in cards]
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        self._options: dict[tuple[int, tuple[int, ...]], tuple[list[Any], list[int]]] = {}

    @property
    def total(self) -> int:
        """The number of deals in this case (counted when first asked)."""
        return self._count(0, self.caps) if min(self.caps, default=0) >= 0 else 0

    def _count(self, group: int, caps: tuple[int, ...]) -> int:
        """Deals of the groups from ``group`` on into slots with these capacities left."""
        if group == len(self.group_cards):
            return 0 if any(caps) else 1
        key = (group, caps)
        found = self._ways.get(key)
        if found is None:
            found = self._ways[key] = sum(
                ways * self._count(group + 1, rest) for rest, ways in self._splits(group, caps)
            )
        return found

    def _splits(self, group: int, caps: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        """Every way to share the group's cards among the slots that may hold them,
        within ``caps``: (capacities left, number of ways to choose which cards)."""
        open_slots = self.group_slots[group]
        out: list[tuple[tuple[int, ...], int]] = []
        left = list(caps)

        def share(i: int, cards: int, ways: int) -> None:
            if i == len(open_slots):
                if cards == 0:
                    out.append((tuple(left), ways))
                return
            slot = open_slots[i]
            cap = left[slot]
            low = cap if self.last_group[slot] == group else 0
            for x in range(low, min(cards, cap) + 1):
                left[slot] = cap - x
                share(i + 1, cards - x, ways * comb(cards, x))
            left[slot] = cap

        share(0, len(self.group_cards[group]), 1)
        return out

    def draw(self, rng: random.Random, tries: int) -> list[int]:
        """Slot masks, uniform among this case's deals: plain shuffles first (kept when
        every card lands where it may), then by the counts."""
        pool = self.pool[:]
        for _ in range(tries):
            rng.shuffle(pool)
            slots, at = [], 0
            for slot, cap in enumerate(self.caps):
                m = mask_of(pool[at : at + cap])
                if m & ~_suits_mask(self.slot_suits[slot]):
                    break
                slots.append(m)
                at += cap
            else:
                return slots
        return self._draw_by_counts(rng)

    def _draw_by_counts(self, rng: random.Random) -> list[int]:
        caps = self.caps
        slots = [0] * len(caps)
        for group, cards in enumerate(self.group_cards):
            rests, cumulative = self._choices(group, caps)
            rest = rests[bisect.bisect_right(cumulative, rng.randrange(cumulative[-1]))]
            shuffled = list(cards)
            rng.shuffle(shuffled)
            at = 0
            for slot, (before, after) in enumerate(zip(caps, rest, strict=True)):
                slots[slot] |= mask_of(shuffled[at : at + before - after])
                at += before - after
            caps = rest
        return slots

    def _choices(
        self, group: int, caps: tuple[int, ...]
    ) -> tuple[list[tuple[int, ...]], list[int]]:
        """The ways to share this group's cards, and their cumulative numbers of deals."""
        key = (group, caps)
        found = self._options.get(key)
        if found is None:
            rests, cumulative, total = [], [], 0
            for rest, ways in self._splits(group, caps):
                weight = ways * self._count(group + 1, rest)
                if weight:
                    total += weight
                    rests.append(rest)
                    cumulative.append(total)
            found = self._options[key] = (rests, cumulative)
        return found


def _bit(card: int | None) -> int:
    return 0 if card is None else 1 << card


def _suits_mask(suits: int) -> int:
    return _SUITS_MASKS[suits]


_SUITS_MASKS = tuple(sum(SUIT_MASKS[s] for s in range(4) if suits >> s & 1) for suits in range(16))


class Sampler:
    """Draws the hidden cards uniformly among the deals consistent with a view.

    Build one per decision (``Sampler(view)``) and call ``sample(rng)`` as often as you
    like: the counting behind exact draws is done once. A draw picks the case (which
    bid card, if any, each hidden face-down trump is) in proportion to its number of
    deals, then tries a few plain shuffles of the unseen cards (kept when consistent),
    then draws by the counts: how many cards of each group of suits each seat holds, in proportion
    to the deals that have it. C2 (each original hand held a court card and a numeral)
    is applied by rejection on top. Each step keeps the draw uniform.
    """

    SHUFFLE_TRIES = 8
    C2_TRIES = 10_000

    def __init__(self, view: SeatView) -> None:
        know = self.know = knowledge(view)
        suit_cards = tuple(tuple(CARD_SLICES.of_mask(know.pool & m)) for m in SUIT_MASKS)
        trump_mask = SUIT_MASKS[know.trump] if know.trump is not None else 0
        # Each hidden face-down trump: from the pool, or one of its owner's bid cards.
        choices = [[None, *CARD_SLICES.of_mask(know.fixed[s] & trump_mask)] for s in know.face_down]
        cases = []
        for picks in itertools.product(*choices):
            known = zip(know.face_down, picks, strict=True)
            cases.append(_Case(know, suit_cards, {s: c for s, c in known if c is not None}))
        if len(cases) > 1:  # then each case's weight is its number of deals
            cases = [c for c in cases if c.total]
        if not cases:
            raise ValueError("no deal is consistent with this view")
        self.cases = cases
        self.weights = [c.total for c in cases] if len(cases) > 1 else [1]
        constrained = any(a != 0xF for s, a in enumerate(know.allowed) if s != know.seat)
        self.tries = self.SHUFFLE_TRIES if constrained or know.face_down else 1

    def sample(self, rng: random.Random) -> Hands:
        for _ in range(self.C2_TRIES):
            case = self.cases[0]
            if len(self.cases) > 1:
                case = rng.choices(self.cases, self.weights)[0]
            hands = self._hands(case, case.draw(rng, self.tries))
            if self._c2_ok(hands):
                return hands
        raise ValueError("no deal found that C2 allows for this view")

    def _hands(self, case: _Case, slots: list[int]) -> Hands:
        know = self.know
        held = [0] * SEATS
        held[know.seat] = know.own
        face_down = dict(case.known_fd)
        for slot, seat in enumerate(case.slots):
            if slot < SEATS - 1:
                held[seat] = slots[slot] | case.held_fixed[seat]
            else:
                face_down[seat] = slots[slot].bit_length() - 1
        return Hands(tuple(held), tuple((s, face_down[s]) for s in know.face_down))

    def _c2_ok(self, hands: Hands) -> bool:
        """C2: every original hand held a court card and a numeral (those already seen
        played or bid are accounted for in ``knowledge``)."""
        know = self.know
        fd = dict(hands.face_down)
        for seat in range(SEATS):
            if know.court_needed[seat] or know.numeral_needed[seat]:
                held = hands.held[seat] | _bit(fd.get(seat))
                if know.court_needed[seat] and not held & COURT_MASK:
                    return False
                if know.numeral_needed[seat] and not held & NUMERAL_MASK:
                    return False
        return True


def sample_hands(view: SeatView, rng: random.Random) -> Hands:
    """One uniform draw of the cards ``view``'s seat cannot see (see ``Sampler``; build
    a ``Sampler`` once to draw many)."""
    return Sampler(view).sample(rng)
