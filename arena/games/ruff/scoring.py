"""Card points (ruling F8), the set (F9) and ranks (F10)."""

from __future__ import annotations

from collections.abc import Sequence


def card_points(cards_won: Sequence[int], par: int) -> list[int]:
    """One point per card a side took above ``par`` (ruling F8); none below it."""
    return [max(0, won - par) for won in cards_won]


def set_winners(scores: Sequence[int], set_points: int) -> set[int] | None:
    """The sides that win the set after a scoring, or None while no side has reached it:
    the highest total among those at or past ``set_points``, equal totals sharing (F9)."""
    reached = [s for s in scores if s >= set_points]
    if not reached:
        return None
    top = max(reached)
    return {side for side, s in enumerate(scores) if s == top}


def side_ranks(scores: Sequence[int], winners: set[int] | None) -> list[int]:
    """Each side's rank (ruling F10): the set's winners 1, the others 1 + the sides
    strictly ahead by total (a match still in play ranks by total alone)."""
    out = []
    for side, score in enumerate(scores):
        if winners is not None and side in winners:
            out.append(1)
        else:
            ahead = sum(1 for other, s in enumerate(scores) if s > score or (
                winners is not None and other in winners))  # fmt: skip
            out.append(1 + ahead)
    return out
