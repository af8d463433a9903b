"""Truco deal files: given hands instead of seeded shuffles.

Format (JSON Lines, documented in ``docs/results.md``): one hand per line, an object
``{"hands": [["1E", "7O", "4B"], ...]}`` with one list of three card codes per seat
(``hands[s]`` is seat ``s``'s). Hand ``h`` of every match plays line ``h`` of the file;
the hands after the file's last are dealt from the match seed. The dealer is never
given: ruling R3 draws the first from the match seed and rotates it. Blank lines are
skipped.
"""

from __future__ import annotations

from pathlib import Path

from arena.core.dealfiles import json_line, load_lines
from arena.core.errors import DealError
from arena.games.truco.cards import Card
from arena.games.truco.state import HandSpec, check_hands


class HandFileError(DealError):
    """A Truco deal file that cannot be used; says which file, which line and what."""


def parse_hand_line(text: str, name: str, line: int, seats: int, shown: str) -> HandSpec:
    """One line of a Truco deal file: ``name`` goes into the hand's source in the log,
    errors name the file as ``shown``."""
    where = f"{shown} line {line}"
    data = json_line(text, where, HandFileError)
    if not isinstance(data, dict) or "hands" not in data:
        raise HandFileError(f'{where}: expected an object with "hands": {seats} lists of 3 cards')
    unknown = set(data) - {"hands", "id"}
    if unknown:
        raise HandFileError(
            f"{where}: unknown field(s) {sorted(unknown)} (the dealer is never given: R3)"
        )
    hands = data["hands"]
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise HandFileError(f'{where}: "hands" must be a list of {seats} lists of card codes')
    try:
        parsed = tuple(tuple(Card.parse(str(c)) for c in h) for h in hands)
        check_hands(parsed, seats)
    except (ValueError, DealError) as exc:
        raise HandFileError(f"{where}: {exc}") from None
    return HandSpec(parsed, None, f"file:{name}:{line}")


def load_hands(path: str | Path, seats: int) -> list[HandSpec]:
    """Read and check a whole Truco deal file for a table of ``seats``; raise
    ``HandFileError`` naming the line and the problem."""

    def parse(text: str, name: str, line: int, shown: str) -> HandSpec:
        return parse_hand_line(text, name, line, seats, shown)

    return load_lines(path, parse, HandFileError, "hands")
