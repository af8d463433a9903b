"""Which connected, idle bots sit down together next (docs/ladder.md, "Matchmaking").

Transport-free and clock-free: the service tells it who joined, left, started and
finished, and asks it for the tables to start now. The policy, in order of precedence:

1. **Capacity.** A bot sits at no more tables at once than the capacity its Hello
   declared.
2. **New entrants first.** A rating row with fewer than ``NEWCOMER`` finished matches is
   seated before anyone else, and while it is connected no other bot starts its 21st
   match since the newcomer arrived before the newcomer has finished its 20th (unless
   the newcomer is *slow*, below: a slow bot never holds anyone up). Other tables wait
   while they would leave too little room for the newcomer's remaining tables
   (``_leaves_room``).
3. **Equal rates.** Each bot has a fairness clock, the matches it started since it
   connected (a bot that comes back resumes at the median, so leaving earns no burst);
   the lowest clocks are seated first, and a bot more than ``WINDOW`` matches ahead of
   the median of the bots that are not slow waits. So a bot declaring capacity 16 does
   not play sixteen times as often as one declaring 1.
4. **Informative tables.** The first bot in that order anchors the table; the others
   are chosen from the next ``POOL`` candidates to maximise TrueSkill's match quality
   (the chance of a draw between each pair, given their ratings): the tables whose
   result is least certain teach the ratings the most.
5. **Balanced seats and partners.** The chosen bots are seated in the permutation whose
   seats they have held least, and whose partners they have had least.

A bot is *slow* when the time it spent answering in its recent matches is more than
``SLOW_FACTOR`` times the median seat's, or it faulted in its last match. It holds no
one back: it is not counted in the median, its hold as a newcomer lapses, it anchors a
table only after the steady bots, and only bots ahead of their share sit with it.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from arena.standings.ratings import DEFAULT_PARAMS, Rating

NEWCOMER = 20  # matches a new rating row plays before anyone else's 21st
WINDOW = 2  # matches a bot may be ahead of the median before it waits
POOL = 3  # candidates per seat considered for match quality
SLOW_FACTOR = 3.0
RECENT = 5  # matches whose answering times say whether a bot is slow
MEDIAN_EVERY = 32  # looks between two computations of the median clock in a large field
RESORT_BELOW = 256  # free bots up to which the priority order is kept exact per table
SLOW_FLOOR = 0.05  # seconds a match: below this, no bot is called slow (timer noise)


@dataclass
class Bot:
    """A connected rating row as the matchmaker sees it."""

    label: str
    capacity: int
    finished: int  # matches this rating row has finished, ever (the database's count)
    clock: int = 0  # matches started since it connected, plus its start offset
    busy: int = 0
    faulted: bool = False  # in its last match
    durations: deque[float] = field(default_factory=lambda: deque(maxlen=RECENT))
    own: float = 0.0  # the median of ``durations`` (kept, not recomputed per look)
    # newcomer hold: each other bot's clock when this newcomer arrived
    hold: dict[str, int] | None = None

    newcomer: bool = True  # fewer than NEWCOMER matches finished (kept by Matchmaker)

    def __post_init__(self) -> None:
        self.newcomer = self.finished < NEWCOMER


class Matchmaker:
    def __init__(
        self,
        table_size: int,
        teams: Sequence[Sequence[int]] | None,
        rating: Callable[[str], Rating],
        *,
        seed: int | None = None,
    ) -> None:
        self.table_size = table_size
        self.teams = [tuple(t) for t in teams] if teams else None
        self.rating = rating
        self.rng = random.Random(seed)
        self.bots: dict[str, Bot] = {}
        self.seat_counts: dict[str, list[int]] = {}
        self.partner_counts: dict[tuple[str, str], int] = {}
        self.met: dict[tuple[str, str], int] = {}  # matches each pair has played together
        self.meetings = 0  # their sum
        self.thinking: deque[float] = deque(maxlen=1000)  # recent seats' answering times
        self._typical: float | None = None
        self._since_typical = 0
        self._slow: set[str] = set()  # labels of the slow bots, kept as matches end
        self._holding: set[str] = set()  # labels of the newcomers whose hold is on
        self._free: dict[str, Bot] = {}  # the bots with a table to spare
        self._seated = 0  # the connected bots' seats in play, summed
        self._median = 0.0  # the steady bots' median clock, as last computed
        self._median_due = 0  # looks until it is computed again

    # ------------------------------------------------------------------ events

    def join(self, label: str, capacity: int, finished: int, busy: int = 0) -> None:
        """A rating row's bot connected; ``busy``: tables it still plays from before."""
        clocks = [b.clock for b in self.bots.values()]
        bot = Bot(label, max(1, capacity), finished, busy=busy)
        bot.clock = int(statistics.median(clocks)) if clocks else 0
        if bot.newcomer:
            bot.hold = {b.label: b.clock for b in self.bots.values()}
            self._holding.add(label)
        self.bots[label] = bot
        self._seated += bot.busy
        self._update_free(bot)
        self._median_due = 0

    def leave(self, label: str) -> None:
        gone = self.bots.pop(label, None)
        if gone is not None:
            self._seated -= gone.busy
        self._free.pop(label, None)
        self._slow.discard(label)
        self._holding.discard(label)
        self._median_due = 0

    def _update_free(self, bot: Bot) -> None:
        """Keep ``self._free`` (the bots with a table to spare) current for ``bot``."""
        if bot.busy < bot.capacity and bot.label in self.bots:
            self._free[bot.label] = bot
        else:
            self._free.pop(bot.label, None)

    def started(self, labels: Sequence[str]) -> None:
        for label in labels:
            bot = self.bots.get(label)
            if bot is not None:
                bot.busy += 1
                bot.clock += 1
                self._seated += 1
                self._update_free(bot)

    def abandoned(self, labels: Sequence[str]) -> None:
        """A match ended without a result (never recorded): its seats are free again."""
        for label in labels:
            bot = self.bots.get(label)
            if bot is not None and bot.busy:
                bot.busy -= 1
                self._seated -= 1
                self._update_free(bot)

    def finished(
        self, labels: Sequence[str], thinking: Sequence[float], faulted: Sequence[bool]
    ) -> None:
        """A match ended; ``thinking``: each seat's own seconds spent answering in it
        (what says a bot is slow: a table's length is its slowest seat's doing)."""
        self._since_typical += 1
        for label, own, fault in zip(labels, thinking, faulted, strict=True):
            self.thinking.append(own)
            bot = self.bots.get(label)
            if bot is None:
                continue
            if bot.busy:
                bot.busy -= 1
                self._seated -= 1
            self._update_free(bot)
            bot.finished += 1
            bot.newcomer = bot.finished < NEWCOMER
            bot.faulted = fault
            bot.durations.append(own)
            bot.own = statistics.median(bot.durations)
            if not bot.newcomer:
                bot.hold = None
                self._holding.discard(label)
            self._judge(bot)

    # ------------------------------------------------------------------ policy

    def typical(self) -> float:
        """The median seat's answering seconds in a recent match (infinite until ten)."""
        if len(self.thinking) < 10:
            return math.inf
        if self._typical is None or self._since_typical >= 100:  # a median of 1,000 is dear
            self._typical = max(statistics.median(self.thinking), SLOW_FLOOR)
            self._since_typical = 0
            for bot in self.bots.values():  # the yardstick moved: judge everyone again
                self._judge(bot)
        return self._typical

    def _judge(self, bot: Bot) -> None:
        """Keep ``self._slow`` (the labels of the slow bots) current for ``bot``."""
        if self.slow(bot, self._typical if self._typical is not None else math.inf):
            self._slow.add(bot.label)
        else:
            self._slow.discard(bot.label)

    def slow(self, bot: Bot, typical: float | None = None) -> bool:
        if bot.faulted:
            return True
        if len(bot.durations) < 2:
            return False
        typical = self.typical() if typical is None else typical
        return bot.own > SLOW_FACTOR * typical

    def _held(self, bot: Bot, holds: Sequence[Bot]) -> bool:
        """Whether a newcomer's hold keeps ``bot`` from starting a match now."""
        for newcomer in holds:
            if newcomer is bot:
                continue
            assert newcomer.hold is not None
            base = newcomer.hold.setdefault(bot.label, bot.clock)
            if bot.clock - base >= NEWCOMER:
                return True
        return False

    def _overshoot(self, bot: Bot, holds: Sequence[Bot]) -> int:
        """How many matches past a newcomer's hold ``bot`` has started (0: within it)."""
        worst = 0
        for newcomer in holds:
            if newcomer is not bot and newcomer.hold is not None:
                base = newcomer.hold.setdefault(bot.label, bot.clock)
                worst = max(worst, bot.clock - base - NEWCOMER + 1)
        return worst

    def _room(self, bot: Bot, newcomer: Bot) -> int:
        """The matches ``bot`` may start before its 21st since ``newcomer`` came."""
        assert newcomer.hold is not None
        return NEWCOMER - (bot.clock - newcomer.hold.setdefault(bot.label, bot.clock))

    def _leaves_room(self, chosen: Sequence[Bot], holds: Sequence[Bot]) -> bool:
        """Whether a table of ``chosen`` still lets every
        holding newcomer play the matches it lacks of its first ``NEWCOMER`` without any
        other bot starting its 21st since the newcomer came. A newcomer that lacks R
        matches needs R tables of ``table_size - 1`` other bots, each at most once a
        table: they fit when the others' room (matches left before their 21st, R at most;
        a newcomer's is R) sums to ``(table_size - 1) * R``, the same count as the
        referee's tables_at_once."""
        seated = {b.label for b in chosen}
        for newcomer in holds:
            assert newcomer.hold is not None
            lacks = max(0, NEWCOMER - newcomer.finished - newcomer.busy)
            lacks = max(0, lacks - (newcomer.label in seated))  # this table is one of them
            room = 0
            for bot in self.bots.values():
                if bot is newcomer:
                    continue
                if bot.newcomer:
                    room += lacks
                    continue
                base = newcomer.hold.setdefault(bot.label, bot.clock)
                left = NEWCOMER - (bot.clock - base) - (bot.label in seated)
                if left < 0 and bot.label in seated:
                    return False  # it would start its 21st before the newcomer's 20th
                room += min(max(0, left), lacks)
            if room < (self.table_size - 1) * lacks:
                return False
        return True

    def tables(self) -> list[list[str]]:
        """The tables to start now, each a list of labels in seat order (``started`` is
        applied to them already). When the limits leave every free bot waiting and no
        match is in play (so no end would ever lift them), they are lifted for this call."""
        self.typical()  # brings self._slow up to date when its yardstick is due
        slow = self._slow
        out = self._form(slow, relaxed=False)
        if not out and self._seated == 0:  # nothing in play
            out = self._form(slow, relaxed=True)
        return out

    def _form(self, slow: set[str], *, relaxed: bool) -> list[list[str]]:
        """A bot may sit down while it has capacity free and its clock is under the
        median clock of the bots that keep up (not slow, not newcomers) plus ``WINDOW``
        (newcomers always may), and, while a newcomer holds, only at that newcomer's table
        once it has started ``NEWCOMER`` matches since the newcomer came. The first free
        bot in priority order (steady before slow, newcomers first, lowest clock) anchors
        a table; its other seats are filled from the free bots after it in that order,
        by match quality, except that a slow bot's table is filled from the bots most
        ahead of their share, who can best afford the wait."""
        bots = self.bots.values()
        if not bots:
            return []
        if self._median_due <= 0:
            # O(n log n): in a large field computed every MEDIAN_EVERY looks (clocks move
            # by one a table; a median a few tables old moves the window by a fraction)
            steady = [b.clock for b in bots if not b.newcomer and b.label not in slow]
            self._median = statistics.median(steady or [b.clock for b in bots])
            self._median_due = MEDIAN_EVERY if len(self.bots) > RESORT_BELOW else 0
        self._median_due -= 1
        median = self._median
        limit = median + WINDOW
        holds = [] if relaxed else [self.bots[x] for x in self._holding if x not in slow]
        candidates = [b for b in self._free.values() if relaxed or b.newcomer or b.clock < limit]
        held = {b.label for b in candidates if not b.newcomer and holds and self._held(b, holds)}
        self.rng.shuffle(candidates)  # ties broken at random

        def order(b: Bot) -> tuple[bool, bool, int]:
            return (b.label in slow, not b.newcomer, b.clock)

        candidates.sort(key=order)
        tried: set[str] = set()
        out = []
        while len(candidates) >= self.table_size:
            anchor = next(
                (
                    b
                    for b in candidates
                    if b.label not in tried and (b.newcomer or b.label not in held)
                ),
                None,
            )
            if anchor is None:
                break
            tried.add(anchor.label)
            want = POOL * self.table_size
            if anchor.label in slow or (anchor.newcomer and holds):
                others = [
                    b
                    for b in candidates
                    if b is not anchor and (anchor.newcomer or b.label not in held)
                ]
                if anchor.label in slow:
                    # The bots most ahead of their share wait on a slow bot.
                    others.sort(key=lambda b: (b.label in slow, -b.clock))
                else:
                    # At a newcomer's table, the bots least past their hold first.
                    # At a newcomer's table, the bots least past their hold first, and
                    # among those the ones with most room left: taking those keeps room
                    # for the rest of its first matches (see _leaves_room).
                    def room_first(
                        b: Bot, new: Bot = anchor
                    ) -> tuple[int, int, tuple[bool, bool, int]]:
                        room = self._room(b, new) if new.hold is not None else 0
                        return (self._overshoot(b, holds), -room, order(b))

                    others.sort(key=room_first)
                    if anchor.hold is not None and self._leaves_room([], [anchor]):
                        # The others still have room for all it lacks: it waits for
                        # bots with room to come free rather than overshoot a hold.
                        others = [b for b in others if self._overshoot(b, holds) == 0]
            else:  # the common case: the first few in order will do, no full pass
                others = []
                for b in candidates:
                    if b is not anchor and b.label not in held:
                        others.append(b)
                        if len(others) >= want:
                            break
                fast = [b for b in others if b.label not in slow]
                if len(fast) >= self.table_size - 1:
                    others = fast  # a slow bot joins only where no steady one is free
            if len(others) < self.table_size - 1:
                continue
            chosen = [anchor]
            pool = others[:want]
            while len(chosen) < self.table_size:
                best = max(pool, key=lambda c: self._quality(chosen, c))
                pool.remove(best)
                chosen.append(best)
            if holds and not self._leaves_room(chosen, holds):
                if not (anchor.newcomer and anchor.hold is not None):
                    continue  # it would take seats a newcomer's first matches need
                # A newcomer's own table: the bots with most room, if that keeps room.
                fallback = [anchor, *others[: self.table_size - 1]]
                if self._leaves_room(fallback, holds):
                    chosen = fallback
            seated = self._seat([b.label for b in chosen])
            self.started(seated)
            self._count_seats(seated)
            out.append(seated)
            # Who can sit no more leaves the list. The rest move back by their clock
            # tick; in a large field that moves them by a place or so, not worth a sort
            # per table (bench/ladder.py --simulate: 1,000 bots).
            for b in chosen:
                if b.busy >= b.capacity or not (relaxed or b.newcomer or b.clock < limit):
                    candidates.remove(b)
                elif holds and not b.newcomer and self._held(b, holds):
                    held.add(b.label)
            if len(candidates) <= RESORT_BELOW:
                candidates.sort(key=order)
        return out

    def _quality(self, chosen: Sequence[Bot], candidate: Bot) -> float:
        """How much a table with ``candidate`` added teaches: the mean over its new pairs of
        TrueSkill's 1-on-1 match quality, each divided by how much more often than the
        average pair the two have already met (so that the same few do not meet forever,
        and partners rotate)."""
        beta2 = 2 * DEFAULT_PARAMS.beta**2
        c = self.rating(candidate.label)
        average = self.meetings / max(1, len(self.met))
        total = 0.0
        for other in chosen:
            o = self.rating(other.label)
            spread = beta2 + c.sigma**2 + o.sigma**2
            quality = math.sqrt(beta2 / spread) * math.exp(-((c.mu - o.mu) ** 2) / (2 * spread))
            met = self.met.get(_pair(candidate.label, other.label), 0)
            total += quality / (1.0 + max(0.0, met - average) / (1.0 + average))
        return total / len(chosen)

    def _seat(self, labels: Sequence[str]) -> list[str]:
        """The seating of ``labels`` whose seats and partners are least used so far."""
        best: list[tuple[str, ...]] = []
        best_cost = math.inf
        for order in itertools.permutations(labels):
            cost = sum(self.seat_counts.get(label, [0] * self.table_size)[s]
                       for s, label in enumerate(order))  # fmt: skip
            if self.teams:
                for team in self.teams:
                    for a, b in itertools.combinations(team, 2):
                        cost += self.partner_counts.get(_pair(order[a], order[b]), 0)
            if cost < best_cost:
                best, best_cost = [order], cost
            elif cost == best_cost:
                best.append(order)
        return list(self.rng.choice(best))

    def _count_seats(self, seated: Sequence[str]) -> None:
        for s, label in enumerate(seated):
            self.seat_counts.setdefault(label, [0] * self.table_size)[s] += 1
        for one, two in itertools.combinations(seated, 2):
            key = _pair(one, two)
            self.met[key] = self.met.get(key, 0) + 1
            self.meetings += 1
        if self.teams:
            for team in self.teams:
                for a, b in itertools.combinations(team, 2):
                    key = _pair(seated[a], seated[b])
                    self.partner_counts[key] = self.partner_counts.get(key, 0) + 1


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)
