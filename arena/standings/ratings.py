"""TrueSkill ratings of entrants, computed from ``matches.jsonl`` records.

This is the one module that touches the ``trueskill`` package (old and untyped): it
holds an explicit environment (never the global ``setup()``) and hands out our own
frozen ``Rating`` values. A match is rated as a free-for-all of its teams, so any
number of seats and any partnerships work (teams of unequal sizes are rated by places
under ``unit="points"``); in Truf every seat is its own team.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

import trueskill  # type: ignore[import-untyped]
from trueskill.factorgraph import Factor  # type: ignore[import-untyped]
from trueskill.mathematics import Gaussian  # type: ignore[import-untyped]

from arena.standings.places import offenders, record_places

# The leaderboard's sort key is the conservative rating mu - K * sigma: with K = 3 a new
# entrant (mu 25, sigma 25/3) starts at 0, and a bot must prove itself to rise.
K = 3.0


T = TypeVar("T")


class RatingError(ValueError):
    """A match record that cannot be rated."""


@dataclass(frozen=True, kw_only=True)
class RatingParams:
    """The TrueSkill environment; written into ``leaderboard.json`` as ``rating``."""

    mu: float = 25.0
    sigma: float = 25.0 / 3
    beta: float = 25.0 / 6  # TrueSkill's default sigma / 2: one beta is a ~76% win chance
    tau: float = 25.0 / 300  # TrueSkill's default sigma / 100: keeps sigma from collapsing
    # The chance that two equally skilled seats finish on the same total. Ties happen in
    # Truf (C14) but rarely: random bots tie pairwise in 1.9% of classic matches
    # (5,155 matches, 13 deals) and 1.5% of target matches (10,413 matches, 6 deals).
    # TrueSkill's default of 0.10 would read every tie as a non-event and under-reward
    # clear wins against close ones.
    draw_probability: float = 0.02

    # What one rating update is: "match" (the match's ranking only), "deal" (each deal's
    # ranking, from the record's ``deal_points``), "both" (the deals, then the match), or
    # "points" (each deal's *points*: the margins between the teams, not only their order;
    # see ``PointsTrueSkill``). A record without ``deal_points``, or with a disqualified or
    # forfeiting seat, is always rated as a match: a fallback's deals say nothing of the bot.
    unit: str = "match"
    # In a duplicate run (records with ``block`` and ``rotation``: --duplicate), rate each
    # *board* instead of each deal: the seats that held the same hand of the same deal at
    # one table over a block's rotations, ranked by their points with it, so the luck of
    # the cards cancels. A block is rated when its last rotation is; one that never
    # completes (cut by --rounds) is rated deal by deal at the end (``flush``).
    boards: bool = False
    # Margin-aware deal ranks: within a deal, seats whose points differ by no more than
    # ``margin`` from the next better seat share its rank (a draw): a point or two in a
    # deal says little of skill. 0: only equal points draw.
    margin: float = 0.0

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise ValueError(f"rating unit must be one of {', '.join(UNITS)}, got {self.unit!r}")

    def as_dict(self) -> dict[str, Any]:
        return {"model": "trueskill", **asdict(self), "conservative": f"mu - {K:g} * sigma"}


UNITS = ("match", "deal", "both", "points")


# Issue 16, measured by bench/ratings.py (README): every deal is rated by its points (the
# margins between the seats), and tau is 0 since bots do not change during a tournament,
# so sigma keeps shrinking.
DEFAULT_PARAMS = RatingParams(unit="points", tau=0.0)


@dataclass(frozen=True)
class Rating:
    """One entrant's skill belief: mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: the skill we are ~99% sure the entrant has at least."""
        return self.mu - K * self.sigma


def match_order(record: Mapping[str, Any]) -> tuple[int, int, str]:
    """Sort key for rating: schedule position, never completion order."""
    return (int(record["round"]), int(record["table"]), str(record["match"]))


