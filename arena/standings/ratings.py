"""TrueSkill ratings of entrants, computed from ``matches.jsonl`` records.

This is the one module that touches the ``trueskill`` package (old and untyped): it
holds an explicit environment (never the global ``setup()``) and hands out our own
frozen ``Rating`` values. A match is rated as a free-for-all of its teams, so any
number of seats and any partnerships work (teams of unequal sizes are rated by places
under ``unit="points"``); in Truf every seat is its own team.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
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
# An open unit of PointsEvidence: (its table make-up, its part g of the vector, its deals).
_Unit = tuple[tuple[tuple[int, ...], ...], list[float], int]


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

    @property
    def whole_evidence(self) -> bool:
        """Whether these ratings keep every deal's points (``PointsEvidence``) for the
        leaderboard's figures: points ratings with tau 0, where skills do not drift."""
        return self.unit == "points" and self.tau == 0.0


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


def rated_points(record: Mapping[str, Any]) -> list[list[float]]:
    """Each deal's points per seat as the ratings read them: ``deal_points``, less
    ``deal_luck`` where the record has it (``--correct-random``: the bundled random bot's
    luck taken out, docs/results.md); a RatingError names a match whose two do not fit."""
    luck = record.get("deal_luck")
    points: list[list[float]] = record["deal_points"]
    if luck is None:
        return points
    n = len(record["seats"])
    if (
        not isinstance(luck, list)
        or len(luck) != len(points)
        or any(not isinstance(x, list) or len(x) != n for x in luck)
        or any(
            not isinstance(v, int | float) or isinstance(v, bool) or not math.isfinite(v)
            for x in luck
            for v in x
        )
    ):
        raise RatingError(
            f"match {record.get('match')!r}: deal_luck must hold {n} finite numbers for "
            f"each of its {len(points)} deals"
        )
    return [
        [p - x for p, x in zip(deal, out, strict=True)]
        for deal, out in zip(points, luck, strict=True)
    ]


def deal_ranks(
    record: Mapping[str, Any],
    deal: int,
    margin: float = 0.0,
    points: Sequence[Sequence[float]] | None = None,
) -> list[int]:
    """Each team's rank in deal ``deal`` (0-based) of the record's ``rated_points`` (or
    ``points``, the same computed once for the whole record): by its ``team_points`` (1
    is best). Going down from the best, a team within ``margin`` points of the team above
    shares its rank (equal points always do)."""
    rated = rated_points(record) if points is None else points
    keys = team_points(record["teams"], rated[deal])
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


