"""``--until-settled``: stop a tournament once its leaderboard's order is known.

After each round (in a duplicate run, after each block's last rotation) the matches are
rated in schedule order, as the leaderboard rates them, and the run stops when every
entrant is better than the next one down with probability ``SETTLED`` or more
(``arena.standings.ratings.Ratings.settled``); ``--rounds`` is the cap. A runner asks
``stop_before(round)``
before it starts a table of a new round and feeds every finished match to ``add``
(resumed ones too), so a resumed run stops where the uninterrupted one would have.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from arena.standings.ratings import DEFAULT_PARAMS, RatingParams, Ratings, match_order


class RoundPlan(Protocol):
    """What the watch needs of a ``TournamentPlan``."""

    rounds: int

    def settles_after(self, round_number: int) -> bool: ...


class UntilSettled:
    """Watches a run's finished matches and says when to stop."""

    def __init__(
        self,
        plan: RoundPlan,
        entrants: Sequence[str],
        matches_per_round: Mapping[int, int],
        params: RatingParams = DEFAULT_PARAMS,
    ) -> None:
        self.plan = plan
        self.entrants = list(entrants)
        self.ratings = Ratings(params)
        self._expected = dict(matches_per_round)  # round -> matches scheduled in it
        self._waiting: dict[int, list[Mapping[str, Any]]] = {}
        self._rated = 0  # every round up to this one is rated
        self.stopped_after: int | None = None  # the round after which the order settled

    def add(self, record: Mapping[str, Any]) -> None:
        """A finished match (in any order)."""
        self._waiting.setdefault(int(record["round"]), []).append(record)

    def complete_before(self, round_number: int) -> bool:
        """Whether every match of the rounds before ``round_number`` has finished."""
        return all(
            len(self._waiting.get(r, ())) >= self._expected.get(r, 0)
            for r in range(self._rated + 1, round_number)
        )

    def stop_before(self, round_number: int) -> bool:
        """Whether to stop rather than start round ``round_number``: every earlier round
        has finished, the last of them may end a run, and the order is settled then."""
        if self.stopped_after is not None:
            return round_number > self.stopped_after
        if not self.complete_before(round_number):
            return False
        for r in range(self._rated + 1, round_number):
            for record in sorted(self._waiting.pop(r, []), key=match_order):
                self.ratings.rate_match(record)  # not rate_all: a block is rated whole
            self._rated = r
            if self.plan.settles_after(r) and self.is_settled():
                self.stopped_after = r
                return True
        return False

    def is_settled(self) -> bool:
        ranked = sorted(self.entrants, key=lambda n: (-self.ratings.expose(n), n))
        return self.ratings.settled(ranked)

    def verdict(self, played_rounds: int) -> str:
        """What the run says at its end: settled after R rounds, or the cap reached."""
        if self.stopped_after is not None:
            return (
                f"stopped after {self.stopped_after} of {self.plan.rounds} rounds: the order "
                "is settled (each entrant better than the next with 95% probability or more)"
            )
        if self.complete_before(played_rounds + 1):
            self.stop_before(played_rounds + 1)
            if self.stopped_after is not None:
                return self.verdict(played_rounds)
        return f"reached the cap of {self.plan.rounds} rounds (--rounds) before the order settled"
