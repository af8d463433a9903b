"""Bot faults as data: kinds, strikes and disqualification.

A fault never crashes a match: the seat's decision is replaced by the game's
documented fallback, the fault is recorded, and after ``strike_limit`` strikes in
a match the seat is disqualified and plays the fallback to the end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class FaultKind(StrEnum):
    TIMEOUT = "timeout"  # no answer before the deadline
    ILLEGAL = "illegal"  # an action outside the legal list or of the wrong kind
    UNPARSEABLE = "unparseable"  # bytes or values that do not make an action
    WRONG_REQUEST = "wrong_request"  # an answer to a request id that is not pending
    CRASH = "crash"  # the bot failed: raised in-process, or said so (Answer.failure)
    DISCONNECT = "disconnect"  # the bot's connection dropped mid-match


# How each kind is counted in matches.jsonl and on the leaderboard.
COLUMN = {
    FaultKind.TIMEOUT: "timeout",
    FaultKind.ILLEGAL: "illegal",
    FaultKind.UNPARSEABLE: "illegal",
    FaultKind.WRONG_REQUEST: "illegal",
    FaultKind.CRASH: "illegal",
    FaultKind.DISCONNECT: "disconnect",
}
STRIKES = frozenset(k for k in FaultKind if k is not FaultKind.DISCONNECT)


@dataclass
class FaultBook:
    """Faults of one match, per seat."""

    seats: int
    strike_limit: int = 3
    strikes: list[int] = field(init=False)
    disqualified: list[bool] = field(init=False)
    forfeit: list[bool] = field(init=False)
    counts: dict[str, list[int]] = field(init=False)

    def __post_init__(self) -> None:
        self.strikes = [0] * self.seats
        self.disqualified = [False] * self.seats
        self.forfeit = [False] * self.seats
        self.counts = {c: [0] * self.seats for c in ("timeout", "illegal", "disconnect")}

    def record(
        self,
        seat: int,
        kind: FaultKind,
        detail: str,
        deal: int,
        *,
        decision: int,
        played: str,
        request: int | None = None,
    ) -> dict[str, Any]:
        """Count one fault; returns its replay-log entry, which locates the decision it
        replaced (``deal``, its ``decision`` number in the deal, the gRPC ``request`` id,
        None in-process) and names the action ``played`` in its place (the fallback)."""
        self.counts[COLUMN[kind]][seat] += 1
        if kind in STRIKES:
            self.strikes[seat] += 1
            if self.strikes[seat] >= self.strike_limit:
                self.disqualified[seat] = True
        return {
            "seat": seat,
            "kind": kind.value,
            "detail": detail,
            "deal": deal,
            "decision": decision,
            "request": request,
            "played": played,
            "strikes": self.strikes[seat],
            "disqualified": self.disqualified[seat],
        }

    def summary(self) -> dict[str, Any]:
        return {
            "faults": {k: list(v) for k, v in self.counts.items()},
            "disqualified": list(self.disqualified),
            "forfeit": list(self.forfeit),
        }