def gaussian_margins(
    teams: Sequence[Sequence[tuple[float, float]]],
    performances: Sequence[float],
    *,
    beta: float,
    tau: float = 0.0,
) -> list[list[tuple[float, float]]]:
    """Each seat's new (mu, sigma) after a deal whose teams' performances, in skill units,
    were ``performances`` up to a common shift: the closed form of
    ``PointsTrueSkill.rate_margins`` (the same model, the same marginals; tests compare
    the two). Every message there is Gaussian, so no message passing is needed.

    Seat i of team k has skill s_i ~ N(mu_i, sigma_i^2 + tau^2); the team performs
    T_k = sum s_i + N(0, size_k beta^2), so T_k ~ N(m_k, V_k) independently. Seeing
    T_k = y_k + c for an unknown common shift c (flat prior) gives c's posterior
    N(c_hat, 1 / W), c_hat = sum w_k (m_k - y_k) / W, w_k = 1 / V_k, W = sum w_k; so T_k's
    posterior is N(y_k + c_hat, 1 / W). A seat's skill depends on the deal only through
    its team's performance, hence its posterior mean mu_i + g (E[T_k] - m_k) and variance
    v_i - g v_i + g^2 / W, with v_i its prior variance and g = v_i / V_k."""
    drift = tau * tau
    means = [sum(mu for mu, _ in team) for team in teams]
    spreads = [sum(sigma * sigma + drift for _, sigma in team) + len(team) * beta * beta
               for team in teams]  # fmt: skip
    weights = [1.0 / v for v in spreads]
    total = sum(weights)
    shift = sum(w * (m - y) for w, m, y in zip(weights, means, performances, strict=True)) / total
    out = []
    for team, mean, spread, y in zip(teams, means, spreads, performances, strict=True):
        surprise = y + shift - mean
        rated = []
        for mu, sigma in team:
            prior = sigma * sigma + drift
            gain = prior / spread
            variance = prior - gain * prior + gain * gain / total
            rated.append((mu + gain * surprise, math.sqrt(max(variance, 0.0))))
        out.append(rated)
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
    """Every deal's points rated so far, kept whole: the leaderboard's estimate of each
    entrant (``estimates``) and the uncertainty of each gap (``gap``), from which its
    order, its P(>next) and ``--until-settled`` all follow (issue 29).

    TrueSkill keeps only each entrant's own mean and sigma, as if their skills were
    independent, and updates them deal by deal (early deals end up weighing less). But a
    deal shows only *differences* of performance. This keeps the evidence whole. In the
    ratings' Gaussian model a seat's performance noise has one variance v in points, a
    team of s seats s v. A deal whose teams took points y_t adds ``M^T (W - w w^T / sum
    w) M`` to the information about the skills and ``M^T (W - w w^T / sum w) y`` to its
    vector, in units of 1 / v, where M maps entrants to their teams and w_t = 1 / s_t:
    the Gaussian likelihood of the points seen up to a shift common to the deal. With the
    prior N(mu0, sigma0^2) of every entrant, the posterior mean of the skills, m = (J +
    lambda I)^-1 g (J and g summed over the deals, lambda = v / sigma0^2 in points), is
    the estimate: with every entrant at every deal it is each one's mean points per deal
    against the field, shrunk a little.

    The uncertainty of a gap m_a - m_b is not the model's: one variance v for every
    seat is wrong when, say, a random bot's own draws are most of the noise (it made
    P(>next) under-confident between the other bots, issue 29). The gap is a linear
    function c^T g of the evidence, c = (J + lambda I)^-1 (e_a - e_b), so its variance is
    measured from the pair's own evidence: the sum over matches (the independent units)
    of (c^T u)^2, u being the match's residual score, its part of g less what the
    estimates predict (a sandwich, or robust, variance; with every entrant at every deal
    it is the spread of the pair's per-deal point differences). It is scaled by
    D / (D - N + 1) (D matches, N entrants: the residuals have N - 1 fewer degrees of
    freedom than matches; bench/ratings.py found D / (D - 1) 5-9% short of the gaps' real
    spread, and the stop fooled by identical bots 2% of the time in target), the model's
    is used while D is at most N, and the prior's share, v lambda c^T c, is added. It
    needs an N x N solve, so above ``LIMIT`` entrants the leaderboard falls back to the
    TrueSkill ratings.

    Where the tables hold different make-ups (two of four entrants at a table, or a
    random bot at some tables and not others) their deals are not equally noisy, and
    the estimates weigh each make-up's information by the inverse of its noise
    (``_fitted``: feasible generalised least squares, each seat's noise measured from all
    of its matches). A duplicate block of two close bots, whose cards' luck cancels,
    then counts for what it shows, not for as little as a block beside a random bot. The
    sandwich variance above carries the weights, so P(>next) stays measured. Where every
    table seats every entrant (Truf; Ruff double and single 4, Truco, with four
    entrants) every make-up holds the same seats and weighs the same, about 1."""

    LIMIT = 64
    # The prior weight of the field's noise in each seat's own (``_weights_for``): added
    # to each seat's normal equation, where a match of k seats adds 1/k^2 (a seat is 1/k
    # of its make-up's noise), so 10 is 40 matches' worth at two seats and 160 at four,
    # and at four seats and more the weights stay near 1 (0.88-1.14 with one entrant five times
    # noisier, the review of stop 17). Shrinking less, per match, is what the weights
    # would need there; it was not done: weights fitted to a few matches make the gaps
    # look surer than they are (one weight per make-up put identical bots in an order
    # in 5 of 150 runs of tests/test_settle.py's field, where these give 3).
    SHRINK = 10.0

    def __init__(self, *, weighted: bool = True) -> None:
        self.weighted = weighted  # False: every make-up weighs 1 (one noise v for all)
        self.index: dict[str, int] = {}
        self._fits: dict[float, _Fit] = {}  # the weighted fit by prior, until the next deal
        # One entry per table make-up (the teams, as entrant ids): its per-deal matrix P
        # (J's share of one deal) and, over its matches (clusters), n = deals, the sums of
        # n, n^2, g, n g and g g^T, g being a match's part of the vector.
        self._kinds: dict[tuple[tuple[int, ...], ...], _Kind] = {}
        # The units still open, by label (None: a match's; a duplicate block's is its
        # (block, table), open over the block's interleaved rotations): (make-up, g, deals).
        self._open: dict[Hashable, _Unit] = {}
        self.clusters = 0  # matches (or deals) whose residuals count as independent

    def observe(
        self, names: Sequence[Sequence[str]], points: Sequence[float], unit: Hashable = None
    ) -> None:
        """Add one deal: each team's entrants and its points. Deals observed with one
        ``unit`` label between two ``close(unit)`` calls are one independent unit (a match,
        or a duplicate block at one table, whose rotations share their cards' luck) for
        the gaps' variance."""
        ids = [[self.index.setdefault(n, len(self.index)) for n in team] for team in names]
        pairs = sorted(zip((tuple(sorted(t)) for t in ids), points, strict=True))
        key = tuple(team for team, _ in pairs)
        kind = self._kinds.get(key)
        if kind is None:
            kind = self._kinds[key] = _Kind(key)
        weights = [1.0 / len(team) for team in key]
        total = sum(weights)
        mean = sum(w * y for w, (_, y) in zip(weights, pairs, strict=True)) / total
        local = [w * (y - mean) for w, (team, y) in zip(weights, pairs, strict=True)
                 for _ in team]  # fmt: skip
        opened = self._open.get(unit)
        if opened is not None and opened[0] != key:
            self.close(unit)
            opened = None
        if opened is None:
            opened = (key, [0.0] * len(local), 0)
        _, acc, deals = opened
        for x, value in enumerate(local):
            acc[x] += value
        self._open[unit] = (key, acc, deals + 1)
        kind.dealt += 1
        for x, value in enumerate(local):
            kind.total[x] += value
        self._fits.clear()

    def close(self, unit: Hashable = None) -> None:
        """End the independent unit ``unit`` (a match): its residuals count together."""
        opened = self._open.pop(unit, None)
        if opened is None:
            return
        key, acc, deals = opened
        self._kinds[key].add(acc, deals)
        self.clusters += 1

    def usable(self) -> bool:
        return 1 < len(self.index) <= self.LIMIT

    def weights(self, variance: float, prior: float) -> dict[tuple[tuple[int, ...], ...], float]:
        """Each table make-up's weight in the estimates (``_fitted``), by its key (the
        teams as entrant ids, ``index``); an empty mapping while every weight is 1."""
        return dict(self._fitted(variance / prior**2).weights)

    def _fitted(self, ridge: float) -> _Fit:
        """The estimates, each table make-up weighed by the inverse of its measured noise
        (feasible generalised least squares, ``_weights_for``): a make-up whose deals
        vary less -- two close bots in a duplicate block, where the cards' luck cancels
        -- counts for more than one with a random bot's draws in it. Fitted twice (the
        residuals need estimates), once there are more units than entrants and only if
        ``weighted``; before that every weight is 1 (the plain model)."""
        if ridge in self._fits:
            return self._fits[ridge]
        fit = self._solved(ridge, {})
        if self.weighted and self.clusters + len(self._open) > len(self.index):
            for _ in range(2):
                fit = self._solved(ridge, self._weights_for(fit.means))
        self._fits[ridge] = fit
        return fit

    def _weights_for(self, means: Sequence[float]) -> dict[tuple[tuple[int, ...], ...], float]:
        """Each make-up's weight given estimates ``means``: the field's noise per deal
        over the make-up's, which is the mean of its seats' own noises. Those are fitted
        to every make-up's measured noise (``_Kind.noise``) by least squares, each make-up
        counting by its units, and shrunk toward the field's (``SHRINK``): one
        noise per entrant, from all of its matches, holds still where one per make-up,
        from a few matches each, would follow their luck (and make the gaps look surer
        than they are)."""
        noise = {key: kind.noise(means, self._open.values()) for key, kind in self._kinds.items()}
        expected = sum(scale for _, scale, _ in noise.values())
        field = sum(squares for squares, _, _ in noise.values()) / expected if expected else 0.0
        if field <= 0.0:
            return {}
        n = len(self.index)
        normal = [[self.SHRINK if i == j else 0.0 for j in range(n)] for i in range(n)]
        rhs = [self.SHRINK * field] * n
        share: dict[tuple[tuple[int, ...], ...], list[float]] = {}
        for key, (squares, scale, units) in noise.items():
            if scale <= 0.0:
                continue
            row = share[key] = [0.0] * n
            members = self._kinds[key].members
            for i in members:
                row[i] += 1.0 / len(members)
            own = squares / scale
            for i in set(members):
                rhs[i] += units * row[i] * own
                for j in set(members):
                    normal[i][j] += units * row[i] * row[j]
        seats = _solve(_cholesky(normal), rhs)
        floor = 0.1 * field  # a make-up never weighs more than ten of the field's
        return {key: field / max(sum(r * v for r, v in zip(row, seats, strict=True)), floor)
                for key, row in share.items()}  # fmt: skip

    def _solved(self, ridge: float, weights: Mapping[tuple[tuple[int, ...], ...], float]) -> _Fit:
        """The Cholesky factor of sum_k w_k J_k + ridge I (the posterior precision times
        v) and the posterior means, for make-up weights ``weights`` (1 where absent)."""
        n = len(self.index)
        a = [[0.0] * n for _ in range(n)]
        vector = [0.0] * n
        for key, kind in self._kinds.items():
            w = weights.get(key, 1.0)
            for x, i in enumerate(kind.members):
                vector[i] += w * kind.total[x]
                row = kind.matrix[x]
                for y, j in enumerate(kind.members):
                    a[i][j] += w * kind.dealt * row[y]
        for i in range(n):
            a[i][i] += ridge
        low = _cholesky(a)
        return _Fit(ridge, low, _solve(low, vector), dict(weights))

    def estimates(self, variance: float, prior: float) -> dict[str, float]:
        """Every entrant's posterior mean skill in points, against the prior's mean
        (``variance``: a seat's performance variance in points, ``prior``: the prior's
        standard deviation of a skill in points)."""
        means = self._fitted(variance / prior**2).means
        return {name: means[i] for name, i in self.index.items()}

    def gap(self, a: str, b: str, variance: float, prior: float) -> tuple[float, float, float]:
        """The estimate of skill a - skill b in points, its variance (the sandwich
        variance from the matches' residuals, see the class, or the model's while there
        are too few matches to measure it) and the model's variance: what the weighted
        estimate's variance would be if every seat's noise were the model's v (so the
        measured over the model's says how noisy this pair's evidence is)."""
        ridge = variance / prior**2
        fit = self._fitted(ridge)
        n = len(self.index)
        ia, ib = self.index[a], self.index[b]
        unit = [0.0] * n
        unit[ia], unit[ib] = 1.0, -1.0
        c = _solve(fit.low, unit)  # (sum_k w_k J_k + ridge I)^-1 (e_a - e_b)
        mean = fit.means[ia] - fit.means[ib]
        prior_share = variance * ridge * sum(x * x for x in c)
        model = variance * sum(
            fit.weights.get(key, 1.0) ** 2 * kind.dealt * kind.quadratic(c)
            for key, kind in self._kinds.items()
        ) + prior_share  # fmt: skip
        units = self.clusters + len(self._open)
        if units <= n:
            return mean, model, model
        meat = sum(fit.weights.get(key, 1.0) ** 2 * kind.spread(c, fit.means, self._open.values())
                   for key, kind in self._kinds.items())  # fmt: skip
        meat *= units / (units - n + 1)
        return mean, meat + prior_share, model


