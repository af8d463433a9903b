"""``arena verify``'s audit of ``matches.jsonl``: every line's places follow the one rule
(``arena.standings.places``), and its disqualifications and forfeits are the ones its deals'
fault records show, and its ``deal_luck`` (``--correct-random``) is what the replays give."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.games.registry import REGISTRY, record_game
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


def check_luck(
    path: Path,
    records: Sequence[Mapping[str, Any]],
    deals: Mapping[str, Sequence[Mapping[str, Any]]],
) -> int:
    """Raise ValueError naming the match and deal unless each line's ``deal_luck``
    (``--correct-random``) is what its game's ``luck`` gives for its deals and
    ``luck_seats``, recomputed from the replays (the same record gives the same numbers).
    Returns the deals checked."""
    checked = 0
    for record in records:
        if "deal_luck" not in record:
            continue
        match = str(record["match"])
        entry = REGISTRY.get(record_game(record))
        if entry is None or entry.luck is None:
            raise ValueError(f"{path}: match {match}: deal_luck, but its game has no luck")
        seats = record.get("luck_seats")
        n = len(record["seats"])
        if not isinstance(seats, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n for s in seats
        ):
            raise ValueError(
                f"{path}: match {match}: deal_luck needs luck_seats, a list of its seats "
                f"(0 to {n - 1}), got {seats!r}"
            )
        logged = deals.get(match, ())
        if not isinstance(record["deal_luck"], list) or len(logged) != len(record["deal_luck"]):
            raise ValueError(
                f"{path}: match {match}: deal_luck must hold one list per deal of its "
                f"replays ({len(logged)})"
            )
        for number, (deal, luck) in enumerate(zip(logged, record["deal_luck"], strict=True), 1):
            want = entry.luck(deal, seats)
            numbers = isinstance(luck, list) and all(
                isinstance(x, int | float) and not isinstance(x, bool) for x in luck
            )
            if (
                not numbers
                or len(luck) != len(want)
                or any(abs(a - b) > 1e-6 for a, b in zip(luck, want, strict=True))
            ):
                raise ValueError(
                    f"{path}: match {match} deal {number}: deal_luck {luck} but its replay "
                    f"gives {[round(x, 6) for x in want]} (docs/results.md, deal_luck)"
                )
            checked += 1
    return checked
