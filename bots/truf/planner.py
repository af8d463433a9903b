"""planner: bids for the mode the bids will make, and plays each card for its score.

Bidding (C3..C5, C13) weighs every bid card by its expected score: how the other three
bids may sum (a fixed prior over what a seat bids), hence how likely atas or bawah is,
whether the card would be the highest and so name trump and the lead (C4, C8), and the
tricks this hand should take in each case -- per-card tables fitted to self-play for
atas, and a rough count for bawah. Under method 1 atas scores tricks - bid and bawah
bid - tricks, so it bids low when atas is likely and as high as it dares when bawah is.
At exactly 13 it picks the mode its hand scores more in (bids +1 or -1). Target
declarations (T2..T6) are weighed the same way: the chance of hitting each target with
this hand, what a miss costs in the likely mode, and the highest target that a target of
0 earns.

Play estimates, for each legal card, the chance it takes the trick and what it is worth
to keep (its chance to win as a lead later; in bawah, the danger of being forced to win
with it), and plays to the mode: in atas, win as cheaply as is safe; in bawah, duck and
shed dangerous cards. In target it fights for tricks until its target is reached,
spending its surplus winners first, then ducks. It has no memory: every card it cannot
see now, played or not, might still be in another hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.bot import BaseBot
from arena.core.cards import SUIT_MASKS, VALUES, Card
from arena.games.truf.actions import Action, ChooseMode, Declare, Mode
from arena.games.truf.bidding import CLASSIC_SUIT_STRENGTH
from arena.games.truf.view import SeatView
from bots.truf.greedy import TrickState, count_tricks, play_cards, suit_lengths

FULL = (1 << 52) - 1
ABOVE = tuple(SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52))  # same suit, higher
BELOW = tuple(SUIT_MASKS[c // 13] & ((1 << c) - 1) for c in range(52))  # same suit, lower


# Chance (percent) that a card wins a trick, by rank (2..A) and its suit's length in the
# hand (1..7+), from self-play of the tracker: side suits and trumps, atas and bawah.
ATAS_SIDE = (
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 99),  # length 1
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 19, 55, 98),  # length 2
    (0, 0, 0, 0, 0, 0, 0, 2, 7, 20, 41, 58, 94),  # length 3
    (0, 0, 1, 1, 2, 3, 5, 9, 16, 26, 39, 57, 88),  # length 4
    (0, 1, 1, 2, 3, 5, 7, 10, 14, 22, 34, 52, 79),  # length 5
    (0, 1, 1, 2, 2, 3, 5, 8, 12, 18, 30, 45, 69),  # length 6
    (0, 0, 0, 1, 1, 1, 3, 5, 9, 14, 23, 37, 52),  # length 7+
)
ATAS_TRUMP = (
    (11, 12, 12, 11, 11, 11, 13, 12, 12, 15, 22, 25, 100),  # length 1
    (14, 14, 13, 15, 15, 15, 17, 21, 24, 31, 30, 38, 100),  # length 2
    (22, 22, 22, 24, 25, 27, 30, 34, 38, 44, 47, 55, 100),  # length 3
    (39, 40, 38, 40, 41, 44, 45, 47, 53, 58, 60, 65, 100),  # length 4
    (58, 57, 58, 59, 62, 60, 60, 63, 67, 67, 72, 76, 100),  # length 5
    (70, 72, 74, 74, 76, 75, 76, 75, 77, 77, 81, 82, 100),  # length 6
    (83, 82, 85, 87, 88, 89, 86, 86, 84, 85, 84, 87, 100),  # length 7+
)
BAWAH_SIDE = (
    (0, 0, 0, 21, 45, 66, 77, 82, 88, 90, 95, 95, 98),  # length 1
    (0, 0, 1, 14, 22, 26, 36, 50, 63, 73, 79, 87, 91),  # length 2
    (0, 0, 0, 11, 14, 15, 20, 28, 34, 43, 53, 62, 67),  # length 3
    (0, 0, 1, 8, 10, 10, 14, 17, 21, 24, 29, 33, 33),  # length 4
    (0, 0, 1, 7, 7, 8, 11, 12, 13, 14, 17, 16, 14),  # length 5
    (0, 0, 3, 5, 6, 8, 10, 10, 10, 10, 9, 8, 5),  # length 6
    (0, 0, 5, 6, 6, 9, 11, 9, 8, 8, 6, 5, 1),  # length 7+
)
BAWAH_TRUMP = (
    (0, 0, 1, 7, 17, 34, 61, 83, 92, 90, 98, 100, 100),  # length 1
    (0, 0, 0, 3, 11, 28, 45, 56, 62, 68, 80, 91, 100),  # length 2
    (0, 0, 0, 3, 9, 23, 35, 39, 42, 49, 56, 71, 100),  # length 3
    (0, 0, 1, 3, 8, 15, 25, 32, 42, 53, 65, 83, 100),  # length 4
    (0, 3, 6, 8, 15, 21, 29, 36, 49, 67, 82, 93, 100),  # length 5
    (0, 7, 13, 20, 33, 41, 43, 53, 68, 84, 92, 99, 100),  # length 6
    (0, 7, 26, 46, 53, 60, 66, 76, 87, 93, 99, 99, 100),  # length 7+
)


def expected_tricks(hand: Sequence[int], trump: int | None, atas: bool, leads: bool) -> float:
    """Tricks this hand should take when every seat plays to win (atas) or to lose
    (bawah): the card tables above, plus ruffs from short suits (fitted to self-play)."""
    lengths = suit_lengths(hand)
    side, trumps = (ATAS_SIDE, ATAS_TRUMP) if atas else (BAWAH_SIDE, BAWAH_TRUMP)
    total = 0
    for c in hand:
        s = c // 13
        total += (trumps if s == trump else side)[min(lengths[s], 7) - 1][c % 13]
    if not atas:
        return max(0.0, -0.88 + 0.01284 * total)
    short = void = 0
    if trump is not None and lengths[trump]:
        for s in range(4):
            if s != trump and lengths[s] <= 1:
                short += 1
                void += lengths[s] == 0
    return max(0.0, -0.38 + 0.01113 * total + 0.3 * short + 0.2 * void - 0.28 * leads)


def future_high(keep: float, left: int) -> float:
    """Tricks a hand still takes in ``left`` tricks when it tries to win them, from the sum
    of its cards' chances as leads now (fitted to self-play)."""
    if left <= 0:
        return 0.0
    est = 0.173 + 1.323 * keep + 0.058 * left - 0.276 * keep * left / 13
    return min(float(left), max(0.0, est))