def _measured_spread(model: float, measured: float, assumed: float) -> float:
    """The spread of a pair's performance difference in one deal: the model's (one noise
    for every seat), scaled by the pair's measured gap variance over the model's, so a
    pair whose deals vary less than the field's has a narrower one (``gap_and_spread``:
    the unit of ``--until-settled``'s margin). The model's while nothing is measured."""
    return model * math.sqrt(measured / assumed) if assumed > 0.0 else model


def _cholesky(a: Sequence[Sequence[float]]) -> list[list[float]]:
    """The lower Cholesky factor of a symmetric positive definite matrix."""
    n = len(a)
    low = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1):
            acc = a[i][j] - sum(low[i][k] * low[j][k] for k in range(j))
            low[i][j] = math.sqrt(acc) if i == j else acc / low[j][j]
    return low


def _solve(low: Sequence[Sequence[float]], rhs: Sequence[float]) -> list[float]:
    """x with (low low^T) x = rhs, ``low`` a Cholesky factor (``_cholesky``)."""
    n = len(rhs)
    y = [0.0] * n
    for i in range(n):
        y[i] = (rhs[i] - sum(low[i][k] * y[k] for k in range(i))) / low[i][i]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (y[i] - sum(low[k][i] * x[k] for k in range(i + 1, n))) / low[i][i]
    return x


