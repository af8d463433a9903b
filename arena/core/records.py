"""The envelope every game's replay record starts with, so that game-neutral readers
(resume, verify, group-by-match) find the same fields whatever the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def envelope(
    game: str, schema: int, match_id: str, deal: int, seats: Sequence[str]
) -> dict[str, Any]:
    """``{"schema", "game", "match", "deal", "seats"}``: which game and record format,
    which match, the 1-based number of the dealing of cards (a Truf deal, a Truco hand),
    and the entrant at each seat."""
    return {"schema": schema, "game": game, "match": match_id, "deal": deal, "seats": list(seats)}
