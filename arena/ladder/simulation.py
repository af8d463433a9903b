"""The matchmaker's policy measured without a network: a discrete-event simulation of
bots with declared capacities and speeds (``bench/ladder.py --simulate``, and the tests
of docs/ladder.md's promises).

A table lasts as long as its slowest bot needs (its ``pace``, seconds per match, times
a random factor of 0.8 to 1.2); everything else is the real ``Matchmaker``."""

from __future__ import annotations

import heapq
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from arena.ladder.matchmaker import NEWCOMER, Matchmaker
from arena.standings.ratings import Rating


@dataclass(frozen=True)
class SimBot:
    label: str
    capacity: int = 1
    pace: float = 1.0  # seconds per match when it is the slowest at its table
    skill: float = 25.0
    arrives: float = 0.0  # seconds into the run
    finished: int = 0  # matches it had finished before the run (a returning row)


@dataclass
class SimResult:
    seconds: float
    matches: int
    played: Counter[str] = field(default_factory=Counter)
    seats: dict[str, Counter[int]] = field(default_factory=dict)
    partners: Counter[tuple[str, str]] = field(default_factory=Counter)
    # per newcomer: the most matches any other bot started between its arrival and the
    # end of its NEWCOMER-th match
    newcomer_overtaken: dict[str, int] = field(default_factory=dict)
    matchmaker_seconds: float = 0.0  # wall time spent in Matchmaker.tables
    tables_formed: int = 0

    def rate(self, bot: SimBot) -> float:
        """Matches per minute while connected."""
        return 60.0 * self.played[bot.label] / max(1e-9, self.seconds - bot.arrives)


def simulate(
    bots: Sequence[SimBot],
    *,
    seconds: float,
    table_size: int = 4,
    teams: Sequence[Sequence[int]] | None = None,
    seed: int = 1,
) -> SimResult:
    rng = random.Random(seed)
    ratings = {b.label: Rating(b.skill, 25 / 3) for b in bots}
    mm = Matchmaker(table_size, teams, lambda label: ratings[label], seed=seed)
    by_label = {b.label: b for b in bots}
    arrivals = sorted(bots, key=lambda b: b.arrives)
    ends: list[tuple[float, int, list[str], float]] = []
    result = SimResult(seconds, 0)
    started: Counter[str] = Counter()
    watch: dict[str, dict[str, int]] = {}  # newcomer -> others' starts at its arrival
    now = 0.0
    n = 0
    while True:
        while arrivals and arrivals[0].arrives <= now:
            b = arrivals.pop(0)
            mm.join(b.label, b.capacity, b.finished)
            if b.finished < NEWCOMER:
                watch[b.label] = dict(started)
        clock = time.perf_counter()
        tables = mm.tables()
        result.matchmaker_seconds += time.perf_counter() - clock
        result.tables_formed += len(tables)
        for labels in tables:
            jitter = rng.uniform(0.8, 1.2)
            pace = max(by_label[x].pace for x in labels) * jitter
            n += 1
            heapq.heappush(ends, (now + pace, n, labels, jitter))
            started.update(labels)
            for s, x in enumerate(labels):
                result.seats.setdefault(x, Counter())[s] += 1
            for team in teams or ():
                for i in team:
                    for j in team:
                        if i < j:
                            one, two = sorted((labels[i], labels[j]))
                            result.partners[one, two] += 1
        upcoming = [ends[0][0]] if ends else []
        if arrivals:
            upcoming.append(arrivals[0].arrives)
        if not upcoming or min(upcoming) > seconds:
            break
        now = min(upcoming)
        if ends and ends[0][0] <= now:
            _, _, labels, jitter = heapq.heappop(ends)
            # each seat's own share of the time: its pace, over the seats (a sequential game)
            own = [by_label[x].pace * jitter / len(labels) for x in labels]
            mm.finished(labels, own, [False] * len(labels))
            result.played.update(labels)
            result.matches += 1
            for newcomer, base in list(watch.items()):
                if result.played[newcomer] + by_label[newcomer].finished >= NEWCOMER:
                    result.newcomer_overtaken[newcomer] = max(
                        (started[x] - base.get(x, 0) for x in started if x != newcomer),
                        default=0,
                    )
                    del watch[newcomer]
    return result


def spread(result: SimResult, bots: Sequence[SimBot]) -> tuple[float, float, float]:
    """(median rate, lowest / median, highest / median) of matches per minute."""
    rates = [result.rate(b) for b in bots]
    median = statistics.median(rates)
    return median, min(rates) / median, max(rates) / median
