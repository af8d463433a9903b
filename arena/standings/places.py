"""The one rule for a match's places: what every reader of a result shows or rates.

A seat that was disqualified from a match (the strike limit) or forfeited it (stayed
away past the grace period) is an *offender*. Its place is below every seat that was
not, whatever its total; among offenders, and among the others, the game's own order by
total stands (``raw_ranks``: C14/T7, R12, F10).

Team games (Truco, Ruff's double form) follow the same rule seat by seat: the offender
places last, and its partner keeps the place its team earned, among the seats that did
not offend. The offence punishes the offender and never its partner (whom the schedule
seated at random). docs/results.md, "Places", states it for authors of other readers.

``matches.jsonl`` records these places as ``ranks`` and the game's raw order as
``raw_ranks``; a file written before ``raw_ranks`` existed holds the raw order in
``ranks``, and ``record_places`` turns either into places (the rule is idempotent).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def offenders(record: Mapping[str, Any]) -> list[bool]:
    """Per seat: disqualified or forfeiting in this match."""
    n = len(record["seats"])
    disqualified = record.get("disqualified") or [False] * n
    forfeit = record.get("forfeit") or [False] * n
    return [bool(disqualified[s] or forfeit[s]) for s in range(n)]


def places(
    raw_ranks: Sequence[int], out: Sequence[bool], teams: Sequence[Sequence[int]]
) -> list[int]:
    """Each seat's place (1 is best): the offenders (``out``) below every other seat, the
    raw order kept within both groups. A place is 1 + the number of *sides* strictly
    ahead, a side being a team's seats that did not offend, or those that did, so that
    with no offender the places are the game's own ranks (partners share theirs, R12/F10)
    and ties stay shared."""
    key = [(bool(out[s]), raw_ranks[s]) for s in range(len(raw_ranks))]
    sides: dict[tuple[int, bool], tuple[bool, int]] = {}
    for t, team in enumerate(teams):
        for s in team:  # a side stands where its best seat does
            side = (t, key[s][0])
            sides[side] = min(sides.get(side, key[s]), key[s])
    return [1 + sum(other < key[s] for other in sides.values()) for s in range(len(key))]


def raw_ranks(record: Mapping[str, Any]) -> list[int]:
    """The game's own order by total: ``raw_ranks``, or ``ranks`` in an older line."""
    return list(record.get("raw_ranks") or record["ranks"])


def record_places(record: Mapping[str, Any]) -> list[int]:
    """A ``matches.jsonl`` line's places by the rule above, whatever its age."""
    return places(raw_ranks(record), offenders(record), record["teams"])


def winners(record: Mapping[str, Any]) -> list[bool]:
    """Per seat: it placed first."""
    return [p == 1 for p in record_places(record)]