# How far a seat's tricks land from its target (-4..+4), in percent, given how many
# tricks the hand would take fighting for every trick minus the target (in half-trick
# steps, -3..+3), for target 0 and for other targets (fitted to self-play).
TARGET_SPREAD = {
    (False, -6): (30, 23, 21, 14, 8, 3, 1, 0, 0),
    (False, -5): (2, 13, 28, 25, 20, 7, 3, 1, 0),
    (False, -4): (0, 6, 23, 29, 27, 9, 4, 2, 1),
    (False, -3): (0, 2, 13, 29, 36, 11, 5, 3, 1),
    (False, -2): (0, 1, 6, 23, 45, 14, 6, 3, 2),
    (False, -1): (0, 0, 2, 14, 50, 20, 7, 4, 2),
    (False, 0): (0, 0, 1, 7, 54, 24, 8, 4, 3),
    (False, 1): (0, 0, 0, 3, 50, 28, 11, 5, 4),
    (False, 2): (0, 0, 0, 1, 43, 33, 14, 5, 4),
    (False, 3): (0, 0, 0, 1, 35, 33, 18, 7, 7),
    (False, 4): (0, 0, 0, 0, 26, 35, 20, 10, 9),
    (False, 5): (0, 0, 0, 0, 18, 30, 26, 13, 12),
    (False, 6): (0, 0, 0, 0, 6, 19, 30, 24, 21),
    (True, 0): (0, 0, 0, 0, 88, 12, 0, 0, 0),
    (True, 1): (0, 0, 0, 0, 77, 18, 3, 2, 1),
    (True, 2): (0, 0, 0, 0, 65, 24, 7, 2, 2),
    (True, 3): (0, 0, 0, 0, 54, 30, 9, 3, 3),
    (True, 4): (0, 0, 0, 0, 45, 32, 13, 4, 5),
    (True, 5): (0, 0, 0, 0, 31, 35, 18, 7, 8),
    (True, 6): (0, 0, 0, 0, 10, 27, 26, 17, 21),
}

# Another seat's target (0..19): a mixture of a seat declaring at random and one
# declaring about the tricks it counts.
_TARGET_WEIGHTS = (
    0.028, 0.090, 0.186, 0.197, 0.126, 0.081, 0.039, 0.045, 0.034, 0.038,
    0.036, 0.021, 0.017, 0.013, 0.009, 0.012, 0.010, 0.009, 0.006, 0.005,
)  # fmt: skip
TARGET_PRIOR = tuple(w / sum(_TARGET_WEIGHTS) for w in _TARGET_WEIGHTS)


