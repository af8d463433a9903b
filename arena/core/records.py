"""The envelope every game's replay record starts with, so that game-neutral readers
(resume, verify, group-by-match) find the same fields whatever the game."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def envelope(
    game: str, schema: int, match_id: str, deal: int, seats: Sequence[str]
) -> dict[str, Any]:
    """``{"schema", "game", "match", "deal", "seats"}``: which game and record format,
    which match, the 1-based number of the dealing of cards (a Truf deal, a Truco hand),
    and the entrant at each seat."""
    return {"schema": schema, "game": game, "match": match_id, "deal": deal, "seats": list(seats)}


def deal_points(deals: Sequence[Mapping[str, Any]], seats: int) -> list[list[int]]:
    """Each deal's points per seat, from the deal records' cumulative per-seat ``totals``
    (every game's deal record carries them): what rating deal by deal reads."""
    out: list[list[int]] = []
    before = [0] * seats
    for deal in deals:
        totals = deal["totals"]
        out.append([totals[s] - before[s] for s in range(seats)])
        before = list(totals)
    return out


def corrected_seats(uniform: Iterable[int], out: Sequence[bool]) -> list[int]:
    """``--correct-random``: the seats of ``uniform`` (the bundled random bot's) whose luck
    a match line takes out: every one but a seat ``out`` of the match (disqualified or
    forfeiting: the fallback played it unasked, no uniform choice)."""
    return [s for s in uniform if not out[s]]