def rating_ranks(record: Mapping[str, Any]) -> list[int]:
    """Each team's rank for rating (1 is best; equal ranks are a draw): the best place
    (``arena.standings.places``) of its seats, renumbered as 1 + the number of teams strictly
    ahead, so ties stay shared. (A match with an offender is rated by ``_rate_offence``.)
    """
    place = record_places(record)
    keys = [min(place[s] for s in team) for team in record["teams"]]
    return [1 + sum(other < key for other in keys) for key in keys]


def team_points(teams: Sequence[Sequence[int]], points: Sequence[float]) -> list[float]:
    """Each team's points in a deal, from its seats' ``points``: its best seat's (partners
    score alike in every game here)."""
    return [float(max(points[s] for s in team)) for team in teams]


def deal_ranks(record: Mapping[str, Any], deal: int, margin: float = 0.0) -> list[int]:
    """Each team's rank in deal ``deal`` (0-based) of the record's ``deal_points``: by its
    ``team_points`` (1 is best). Going down from the best, a team within ``margin``
    points of the team above shares its rank (equal points always do)."""
    keys = team_points(record["teams"], record["deal_points"][deal])
    order = sorted(range(len(keys)), key=lambda t: -keys[t])
    ranks = [0] * len(keys)
    for place, team in enumerate(order):
        above = order[place - 1] if place else None
        tied = above is not None and keys[above] - keys[team] <= margin
        ranks[team] = ranks[above] if tied and above is not None else place + 1
    return ranks


def prob_better(a: Rating, b: Rating) -> float:
    """The probability that ``a``'s skill exceeds ``b``'s, given both ratings: the chance
    that a draw from N(mu_a, sigma_a^2) beats one from N(mu_b, sigma_b^2). This is the
    belief about the skills themselves (no performance noise beta): it tends to 1 or 0 as
    the ratings settle, however close the entrants' games are."""
    return _above_zero(a.mu - b.mu, a.sigma**2 + b.sigma**2)


def _above_zero(mean: float, variance: float) -> float:
    """P(X > 0) for X ~ N(mean, variance); a point mass when the variance is 0."""
    if variance <= 0.0:
        return 0.5 if mean == 0.0 else float(mean > 0.0)
    return 0.5 * math.erfc(-mean / math.sqrt(2.0 * variance))


SETTLED = 0.95  # --until-settled: each entrant better than the next with this probability


def _each_above_next(ranked: Sequence[T], better: Callable[[T, T], float], level: float) -> bool:
    return all(better(a, b) >= level for a, b in zip(ranked, ranked[1:], strict=False))


def settled(ranked: Sequence[Rating], level: float = SETTLED) -> bool:
    """Whether a leaderboard's order is settled: each entrant (best first) is better than
    the next one down with probability ``level`` or more (``prob_better``)."""
    return _each_above_next(ranked, prob_better, level)


class _Observed(Factor):  # type: ignore[misc]
    """A factor that observes its variable's value: a team difference seen as a margin.

    TrueSkill's own ``TruncateFactor`` only sees the sign of the difference (who beat
    whom, or a draw); this one sees its size. ``noise`` is kept far below beta so that the
    observation is all but exact, yet the Gaussian arithmetic stays finite."""

    def __init__(self, var: Any, value: float, noise: float) -> None:
        super().__init__([var])
        self.value = value
        self.noise = noise

    def up(self) -> float:
        return float(self.var.update_message(self, message=Gaussian(self.value, self.noise)))