TargetOdds = tuple[list[float], list[list[float]], float]
_TARGET_ODDS: dict[tuple[tuple[float, ...], ...], TargetOdds] = {}


def target_odds(dists: Sequence[Sequence[float]]) -> TargetOdds:
    """From the other seats' target distributions: the distribution of their sum, each
    one's cumulative distribution, and the expected highest of them (cached)."""
    key = tuple(tuple(d) for d in dists)
    cached = _TARGET_ODDS.get(key)
    if cached is not None:
        return cached
    cdfs = []
    for d in dists:
        acc, cdf = 0.0, []
        for p in d:
            acc += p
            cdf.append(acc)
        cdfs.append(cdf)
    # E[highest target of the others]: sum over m >= 1 of P(max >= m).
    emax = 0.0
    for m in range(1, len(cdfs[0])):
        all_below = 1.0
        for cdf in cdfs:
            all_below *= cdf[m - 1]
        emax += 1.0 - all_below
    if len(_TARGET_ODDS) > 256:
        _TARGET_ODDS.clear()
    out = _TARGET_ODDS[key] = (sum_dist(dists), cdfs, emax)
    return out


def target_spread(target: int, strength: float) -> tuple[int, ...]:
    """Percent chances of ending target-4 .. target+4 tricks."""
    x = round(2 * (strength - target))
    zero = target == 0
    x = max(0 if zero else -6, min(6, x))
    return TARGET_SPREAD[(zero, x)]


def target_value(target: int, strength: float, p_atas: float, top: float) -> float:
    """Expected T6 score of declaring ``target`` with a hand of this strength, when atas
    has probability ``p_atas`` and the highest target is ``top`` on average."""
    ev = 0.0
    for d, pct in enumerate(target_spread(target, strength), -4):
        if not pct:
            continue
        tricks = max(0, target + d)
        if tricks == target:
            score = top if target == 0 else float(target)
        else:
            diff = abs(tricks - target)
            over = tricks > target
            atas, bawah = (diff, 2 * diff) if over else (2 * diff, diff)
            pen = p_atas * atas + (1 - p_atas) * bawah
            score = -pen - (2 if target == 0 else 0)
        ev += pct * score
    return ev / 100


# Another seat's bid value (0..10): a broad prior, a court card (0) the likeliest.
BID_PRIOR = (0.25, 0.08, 0.09, 0.09, 0.08, 0.07, 0.07, 0.07, 0.07, 0.07, 0.06)


# Sums of the other bids (and the share of them below each bid), by the bid
# distributions they came from: the planner's never change, so it computes them once.
_BID_SUMS: dict[
    tuple[tuple[float, ...], ...], tuple[list[float], dict[tuple[int, int], list[float]]]
] = {}


def sum_dist(dists: Sequence[Sequence[float]]) -> list[float]:
    """The distribution of a sum of independent values 0, 1, 2, ..."""
    out = [1.0]
    for p in dists:
        nxt = [0.0] * (len(out) + len(p) - 1)
        for i, a in enumerate(out):
            if a:
                for k, b in enumerate(p):
                    nxt[i + k] += a * b
        out = nxt
    return out


def below(dist: Sequence[float], v: int, strength: int) -> list[float]:
    """The part of a bid distribution that ranks below a bid of value v in a suit of
    this C4 strength (0..3): lower values, and a share of equal ones."""
    out = list(dist[:v])
    if v < len(dist):
        out.append(dist[v] * strength / 3)
    return out


def bid_value(
    v: int,
    sums: Sequence[float],
    high: Sequence[float],
    ea: float,
    eb: float,
    oa: float,
    ob: float,
) -> float:
    """Expected score (C13, method 1) of bidding value v. ``sums[o]`` is the chance the
    other three bids sum to o, ``high[o]`` the chance of that and of this bid being the
    highest (C4); (ea, eb) are this hand's tricks in atas and bawah when its card makes
    trump, (oa, ob) when another seat's does."""
    cut = 13 - v  # the others sum to `cut`: exactly 13, the high bidder chooses (C5)
    ev = 0.0
    n_high = len(high)
    for o, p in enumerate(sums):
        p_hi = high[o] if o < n_high else 0.0
        p_no = p - p_hi
        if o > cut:
            ev += p_hi * (ea - v) + p_no * (oa - v)
        elif o < cut:
            ev += p_hi * (v - eb) + p_no * (v - ob)
        else:  # +1 or -1 to every bid
            ev += p_hi * max(ea - v - 1, v - 1 - eb)
            ev += p_no * ((oa - v - 1) + (v - 1 - ob)) / 2
    return ev


