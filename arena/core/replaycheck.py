"""Checking a stored replay record against the engine's own, for any game."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from arena.core.errors import ActionFormatError, DealError, RuleError


class ReplayMismatch(AssertionError):
    """A stored record that the engine does not reproduce (``deal``: its number, so that
    a caller can name the line it came from)."""

    def __init__(self, message: str, deal: int | None = None) -> None:
        super().__init__(message)
        self.deal = deal


def is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def is_str_list(x: object) -> bool:
    return isinstance(x, list) and all(isinstance(v, str) for v in x)


def rotation_of(rec: Mapping[str, Any], where: str, seats: int) -> int:
    """A replay record's duplicate ``rotation`` (0 when it has none: not a duplicate run's),
    or ``ReplayMismatch`` naming ``where`` when it is not one of the ``seats`` seats."""
    turn = rec.get("rotation", 0)
    if not is_int(turn) or not 0 <= turn < seats:
        raise ReplayMismatch(f"{where}: rotation must be a seat number, got {turn!r}")
    return int(turn)


def check_dealer(rec: Mapping[str, Any], where: str, expected: int, turn: int) -> None:
    """``ReplayMismatch`` naming ``where`` when a seeded record's dealer is not ``expected``,
    the one the run's secret draws (at the record's ``rotation`` ``turn`` in a duplicate run)."""
    if rec["dealer"] != expected:
        raise ReplayMismatch(
            f"{where}: the dealer is not the one the run's secret draws"
            + (f" at rotation {turn}" if "rotation" in rec else "")
        )


def check_envelope(rec: Mapping[str, Any], required: Iterable[str]) -> None:
    """Raise ``ValueError`` naming the first of the ``required`` fields a replay record
    lacks, or the first envelope field (``arena.core.records``) a replay cannot read."""
    missing = [f for f in required if f not in rec]
    if missing:
        raise ValueError(f"missing field(s) {', '.join(map(repr, missing))}")
    check_values(
        rec,
        (
            ("match", isinstance(rec["match"], str), "a string"),
            ("deal", is_int(rec["deal"]) and rec["deal"] >= 1, "a positive integer"),
            ("seats", is_str_list(rec["seats"]), "a list of names"),
        ),
    )


def check_values(rec: Mapping[str, Any], checks: Iterable[tuple[str, bool, str]]) -> None:
    """Raise ``ValueError`` for the first (field, ok, what it must be) that is not ok."""
    for name, ok, expected in checks:
        if not ok:
            raise ValueError(f"field {name!r} must be {expected}, got {rec[name]!r}")


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


def replay_lines(
    lines: Sequence[tuple[int, Mapping[str, Any]]],
    name: str,
    check_line: Callable[[Mapping[str, Any]], None],
    replay_match: Callable[[Sequence[Mapping[str, Any]]], int],
) -> tuple[int, int]:
    """Replay a whole ``replays.jsonl`` of one game, given as (line number, record) pairs;
    returns (deals, matches). ``check_line`` raises ValueError for a record a replay
    cannot read, ``replay_match`` replays one match's records in deal order. Errors
    name ``name`` and the line: ValueError for an unreadable record, ReplayMismatch for
    one the engine does not reproduce."""
    groups: dict[str, list[tuple[int, Mapping[str, Any]]]] = {}
    for number, rec in lines:
        try:
            check_line(rec)
        except ValueError as exc:
            raise ValueError(f"{name} line {number}: {exc}") from None
        groups.setdefault(rec["match"], []).append((number, rec))
    deals = 0
    for match, numbered in groups.items():
        numbered.sort(key=lambda pair: int(pair[1]["deal"]))
        line_of = {rec["deal"]: number for number, rec in numbered}
        try:
            deals += replay_match([rec for _, rec in numbered])
        except ReplayMismatch as exc:
            where = f"line {line_of[exc.deal]}" if exc.deal in line_of else f"match {match}"
            raise ReplayMismatch(f"{name} {where}: {exc}", exc.deal) from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            lines_of = sorted(line_of.values())
            raise ValueError(
                f"{name} lines {lines_of[0]}-{lines_of[-1]} (match {match}): a record the "
                f"replay cannot read ({type(exc).__name__}: {exc})"
            ) from None
    return deals, len(groups)


class Replayable(Protocol):
    finished: list[dict[str, Any]]

    def apply(self, seat: int, action: Any) -> None: ...


def replay_records(
    match: Replayable,
    records: Sequence[Mapping[str, Any]],
    actions_of: Callable[[Mapping[str, Any]], Iterable[tuple[int, Any]]],
    compared: Iterable[str],
    word: str = "deal",
) -> int:
    """Apply each stored record's actions (``actions_of(rec)``: (seat, action) pairs, read
    lazily so that an unreadable action is caught here) to ``match``, set up with the
    records' cards, and check the ``compared`` fields of the record it writes against the
    stored one. Returns the records checked; raises ``ReplayMismatch`` naming the match,
    the ``word`` ("deal", "hand") and its number, and the first difference."""
    fields = tuple(compared)
    for rec in records:
        where = f"match {rec['match']} {word} {rec['deal']}"
        try:
            for seat, action in actions_of(rec):
                match.apply(seat, action)
        except (RuleError, DealError, ActionFormatError) as exc:
            raise ReplayMismatch(
                f"{where}: the engine refuses the logged play: {exc}", rec["deal"]
            ) from None
        if not match.finished:
            raise ReplayMismatch(
                f"{where}: the logged actions do not finish the {word}", rec["deal"]
            )
        check_fields(where, match.finished.pop(0), rec, fields, rec["deal"])
    return len(records)


def group_by_match(records: Iterable[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """Records by match, each match's in deal order (any game's: the envelope's fields)."""
    out: dict[str, list[Mapping[str, Any]]] = {}
    for rec in records:
        out.setdefault(str(rec["match"]), []).append(rec)
    for recs in out.values():
        recs.sort(key=lambda r: int(r["deal"]))
    return out