class PointsTrueSkill(trueskill.TrueSkill):  # type: ignore[misc]
    """TrueSkill whose result is the teams' points, not their ranking alone: the
    score-based variant of TrueSkill (Guo, Sanner, Graepel and Buntine, "Score-based
    Bayesian skill learning", 2012). The model is TrueSkill's: each seat's performance is
    its skill plus N(0, beta^2) noise, a team's is the sum of its seats'. Where TrueSkill
    observes only the order of the team performances, this observes their differences,
    the points margins divided by the points one performance unit is worth. The package's
    own factor graph and message schedule do the update, with the truncation layer
    replaced by observations; the graph is a tree of Gaussians, so the marginals it
    returns are exact. Between equal teams a margin of 0 is no special event: there is no
    draw probability to choose."""

    def rate_margins(
        self, rating_groups: Sequence[Mapping[str, Any]], performances: Sequence[float]
    ) -> list[dict[str, Any]]:
        """New ratings for the teams ``rating_groups`` (as for ``rate``) whose
        performances, in skill units, are ``performances`` up to a common shift."""
        groups, keys = self.validate_rating_groups(rating_groups)
        weights = self.validate_weights(None, groups, keys)
        ranks = list(range(len(groups)))
        rating, perf, team_perf, team_diff, _ = self.factor_graph_builders(groups, ranks, weights)
        diff_vars: list[Any] = []

        def build_team_diff_layer() -> Any:
            for factor in team_diff():
                diff_vars.append(factor.sum)
                yield factor

        noise = self.beta * 1e-6

        def build_observation_layer() -> Any:
            for x, var in enumerate(diff_vars):
                yield _Observed(var, performances[x] - performances[x + 1], noise)

        layers = self.run_schedule(
            rating, perf, team_perf, build_team_diff_layer, build_observation_layer
        )
        skills = iter(factor.var for factor in layers[0])
        out = []
        for team_keys in keys:
            team = {}
            for key in team_keys:
                skill = next(skills)
                team[key] = trueskill.Rating(float(skill.mu), float(skill.sigma))
            out.append(team)
        return out


class PointScale:
    """How many points one performance unit (beta) of a seat is worth, learnt from the
    deals rated so far, so that the same rating works for any game and scoring.

    A team's performance in a deal has, under the model, the variance ``beta^2 * size``
    in skill units (the sum of its seats'), so a seat's is beta^2. That variance in points
    is measured, from the teams' deviations from the deal's mean (per seat),
    around each entrant's own mean deviation (Welford), so that a steady gap between
    entrants, which is skill, is not read as noise. That estimate is wild while each
    entrant has only a few deals, so it starts from the spread around the deal means
    (wider, as it counts skill gaps as noise: the first updates are cautious), weighted
    as ``PRIOR_DF`` degrees of freedom, which the deals soon outweigh (a Truf match of
    four seats brings 48)."""

    PRIOR_DF = 20.0

    def __init__(self) -> None:
        self._per_entrant: dict[str, tuple[int, float, float]] = {}  # n, mean, M2
        self._raw_sq = 0.0  # squared deviations from the deal means
        self._raw_df = 0.0  # their degrees of freedom, per seat-unit of variance
        self._m2 = 0.0  # the entrants' M2 summed
        self._df = 0  # and their degrees of freedom, sum(n - 1)

    def observe(self, names: Sequence[Sequence[str]], points: Sequence[float]) -> None:
        """Add one deal: each team's entrants and its points."""
        teams = len(points)
        mean = sum(points) / teams
        # A deviation from the mean of T teams has (1 - 1/T) of a performance's variance.
        widen = 1.0 / math.sqrt(1.0 - 1.0 / teams)
        for team, p in zip(names, points, strict=True):
            # a team of s seats has s seats' performance noise: measured per seat
            deviation = (p - mean) / math.sqrt(len(team))
            self._raw_sq += deviation * deviation
            deviation *= widen
            for name in team:
                n, m, m2 = self._per_entrant.get(name, (0, 0.0, 0.0))
                n += 1
                delta = deviation - m
                m += delta / n
                grown = delta * (deviation - m)
                self._per_entrant[name] = (n, m, m2 + grown)
                self._m2 += grown
                self._df += n > 1
        self._raw_df += teams - 1

    def variance(self) -> float:
        """The variance of one seat's performance in a deal, in points: beta^2 in skill
        units (0 while unknown)."""
        if not self._raw_df:
            return 0.0
        raw = self._raw_sq / self._raw_df
        return (self._m2 + self.PRIOR_DF * raw) / (self._df + self.PRIOR_DF)