class Knowledge:
    """Where the cards this seat cannot see may be, as probabilities.

    ``mine`` is this seat's hand (a mask). ``out`` holds the cards that may still be in
    another seat's hand; ``known[j]`` the cards known to be in seat j's hand; ``void[j]``
    the suits (bits) seat j cannot hold. Every other out card is in seat j with
    probability ``q[j][suit]``, from the number of unknown cards j holds and the seats
    that may hold the suit. Without memory (``memoryless``), ``out`` also holds the cards
    already played, and a card is in seat j's hand with probability (cards j holds) /
    (cards unseen).
    """

    __slots__ = (
        "free", "known", "memo", "mine", "others", "out", "q", "trump", "unknown", "void",
    )  # fmt: skip

    def __init__(
        self,
        trump: int | None,
        out: int,
        free: dict[int, int],
        known: dict[int, int],
        void: dict[int, int],
        mine: int,
        memoryless: bool = False,
    ) -> None:
        self.trump = trump
        self.mine = mine
        self.out = out
        self.free = free
        self.known = known
        self.void = void
        self.others = tuple(free)
        self.memo: dict[tuple[object, ...], float] = {}
        all_known = 0
        for m in known.values():
            all_known |= m
        self.unknown = out & ~all_known
        slots = {j: max(0, free[j] - known[j].bit_count()) for j in self.others}
        if memoryless:
            self.q = self._spread_evenly(slots)
        else:
            self.q = self._fit_counts(slots)

    def _spread_evenly(self, slots: dict[int, int]) -> dict[int, list[float]]:
        """A card unseen (maybe played) is in j's hand with chance slots / cards unseen."""
        void = self.void
        unseen = self.unknown.bit_count()
        q: dict[int, list[float]] = {j: [0.0, 0.0, 0.0, 0.0] for j in self.others}
        for s in range(4):
            total = sum(slots[j] for j in self.others if not void[j] >> s & 1)
            total = max(total, unseen)
            if total:
                for j in self.others:
                    if not void[j] >> s & 1:
                        q[j][s] = min(1.0, slots[j] / total)
        return q

    def _fit_counts(self, slots: dict[int, int]) -> dict[int, list[float]]:
        """Expected counts of each suit's unknown cards per seat, fitted (iterative
        proportional fitting) so that every seat's hand size and every suit's count add
        up, with none in a suit a seat is void in; a face-down trump still in the open
        trick (C11) is a holder of its own. q = expected count / cards of the suit."""
        void = self.void
        counts = [(self.unknown & SUIT_MASKS[s]).bit_count() for s in range(4)]
        spare = sum(counts) - sum(slots.values())
        if spare <= 0 and not any(void.values()):
            total = sum(slots.values())  # no constraint to fit: plain shares
            return {j: [n / total if total else 0.0] * 4 for j, n in slots.items()}
        rows = [
            (slots[j], [0.0 if void[j] >> s & 1 else 1.0 for s in range(4)]) for j in self.others
        ]
        if spare > 0:  # hidden trumps in the open trick
            trump = self.trump
            rows.append((spare, [1.0 if s == trump else 0.0 for s in range(4)]))
        grid = [[ok * size * n for ok, n in zip(mask, counts, strict=True)] for size, mask in rows]
        for _ in range(4):
            for (size, _mask), row in zip(rows, grid, strict=True):
                weight = sum(row)
                if weight > 0:
                    f = size / weight
                    for s in range(4):
                        row[s] *= f
            for s in range(4):
                weight = sum(row[s] for row in grid)
                if weight > 0:
                    f = counts[s] / weight
                    for row in grid:
                        row[s] *= f
        q: dict[int, list[float]] = {}
        for j, row in zip(self.others, grid, strict=False):
            q[j] = [min(1.0, row[s] / counts[s]) if counts[s] else 0.0 for s in range(4)]
        return q

    def p_holds(self, j: int, mask: int, suit: int) -> float:
        """Probability that seat j holds at least one card of ``mask`` (one suit)."""
        if self.known[j] & mask:
            return 1.0
        n = (self.unknown & mask).bit_count()
        if not n:
            return 0.0
        return 1.0 - (1.0 - self.q[j][suit]) ** n

    def p_void(self, j: int, suit: int) -> float:
        """Probability that seat j holds no card of ``suit``."""
        mask = SUIT_MASKS[suit]
        if self.known[j] & mask:
            return 0.0
        n = (self.unknown & mask).bit_count()
        return (1.0 - self.q[j][suit]) ** n if n else 1.0

    def p_none_in(self, seats: Sequence[int], mask: int, suit: int) -> float:
        """Probability that none of ``seats`` holds a card of ``mask`` (one suit)."""
        known = self.known
        for j in seats:
            if known[j] & mask:
                return 0.0
        n = (self.unknown & mask).bit_count()
        if not n:
            return 1.0
        share = 0.0
        for j in seats:
            share += self.q[j][suit]
        return (1.0 - min(1.0, share)) ** n

    def p_survive_atas(self, card: int, led: int, later: Sequence[int]) -> float:
        """Probability that ``card``, winning the trick so far, is not beaten by the
        seats still to play when every seat tries to win."""
        trump = self.trump
        suit = card // 13
        if suit == led:
            p = self.p_none_in(later, ABOVE[card], suit)
            if p > 0.0 and trump is not None and suit != trump:
                trumps = SUIT_MASKS[trump]
                for j in later:
                    p *= 1.0 - self.p_void(j, suit) * self.p_holds(j, trumps, trump)
            return p
        if suit == trump:  # a ruff: beaten only by a seat void in the led suit with a higher trump
            p = 1.0
            for j in later:
                p *= 1.0 - self.p_void(j, led) * self.p_holds(j, ABOVE[card], trump)
            return p
        return 0.0

    def p_survive_bawah(self, card: int, led: int, later: Sequence[int]) -> float:
        """Probability that ``card``, winning the trick so far, keeps it when every seat
        tries to lose: no seat of ``later`` is forced over it, i.e. holds the led suit
        and nothing in it below ``card``. Unknown cards fall to seats independently,
        counted jointly over the seats (inclusion-exclusion)."""
        suit = card // 13
        if suit != led:
            return 1.0  # a trump on another suit: the others discard rather than overtrump
        below, above = BELOW[card], ABOVE[card]
        known, void = self.known, self.void
        seats = [j for j in later if not known[j] & below and not void[j] >> suit & 1]
        if not seats:
            return 1.0
        unknown = self.unknown
        n_lo = (unknown & below).bit_count()
        n_hi = (unknown & above).bit_count()
        sure = [bool(known[j] & above) for j in seats]
        if not n_hi and not any(sure):
            return 1.0  # nothing higher is out: no seat can be forced over
        key = (suit, n_lo, n_hi, tuple(seats), tuple(sure))
        memo = self.memo.get(key)
        if memo is not None:
            return memo
        n = len(seats)
        full = (1 << n) - 1
        share = [0.0] * (full + 1)  # share[S]: chance a given unknown card is in S's hands
        for i, j in enumerate(seats):
            qj = self.q[j][suit]
            bit = 1 << i
            for m in range(bit):
                share[m | bit] = share[m] + qj
        lo = [(1.0 - min(1.0, x)) ** n_lo for x in share]  # S gets no lower card
        hi = [(1.0 - min(1.0, x)) ** n_hi for x in share]  # S gets no higher card
        unsure = 0
        for i, known_high in enumerate(sure):
            if not known_high:
                unsure |= 1 << i
        # P(no seat forced over) = sum over S of (-1)^|S| P(every seat of S is forced
        # over): S gets no lower card, and each seat of S not known to hold a higher
        # card gets one (inclusion-exclusion over the subsets T of those seats).
        total = 0.0
        for group in range(full + 1):
            need = group & unsure
            inner = 0.0
            t = need
            while True:
                inner += -hi[t] if t.bit_count() & 1 else hi[t]
                if not t:
                    break
                t = (t - 1) & need
            p = lo[group] * inner
            total += -p if group.bit_count() & 1 else p
        total = min(1.0, max(0.0, total))
        self.memo[key] = total
        return total


