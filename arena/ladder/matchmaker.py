"""Which connected, idle bots sit down together next (docs/ladder.md, "Matchmaking").

Transport-free and clock-free: the service tells it who joined, left, started and
finished, and asks it for the tables to start now. The policy, in order of precedence:

1. **Capacity.** A bot sits at no more tables at once than the capacity its Hello
   declared.
2. **New entrants first.** A rating row with fewer than ``NEWCOMER`` finished matches is
   seated before anyone else, and while it is connected no other bot starts its 21st
   match since the newcomer arrived before the newcomer has finished its 20th (unless
   the newcomer is *slow*, below: a slow bot never holds anyone up).
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

A bot is *slow* when its recent matches took more than ``SLOW_FACTOR`` times the
median match's time, or it faulted in its last match: its tables wait on it, no one else's.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from arena.ratings import DEFAULT_PARAMS, Rating

NEWCOMER = 20  # matches a new rating row plays before anyone else's 21st
WINDOW = 2  # matches a bot may be ahead of the median before it waits
POOL = 3  # candidates per seat considered for match quality
SLOW_FACTOR = 3.0
RECENT = 5  # matches whose durations say whether a bot is slow


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
    # newcomer hold: each other bot's clock when this newcomer arrived
    hold: dict[str, int] | None = None

    @property
    def newcomer(self) -> bool:
        return self.finished < NEWCOMER


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
        self.match_seconds: deque[float] = deque(maxlen=200)  # recent matches' durations

    # ------------------------------------------------------------------ events

    def join(self, label: str, capacity: int, finished: int) -> None:
        clocks = [b.clock for b in self.bots.values()]
        bot = Bot(label, max(1, capacity), finished)
        bot.clock = int(statistics.median(clocks)) if clocks else 0
        if bot.newcomer:
            bot.hold = {b.label: b.clock for b in self.bots.values()}
        self.bots[label] = bot

    def leave(self, label: str) -> None:
        self.bots.pop(label, None)

    def started(self, labels: Sequence[str]) -> None:
        for label in labels:
            bot = self.bots.get(label)
            if bot is not None:
                bot.busy += 1
                bot.clock += 1

    def finished(self, labels: Sequence[str], seconds: float, faulted: Sequence[bool]) -> None:
        self.match_seconds.append(seconds)
        for label, fault in zip(labels, faulted, strict=True):
            bot = self.bots.get(label)
            if bot is None:
                continue
            bot.busy = max(0, bot.busy - 1)
            bot.finished += 1
            bot.faulted = fault
            bot.durations.append(seconds)
            if not bot.newcomer:
                bot.hold = None

    # ------------------------------------------------------------------ policy

    def typical(self) -> float:
        """The median recent match's seconds (infinite until ten have finished)."""
        if len(self.match_seconds) < 10:
            return math.inf
        return statistics.median(self.match_seconds)

    def slow(self, bot: Bot, typical: float | None = None) -> bool:
        if bot.faulted:
            return True
        if len(bot.durations) < 2:
            return False
        typical = self.typical() if typical is None else typical
        return statistics.median(bot.durations) > SLOW_FACTOR * typical

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

    def tables(self) -> list[list[str]]:
        """The tables to start now, each a list of labels in seat order (``started`` is
        applied to them already).

        A table's *anchor* is the first bot in priority order (newcomers, then the lowest
        clocks) that may anchor: a newcomer, or a bot under the window and not held by a
        newcomer. The other seats are filled from the bots after it in that order, so a
        bot over the window or held plays only where too few others are free (a held bot
        only at a newcomer's table): the limits shape who plays first, and never leave a
        free table unplayed."""
        typical = self.typical()
        slow = {label for label, b in self.bots.items() if self.slow(b, typical)}
        steady = [b.clock for b in self.bots.values() if b.label not in slow and not b.newcomer]
        steady = steady or [b.clock for b in self.bots.values()]
        if not steady:
            return []
        limit = statistics.median(steady) + WINDOW
        holds = [b for b in self.bots.values() if b.hold is not None and b.label not in slow]
        candidates = [b for b in self.bots.values() if b.busy < b.capacity]
        held = {b.label for b in candidates if not b.newcomer and holds and self._held(b, holds)}
        self.rng.shuffle(candidates)  # ties broken at random

        def order(b: Bot) -> tuple[bool, int]:
            return (not b.newcomer, b.clock)

        candidates.sort(key=order)
        tried: set[str] = set()
        out = []
        while len(candidates) >= self.table_size:
            anchor = next(
                (
                    b
                    for b in candidates
                    if b.label not in tried
                    and (b.newcomer or (b.clock < limit and b.label not in held))
                ),
                None,
            )
            if anchor is None:
                break
            tried.add(anchor.label)
            others = [
                b
                for b in candidates
                if b is not anchor and (anchor.newcomer or b.label not in held)
            ]
            if len(others) < self.table_size - 1:
                continue
            chosen = [anchor]
            pool = others[: POOL * self.table_size]
            while len(chosen) < self.table_size:
                best = max(pool, key=lambda c: self._quality(chosen, c))
                pool.remove(best)
                chosen.append(best)
            seated = self._seat([b.label for b in chosen])
            self.started(seated)
            self._count_seats(seated)
            out.append(seated)
            candidates = [b for b in candidates if b.busy < b.capacity]
            candidates.sort(key=order)
        return out

    def _quality(self, chosen: Sequence[Bot], candidate: Bot) -> float:
        """How close a table with ``candidate`` added is: the mean over its new pairs of
        TrueSkill's 1-on-1 match quality."""
        beta2 = 2 * DEFAULT_PARAMS.beta**2
        c = self.rating(candidate.label)
        total = 0.0
        for other in chosen:
            o = self.rating(other.label)
            spread = beta2 + c.sigma**2 + o.sigma**2
            total += math.sqrt(beta2 / spread) * math.exp(-((c.mu - o.mu) ** 2) / (2 * spread))
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
        if self.teams:
            for team in self.teams:
                for a, b in itertools.combinations(team, 2):
                    key = _pair(seated[a], seated[b])
                    self.partner_counts[key] = self.partner_counts.get(key, 0) + 1


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)
