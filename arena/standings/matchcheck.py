"""``arena verify``'s audit of ``matches.jsonl``: every line's places follow the one rule
(``arena.standings.places``); its disqualifications and forfeits are the ones its deals'
fault records show and its ``deal_points`` are its replays' points; and its
``deal_luck`` (``--correct-random``) is what the replays give."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.core.records import corrected_seats, deal_points
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


def check_replayed(
    path: Path,
    records: Sequence[Mapping[str, Any]],
    deals: Mapping[str, Sequence[Mapping[str, Any]]],
) -> None:
    """Raise ValueError naming the match unless each match line agrees with its deals'
    replay lines: its ``disqualified`` flags are the seats their fault records
    disqualify (a fault entry's own ``disqualified``), and its ``deal_points`` (what the
    ratings rate) are their points, deal by deal (``arena.core.records``)."""
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
        want = deal_points(deals[match], seats)
        if "deal_points" in record and record["deal_points"] != want:
            raise ValueError(
                f"{path}: match {match}: deal_points {record['deal_points']} but its "
                f"replays give {want}"
            )


def check_luck(
    path: Path,
    records: Sequence[Mapping[str, Any]],
    deals: Mapping[str, Sequence[Mapping[str, Any]]],
    uniform: Collection[str] | None,
) -> int:
    """Raise ValueError naming the match (and deal) unless each line's ``luck_seats`` and
    ``deal_luck`` (``--correct-random``) are what the run gives: ``uniform``, the run's
    entrants played by the bundled random bot (empty when the run was not corrected; None
    when the run's options are unknown, and then only lines that hold the fields are
    checked), on every line whose table seats one that was neither disqualified nor
    forfeited, and on no other; and each deal's numbers what its game's ``luck`` gives
    for the replay, recomputed. Returns the deals checked."""
    checked = 0
    for record in records:
        match = str(record["match"])
        names = record["seats"]
        left = {  # seats the fallback played unasked: never corrected
            s
            for flags in (record.get("disqualified") or (), record.get("forfeit") or ())
            for s, flag in enumerate(flags)
            if flag
        }
        has = "deal_luck" in record or "luck_seats" in record
        if uniform is not None:
            out = [s in left for s in range(len(names))]
            want = corrected_seats((s for s, n in enumerate(names) if n in uniform), out)
            if not want and has:
                raise ValueError(f"{path}: match {match}: luck_seats and deal_luck, but no "
                                 "seat of it is a corrected random bot")  # fmt: skip
            if want and record.get("luck_seats") != want:
                raise ValueError(f"{path}: match {match}: luck_seats "
                                 f"{record.get('luck_seats')!r}, but the run corrects seats "
                                 f"{want} (its random bot)")  # fmt: skip
        if not has:
            continue
        entry = REGISTRY.get(record_game(record))
        if entry is None or entry.luck is None:
            raise ValueError(f"{path}: match {match}: deal_luck, but its game has no luck")
        seats = record.get("luck_seats")
        if not isinstance(seats, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < len(names) for s in seats
        ):
            raise ValueError(f"{path}: match {match}: deal_luck needs luck_seats, a list of "
                             f"its seats (0 to {len(names) - 1}), got {seats!r}")  # fmt: skip
        logged = deals.get(match, ())
        luck = record.get("deal_luck")
        if not isinstance(luck, list) or len(logged) != len(luck):
            raise ValueError(f"{path}: match {match}: deal_luck must hold one list per deal "
                             f"of its replays ({len(logged)})")  # fmt: skip
        for number, (deal, given) in enumerate(zip(logged, luck, strict=True), 1):
            want_values, defect = entry.deal_luck(deal, seats)
            if defect is not None:
                raise ValueError(f"{path}: match {match} deal {number}: the simulator cannot "
                                 f"follow it ({defect}): an arena defect")  # fmt: skip
            numbers = isinstance(given, list) and all(
                isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)
                for x in given
            )
            if (
                not numbers
                or len(given) != len(want_values)
                or any(abs(a - b) > 1e-6 for a, b in zip(given, want_values, strict=True))
            ):
                raise ValueError(f"{path}: match {match} deal {number}: deal_luck {given} but "
                                 f"its replay gives {want_values} (docs/results.md, "
                                 "deal_luck)")  # fmt: skip
            checked += 1
    return checked
