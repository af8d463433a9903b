"""``arena verify``'s audit of ``matches.jsonl``: every line's places follow the one rule
(``arena.standings.places``), and its disqualifications and forfeits are the ones its deals'
fault records show."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.standings.places import record_places


def check_places(path: Path, records: Sequence[Mapping[str, Any]]) -> int:
    """Raise ValueError naming the match unless each line's ``ranks`` are its places: the
    game's order (``raw_ranks``) with every disqualified or forfeiting seat below the
    rest. A line from before ``raw_ranks`` (its ``ranks`` are the game's order) is
    skipped. Returns the lines checked."""
    checked = 0
    for record in records:
        if "raw_ranks" not in record:
            continue
        want = record_places(record)
        if list(record["ranks"]) != want:
            raise ValueError(
                f"{path}: match {record['match']}: ranks {record['ranks']} are not the places "
                f"{want} (raw_ranks {record['raw_ranks']}, disqualified "
                f"{record['disqualified']}, forfeit {record['forfeit']}; docs/results.md, Places)"
            )
        checked += 1
    return checked


def check_disqualifications(
    path: Path,
    records: Sequence[Mapping[str, Any]],
    deals: Mapping[str, Sequence[Mapping[str, Any]]],
) -> None:
    """Raise ValueError unless each match line's ``disqualified`` flags are the seats its
    deals' fault records disqualify (a fault entry's own ``disqualified``)."""
    for record in records:
        match = str(record["match"])
        if match not in deals:
            continue
        seats = len(record["seats"])
        seen = [False] * seats
        for deal in deals[match]:
            for fault in deal.get("faults") or ():
                seat = fault.get("seat")
                if isinstance(seat, int) and 0 <= seat < seats and fault.get("disqualified"):
                    seen[seat] = True
        if list(record["disqualified"]) != seen:
            raise ValueError(
                f"{path}: match {match}: disqualified {record['disqualified']} but its deals' "
                f"faults disqualify {seen}"
            )
