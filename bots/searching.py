"""What the search bots of every game share: the options, the time budget, the seeded
randomness and the statistics of a sampling loop.

A search bot (``bots.pimc`` for Truf, ``bots.truco.pimc``, ``bots.ruff.pimc``) decides by
drawing worlds (the hidden cards, uniformly among those its view allows), scoring each
candidate action in each world, and taking the best mean. Only the drawing and the
scoring are the game's; this module holds the rest once:

* ``SearchOptions``: ``budget`` (seconds per decision, default 0.05; no world is begun
  that the budget cannot fit) or ``samples`` (a fixed number of worlds per decision, so
  that play repeats exactly), checked once.
* ``decision_rng``: a ``random.Random`` that depends only on the bot's seed and the
  position, never on the order in which decisions were asked.
* ``Tally``: per-candidate sums of values, with means and standard errors; ``clear_gain``:
  whether a gain over a default candidate is worth leaving it for.
* ``search``: the loop itself (draw a world, score every candidate in it) under the budget.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

MAX_BUDGET = 30.0  # seconds: anything longer is a typo, not a stronger bot
DEFAULT_BUDGET = 0.05  # the limit: 50 ms a decision


@dataclass(frozen=True)
class SearchOptions:
    """How long a search bot thinks: ``samples`` worlds per decision when more than 0,
    else as many as ``budget`` seconds allow (at least one)."""

    budget: float = DEFAULT_BUDGET
    samples: int = 0

    def __post_init__(self) -> None:
        if not 0 < self.budget <= MAX_BUDGET:
            raise ValueError(f"budget must be more than 0 and at most {MAX_BUDGET} seconds")
        if self.samples < 0:
            raise ValueError("samples must be 0 (use the budget) or more")

    def more(
        self, started: float | None = None, clock: Callable[[], float] | None = None
    ) -> Callable[[int], bool]:
        """Whether to begin one more world, given how many were looked at: with
        ``samples``, until that many; on the budget (from ``started``, read off ``clock``,
        ``time.perf_counter`` by default), the first always, then only if one more, taking
        the mean time a world has taken so far (the setup counted in), still ends within
        the budget. So a decision overruns its budget only when its first world alone
        does, never by the last world begun."""
        if self.samples:
            samples = self.samples
            return lambda done: done < samples

        def now() -> float:
            return (clock or time.perf_counter)()

        start = now() if started is None else started
        deadline = start + self.budget

        def more(done: int) -> bool:
            if not done:
                return True
            t = now()
            return t + (t - start) / done <= deadline

        return more


def decision_rng(seed: int | str, *position: object) -> random.Random:
    """A generator that depends on the bot's seed and the position only (its choices
    repeat whatever ran before them)."""
    return random.Random(":".join(str(p) for p in (seed, *position)))


class Tally:
    """Sums of the values each candidate scored, one value per world."""

    __slots__ = ("n", "weight", "sums", "squares")

    def __init__(self, candidates: int) -> None:
        self.n = 0
        self.weight = 0.0
        self.sums = [0.0] * candidates
        self.squares = [0.0] * candidates

    def add(self, values: Sequence[float], weight: float = 1.0) -> None:
        """One world's value for every candidate, in order, and the world's weight (a
        bot may weigh its worlds by how likely each makes what the others did)."""
        self.n += 1
        self.weight += weight
        sums, squares = self.sums, self.squares
        for i, v in enumerate(values):
            sums[i] += weight * v
            squares[i] += weight * v * v

    def mean(self, i: int) -> float:
        return self.sums[i] / self.weight if self.weight else 0.0

    def stderr(self, i: int) -> float:
        """The standard error of candidate ``i``'s mean, counting worlds as if equally
        weighted (0 with fewer than two worlds)."""
        n = self.n
        if n < 2 or not self.weight:
            return 0.0
        mean = self.sums[i] / self.weight
        var = max(0.0, self.squares[i] / self.weight - mean * mean) * n / (n - 1)
        return math.sqrt(var / n)

    def best(self) -> int:
        """The candidate with the best mean; ties go to the first (legal lists are sorted,
        so the cheapest card or the quietest call)."""
        sums = self.sums
        return max(range(len(sums)), key=sums.__getitem__)


def clear_gain(gain: float, error: float, margin: float, z: float) -> bool:
    """Whether a candidate's mean gain over the default (paired over the same worlds) is
    worth leaving the default for: at least ``margin`` points and ``z`` standard errors.
    A search that switches on every small difference plays its own noise."""
    return gain >= margin and gain >= z * error


def search(
    candidates: int,
    draw: Callable[[random.Random], object],
    score: Callable[[object, random.Random], Sequence[float]],
    rng: random.Random,
    more: Callable[[int], bool],
    weigh: Callable[[object], float] | None = None,
) -> Tally:
    """The sampling loop: while ``more(worlds so far)``, draw a world and score every
    candidate in it (``score`` returns one value per candidate), weighed by
    ``weigh(world)`` when given. A ``draw`` that raises TimeoutError ends the loop (the
    tally may then hold no world: ``Tally.n``)."""
    tally = Tally(candidates)
    while more(tally.n):
        try:
            world = draw(rng)
        except TimeoutError:
            break
        tally.add(score(world, rng), 1.0 if weigh is None else weigh(world))
    return tally