class PointsEvidence:
    """Every deal's points rated so far, kept as the Gaussian model's evidence, for the
    probability that one entrant is better than another (``Ratings.prob_better``).

    TrueSkill keeps only each entrant's own mean and sigma, as if their skills were
    independent. But a deal shows only *differences* of performance, so what the deals
    tell of two entrants' gap is far surer than their two sigmas say: ``prob_better`` on
    the marginals understates it (bench/ratings.py: ``--until-settled`` stopped after a
    median of 48 rounds in classic where about 24 would have been right as often). This
    keeps the evidence whole. A seat's performance noise has one variance v in points
    (``PointScale``), a team of s seats s v. A deal whose teams took points y_t adds
    ``M^T (W - w w^T / sum w) M`` to the information about the skills and
    ``M^T (W - w w^T / sum w) y`` to its vector, in units of 1 / v, where M maps entrants
    to their teams and w_t = 1 / s_t: the Gaussian likelihood of the points seen up to a
    shift common to the deal. With the prior N(mu0, sigma0^2) of every entrant the
    posterior of every gap follows, for the current v: the same model as the ratings,
    without their mean-field approximation. It needs an N x N solve, so above ``LIMIT``
    entrants the marginals are used instead."""

    LIMIT = 64

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self._info: dict[tuple[int, int], float] = {}  # (i, j), i <= j
        self._vector: dict[int, float] = {}
        self._factor: tuple[float, list[list[float]]] | None = None  # (ridge, Cholesky)

    def observe(self, names: Sequence[Sequence[str]], points: Sequence[float]) -> None:
        """Add one deal: each team's entrants and its points."""
        weights = [1.0 / len(team) for team in names]
        total = sum(weights)
        mean = sum(w * y for w, y in zip(weights, points, strict=True)) / total
        ids = [[self.index.setdefault(n, len(self.index)) for n in team] for team in names]
        for t, team in enumerate(ids):
            for i in team:
                self._vector[i] = self._vector.get(i, 0.0) + weights[t] * (points[t] - mean)
                for u, other in enumerate(ids):
                    value = -weights[t] * weights[u] / total + (weights[t] if t == u else 0.0)
                    for j in other:
                        if i <= j:
                            self._info[i, j] = self._info.get((i, j), 0.0) + value
        self._factor = None

    def usable(self) -> bool:
        return 1 < len(self.index) <= self.LIMIT

    def _cholesky(self, ridge: float) -> list[list[float]]:
        """The Cholesky factor of info + ridge I (the posterior precision times v)."""
        if self._factor is not None and self._factor[0] == ridge:
            return self._factor[1]
        n = len(self.index)
        a = [[0.0] * n for _ in range(n)]
        for (i, j), value in self._info.items():
            a[i][j] = a[j][i] = value
        for i in range(n):
            a[i][i] += ridge
        low = [[0.0] * n for _ in range(n)]
        for i in range(n):
            for j in range(i + 1):
                acc = a[i][j] - sum(low[i][k] * low[j][k] for k in range(j))
                low[i][j] = math.sqrt(acc) if i == j else acc / low[j][j]
        self._factor = (ridge, low)
        return low

    def _solve(self, low: list[list[float]], rhs: list[float]) -> list[float]:
        n = len(rhs)
        y = [0.0] * n
        for i in range(n):
            y[i] = (rhs[i] - sum(low[i][k] * y[k] for k in range(i))) / low[i][i]
        x = [0.0] * n
        for i in reversed(range(n)):
            x[i] = (y[i] - sum(low[k][i] * x[k] for k in range(i + 1, n))) / low[i][i]
        return x

    def prob_better(self, a: str, b: str, variance: float, prior: float) -> float:
        """P(skill a > skill b) given every deal observed: ``variance`` is a seat's
        performance variance in points, ``prior`` the prior's standard deviation of a
        skill in points."""
        low = self._cholesky(variance / prior**2)
        n = len(self.index)
        ia, ib = self.index[a], self.index[b]
        gap = [0.0] * n
        gap[ia], gap[ib] = 1.0, -1.0
        spread = self._solve(low, gap)  # (info + ridge I)^-1 (e_a - e_b)
        mean = sum(spread[i] * v for i, v in self._vector.items())
        return _above_zero(mean, variance * (spread[ia] - spread[ib]))


