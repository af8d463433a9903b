"""One rating of a run, shared: every finished match is rated once, in schedule order, and
the live display, ``--until-settled``, the leaderboard and the report all read it (issue 29:
before, each rated every match again, and rating cost more than playing).

Matches may finish in any order (concurrent tables, worker processes, a resumed run's
earlier matches). A match is rated as soon as every match scheduled before it has been
rated, so the ratings after any prefix of the schedule are those ``Ratings.rate_all`` gives
for that prefix, whatever the order of finishing: a resumed run ends with the ratings of
an uninterrupted one. At the end, ``finish`` rates whatever finished after a gap (a run
stopped early) in schedule order, as ``rate_all`` would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from arena.standings.ratings import DEFAULT_PARAMS, RatingParams, Ratings, match_order

Key = tuple[int, int, str]


class RunRatings:
    """The ratings of one run's finished matches, rated once each in schedule order.

    ``schedule``: the (round, table, match id) of every scheduled match. ``on_round_end``
    listeners are called with r each time the ratings hold exactly the matches of rounds
    1..r (before any match of a later round is rated): ``--until-settled`` decides there.
    """

    def __init__(
        self, schedule: Iterable[Key] | None, params: RatingParams = DEFAULT_PARAMS
    ) -> None:
        self.ratings = Ratings(params)
        # None: no schedule known, every match is rated as it comes
        self._ordered = schedule is not None
        self._schedule = sorted(schedule or ())
        self._next = 0  # schedule[:_next] are rated
        self._waiting: dict[str, Mapping[str, Any]] = {}  # finished, not yet rated
        self._seen: set[str] = set()
        self._rated: list[Mapping[str, Any]] = []  # in the order rated
        # after each rated match: every rated entrant's (mu, sigma), for the report
        self._history: list[dict[str, tuple[float, float]]] = []
        self.on_round_end: list[Callable[[int], None]] = []
        self.on_rated: list[Callable[[Mapping[str, Any]], None]] = []  # each match, once rated
        self._finished = False

    def add(self, record: Mapping[str, Any]) -> None:
        """A finished match (any order; a match given twice counts once)."""
        match = str(record["match"])
        if match in self._seen:
            return
        if self._finished:
            raise RuntimeError("the run's ratings are finished: no match can be added")
        self._seen.add(match)
        if not self._ordered:
            self._rate(record)
            return
        self._waiting[match] = record
        while self._next < len(self._schedule):
            key = self._schedule[self._next]
            if key[2] not in self._waiting:
                break
            self._rate(self._waiting.pop(key[2]))
            self._next += 1
            if self._next == len(self._schedule) or self._schedule[self._next][0] != key[0]:
                for listener in self.on_round_end:
                    listener(key[0])

    def update(self, record: Mapping[str, Any], decisions: int) -> None:
        """``add``, in the shape of the live display's ``update`` (for --quiet)."""
        self.add(record)

    def rated_through(self) -> int:
        """The last round whose matches are all rated (0: none)."""
        if self._next == len(self._schedule):
            return self._schedule[-1][0] if self._schedule else 0
        return self._schedule[self._next][0] - 1

    def _rate(self, record: Mapping[str, Any]) -> None:
        self.ratings.rate_match(record)
        self._rated.append(record)
        for listener in self.on_rated:
            listener(record)
        ratings = self.ratings
        self._history.append({n: (ratings.rating(n).mu, ratings.rating(n).sigma)
                              for n in ratings.names()})  # fmt: skip

    def finish(self, records: Iterable[Mapping[str, Any]] = ()) -> Ratings:
        """The ratings of every finished match: ``records`` (the results file's, any not
        given to ``add`` are added) and every match added. Those that finished after a gap in
        the schedule are rated now, in schedule order, and duplicate blocks cut short are
        rated deal by deal (``Ratings.flush``). No match may be added after this."""
        for record in records:
            self.add(record)
        if not self._finished:
            for record in sorted(self._waiting.values(), key=match_order):
                self._rate(record)
            self._waiting.clear()
            self.ratings.flush()
            self._finished = True
        return self.ratings

    def matches(self) -> set[str]:
        """The ids of every match added."""
        return set(self._seen)

    def history(self, names: Sequence[str]) -> dict[str, Any]:
        """``names``' mu and sigma before any match and after each rated one, in schedule
        order (the report's rating chart; an entrant not yet rated has the prior)."""
        prior = self.ratings.params
        start = (prior.mu, prior.sigma)
        mu = {n: [round(prior.mu, 2)] for n in names}
        sigma = {n: [round(prior.sigma, 2)] for n in names}
        for snapshot in self._history:
            for n in names:
                m, s = snapshot.get(n, start)
                mu[n].append(round(m, 2))
                sigma[n].append(round(s, 2))
        labels = ["start", *(str(r["match"]) for r in self._rated)]
        return {"mu": mu, "sigma": sigma, "labels": labels}
