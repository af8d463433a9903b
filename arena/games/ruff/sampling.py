"""Drawing the cards a Ruff and Trump seat cannot see, uniformly among the deals its view
allows.

A deal is every seat's dealt cards, the head (the turned-up trump on top, F2) and the
rubber's four discards (F5). A view (F11) shows: the seat's own cards; the turned card;
every announcement, which its seat's true ruff is at least (F4: more is not a legal
action); who rubs (F5: the trump ace's holder, else the dealer) and, to the rubber alone,
the head cards it took and its discards; the shown ruff (F6: the winner's best suit and
its top cards, which pins down the suit's higher cards and that no other suit sums more);
every card played, and so each seat's voids (F7: it showed out of a suit).

The discards are a choice, legal whatever they are: as the play and the announcements,
they constrain only through what the view shows, and each of a rubber's sets of four is
alike a priori.

``Sampler(view)`` deals the unseen cards into *bins* (each other seat's cards now, another
rubber's discards, the head's dead cards) uniformly among the ways that respect every
void and every card whose bin is known (the shown cards are their holder's; the turned
card, and the ace of a rubber that is not the dealer, are the rubber's, kept or thrown:
one case per way, weighed by its count), by exact counts per group of suits where plain
shuffles fail. It then splits another rubber's cards into those dealt and the three it
took from the head, uniformly, and keeps the deal if the rest holds (announcements within
the true ruffs, the rubber, the shown ruff), else draws again. Each step is uniform over
its part and the last keeps exactly the consistent deals, so the draw is uniform.
"""

from __future__ import annotations

import bisect
import itertools
import random
import time
from math import comb, factorial
from typing import NamedTuple

from arena.core.cards import CARDS, Rank
from arena.games.ruff.reckoning import rubber, shown_cards
from arena.games.ruff.rules import RUB_CARDS
from arena.games.ruff.sim import Deal, true_ruff_of
from arena.games.ruff.view import RuffView

__all__ = ["Deal", "Partition", "Sampler", "deficit", "sample_deal"]

DEAD, THROWN = -1, -2  # bins that are no seat's hand: the head's dead cards, the discards


class _Split(NamedTuple):
    rests: list[tuple[int, ...]]
    cumulative: list[int]


