"""Errors the Truf engine raises: the arena's game-neutral ones (``arena.core.errors``),
named here too so that Truf's modules and older imports keep working."""

from __future__ import annotations

from arena.core.errors import ActionFormatError, DealError, RuleError

__all__ = ["ActionFormatError", "DealError", "RuleError"]