class Ratings:
    """The ratings of every entrant seen so far; unseen entrants have the prior."""

    def __init__(self, params: RatingParams = DEFAULT_PARAMS) -> None:
        self.params = params
        self._env: Any = trueskill.TrueSkill(
            mu=params.mu,
            sigma=params.sigma,
            beta=params.beta,
            tau=params.tau,
            draw_probability=params.draw_probability,
        )
        self._points_env = PointsTrueSkill(
            mu=params.mu, sigma=params.sigma, beta=params.beta, tau=params.tau
        )
        self._scale = PointScale()
        self._evidence = PointsEvidence()
        self._ratings: dict[str, Any] = {}  # name -> trueskill.Rating
        self._offended: set[str] = set()  # entrants rated by _rate_offence at least once
        # (block, table) -> the block's records so far, waiting for its last rotation
        self._blocks: dict[tuple[int, int], list[Mapping[str, Any]]] = {}

    def rating(self, name: str) -> Rating:
        r = self._ratings.get(name)
        if r is None:
            return Rating(self.params.mu, self.params.sigma)
        return Rating(float(r.mu), float(r.sigma))

    def expose(self, name: str) -> float:
        """The conservative rating mu - 3 sigma: the leaderboard's sort key."""
        return self.rating(name).conservative

    def prob_better(self, a: str, b: str) -> float:
        """The probability that ``a``'s skill exceeds ``b``'s: the leaderboard's
        P(>next). With points ratings (tau 0, up to ``PointsEvidence.LIMIT`` entrants) it
        comes from all the deals' evidence at once, the posterior of the same model for
        the current worth of a point (``PointsEvidence``; matches rated by places are not
        in it); otherwise, and for entrants without a deal rated by points, from the two
        ratings alone (``prob_better``)."""
        evidence = self._evidence
        variance = self._scale.variance()
        exact = (
            self.params.unit == "points"
            and self.params.tau == 0.0
            and variance > 0.0
            and evidence.usable()
            and a in evidence.index
            and b in evidence.index
            and not {a, b} & self._offended
        )
        if not exact:
            return prob_better(self.rating(a), self.rating(b))
        per_unit = math.sqrt(variance) / self.params.beta  # points a unit of skill
        return evidence.prob_better(a, b, variance, self.params.sigma * per_unit)

    def settled(self, ranked: Sequence[str], level: float = SETTLED) -> bool:
        """Whether an order of entrants (best first) is settled: each better than the
        next one down with probability ``level`` or more (``prob_better``)."""
        return _each_above_next(ranked, self.prob_better, level)

    def names(self) -> list[str]:
        """Entrants rated so far, sorted."""
        return sorted(self._ratings)

    def __contains__(self, name: object) -> bool:
        return name in self._ratings

    def rate_match(self, record: Mapping[str, Any]) -> None:
        """Update the ratings of a match's entrants from its result.

        Ratings depend on the order matches are rated in: give records sorted by
        (round, table), or use ``rate_all``.
        """
        where = f"match {record.get('match')!r}"
        missing = [key for key in ("seats", "teams", "ranks") if key not in record]
        if missing:
            raise RatingError(f"{where}: the record has no {', '.join(missing)}")
        seats: Sequence[str] = record["seats"]
        teams: Sequence[Sequence[int]] = record["teams"]
        if len(set(seats)) != len(seats):
            raise RatingError(f"{where}: an entrant holds two seats: {list(seats)}")
        for key in ("ranks", "disqualified", "forfeit"):
            per_seat = record.get(key)
            if per_seat is not None and len(per_seat) != len(seats):
                raise RatingError(
                    f"{where}: {key} has {len(per_seat)} entries for {len(seats)} seats"
                )
        if sorted(s for team in teams for s in team) != list(range(len(seats))):
            raise RatingError(f"{where}: teams {teams} do not split seats 0..{len(seats) - 1}")
        if any(not team for team in teams):
            raise RatingError(f"{where}: teams {teams} include an empty team")
        if len(teams) < 2:
            raise RatingError(f"{where}: a match needs two teams to be rated")
        if self._on_boards(record, where):
            place = (int(record["block"]), int(record["table"]))
            self._blocks.setdefault(place, []).append(record)
            if record.get("rotation") == len(seats) - 1:
                self._rate_boards(self._blocks.pop(place))
            return
        self._rate_record(record, where)

    def pending(self) -> int:
        """Records held for duplicate blocks not yet complete (see ``flush``)."""
        return sum(len(block) for block in self._blocks.values())

    def flush(self) -> None:
        """Rate the records of duplicate blocks that never completed, deal by deal (a run
        cut short by --rounds; ``rate_all`` does this at its end)."""
        for key in sorted(self._blocks):
            for record in self._blocks.pop(key):
                self._rate_record(record, f"match {record.get('match')!r}")

    def _on_boards(self, record: Mapping[str, Any], where: str) -> bool:
        """Whether the record waits for its duplicate block to be rated board by board."""
        return (
            self.params.boards
            and self.params.unit != "match"
            and isinstance(record.get("block"), int)
            and isinstance(record.get("rotation"), int)
            and all(len(team) == 1 for team in record["teams"])
            and self._rates_deals(record, where)
        )

    def _rate_boards(self, block: Sequence[Mapping[str, Any]]) -> None:
        """Rate a complete block at one table board by board: for each deal and hand, the
        seats that held that hand (seat s holds hand s + rotation) ranked by their points.
        A block whose matches do not fit together is rated match by match instead."""
        seats = len(block[0]["seats"])
        rotations = sorted(int(r["rotation"]) for r in block)
        if rotations != list(range(seats)) or any(r["seats"] != block[0]["seats"] for r in block):
            for record in block:
                self._rate_record(record, f"match {record.get('match')!r}")
            return
        by_rotation = sorted(block, key=lambda r: int(r["rotation"]))
        deals = min(len(r["deal_points"]) for r in block)
        for deal in range(deals):
            for hand in range(seats):
                holders = [
                    (
                        r["seats"][(hand - turn) % seats],
                        r["deal_points"][deal][(hand - turn) % seats],
                    )
                    for turn, r in enumerate(by_rotation)
                ]
                board = {
                    "seats": [name for name, _ in holders],
                    "teams": [[s] for s in range(seats)],
                    "deal_points": [[points for _, points in holders]],
                }
                where = f"block {block[0]['block']} table {block[0]['table']} deal {deal + 1}"
                self._rate(board, deal_ranks(board, 0, self.params.margin), where)

    def _rate_record(self, record: Mapping[str, Any], where: str) -> None:
        if any(offenders(record)):
            self._rate_offence(record, where)
            return
        unit = self.params.unit
        if unit == "points":
            # Teams of unequal sizes would compare sums of different numbers of skills,
            # which the points' common shift cannot absorb: they are rated by places.
            equal = len({len(team) for team in record["teams"]}) == 1
            if equal and self._rates_deals(record, where):
                self._rate_points(record, where)
            else:
                self._rate(record, rating_ranks(record), where)
            return
        if unit != "match" and self._rates_deals(record, where):
            for deal in range(len(record["deal_points"])):
                self._rate(record, deal_ranks(record, deal, self.params.margin), where)
        if unit != "deal" or not self._rates_deals(record, where):
            self._rate(record, rating_ranks(record), where)

    def _rate_offence(self, record: Mapping[str, Any], where: str) -> None:
        """THE RULE for a match with a disqualified or forfeiting seat (an offender,
        ``arena.standings.places``). Only the offenders are rated: each as having lost to every
        seat that did not offend, once per deal of the match (once in all with
        ``unit="match"``), as many updates as a match played to its end gets. Each
        update lowers the offender's mu and leaves its sigma as it was: the fallback's
        play teaches nothing of the bot's skill, so its rating grows no surer, and its
        conservative rating falls with its mu, whatever its other matches were. So
        forfeiting or being disqualified never pays. No other seat's rating moves: an
        offence can neither sink a partner (whom the schedule seated at random) nor lift
        an opponent. The offenders are kept out of ``PointsEvidence``'s exact P(>next)
        from then on (their losses are not points)."""
        seats: Sequence[str] = record["seats"]
        out = offenders(record)
        place = record_places(record)
        deals = len(record.get("deal_points") or ()) if self.params.unit != "match" else 1
        for _ in range(max(1, deals)):
            groups = [{seats[s]: self._current(seats[s])} for s in range(len(seats))]
            try:
                rated = self._env.rate(groups, ranks=place)
            except (FloatingPointError, ZeroDivisionError) as exc:
                raise RatingError(f"{where}: TrueSkill cannot rate this result ({exc})") from None
            for seat, team in enumerate(rated):
                if out[seat]:
                    name = seats[seat]
                    sigma = groups[seat][name].sigma
                    self._ratings[name] = trueskill.Rating(float(team[name].mu), float(sigma))
        self._offended.update(seats[s] for s in range(len(seats)) if out[s])

    def _rates_deals(self, record: Mapping[str, Any], where: str) -> bool:
        """Whether the record's deals can be rated one by one (see ``RatingParams.unit``)."""
        points = record.get("deal_points")
        if not points:
            return False
        n = len(record["seats"])
        if any(not isinstance(p, list) or len(p) != n for p in points):
            raise RatingError(f"{where}: deal_points must hold {n} points per deal")
        out = [*(record.get("disqualified") or ()), *(record.get("forfeit") or ())]
        return not any(out)

    def _rate(self, record: Mapping[str, Any], ranks: Sequence[int], where: str) -> None:
        seats: Sequence[str] = record["seats"]
        groups = [{seats[s]: self._current(seats[s]) for s in team} for team in record["teams"]]
        try:
            rated = self._env.rate(groups, ranks=ranks)
        except (FloatingPointError, ZeroDivisionError) as exc:
            # TrueSkill's float backend fails only for results far beyond any skill gap
            # seen in play; better a clear error than a silently skipped match.
            raise RatingError(f"{where}: TrueSkill cannot rate this result ({exc})") from None
        for team in rated:
            self._ratings.update(team)

    def _rate_points(self, record: Mapping[str, Any], where: str) -> None:
        """Rate the record deal by deal by its points (``unit="points"``): each team
        counts with its ``team_points``, as for ranks. Each deal first teaches
        the scale what a point is worth, then is rated. (Rating the match once, by its
        summed points, loses nothing in the Gaussian model but much in TrueSkill's
        mean-field one: while sigma is wide against a match's small noise, each update
        halves the weight of all before it. bench/ratings.py measured it worse.)"""
        seats: Sequence[str] = record["seats"]
        teams: Sequence[Sequence[int]] = record["teams"]
        names = [[seats[s] for s in team] for team in teams]
        for points in record["deal_points"]:
            scores = team_points(teams, points)
            self._scale.observe(names, scores)
            self._evidence.observe(names, scores)
            variance = self._scale.variance()
            if variance <= 0.0:
                continue  # every deal so far was level: nothing yet sets a point's worth
            per_unit = math.sqrt(variance) / self.params.beta  # points a unit of skill
            groups = [{seats[s]: self._current(seats[s]) for s in team} for team in teams]
            try:
                rated = self._points_env.rate_margins(groups, [p / per_unit for p in scores])
            except (FloatingPointError, ZeroDivisionError) as exc:
                raise RatingError(f"{where}: TrueSkill cannot rate this result ({exc})") from None
            for team in rated:
                self._ratings.update(team)

    def rate_all(self, records: Iterable[Mapping[str, Any]]) -> None:
        """Rate matches in schedule order (round, table, match id), so that the order in
        which concurrent tables finished never changes the ratings."""
        for record in sorted(records, key=match_order):
            self.rate_match(record)
        self.flush()

    def _current(self, name: str) -> Any:
        r = self._ratings.get(name)
        return self._env.create_rating() if r is None else r