@dataclass
class _Fit:
    """``PointsEvidence``'s fit for one prior: the Cholesky factor of the weighted
    precision, the posterior means and each table make-up's weight (1 where absent)."""

    ridge: float
    low: list[list[float]]
    means: list[float]
    weights: dict[tuple[tuple[int, ...], ...], float]


def rated_by_points(record: Mapping[str, Any]) -> bool:
    """Whether a match's deals are rated by their points under ``unit="points"`` (and so
    join ``PointsEvidence``): it has ``deal_points``, no offender (a disqualified or
    forfeiting seat is rated by ``Ratings._rate_offence``), and teams of one size (teams of
    unequal sizes would compare sums of different numbers of skills, which the points'
    common shift cannot absorb: they are rated by places)."""
    return (
        bool(record.get("deal_points"))
        and not any(offenders(record))
        and len({len(team) for team in record["teams"]}) == 1
    )


def variance_unit(record: Mapping[str, Any]) -> tuple[Hashable, bool]:
    """The unit of ``PointsEvidence``'s gap variance that a rated match's deals join, and
    whether the match closes it: the match itself, or in a duplicate run (``block`` and
    ``rotation``) the block at its table, closed by its last rotation. A block's
    rotations play the same deals, so their cards' luck cancels in their sum, and
    counting them apart would keep it in the measured variance. Two assumptions, both
    stated in docs/results.md: the tables of one block, which deal the same hands, count
    apart; and where matches end after different numbers of deals at different rotations
    (a match to a target), the luck of the deals not every rotation reached stays in."""
    block, turn = record.get("block"), record.get("rotation")
    if isinstance(block, int) and isinstance(turn, int):
        return (block, record.get("table")), turn == len(record["seats"]) - 1
    return None, True