class Partition:
    """Uniform draws of ``cards`` into bins of the given sizes, each bin taking only the
    suits of its 4-bit ``allowed`` mask. Suits that the same bins may take are one group
    (their cards are alike to the count), so the counting runs over at most four groups."""

    SHUFFLE_TRIES = 8

    def __init__(
        self,
        cards: list[int],
        caps: list[int],
        allowed: list[int],
        banned: dict[int, int] | None = None,
    ) -> None:
        """``banned``: card -> a mask of the bins it may not go to, whatever its suit."""
        if sum(caps) != len(cards):
            raise ValueError(f"{len(cards)} cards for bins of {sum(caps)}")
        self.cards = cards
        self.out_caps = tuple(caps)
        self.allowed = allowed
        self.banned = banned = dict(banned or {})
        any_ban = 0
        for mask in banned.values():
            any_ban |= mask
        # The bins that take every card are alike to the counting: they count as one, whose
        # cards are then shared among them at random (every share equally likely).
        self.open = [i for i, a in enumerate(allowed) if a == 0xF and not any_ban >> i & 1]
        self.closed = [i for i in range(len(caps)) if i not in self.open]
        self.caps = tuple(
            [caps[i] for i in self.closed]
            + ([sum(caps[i] for i in self.open)] if self.open else [])
        )
        groups: dict[tuple[int, ...], list[int]] = {}
        for card in cards:
            ban = banned.get(card, 0)
            takers = tuple(
                k
                for k, i in enumerate(self.closed)
                if allowed[i] >> (card // 13) & 1 and not ban >> i & 1
            ) + ((len(self.closed),) if self.open else ())
            groups.setdefault(takers, []).append(card)
        self.takers = list(groups)
        self.group_cards = list(groups.values())
        # The bins no later group takes: a share must fill them exactly, or it counts no
        # way (pruned in ``_shares``: the counting was most of a decision's time).
        later: set[int] = set()
        self.closing: list[frozenset[int]] = [frozenset()] * len(self.takers)
        for g in range(len(self.takers) - 1, -1, -1):
            self.closing[g] = frozenset(self.takers[g]) - later
            later |= set(self.takers[g])
        self.free = not self.closed and not banned
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        self._splits: dict[tuple[int, tuple[int, ...]], _Split] = {}

    @property
    def total(self) -> int:
        """The number of ways (0: none respects the voids)."""
        if min(self.out_caps, default=0) < 0:
            return 0
        shares = 1  # the ways to share the open bins' cards among them: a multinomial
        if self.open:
            shares = factorial(sum(self.out_caps[i] for i in self.open))
            for i in self.open:
                shares //= factorial(self.out_caps[i])
        return self._count(0, self.caps) * shares

    def _count(self, g: int, caps: tuple[int, ...]) -> int:
        if g == len(self.group_cards):
            return 0 if any(caps) else 1
        key = (g, caps)
        found = self._ways.get(key)
        if found is None:
            found = sum(w * self._count(g + 1, rest) for rest, w in self._shares(g, caps))
            self._ways[key] = found
        return found

    def _shares(self, g: int, caps: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        """Every way to share group ``g``'s cards among its bins within ``caps``: (caps
        left, ways to choose which cards)."""
        takers, n = self.takers[g], len(self.group_cards[g])
        closing = self.closing[g]
        out: list[tuple[tuple[int, ...], int]] = []
        left = list(caps)
        for b, cap in enumerate(caps):  # a bin no group from g on takes must be full now
            if cap and b not in takers and not any(b in t for t in self.takers[g + 1 :]):
                return out
        room = [0] * (len(takers) + 1)  # what takers[i:] can still hold
        for i in range(len(takers) - 1, -1, -1):
            room[i] = room[i + 1] + caps[takers[i]]

        def share(i: int, cards: int, ways: int) -> None:
            if i == len(takers):
                if cards == 0:
                    out.append((tuple(left), ways))
                return
            b = takers[i]
            cap = left[b]
            # A bin no later group takes is filled here exactly; else the rest of the
            # cards must fit in the bins after it.
            low = cap if b in closing else max(0, cards - room[i + 1])
            for x in range(low, min(cards, cap) + 1):
                left[b] = cap - x
                share(i + 1, cards - x, ways * comb(cards, x))
            left[b] = cap

        share(0, n, 1)
        return out

    def draw(self, rng: random.Random) -> list[list[int]]:
        cards = self.cards[:]
        for _ in range(1 if self.free else self.SHUFFLE_TRIES):
            rng.shuffle(cards)
            bins, at = [], 0
            for b, (cap, allowed) in enumerate(zip(self.out_caps, self.allowed, strict=True)):
                part = cards[at : at + cap]
                if any(not allowed >> (c // 13) & 1 for c in part):
                    break
                if self.banned and any(self.banned.get(c, 0) >> b & 1 for c in part):
                    break
                bins.append(part)
                at += cap
            else:
                return bins
        return self._by_counts(rng)

    def _by_counts(self, rng: random.Random) -> list[list[int]]:
        if not self.total:
            raise ValueError("no way to deal the unseen cards respects every void")
        inner = self._inner_draw(rng)
        out: list[list[int]] = [[] for _ in self.out_caps]
        for k, i in enumerate(self.closed):
            out[i] = inner[k]
        if self.open:
            rest = inner[-1]
            rng.shuffle(rest)
            at = 0
            for i in self.open:
                out[i] = rest[at : at + self.out_caps[i]]
                at += self.out_caps[i]
        return out

    def _inner_draw(self, rng: random.Random) -> list[list[int]]:
        caps = self.caps
        bins: list[list[int]] = [[] for _ in caps]
        for g, cards in enumerate(self.group_cards):
            split = self._split(g, caps)
            rest = split.rests[
                bisect.bisect_right(split.cumulative, rng.randrange(split.cumulative[-1]))
            ]
            shuffled = cards[:]
            rng.shuffle(shuffled)
            at = 0
            for b, (before, after) in enumerate(zip(caps, rest, strict=True)):
                bins[b] += shuffled[at : at + before - after]
                at += before - after
            caps = rest
        return bins

    def _split(self, g: int, caps: tuple[int, ...]) -> _Split:
        key = (g, caps)
        found = self._splits.get(key)
        if found is None:
            rests, cumulative, total = [], [], 0
            for rest, ways in self._shares(g, caps):
                weight = ways * self._count(g + 1, rest)
                if weight:
                    total += weight
                    rests.append(rest)
                    cumulative.append(total)
            found = self._splits[key] = _Split(rests, cumulative)
        return found


def _mask(cards: list[int] | tuple[int, ...]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


class Sampler:
    """Draws whole deals uniformly among those consistent with a view (see the module's
    text). Build one per decision and call ``sample(rng)`` as often as you like."""

    TRIES = 20_000  # draws before giving up on a view (none has come near it in tests)

    def __init__(self, view: RuffView, *, bounds: bool = True) -> None:
        """``bounds=False`` drops the announcements' bounds (F4) from the draw: faster
        where they are tight, and no longer exact; ``deficit`` says how far a draw falls
        short of them, for a bot that would rather weigh its worlds."""
        self.view = view
        self.bounds = bounds
        n, me = len(view.names), view.seat
        self.seats, self.me = n, me
        self.hand_size = view.hand_size
        self.head_size = 52 - n * view.hand_size
        self.turned = int(view.turned)
        trump = self.trump = view.trump
        self.ace = int(CARDS[trump * 13 + Rank.ACE])
        self.announced = dict(view.announcements)
        self.played: list[list[int]] = [[] for _ in range(n)]
        voids = [0] * n
        for trick in [list(t.cards) for t in view.tricks] + [list(view.trick)]:
            if not trick:
                continue
            led = trick[0][1] // 13
            for seat, played in trick:
                self.played[seat].append(int(played))
                if played // 13 != led:
                    voids[seat] |= 1 << led  # ruling F7: it showed out
        self.voids = voids
        self.dealt_me = tuple(int(c) for c in view.dealt)
        seen = set(self.dealt_me) | {c for p in self.played for c in p} | {self.turned}
        self.rubber = view.rubber if view.phase in ("rub", "play") else None
        self.rubbed = view.phase == "play"  # the discards are made
        self.taken = tuple(int(c) for c in view.taken) if view.taken is not None else None
        self.discards = tuple(int(c) for c in view.discards) if view.discards else None
        if self.taken is not None:
            seen |= set(self.taken)
        if self.discards is not None:
            seen |= set(self.discards)
        self.shown = view.shown
        fixed: dict[int, int] = {}  # unseen card -> its bin
        others = [s for s in range(n) if s != me]
        r = self.rubber
        # Another seat rubbed: its discards are a bin of their own (any suit), beside its
        # cards now (which keep its voids).
        self.mixed = r is not None and r != me and self.rubbed
        bins: list[int] = []  # bin i holds seat bins[i]'s cards now (DEAD, THROWN: see below)
        caps: list[int] = []
        allowed: list[int] = []
        for s in others:
            bins.append(s)
            caps.append(self.hand_size - len(self.played[s]))
            allowed.append(0xF & ~voids[s])
        dead = self.head_size - (RUB_CARDS if r is not None else 1)
        if dead:
            bins.append(DEAD)
            caps.append(dead)
            allowed.append(0xF)
        if self.mixed:
            bins.append(THROWN)
            caps.append(RUB_CARDS)
            allowed.append(0xF)
        where = {s: i for i, s in enumerate(bins)}
        either: list[int] = []  # the rubber's known cards: kept, or thrown
        if self.mixed:
            assert r is not None
            if self.turned not in self.played[r]:
                either.append(self.turned)  # the rubber took it (F5)
            if r != view.dealer and self.ace not in seen:
                either.append(self.ace)  # ruling F5: it rubs because it dealt the ace
        if self.shown is not None and self.shown.seat != me:
            for shown_card in self.shown.cards:
                card = int(shown_card)
                if card in seen or card in either:
                    continue
                if self.shown.seat == r and self.mixed:
                    either.append(card)
                else:
                    fixed[card] = where[self.shown.seat]
        unseen = [c for c in range(52) if c not in seen and c not in fixed and c not in either]
        # Cards some bins cannot hold, whatever their suit: above the shown ruff's lowest
        # card, its suit's unshown cards are not the winner's (F6); the trump ace is no
        # other seat's when the dealer rubs (F5).
        banned: dict[int, int] = {}
        shown = self.shown
        if shown is not None and shown.seat != me and not (self.mixed and shown.seat == r):
            dealt_shown = [int(x) for x in shown.cards if int(x) != self.turned]
            short = self.turned in {int(x) for x in shown.cards}  # all its dealt cards shown
            floor = min((x % 13 for x in dealt_shown), default=13)
            for u in unseen:
                if u // 13 == shown.suit and (short or u % 13 > floor):
                    banned[u] = banned.get(u, 0) | 1 << where[shown.seat]
        if r is not None and r == view.dealer and self.ace in unseen:
            for s in others:
                if s != r:
                    banned[self.ace] = banned.get(self.ace, 0) | 1 << where[s]
        self.bins = bins
        # Another seat rubbed and won the ruff: F6 pins down its dealt cards of the shown
        # suit, but its cards now, discards and plays mix them with the head cards it took.
        # A card of that suit that its dealt cards cannot hold (``taken_only``) is, if it
        # is the rubber's at all, one of the three head cards it took beside the turned
        # card. Drawing such cards freely into its bins and rejecting the deals that hold
        # more of them than it took can fail nearly always; so each case below fixes how
        # many go to its cards now (``a``) and to its discards (``t``), at most three in
        # all with those it played, and the split into dealt and taken puts them in the
        # taken cards.
        self.taken_only: frozenset[int] = frozenset()
        must: list[int] = []  # the unseen ``taken_only`` cards, alike to the counting
        known_taken = 0  # ``taken_only`` cards the rubber played, or known to be its
        if self.mixed and shown is not None and shown.seat == r:
            assert r is not None
            shown_set = {int(x) for x in shown.cards}
            short = self.turned in shown_set  # all its dealt cards of the suit are shown
            floor = min((x % 13 for x in shown_set if x != self.turned), default=13)
            undealt = {  # of the shown suit, cards its dealt cards cannot hold (F6)
                c
                for c in range(shown.suit * 13, shown.suit * 13 + 13)
                if c not in shown_set and c != self.turned and (short or c % 13 > floor)
            }
            must = [u for u in unseen if u in undealt and u not in banned]
            known = [c for c in [*self.played[r], *either] if c in undealt]
            known_taken = len(known)
            # The taken cards the split puts first: exactly those the case counts (another
            # such card, left free, is still rejected by ``_fits`` if dealt).
            self.taken_only = frozenset([*must, *known])
        self.must = must
        heads = RUB_CARDS - 1  # the head cards the rubber took beside the turned card
        pool = self.hand_size + heads  # its dealt cards and those three
        # One case per way to share the rubber's known cards between its hand and its
        # discards (and per count of ``must`` cards in each), weighed by its number of
        # deals: placements of the unseen cards times splits of the rubber's cards.
        self.cases: list[tuple[dict[int, int], Partition]] = []
        weights: list[int] = []
        for thrown in range(min(len(either), RUB_CARDS) + 1):
            for out in itertools.combinations(either, thrown):
                placed = dict(fixed)
                for card in either:
                    placed[card] = where[THROWN] if card in out else where[r]  # type: ignore[index]
                case_caps = caps[:]
                ok = True
                for card, b in placed.items():
                    case_caps[b] -= 1
                    ok = ok and case_caps[b] >= 0 and bool(allowed[b] >> (card // 13) & 1)
                if not ok:
                    continue
                for a, t in self._must_counts(len(must), heads - known_taken):
                    case = self._case(placed, case_caps, unseen, allowed, banned, a, t)
                    if case is None:
                        continue
                    part = case[1]
                    weight = part.total * comb(len(must), a) * comb(len(must) - a, t)
                    if self.mixed:
                        forced = known_taken + a + t
                        weight *= comb(pool - forced, heads - forced)
                    if weight:
                        self.cases.append(case)
                        weights.append(weight)
        if not self.cases:
            raise ValueError("no deal respects every void this view shows")
        self.cumulative = list(itertools.accumulate(weights))
        self.tries = 0  # candidate deals drawn so far, kept or not (a count, never a time)

    @staticmethod
    def _must_counts(must: int, room: int) -> list[tuple[int, int]]:
        """(in its cards now, in its discards) counts of the ``must`` cards the rubber may
        hold, ``room`` taken head cards being left for them; (0, 0) alone when none."""
        return [(a, t) for a in range(must + 1) for t in range(must + 1 - a) if a + t <= room]

    def _case(
        self,
        placed: dict[int, int],
        caps: list[int],
        unseen: list[int],
        allowed: list[int],
        banned: dict[int, int],
        a: int,
        t: int,
    ) -> tuple[dict[int, int], Partition] | None:
        """The case where the first ``a`` of ``must`` are in the rubber's cards now, the
        next ``t`` in its discards and the rest in neither (the ``must`` cards are alike,
        so ``_draw`` relabels them at random); None if no deal has it."""
        if not self.must:
            return placed, Partition(unseen, caps, allowed, banned)
        r, thrown = self.bins.index(self.rubber), self.bins.index(THROWN)  # type: ignore[arg-type]
        placed = dict(placed)
        caps = caps[:]
        for k, card in enumerate(self.must[: a + t]):
            b = r if k < a else thrown
            if not allowed[b] >> (card // 13) & 1:
                return None  # it showed out of the suit: none in its cards now
            placed[card] = b
            caps[b] -= 1
        if min(caps) < 0:
            return None
        banned = dict(banned)
        for card in self.must[a + t :]:
            banned[card] = banned.get(card, 0) | 1 << r | 1 << thrown
        return placed, Partition([c for c in unseen if c not in placed], caps, allowed, banned)

    def sample(self, rng: random.Random, give_up_at: float | None = None) -> Deal:
        """One draw. ``give_up_at`` (a ``time.perf_counter()`` time): raise TimeoutError
        past it rather than go on drawing (for a bot on a clock)."""
        for tries in range(self.TRIES):
            self.tries += 1
            deal = self._draw(rng)
            if deal is not None:
                return deal
            if give_up_at is not None and tries % 8 == 7 and time.perf_counter() > give_up_at:
                raise TimeoutError("no deal drawn in the time given")
        raise ValueError("no deal found that fits everything this view shows")

    def _draw(self, rng: random.Random) -> Deal | None:
        """One candidate deal, or None when it does not fit the view."""
        case = 0
        if len(self.cases) > 1:
            case = bisect.bisect_right(self.cumulative, rng.randrange(self.cumulative[-1]))
        placed, partition = self.cases[case]
        parts = partition.draw(rng)
        for card, b in placed.items():
            parts[b].append(card)
        if len(self.must) > 1:  # which ``must`` cards went where: any, alike (see ``_case``)
            relabel = dict(zip(self.must, rng.sample(self.must, len(self.must)), strict=True))
            parts = [[relabel.get(c, c) for c in part] for part in parts]
        n, me, r = self.seats, self.me, self.rubber
        dealt: list[tuple[int, ...]] = [()] * n
        dead: list[int] = []
        discards = self.discards
        taken = list(self.taken) if self.taken is not None else None
        for b, seat in enumerate(self.bins):
            if seat == DEAD:
                dead = parts[b]
            elif seat == THROWN:
                discards = tuple(parts[b])
            elif seat != r or not self.mixed:
                dealt[seat] = tuple(parts[b]) + tuple(self.played[seat])
        if self.mixed:
            assert r is not None and discards is not None
            pool = parts[self.bins.index(r)] + list(discards) + self.played[r]
            others = [c for c in pool if c != self.turned]
            # The head cards it took: the ``taken_only`` ones it holds, and any others.
            heads = [c for c in others if c in self.taken_only]
            free = [c for c in others if c not in self.taken_only]
            heads += rng.sample(free, RUB_CARDS - 1 - len(heads))  # the case left room
            dealt[r] = tuple(c for c in others if c not in heads)
            taken = [self.turned, *heads]
        dealt[me] = self.dealt_me
        if r is not None and taken is None:
            # Only the rubber acts during its rub: no other seat's view is asked then.
            raise ValueError("a view during another seat's rub")
        rng.shuffle(dead)
        head = (self.turned, *taken[1:], *dead) if taken is not None else (self.turned, *dead)
        if not self._fits(dealt):
            return None
        return Deal(tuple(dealt), head, discards if self.rubbed else None)

    def _fits(self, dealt: list[tuple[int, ...]]) -> bool:
        """The announcements (F4), the rubber (F5) and the shown ruff (F6)."""
        turned = self.turned
        if self.bounds:
            for seat, number in self.announced.items():
                if seat != self.me and true_ruff_of(_mask(dealt[seat]), turned) < number:
                    return False
        hands = [[CARDS[c] for c in h] for h in dealt]
        if self.rubber is not None and rubber(hands, self.trump, self.view.dealer) != self.rubber:
            return False
        shown = self.shown
        if shown is not None:
            number = self.announced[shown.seat]
            suit, cards = shown_cards(hands[shown.seat], CARDS[turned], number)
            if suit != shown.suit or cards != tuple(shown.cards):
                return False
        return True


def deficit(view: RuffView, deal: Deal) -> int:
    """How many points, in all, the other seats' true ruffs in ``deal`` fall short of what
    they announced (F4): 0 for every deal the exact sampler draws."""
    turned = int(view.turned)
    return sum(
        max(0, number - true_ruff_of(_mask(deal.dealt[seat]), turned))
        for seat, number in view.announcements
        if seat != view.seat
    )


def sample_deal(view: RuffView, rng: random.Random) -> Deal:
    """One uniform draw (build a ``Sampler`` once to draw many)."""
    return Sampler(view).sample(rng)
