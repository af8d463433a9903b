"""Seats round a table, for any game and any table size: play order and alternating teams."""

from __future__ import annotations


def ring(start: int, seats: int, step: int = 1) -> tuple[int, ...]:
    """Every seat once, in play order from ``start`` (``step`` -1 for the other way)."""
    return tuple((start + i * step) % seats for i in range(seats))


def alternating_teams(seats: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two teams that alternate round the table: even seats, odd seats."""
    return tuple(range(0, seats, 2)), tuple(range(1, seats, 2))


def team_ranks(seats: int, team_of: list[int], winners: set[int]) -> list[int]:
    """Each seat's rank when the teams in ``winners`` share rank 1 and the rest rank 2
    (every team, if all of them are winners)."""
    return [1 if team_of[s] in winners else 2 for s in range(seats)]
