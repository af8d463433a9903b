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
read as an anytime-valid test (the normal approximation of the deals aside); Fishtest, the
Stockfish testing framework, stops its engine tests the same way (a sequential probability
ratio test between two bounds, with the variance measured from the games themselves).

Neighbours that are the same bot under two names (a repeated name: ``shrewd#1``,
``shrewd#2``, the same spec and options) get the verdict SAME, level, without a test: their
skills are equal by construction, and showing that a gap is exactly zero would take every
deal there is (the default Truco and Ruff fields hold such twins, and at the default
margin the test needed 150 to 350 rounds to call them level, issue 29). Their order on
the board is the luck of the draw, and the run says so. A bot whose play depends on its
seed beyond the luck of its draws (a strategy fixed once from the seed) is not the same
bot twice: give its twins different options to have them tested. In a field that holds
twins, every other pair of neighbours is tested as its two bots (``verdicts``' ``pooled``,
``arena.standings.ratings.BotEvidence``): from every deal of all of each bot's entrants,
each bot one skill, the same test on the evidence the deals hold about the bots (a board
pair of single entrants had about half of it; docs/results.md measures the default fields'
stops). A board pair that shows the lower bot on top stays open until the board agrees,
and a pair with an entrant that offended (disqualified or forfeited: its estimate carries a
penalty the points do not hold) is tested as its two entrants.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from arena.standings.ratings import DEFAULT_PARAMS, BotEvidence, RatingParams, Ratings
from arena.standings.runratings import RunRatings

# per direction: identical bots ordered in at most 0.5% of runs in theory; bench/ratings.py
# measured 1.3% of 400 runs in target at 0.005 (the variance is estimated, the deals are
# not exactly normal), so the bound is kept at half the 1% that is promised
ALPHA = 0.0025
BETA = 0.05  # per direction: a gap of the margin or more called level at most 10%
MARGIN = 0.15  # the margin, in spreads of a pair's points difference in one deal
# --until-settled's cap when --rounds is not given. The test needs the evidence it needs:
# a pair whose gap sits near half the margin, seen only through partnerships, can need
# over 300 rounds (bench/ratings.py --tables fields: the default fields' stops, in
# docs/results.md), so the fixed-length default of 100 rounds would leave such a field
# open every time; the cap is a guard, not a length to expect (issue 29)
SETTLE_CAP = 500

ABOVE = "above"
LEVEL = "level"
SAME = "same"  # the same bot (one spec) under two names: level by construction
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


def verdicts(
    ratings: Ratings,
    ranked: Sequence[str],
    margin: float | None = None,
    bots: Mapping[str, str] | None = None,
    pooled: BotEvidence | None = None,
) -> list[str]:
    """The verdict on each pair of neighbours of ``ranked`` (best first), for the margin
    ``margin`` in spreads of a deal's difference (None: ``MARGIN``). ``bots``: each
    entrant's bot (its spec, options included); neighbours that are the same bot
    (``shrewd#1``, ``shrewd#2``) are SAME, level without a test: their skills are equal
    by construction, and no finite number of deals could show a gap of exactly zero.
    ``pooled``: the run's evidence with each bot's entrants as one skill
    (``BotEvidence``); neighbours of two different bots are then tested as those bots,
    and a pair the board orders against the test's finding (the lower bot shown above)
    stays open until the board agrees."""
    share = MARGIN if margin is None else margin
    out = []
    for a, b in zip(ranked, ranked[1:], strict=False):
        if bots is not None and a in bots and bots.get(a) == bots.get(b):
            out.append(SAME)
            continue
        found = None
        # an entrant that offended is placed by its penalty, which the bots' evidence of
        # points does not hold: its pair is tested as entrants, as the board orders them
        clean = not (ratings.offended(a) or ratings.offended(b))
        if pooled is not None and bots is not None and a in bots and b in bots and clean:
            found = pooled.gap_and_spread(bots[a], bots[b])
        if found is None:
            gap, variance, spread = ratings.gap_and_spread(a, b)
            out.append(pair_verdict(gap, variance, share * spread))
            continue
        gap, variance, spread = found
        verdict = pair_verdict(gap, variance, share * spread)
        out.append(OPEN if verdict == ABOVE and gap < 0.0 else verdict)
    return out


def settled(
    ratings: Ratings,
    ranked: Sequence[str],
    margin: float | None = None,
    bots: Mapping[str, str] | None = None,
    pooled: BotEvidence | None = None,
) -> bool:
    """Whether every pair of neighbours has a verdict (above, level, or the same bot)."""
    return all(v != OPEN for v in verdicts(ratings, ranked, margin, bots, pooled))


class UntilSettled:
    """Watches a run's finished matches and says when to stop."""

    def __init__(
        self,
        plan: RoundPlan,
        entrants: Sequence[str],
        params: RatingParams = DEFAULT_PARAMS,
        margin: float = MARGIN,
        bots: Mapping[str, str] | None = None,
    ) -> None:
        self.plan = plan
        self.entrants = list(entrants)
        self.margin = margin  # --margin: level within this share of a deal's spread
        self.bots = dict(bots) if bots is not None else None  # entrant -> its bot's spec
        keys = [(t.round, t.table, t.match_id) for t in plan.tables()]
        self.run = RunRatings(keys, params)  # shared with the display and the leaderboard
        self.run.on_round_end.append(self._round_ended)
        # a field holding one bot under two names tests bots, each with all its entrants'
        # deals (``BotEvidence``); fed each match as the run's ratings rate it
        self.pooled: BotEvidence | None = None
        if self.bots is not None and params.whole_evidence and has_twins(self.bots):
            self.pooled = BotEvidence(self.bots, params)
            self.run.on_rated.append(self.pooled.add)
        self.stopped_after: int | None = None  # the round after which the order settled
        self.levels: list[tuple[str, str]] = []  # neighbours found level at the stop
        self.same: list[tuple[str, str]] = []  # neighbours that are the same bot

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
        found = verdicts(self.ratings, ranked, self.margin, self.bots, self.pooled)
        if all(v != OPEN for v in found):
            self.stopped_after = round_number
            pairs = list(zip(ranked, ranked[1:], strict=False))
            self.levels = [pair for pair, v in zip(pairs, found, strict=True) if v == LEVEL]
            self.same = [pair for pair, v in zip(pairs, found, strict=True) if v == SAME]

    def complete_before(self, round_number: int) -> bool:
        """Whether every match of the rounds before ``round_number`` has finished."""
        return self.run.rated_through() >= round_number - 1

    def stop_before(self, round_number: int) -> bool:
        """Whether to stop rather than start round ``round_number``: the order settled
        after an earlier round (every match of it finished, and it may end a run)."""
        return self.stopped_after is not None and round_number > self.stopped_after

    def is_settled(self) -> bool:
        ranked = self.ratings.ranked(self.entrants)
        return settled(self.ratings, ranked, self.margin, self.bots, self.pooled)

    def verdict(self, played_rounds: int) -> str:
        """What the run says at its end: settled after R rounds, or the cap reached."""
        if self.stopped_after is not None:
            level = _pairs("; level within the margin: ", self.levels)
            same = _pairs("; the same bot, level untested: ", self.same)
            pooled = ", each bot with all its entrants' deals" if self.pooled else ""
            return (
                f"stopped after {self.stopped_after} of {self.plan.rounds} rounds: the order "
                "is settled (each entrant above the next, or level with it within "
                f"{self.margin:g} of a deal's spread, by a sequential test wrong at most 1% of "
                f"the time{pooled}){level}{same}"
            )
        return f"reached the cap of {self.plan.rounds} rounds (--rounds) before the order settled"


def has_twins(bots: Mapping[str, str]) -> bool:
    """Whether some bot plays under two or more names."""
    return len(set(bots.values())) < len(bots)


def _pairs(title: str, pairs: Sequence[tuple[str, str]]) -> str:
    return title + ", ".join(f"{a} and {b}" for a, b in pairs) if pairs else ""
