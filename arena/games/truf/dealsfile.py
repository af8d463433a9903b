"""Deal files: given deals instead of seeded shuffles.

Format (JSON Lines, documented in ``docs/results.md``): one deal per line, an object
``{"hands": [[13 codes], [13 codes], [13 codes], [13 codes]], "dealer": 0}``. ``hands[s]``
is seat ``s``'s hand; codes are ``TD``, ``10D``, ``AS`` ...; ``dealer`` is optional (when
absent, ruling C7 chooses). Blank lines are skipped. Deal ``d`` of every match plays
line ``((d - 1) mod N) + 1`` of the file's N deals, so every table plays the same deals.
"""

from __future__ import annotations

from pathlib import Path

from arena.core.cards import CardError, parse_cards
from arena.core.dealfiles import json_line, load_lines
from arena.games.truf.errors import DealError
from arena.games.truf.state import SEATS, DealSpec, check_deal


class DealFileError(DealError):
    """A deal file that cannot be used; says which file, which line and what is wrong."""


def parse_deal_line(text: str, name: str, line: int, shown: str | None = None) -> DealSpec:
    """One line of a deal file. ``name`` goes into the deal's source in the replay log;
    errors name the file as ``shown`` (by default, ``name``)."""
    where = f"{shown or name} line {line}"
    data = json_line(text, where, DealFileError)
    if isinstance(data, list):
        data = {"hands": data}
    if not isinstance(data, dict) or "hands" not in data:
        raise DealFileError(f'{where}: expected an object with "hands": four lists of card codes')
    unknown = set(data) - {"hands", "dealer", "id"}
    if unknown:
        raise DealFileError(f"{where}: unknown field(s) {sorted(unknown)}")
    hands = data["hands"]
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise DealFileError(f'{where}: "hands" must be a list of {SEATS} lists of card codes')
    try:
        parsed = tuple(tuple(parse_cards(str(c) for c in h)) for h in hands)
        check_deal(parsed)
    except (CardError, DealError) as exc:
        raise DealFileError(f"{where}: {exc}") from None
    dealer = data.get("dealer")
    if dealer is not None and (type(dealer) is not int or not 0 <= dealer < SEATS):
        raise DealFileError(f'{where}: "dealer" must be a seat 0..{SEATS - 1}, got {dealer!r}')
    return DealSpec(parsed, dealer, f"file:{name}:{line}")


def load_deals(path: str | Path) -> list[DealSpec]:
    """Read and check a whole deal file; raise ``DealFileError`` naming line and problem."""

    def parse(text: str, name: str, line: int, shown: str) -> DealSpec:
        return parse_deal_line(text, name, line, shown=shown)

    return load_lines(path, parse, DealFileError)
