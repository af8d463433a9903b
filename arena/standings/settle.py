"""``--until-settled``: stop a tournament once its leaderboard's order is known, or known to
be level within a margin.

After each round (in a duplicate run, after each block's last rotation) the run's ratings
(``arena.standings.runratings.RunRatings``: every match rated once, in schedule order) give each
pair of neighbours on the leaderboard a verdict (``pair_verdict``), and the run stops when
every pair has one: "above" or "level within the margin". ``--rounds`` is the cap. A runner
asks ``stop_before(round)`` before it starts a table of a new round and feeds every
finished match to ``add`` (resumed ones too), so a resumed run stops where the
uninterrupted one would have.

The test is sequential and stays valid however often it is checked (issue 29: checking a
fixed 95% level after every round declared an order between identical bots in 13% of
runs). For each pair, with the gap's estimate x and its variance V (``Ratings.gap``: the
variance measured from the pair's own evidence), the log likelihood ratio of "the upper
one is better by the margin d" against "they are equal" is L = (d x - d^2 / 2) / V, the
Gaussian likelihood ratio of a Brownian motion with drift seen at information 1 / V.
Under "equal" exp(L) is a martingale, so by Ville's inequality L ever reaches log(1 /
alpha) with probability at most alpha, whenever and however often it is looked at; the
same holds for the other direction, so identical bots are put in an order with
probability at most 2 alpha. The pair is "above" once L >= log(1 / ALPHA). Under "better
by d" exp(-L) is a martingale too, so the pair is "level" once L <= log(BETA): a real gap
of d or more is called level with probability at most 2 BETA. The margin d is ``MARGIN``
times the spread of the pair's performance difference in a deal (``Ratings.gap_and_spread``):
the test needs about 2 log(1 / BETA) / MARGIN^2 deals shared by two equal bots to call
them level. This is Wald's SPRT with an indifference zone, as chess-engine testers use,
read as an anytime-valid test (the normal approximation of the deals aside).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from arena.standings.ratings import DEFAULT_PARAMS, RatingParams, Ratings
from arena.standings.runratings import RunRatings

ALPHA = 0.005  # per direction: identical bots ordered in at most 1% of runs
BETA = 0.05  # per direction: a gap of the margin or more called level at most 10%
MARGIN = 0.15  # the margin, in spreads of a pair's points difference in one deal

ABOVE = "above"
LEVEL = "level"
OPEN = "open"


class RoundPlan(Protocol):
    """What the watch needs of a ``TournamentPlan``."""

    rounds: int

    def settles_after(self, round_number: int) -> bool: ...

    def tables(self) -> Sequence[Any]: ...


def pair_verdict(gap: float, variance: float, margin: float) -> str:
    """The verdict on neighbours whose skill gap (upper less lower, so >= 0 on a sorted
    leaderboard) is estimated as ``gap`` with ``variance``, for the indifference margin
    ``margin`` (all in the same units): ABOVE, LEVEL or OPEN (see the module)."""
    if variance <= 0.0 or margin <= 0.0:
        return OPEN
    llr = (margin * abs(gap) - margin * margin / 2.0) / variance
    if llr >= math.log(1.0 / ALPHA):
        return ABOVE
    if llr <= math.log(BETA):
        return LEVEL
    return OPEN


def verdicts(ratings: Ratings, ranked: Sequence[str], margin: float | None = None) -> list[str]:
    """The verdict on each pair of neighbours of ``ranked`` (best first), for the margin
    ``margin`` in spreads of a deal's difference (None: ``MARGIN``)."""
    share = MARGIN if margin is None else margin
    out = []
    for a, b in zip(ranked, ranked[1:], strict=False):
        gap, variance, spread = ratings.gap_and_spread(a, b)
        out.append(pair_verdict(gap, variance, share * spread))
    return out


def settled(ratings: Ratings, ranked: Sequence[str], margin: float | None = None) -> bool:
    """Whether every pair of neighbours has a verdict (above, or level)."""
    return all(v != OPEN for v in verdicts(ratings, ranked, margin))


class UntilSettled:
    """Watches a run's finished matches and says when to stop."""

    def __init__(
        self,
        plan: RoundPlan,
        entrants: Sequence[str],
        params: RatingParams = DEFAULT_PARAMS,
        margin: float = MARGIN,
    ) -> None:
        self.plan = plan
        self.entrants = list(entrants)
        self.margin = margin  # --margin: level within this share of a deal's spread
        keys = [(t.round, t.table, t.match_id) for t in plan.tables()]
        self.run = RunRatings(keys, params)  # shared with the display and the leaderboard
        self.run.on_round_end.append(self._round_ended)
        self.stopped_after: int | None = None  # the round after which the order settled
        self.levels: list[tuple[str, str]] = []  # neighbours found level at the stop

    @property
    def ratings(self) -> Ratings:
        return self.run.ratings

    def add(self, record: Mapping[str, Any]) -> None:
        """A finished match (in any order)."""
        self.run.add(record)

    def _round_ended(self, round_number: int) -> None:
        if self.stopped_after is not None or not self.plan.settles_after(round_number):
            return
        ranked = self.ratings.ranked(self.entrants)
        found = verdicts(self.ratings, ranked, self.margin)
        if all(v != OPEN for v in found):
            self.stopped_after = round_number
            self.levels = [
                (a, b) for a, b, v in zip(ranked, ranked[1:], found, strict=False) if v == LEVEL
            ]

    def complete_before(self, round_number: int) -> bool:
        """Whether every match of the rounds before ``round_number`` has finished."""
        return self.run.rated_through() >= round_number - 1

    def stop_before(self, round_number: int) -> bool:
        """Whether to stop rather than start round ``round_number``: the order settled
        after an earlier round (every match of it finished, and it may end a run)."""
        return self.stopped_after is not None and round_number > self.stopped_after

    def is_settled(self) -> bool:
        return settled(self.ratings, self.ratings.ranked(self.entrants), self.margin)

    def verdict(self, played_rounds: int) -> str:
        """What the run says at its end: settled after R rounds, or the cap reached."""
        if self.stopped_after is not None:
            level = "; level within the margin: " + ", ".join(
                f"{a} and {b}" for a, b in self.levels
            ) if self.levels else ""
            return (
                f"stopped after {self.stopped_after} of {self.plan.rounds} rounds: the order "
                "is settled (each entrant above the next, or level with it within "
                f"{self.margin:g} of a deal's spread, by a sequential test wrong at most 1% of "
                f"the time){level}"
            )
        return f"reached the cap of {self.plan.rounds} rounds (--rounds) before the order settled"