class _Kind:
    """The evidence of one table make-up (``PointsEvidence``): its per-deal information
    matrix, and the sums over its matches that the gaps' sandwich variance needs."""

    def __init__(self, key: tuple[tuple[int, ...], ...]) -> None:
        self.key = key
        self.members = [i for team in key for i in team]
        team_of = [t for t, team in enumerate(key) for _ in team]
        weights = [1.0 / len(team) for team in key]
        total = sum(weights)
        self.matrix = [
            [
                (weights[tx] if tx == ty else 0.0) - weights[tx] * weights[ty] / total
                for ty in team_of
            ]
            for tx in team_of
        ]
        k = len(self.members)
        self.dealt = 0  # deals observed, open units' included
        self.total = [0.0] * k  # their g, summed
        self.units = 0  # matches (closed units)
        self.n1 = 0.0  # sum of deals per match
        self.n2 = 0.0  # of their squares
        self.ng = [0.0] * k  # sum of n g
        self.gg = [[0.0] * k for _ in range(k)]  # sum of g g^T

    def add(self, g: Sequence[float], deals: int) -> None:
        self.units += 1
        self.n1 += deals
        self.n2 += deals * deals
        for x, gx in enumerate(g):
            self.ng[x] += deals * gx
            row = self.gg[x]
            for y, gy in enumerate(g):
                row[y] += gx * gy

    def quadratic(self, c: Sequence[float]) -> float:
        """c^T P c for one deal of this make-up (c over all entrants)."""
        cl = [c[i] for i in self.members]
        return sum(cl[x] * sum(r * cy for r, cy in zip(row, cl, strict=True))
                   for x, row in enumerate(self.matrix))  # fmt: skip

    def noise(
        self, means: Sequence[float], open_units: Iterable[_Unit]
    ) -> tuple[float, float, int]:
        """This make-up's residual sum of squares over its units, sum |u|^2 with u = g -
        n P m, the same expected under the model with noise 1 (trace(P) times the deals),
        and the number of units: their ratio estimates its noise per deal (a duplicate
        block's u sums its rotations, so the cards' luck that cancels is not in it)."""
        ml = [means[i] for i in self.members]
        pm = [sum(r * v for r, v in zip(row, ml, strict=True)) for row in self.matrix]
        squares = (
            sum(self.gg[x][x] for x in range(len(pm)))
            - 2.0 * sum(p * q for p, q in zip(pm, self.ng, strict=True))
            + sum(p * p for p in pm) * self.n2
        )
        deals, units = self.n1, self.units
        for key, g, n in open_units:
            if key == self.key:
                squares += sum((gx - n * p) ** 2 for gx, p in zip(g, pm, strict=True))
                deals += n
                units += 1
        trace = sum(self.matrix[x][x] for x in range(len(pm)))
        return max(squares, 0.0), trace * deals, units

    def spread(
        self,
        c: Sequence[float],
        means: Sequence[float],
        open_units: Iterable[_Unit],
    ) -> float:
        """Sum over this make-up's matches of (c^T u)^2, u = g - n P m the match's
        residual score (the ones still open included)."""
        cl = [c[i] for i in self.members]
        ml = [means[i] for i in self.members]
        q = sum(cl[x] * sum(row[y] * ml[y] for y in range(len(ml)))
                for x, row in enumerate(self.matrix))  # c^T P m  # fmt: skip
        total = (
            sum(
                cl[x] * sum(r * cy for r, cy in zip(row, cl, strict=True))
                for x, row in enumerate(self.gg)
            )  # fmt: skip
            - 2.0 * q * sum(a * b for a, b in zip(cl, self.ng, strict=True))
            + q * q * self.n2
        )
        for key, g, deals in open_units:
            if key == self.key:
                residual = sum(a * b for a, b in zip(cl, g, strict=True)) - deals * q
                total += residual * residual
        return max(total, 0.0)