def naive_knowledge(view: SeatView) -> Knowledge:
    """What a seat knows without memory: its own hand and the open trick. Every card it
    cannot see now might be anywhere, played or not."""
    mine = 0
    for c in view.hand:
        mine |= 1 << c
    seen = mine
    played_now = set()
    for pc in view.trick:
        played_now.add(pc.seat)
        if pc.card is not None:
            seen |= 1 << pc.card
    left = 13 - len(view.tricks)
    free = {j: left - (j in played_now) for j in range(4) if j != view.seat}
    zero = dict.fromkeys(free, 0)
    return Knowledge(view.trump, FULL & ~seen, free, zero, dict(zero), mine, memoryless=True)


def argmax(scores: Sequence[float]) -> int:
    """The index of the best score; the first one on a tie."""
    best_i, best = 0, scores[0]
    for i, x in enumerate(scores):
        if x > best + 1e-9:
            best_i, best = i, x
    return best_i


class Bot(BaseBot):
    name = "planner"
    version = "1.0"

    KEEP_ATAS = 0.7  # how much a card's own later trick is worth when spending it now
    KEEP_BAWAH = 0.5  # how much shedding a card that might win later is worth
    SURPLUS = 1.0  # target: winners beyond the tricks still needed before shedding them
    SHED_ATAS = 0.3  # target, with winners to spare: how much spending a winner is worth
    TARGET_SHIFT = 0.0  # added to the hand's strength when declaring a target

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed  # no random decisions; the seed is kept for the record

    def act(self, view: SeatView, legal: Sequence[Action]) -> Action | int:
        phase = view.phase
        if phase == "play":
            return self.play(view, legal)
        if phase == "bid":
            return self.bid(view, legal)
        if phase == "declare":
            return self.declare(view, legal)
        if phase == "mode":
            return self.choose_mode(view, legal)
        return 0

    def knowledge(self, view: SeatView) -> Knowledge:
        return naive_knowledge(view)

    # ------------------------------------------------------------------ bidding

    def bid(self, view: SeatView, legal: Sequence[Action]) -> Action | int:
        """The bid card with the best expected score (C13), over the sums the other
        three bids may make (C5) and whether this card makes its suit trump (C4)."""
        hand = view.hand
        lengths = suit_lengths(hand)
        weights = [13 - n for n in lengths]  # another seat's trump: a suit it holds
        wsum = sum(weights)
        est_a = [self.tricks_atas(view, s, False) for s in range(4)]
        est_b = [self.tricks_bawah(view, s, False) for s in range(4)]
        other_a = sum(w * e for w, e in zip(weights, est_a, strict=True)) / wsum
        other_b = sum(w * e for w, e in zip(weights, est_b, strict=True)) / wsum
        dists = self.bid_dists(view)
        cache_key = tuple(tuple(d) for d in dists)
        cached = _BID_SUMS.get(cache_key)
        if cached is None:
            if len(_BID_SUMS) > 256:
                _BID_SUMS.clear()
            cached = _BID_SUMS[cache_key] = (sum_dist(dists), {})
        sums, highs = cached
        best_i, best_ev = 0, -1e9
        for i, action in enumerate(legal):
            card = action.card  # type: ignore[union-attr]
            v, s = VALUES[card], card // 13
            key = (v, CLASSIC_SUIT_STRENGTH[s])
            high = highs.get(key)
            if high is None:
                high = highs[key] = sum_dist([below(d, *key) for d in dists])
            ea = self.tricks_atas(view, s, True)
            eb = self.tricks_bawah(view, s, True)
            ev = bid_value(v, sums, high, ea, eb, other_a, other_b)
            if ev > best_ev + 1e-9:
                best_i, best_ev = i, ev
        return best_i

    def tricks_atas(self, view: SeatView, trump: int | None, leads: bool) -> float:
        """Tricks this hand should take in atas: the per-card tables."""
        return expected_tricks(view.hand, trump, True, leads)

    def tricks_bawah(self, view: SeatView, trump: int | None, leads: bool) -> float:
        """Tricks this hand should take in bawah. The planner's rough reckoning: the
        plain count greedy bids by, less a fifth, since every seat ducks."""
        return 0.8 * count_tricks(view.hand, trump)

    def bid_dists(self, view: SeatView) -> list[Sequence[float]]:
        """How each of the other three seats may bid (value 0..10)."""
        return [BID_PRIOR, BID_PRIOR, BID_PRIOR]

    def declare(self, view: SeatView, legal: Sequence[Action]) -> Action | int:
        """The declaration with the best expected T6 score: how likely this hand is to
        hit each target, what a miss costs in the likely mode (T4), what target 0 earns
        (the highest target), and whether it makes trump (T3)."""
        sums, cdfs, emax = target_odds(self.target_dists(view))
        top = len(cdfs[0]) - 1
        lengths = suit_lengths(view.hand)
        weights = [13 - n for n in lengths]
        wsum = sum(weights)
        other_ea = sum(w * self.tricks_atas(view, s, False) for s, w in enumerate(weights)) / wsum
        other_ea += self.TARGET_SHIFT
        own_ea: dict[int | None, float] = {}
        cache: dict[tuple[int, int | None], float] = {}
        best_i, best_ev = 0, -1e9
        for i, action in enumerate(legal):
            assert isinstance(action, Declare)
            t = action.target
            trump = action.suit_for_trump
            ev = cache.get((t, trump))
            if ev is None:
                ea = own_ea.get(trump)
                if ea is None:
                    ea = self.tricks_atas(view, trump, True) + self.TARGET_SHIFT
                    own_ea[trump] = ea
                tie = 0.5 if trump is not None else 0.25  # T3: trump beats NO TRUF at a tie
                p_high = 1.0
                for cdf in cdfs:
                    under = cdf[min(t, top + 1) - 1] if t > 0 else 0.0
                    at = (cdf[t] if t <= top else 1.0) - under
                    p_high *= under + tie * at
                cut = 13 - t
                if cut < 0:
                    p_atas = 1.0
                else:
                    p_atas = sum(sums[cut + 1 :]) + 0.5 * (sums[cut] if cut < len(sums) else 0.0)
                ev = p_high * target_value(t, ea, p_atas, emax) + (1 - p_high) * target_value(
                    t, other_ea, p_atas, emax
                )
                cache[(t, trump)] = ev
            if ev > best_ev + 1e-9:
                best_i, best_ev = i, ev
        return best_i

    def target_dists(self, view: SeatView) -> list[Sequence[float]]:
        """How each of the other three seats may declare (target 0..19)."""
        return [TARGET_PRIOR, TARGET_PRIOR, TARGET_PRIOR]

    def choose_mode(self, view: SeatView, legal: Sequence[Action]) -> Action | int:
        """C5 at exactly 13: atas if this hand's tricks beat its bid by more in atas
        (tricks - bid - 1) than in bawah (bid - 1 - tricks)."""
        bids = view.bids or ()
        mine = bids[view.seat]
        trump = view.trump
        ea = self.tricks_atas(view, trump, True)
        eb = self.tricks_bawah(view, trump, True)
        if isinstance(mine, Declare):
            # T4/T6: over costs less in atas, under less in bawah.
            spread = target_spread(mine.target, ea)
            over = sum(p * d for d, p in enumerate(spread[5:], 1))
            under = sum(p * d for d, p in enumerate(reversed(spread[:4]), 1))
            atas = over >= under
        else:
            b = VALUES[mine.card]
            atas = ea - b - 1 >= b - 1 - eb
        want = Mode.ATAS if atas else Mode.BAWAH
        for i, action in enumerate(legal):
            if isinstance(action, ChooseMode) and action.mode is want:
                return i
        return 0

    # ------------------------------------------------------------------ play

    def play(self, view: SeatView, legal: Sequence[Action]) -> Action | int:
        cards = play_cards(legal)
        if len(cards) == 1:
            return 0
        know = self.knowledge(view)
        state = TrickState(view, view.trump)
        later = self.later_seats(view)
        if view.variant == "target":
            return self.play_target(view, cards, know, state, later)
        win = view.mode is Mode.ATAS  # C13: each trick is worth one point, either way
        return self.play_classic(cards, win, know, state, later)

    def play_classic(
        self,
        cards: list[Card],
        win: bool,
        know: Knowledge,
        state: TrickState,
        later: list[int],
    ) -> int:
        return argmax(self.classic_scores(cards, win, know, state, later))

    def classic_scores(
        self,
        cards: list[Card],
        win: bool,
        know: Knowledge,
        state: TrickState,
        later: list[int],
    ) -> list[float]:
        """How good each card is to play now (C13: every trick counts one, either way):
        in atas, its chance to take the trick less what keeping it is worth; in bawah,
        less its chance to take the trick, plus the danger shed by playing it."""
        trump = know.trump
        scores = []
        for c in cards:
            # Ties go to the cheaper card when winning, the more dangerous one when losing.
            cost = (c % 13 + 13 * (c // 13 == trump)) * 1e-4
            if win:
                score = (
                    self.p_win_atas(c, state, know, later)
                    - self.KEEP_ATAS * self.worth_atas(c, know)
                    - cost
                )
            else:
                score = (
                    -self.p_win_bawah(c, state, know, later)
                    + self.KEEP_BAWAH * self.danger(c, know)
                    + cost
                )
            scores.append(score)
        return scores

    def play_target(
        self,
        view: SeatView,
        cards: list[Card],
        know: Knowledge,
        state: TrickState,
        later: list[int],
    ) -> int:
        return argmax(self.target_scores(view, cards, know, state, later))

    def target_scores(
        self,
        view: SeatView,
        cards: list[Card],
        know: Knowledge,
        state: TrickState,
        later: list[int],
    ) -> list[float]:
        """T6 pays only an exact hit: take tricks while some are still needed, then duck.
        When the hand holds more winners than it needs, spend (or shed) its winners
        first rather than its small cards, so as not to be forced over later."""
        assert view.final_bids is not None
        trump = know.trump
        need = view.final_bids[view.seat] - view.tricks_won[view.seat]
        if need > 0:
            left = 13 - len(view.tricks)
            keep_all = sum(self.keep_atas(c, know) for c in view.hand)
            surplus = future_high(keep_all, left) - need
            alpha = self.KEEP_ATAS if surplus < self.SURPLUS else -self.SHED_ATAS
        scores = []
        for c in cards:
            cost = (c % 13 + 13 * (c // 13 == trump)) * 1e-4
            if need > 0:
                pw = self.p_win_target(view, c, state, know, later)
                score = pw - alpha * self.keep_atas(c, know) - cost
            else:
                pl = self.p_lose_target(view, c, state, know, later)
                score = -pl + self.KEEP_BAWAH * self.danger(c, know) + cost
            scores.append(score)
        return scores

    def p_win_target(
        self, view: SeatView, c: int, state: TrickState, know: Knowledge, later: list[int]
    ) -> float:
        """The chance ``c`` wins when this seat wants the trick: the planner expects every
        later seat to fight for it."""
        return self.p_win_atas(c, state, know, later)

    def p_lose_target(
        self, view: SeatView, c: int, state: TrickState, know: Knowledge, later: list[int]
    ) -> float:
        """The chance ``c`` wins when this seat wants to lose: the planner expects every
        later seat to duck."""
        return self.p_win_bawah(c, state, know, later)

    def later_seats(self, view: SeatView) -> list[int]:
        seat = view.seat
        n = 3 - len(view.trick)
        out = []
        for _ in range(n):
            seat = view.next_seat(seat)
            out.append(seat)
        return out

    def beats_now(self, c: int, state: TrickState, know: Knowledge) -> float:
        """Probability that ``c`` is winning the trick once played (hidden trumps are
        a random pick of the trumps that are out)."""
        if state.led is None:
            return 1.0
        trump = know.trump
        suit = c // 13
        if state.trumped:
            if suit != trump:
                return 0.0
            best = state.best
            if best is not None and c < best:
                return 0.0
            if state.hidden:
                trumps_out = know.unknown & SUIT_MASKS[suit]
                n = trumps_out.bit_count()
                if n:
                    lower = (trumps_out & BELOW[c]).bit_count()
                    return (lower / n) ** state.hidden
            return 1.0
        if suit == trump:
            return 1.0
        best = state.best
        return 1.0 if suit == state.led and (best is None or c > best) else 0.0

    def p_win_atas(self, c: int, state: TrickState, know: Knowledge, later: list[int]) -> float:
        p = self.beats_now(c, state, know)
        if p <= 0.0:
            return 0.0
        led = c // 13 if state.led is None else state.led
        return p * know.p_survive_atas(c, led, later)

    def p_win_bawah(self, c: int, state: TrickState, know: Knowledge, later: list[int]) -> float:
        p = self.beats_now(c, state, know)
        if p <= 0.0:
            return 0.0
        led = c // 13 if state.led is None else state.led
        return p * know.p_survive_bawah(c, led, later)

    def keep_atas(self, c: int, know: Knowledge) -> float:
        """What ``c`` is worth later when every seat tries to win: its chance as a lead."""
        suit = c // 13
        p = know.p_survive_atas(c, suit, know.others)
        if suit == know.trump:
            p = max(p, 0.3)
        return p

    def worth_atas(self, c: int, know: Knowledge) -> float:
        """What keeping ``c`` is worth in atas; the planner takes its chance as a lead."""
        return self.keep_atas(c, know)

    def danger(self, c: int, know: Knowledge) -> float:
        """How likely ``c`` is to win a trick later when every seat tries to lose."""
        return know.p_survive_bawah(c, c // 13, know.others)


PlannerBot = Bot

if __name__ == "__main__":
    from arena.sdk import main

    main(Bot)
