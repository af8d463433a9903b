"""Seats round a table, for any game and any table size: play order and alternating teams."""

from __future__ import annotations


def ring(start: int, seats: int, step: int = 1) -> tuple[int, ...]:
    """Every seat once, in play order from ``start`` (``step`` -1 for the other way)."""
    return tuple((start + i * step) % seats for i in range(seats))


def alternating_teams(seats: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two teams that alternate round the table: even seats, odd seats."""
    return tuple(range(0, seats, 2)), tuple(range(1, seats, 2))