class BotEvidence:
    """The deals of a run with every entrant of one bot counted as one skill: what
    ``--until-settled`` tests when a field holds the same bot under two names (``shrewd#1``,
    ``shrewd#2``; issue 29). Those entrants are equal by construction, so the gap
    between two bots is estimated from both copies' deals at once: a pair of single
    entrants has about half of that evidence (docs/results.md measures what it costs a
    default field's stop). The estimates and variances are ``PointsEvidence``'s (a
    team holding one bot twice counts its skill twice; one bot on both teams cancels),
    in points, with the same point scale (``PointScale``) and prior as ``Ratings``.
    Matches that ``Ratings`` rates by places (an offender, teams of unequal sizes, no
    ``deal_points``) add nothing here, as there."""

    def __init__(self, bot_of: Mapping[str, str], params: RatingParams = DEFAULT_PARAMS) -> None:
        self.bot_of = dict(bot_of)  # entrant -> its bot (spec and options)
        self.params = params
        self._scale = PointScale()
        self._evidence = PointsEvidence()

    def add(self, record: Mapping[str, Any]) -> None:
        """A rated match (in schedule order, as ``Ratings.rate_match`` takes them)."""
        if not rated_by_points(record):
            return
        teams: Sequence[Sequence[int]] = record["teams"]
        seats: Sequence[str] = record["seats"]
        names = [[self.bot_of.get(seats[s], seats[s]) for s in team] for team in teams]
        unit, last = variance_unit(record)
        for points in rated_points(record):
            scores = team_points(teams, points)
            self._scale.observe(names, scores)
            self._evidence.observe(names, scores, unit)
        if last:
            self._evidence.close(unit)

    def __contains__(self, bot: object) -> bool:
        return bot in self._evidence.index

    def gap_and_spread(self, a: str, b: str) -> tuple[float, float, float] | None:
        """Bot ``a``'s skill less bot ``b``'s in points, its variance (the sandwich of
        ``PointsEvidence.gap``) and the spread of their difference in one deal (as
        ``Ratings.gap_and_spread``), or None while the evidence cannot say."""
        variance = self._scale.variance()
        if variance <= 0.0 or not self._evidence.usable() or a not in self or b not in self:
            return None
        prior = self.params.sigma * math.sqrt(variance) / self.params.beta
        gap, measured, assumed = self._evidence.gap(a, b, variance, prior)
        return gap, measured, _measured_spread(math.sqrt(2.0 * variance), measured, assumed)


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
        self._scale = PointScale()
        self._evidence = PointsEvidence()
        self._ratings: dict[str, Any] = {}  # name -> trueskill.Rating
        # What the ratings would be without the matches rated by places (a disqualified or
        # forfeiting seat, teams of unequal sizes), as (mu, sigma): kept from the first
        # such match on (None: none yet, so it is ``_ratings``). ``estimate`` adds what
        # those matches moved mu by.
        self._by_points: dict[str, tuple[float, float]] | None = None
        self._placed: set[str] = set()  # entrants whose mu a match rated by places moved
        self._offended: set[str] = set()  # entrants rated by _rate_offence at least once
        # (block, table) -> the block's records so far, waiting for its last rotation
        self._blocks: dict[tuple[int, int], list[Mapping[str, Any]]] = {}

    def rating(self, name: str) -> Rating:
        r = self._ratings.get(name)
        if r is None:
            return Rating(self.params.mu, self.params.sigma)
        return Rating(float(r.mu), float(r.sigma))

    def expose(self, name: str) -> float:
        """The conservative rating mu - 3 sigma (shown; the leaderboard sorts by
        ``estimate``)."""
        return self.rating(name).conservative

    def _exact(self) -> float | None:
        """Points a unit of skill is worth, when the leaderboard's figures come from the
        whole evidence (``PointsEvidence``: points ratings with tau 0, up to its LIMIT of
        entrants); else None, and they come from the TrueSkill ratings."""
        variance = self._scale.variance()
        if self.params.whole_evidence and variance > 0.0 and self._evidence.usable():
            return math.sqrt(variance) / self.params.beta
        return None

    def estimate(self, name: str) -> float:
        """The leaderboard's sort key, in skill units (TrueSkill's scale): the best
        estimate of the entrant's skill the arena has. With the whole evidence, the
        posterior mean of the Gaussian model over every deal rated by points, mu0 + m /
        (points a unit is worth) (``PointsEvidence.estimates``: it ranks as well as the
        plain mean of the points, where mu - 3 sigma ranks worse, issue 29). Matches
        rated by places (a disqualified or forfeiting seat, teams of unequal sizes) are
        not in that evidence: they move the estimate of each entrant they rated by what
        they moved its mu (its mu less the mu it would have without them), so a
        disqualification costs there what it costs in TrueSkill. An entrant with no deal
        in the evidence, or any entrant when there is no such evidence, is placed by its
        TrueSkill mu."""
        per_unit = self._exact()
        if per_unit is None or name not in self._evidence.index:
            return self.rating(name).mu
        variance = self._scale.variance()
        prior = self.params.sigma * per_unit
        own = self.params.mu + self._evidence.estimates(variance, prior)[name] / per_unit
        if self._by_points is not None and name in self._placed:
            alone = self._by_points.get(name, (self.params.mu, self.params.sigma))
            own += self.rating(name).mu - alone[0]
        return own

    def ranked(self, names: Iterable[str]) -> list[str]:
        """``names`` best first: by ``estimate``, then mu, then name."""
        return sorted(names, key=lambda n: (-self.estimate(n), -self.rating(n).mu, n))

    def gap(self, a: str, b: str) -> tuple[float, float]:
        """The estimate of skill a - skill b in skill units and its variance: the
        difference of the two ``estimate`` values, with the variance measured from the
        pair's own evidence (``PointsEvidence.gap``), or, for an entrant outside the
        evidence, sigma_a^2 + sigma_b^2 of the ratings."""
        per_unit = self._exact()
        if per_unit is None or not self._in_evidence(a, b):
            ra, rb = self.rating(a), self.rating(b)
            return self.estimate(a) - self.estimate(b), ra.sigma**2 + rb.sigma**2
        variance = self._scale.variance()
        _, spread, _ = self._evidence.gap(a, b, variance, self.params.sigma * per_unit)
        return self.estimate(a) - self.estimate(b), spread / per_unit**2

    def _in_evidence(self, a: str, b: str) -> bool:
        """Whether the gap's variance comes from the evidence: both entrants have deals
        in it and neither has offended (``_rate_offence``: its losses are not points, so
        its gap's variance is that of the two ratings)."""
        index = self._evidence.index
        return a in index and b in index and not (self.offended(a) or self.offended(b))

    def offended(self, name: str) -> bool:
        """Whether ``name`` was disqualified or forfeited in a rated match (``_rate_offence``):
        its estimate then carries a penalty that no evidence of points holds."""
        return name in self._offended

    def gap_and_spread(self, a: str, b: str) -> tuple[float, float, float]:
        """``gap`` (the estimate and its variance) and the standard deviation, in skill
        units, of the difference of ``a``'s and ``b``'s performances in one deal as
        their own evidence shows it (the model says sqrt(2) beta; the measured variance
        of their gap, over the model's, corrects it): what ``--until-settled``'s margin is
        measured in."""
        model = math.sqrt(2.0) * self.params.beta
        per_unit = self._exact()
        if per_unit is None or not self._in_evidence(a, b):
            return (*self.gap(a, b), model)
        variance = self._scale.variance()
        prior = self.params.sigma * per_unit
        _, measured, assumed = self._evidence.gap(a, b, variance, prior)
        spread = _measured_spread(model, measured, assumed)
        return self.estimate(a) - self.estimate(b), measured / per_unit**2, spread

    def prob_better(self, a: str, b: str) -> float:
        """The probability that ``a``'s skill exceeds ``b``'s: the leaderboard's
        P(>next), from ``gap``. It is above a half exactly when ``a``'s estimate is
        above ``b``'s, so it agrees with the order."""
        return _above_zero(*self.gap(a, b))

    def settled(self, ranked: Sequence[str], level: float = SETTLED) -> bool:
        """Whether an order of entrants (best first) has each better than the next one
        down with probability ``level`` or more (``prob_better``)."""
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
        points = [rated_points(r) for r in by_rotation]
        deals = min(len(p) for p in points)
        for deal in range(deals):
            for hand in range(seats):
                holders = [
                    (r["seats"][(hand - turn) % seats], points[turn][deal][(hand - turn) % seats])
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
            if rated_by_points(record) and self._rates_deals(record, where):
                self._rate_points(record, where)
            else:
                if self._by_points is None:  # the tracks part here (see ``estimate``)
                    self._by_points = {n: (r.mu, r.sigma) for n, r in self._ratings.items()}
                self._placed.update(record["seats"])
                self._rate(record, rating_ranks(record), where)
            return
        if unit != "match" and self._rates_deals(record, where):
            points = rated_points(record)
            for deal in range(len(points)):
                self._rate(record, deal_ranks(record, deal, self.params.margin, points), where)
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
        if self._by_points is None:  # the tracks part here (see ``estimate``)
            self._by_points = {n: (r.mu, r.sigma) for n, r in self._ratings.items()}
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
        self._placed.update(self._offended)

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
        unit, last = variance_unit(record)
        for points in rated_points(record):
            scores = team_points(teams, points)
            self._scale.observe(names, scores)
            self._evidence.observe(names, scores, unit)
            variance = self._scale.variance()
            if variance <= 0.0:
                continue  # every deal so far was level: nothing yet sets a point's worth
            per_unit = math.sqrt(variance) / self.params.beta  # points a unit of skill
            current = [[self._current(name) for name in team] for team in names]
            rated = gaussian_margins(
                [[(float(r.mu), float(r.sigma)) for r in team] for team in current],
                [p / per_unit for p in scores],
                beta=self.params.beta,
                tau=self.params.tau,
            )
            for team, new in zip(names, rated, strict=True):
                for name, (mu, sigma) in zip(team, new, strict=True):
                    self._ratings[name] = trueskill.Rating(mu, sigma)
            if self._by_points is not None:
                prior = (self.params.mu, self.params.sigma)
                alone = gaussian_margins(
                    [[self._by_points.get(name, prior) for name in team] for team in names],
                    [p / per_unit for p in scores],
                    beta=self.params.beta,
                    tau=self.params.tau,
                )
                for team, new in zip(names, alone, strict=True):
                    self._by_points.update(zip(team, new, strict=True))
        if last:
            self._evidence.close(unit)

    def rate_all(self, records: Iterable[Mapping[str, Any]]) -> None:
        """Rate matches in schedule order (round, table, match id), so that the order in
        which concurrent tables finished never changes the ratings."""
        for record in sorted(records, key=match_order):
            self.rate_match(record)
        self.flush()

    def _current(self, name: str) -> Any:
        r = self._ratings.get(name)
        return self._env.create_rating() if r is None else r
