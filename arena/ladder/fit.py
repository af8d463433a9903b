"""The ladder's order-free ratings: the exact posterior of all the evidence at once.

TrueSkill rates each match as it ends, and its result depends on the order the matches
came in (each update approximates, and the approximations compound). Bots do not change
within a version, so the ladder also keeps the whole evidence and solves for the exact
posterior of the same Gaussian model the points ratings use (``arena.ratings``: a
seat's performance is its skill plus N(0, beta^2) noise, a deal's points observe the
teams' performances up to a shift common to the deal). The evidence is a sum over deals,
so it does not depend on their order, and neither does the posterior; only the worth of
a point (``arena.ratings.PointScale``, also a sum) is read when solving.

With skills in points (one unit of skill is ``sqrt(v) / beta`` points), the prior
N(mu0, sigma0^2) and the information ``A`` and vector ``b`` that ``PointsEvidence``
describes (in units of 1 / v), the posterior is

    mean = mu0 + (A + r I)^-1 b * beta / sqrt(v),   cov = beta^2 (A + r I)^-1,

with the ridge ``r = beta^2 / sigma0^2`` (the prior's precision in the same units,
whatever v is). Matches rated by places (a disqualified or forfeiting seat) are not
points evidence: they are in the TrueSkill ratings only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from arena.standings.ratings import (
    DEFAULT_PARAMS,
    PointScale,
    Rating,
    RatingParams,
    rated_points,
    team_points,
)


def rated_by_points(record: Mapping[str, Any]) -> bool:
    """Whether ``arena.ratings.Ratings`` rates this record deal by deal by its points."""
    teams = record["teams"]
    if len({len(team) for team in teams}) != 1 or not record.get("deal_points"):
        return False
    out = [*(record.get("disqualified") or ()), *(record.get("forfeit") or ())]
    return not any(out)


class Evidence:
    """Every deal's points so far as the posterior's information matrix and vector,
    grown as matches end, and the point scale learnt from the same deals."""

    def __init__(self, params: RatingParams = DEFAULT_PARAMS) -> None:
        self.params = params
        self.index: dict[str, int] = {}
        self.info = np.zeros((0, 0))
        self.vector = np.zeros(0)
        self.scale = PointScale()
        self.deals = 0

    def _grow(self, names: Sequence[str]) -> None:
        new = [n for n in dict.fromkeys(names) if n not in self.index]
        if not new:
            return
        for n in new:
            self.index[n] = len(self.index)
        size = len(self.index)
        if size > self.info.shape[0]:
            room = max(size, 2 * self.info.shape[0], 16)
            info = np.zeros((room, room))
            old = self.info.shape[0]
            info[:old, :old] = self.info
            vector = np.zeros(room)
            vector[:old] = self.vector
            self.info, self.vector = info, vector

    def add(self, record: Mapping[str, Any]) -> None:
        """Add a finished match (nothing, if it is not rated by points)."""
        if not rated_by_points(record):
            return
        seats: Sequence[str] = record["seats"]
        teams: Sequence[Sequence[int]] = record["teams"]
        names = [[seats[s] for s in team] for team in teams]
        self._grow(seats)
        ids = [[self.index[n] for n in team] for team in names]
        weights = np.array([1.0 / len(team) for team in teams])
        total = float(weights.sum())
        # M maps the entrants to their teams; the deal adds M^T (W - w w^T / sum w) M.
        block = np.diag(weights) - np.outer(weights, weights) / total
        members = [i for team in ids for i in team]
        team_of = [t for t, team in enumerate(ids) for _ in team]
        sub = block[np.ix_(team_of, team_of)]
        for points in rated_points(record):
            scores = team_points(teams, points)
            self.scale.observe(names, scores)
            y = np.array(scores, dtype=float)
            centred = weights * (y - float(weights @ y) / total)
            self.info[np.ix_(members, members)] += sub
            np.add.at(self.vector, members, centred[team_of])
            self.deals += 1

    def snapshot(self) -> Snapshot:
        """A copy of the evidence to solve away from the event loop."""
        n = len(self.index)
        return Snapshot(
            dict(self.index),
            self.info[:n, :n].copy(),
            self.vector[:n].copy(),
            self.scale.variance(),
            self.params,
        )


@dataclass(frozen=True)
class Snapshot:
    index: dict[str, int]
    info: Any
    vector: Any
    variance: float
    params: RatingParams


def solve(snap: Snapshot) -> dict[str, Rating]:
    """The posterior of every rating row's skill (mean and standard deviation) given all
    the deals in ``snap``: independent of the order they came in."""
    n = len(snap.index)
    if n == 0 or snap.variance <= 0.0:
        return {}
    p = snap.params
    ridge = p.beta**2 / p.sigma**2
    cov = np.linalg.inv(snap.info + ridge * np.eye(n))
    mean = cov @ snap.vector
    per_point = p.beta / math.sqrt(snap.variance)  # skill units per point
    return {
        name: Rating(float(p.mu + mean[i] * per_point), float(p.beta * math.sqrt(cov[i, i])))
        for name, i in snap.index.items()
    }
