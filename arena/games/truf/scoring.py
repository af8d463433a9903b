"""Scoring a deal (C13, T6) and ranking a match (C14, T7)."""

from __future__ import annotations

from collections.abc import Sequence

from arena.games.truf.actions import Mode
from arena.games.truf.rules import ScoringMethod


def classic_score(
    mode: Mode, bid: int, tricks: int, method: ScoringMethod, multiplier: int, zero_bonus: int = 5
) -> int:
    """Ruling C13. ``bid`` is the bid as adjusted by C5."""
    d = tricks - bid if mode is Mode.ATAS else bid - tricks
    # Method 2: a bawah seat whose adjusted bid is 0 and took nothing; a -1 bid does not count.
    if method.zero_bonus and mode is Mode.BAWAH and bid == 0 and tricks == 0:
        return zero_bonus  # replaces the score and is never multiplied (2+3)
    if method.multiplies and d > 0:
        return d * multiplier
    return d


def target_score(mode: Mode, target: int, tricks: int, highest_target: int) -> int:
    """Ruling T6."""
    if target == 0 and tricks == 0:
        return highest_target
    if tricks == target:
        return target
    diff = abs(tricks - target)
    over = tricks > target
    if mode is Mode.ATAS:  # noqa: SIM108 (the two modes side by side read as T6 does)
        penalty = diff if over else 2 * diff
    else:
        penalty = 2 * diff if over else diff
    if target == 0:
        penalty += 2  # target 0 and some tricks: the normal penalty and 2 more
    return -penalty


def ranks_of(totals: Sequence[int]) -> list[int]:
    """Rulings C14/T7: rank = 1 + the number of seats with a strictly higher total."""
    return [1 + sum(1 for other in totals if other > t) for t in totals]
