"""Ruff and Trump deal files: given deals instead of seeded shuffles.

Format (JSON Lines, documented in ``docs/results.md``): one deal per line, an object
``{"hands": [[...], ...], "head": [...]}``: each seat's cards as dealt and the head, top
card (the turned-up trump) first, together the whole deck (F2). Deal ``d`` of every match
plays line ``d``; later deals are dealt from the match seed. The dealer is never given (F2
draws the first from the match seed). Blank lines are skipped.
"""

from __future__ import annotations

from pathlib import Path

from arena.core.cards import Card, CardError
from arena.core.dealfiles import json_line, load_lines
from arena.core.errors import DealError
from arena.games.ruff.deal import DealSpec, check_deal
from arena.games.ruff.rules import RuffRules


class RuffDealFileError(DealError):
    """A Ruff deal file that cannot be used; says which file, which line and what."""


def parse_deal_line(text: str, name: str, line: int, rules: RuffRules, shown: str) -> DealSpec:
    """One line of a Ruff deal file: ``name`` goes into the deal's source in the log,
    errors name the file as ``shown``."""
    where = f"{shown} line {line}"
    data = json_line(text, where, RuffDealFileError)
    shape = (
        f'an object with "hands" ({rules.seats} lists of {rules.hand_size} card codes) '
        f'and "head" ({rules.head_size} card codes)'
    )
    if not isinstance(data, dict) or "hands" not in data or "head" not in data:
        raise RuffDealFileError(f"{where}: expected {shape}")
    unknown = set(data) - {"hands", "head", "id"}
    if unknown:
        raise RuffDealFileError(
            f"{where}: unknown field(s) {sorted(unknown)} (the dealer is never given: F2)"
        )
    hands, head = data["hands"], data["head"]
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise RuffDealFileError(f'{where}: "hands" must be {rules.seats} lists of card codes')
    if not isinstance(head, list):
        raise RuffDealFileError(f'{where}: "head" must be a list of card codes')
    try:
        parsed = tuple(tuple(Card.parse(str(c)) for c in h) for h in hands)
        parsed_head = tuple(Card.parse(str(c)) for c in head)
        check_deal(parsed, parsed_head, rules)
    except (CardError, DealError) as exc:
        raise RuffDealFileError(f"{where}: {exc}") from None
    return DealSpec(parsed, parsed_head, None, f"file:{name}:{line}")


def load_deals(path: str | Path, rules: RuffRules) -> list[DealSpec]:
    """Read and check a whole Ruff deal file for ``rules``; raise ``RuffDealFileError``
    naming the line and the problem."""

    def parse(text: str, name: str, line: int, shown: str) -> DealSpec:
        return parse_deal_line(text, name, line, rules, shown)

    return load_lines(path, parse, RuffDealFileError)
