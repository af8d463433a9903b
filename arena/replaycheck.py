"""Checking a stored replay record against the engine's own, for any game."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


class ReplayMismatch(AssertionError):
    """A stored record that the engine does not reproduce (``deal``: its number, so that
    a caller can name the line it came from)."""

    def __init__(self, message: str, deal: int | None = None) -> None:
        super().__init__(message)
        self.deal = deal


def check_fields(
    where: str,
    got: Mapping[str, Any],
    logged: Mapping[str, Any],
    fields: Iterable[str],
    deal: int | None = None,
) -> None:
    """Raise ``ReplayMismatch`` naming ``where`` and the first of ``fields`` whose logged
    value differs from the engine's."""
    for field in fields:
        if got[field] != logged[field]:
            raise ReplayMismatch(
                f"{where}: field {field!r} logged as {logged[field]!r}, "
                f"engine gives {got[field]!r}",
                deal,
            )
