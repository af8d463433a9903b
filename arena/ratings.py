"""TrueSkill ratings of entrants, computed from ``matches.jsonl`` records.

This is the one module that touches the ``trueskill`` package (old and untyped): it
holds an explicit environment (never the global ``setup()``) and hands out our own
frozen ``Rating`` values. A match is rated as a free-for-all of its teams, so any
number of seats and any partnerships work; in Truf every seat is its own team.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import trueskill  # type: ignore[import-untyped]

# The leaderboard's sort key is the conservative rating mu - K * sigma: with K = 3 a new
# entrant (mu 25, sigma 25/3) starts at 0, and a bot must prove itself to rise.
K = 3.0


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
    # ranking, from the record's ``deal_points``), or "both" (the deals, then the match).
    # A record without ``deal_points``, or with a disqualified or forfeiting seat, is
    # always rated as a match: a fallback's deals say nothing of the bot.
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


UNITS = ("match", "deal", "both")


# Issue 16, measured by bench/ratings.py (README): every deal's ranking is rated, then
# the match's, and tau is 0 since bots do not change during a tournament, so sigma keeps
# shrinking.
DEFAULT_PARAMS = RatingParams(unit="both", tau=0.0)


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
    """Each team's rank for rating (1 is best; equal ranks are a draw).

    A team's rank is the rank of its seats (the best of them, should they differ). A
    team with a disqualified (or forfeiting) seat ranks below every team without one,
    whatever its total; among themselves, such teams keep their order. Ranks are then
    renumbered as 1 + the number of teams strictly ahead, so ties stay shared.
    """
    teams: Sequence[Sequence[int]] = record["teams"]
    ranks: Sequence[int] = record["ranks"]
    disqualified: Sequence[bool] = record.get("disqualified") or [False] * len(ranks)
    forfeit: Sequence[bool] = record.get("forfeit") or [False] * len(ranks)
    out = [disqualified[s] or forfeit[s] for s in range(len(ranks))]
    keys = [(any(out[s] for s in team), min(ranks[s] for s in team)) for team in teams]
    return [1 + sum(other < key for other in keys) for key in keys]


def deal_ranks(record: Mapping[str, Any], deal: int, margin: float = 0.0) -> list[int]:
    """Each team's rank in deal ``deal`` (0-based) of the record's ``deal_points``: by the
    points of its best seat (1 is best). Going down from the best, a team within
    ``margin`` points of the team above shares its rank (equal points always do)."""
    points: Sequence[float] = record["deal_points"][deal]
    keys = [max(points[s] for s in team) for team in record["teams"]]
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
    spread = math.hypot(a.sigma, b.sigma)
    if spread == 0.0:
        return 0.5 if a.mu == b.mu else float(a.mu > b.mu)
    return 0.5 * math.erfc((b.mu - a.mu) / (spread * math.sqrt(2.0)))


SETTLED = 0.95  # --until-settled: each entrant better than the next with this probability


def settled(ranked: Sequence[Rating], level: float = SETTLED) -> bool:
    """Whether a leaderboard's order is settled: each entrant (best first) is better than
    the next one down with probability ``level`` or more (``prob_better``)."""
    return all(prob_better(a, b) >= level for a, b in zip(ranked, ranked[1:], strict=False))


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
        self._ratings: dict[str, Any] = {}  # name -> trueskill.Rating
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
        unit = self.params.unit
        if unit != "match" and self._rates_deals(record, where):
            for deal in range(len(record["deal_points"])):
                self._rate(record, deal_ranks(record, deal, self.params.margin), where)
        if unit != "deal" or not self._rates_deals(record, where):
            self._rate(record, rating_ranks(record), where)

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

    def rate_all(self, records: Iterable[Mapping[str, Any]]) -> None:
        """Rate matches in schedule order (round, table, match id), so that the order in
        which concurrent tables finished never changes the ratings."""
        for record in sorted(records, key=match_order):
            self.rate_match(record)
        self.flush()

    def _current(self, name: str) -> Any:
        r = self._ratings.get(name)
        return self._env.create_rating() if r is None else r
