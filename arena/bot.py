"""The in-process bot interface.

A bot receives its seat's view and the sorted list of legal actions, and returns
one of those actions (or its index in the list). The same class plays in-process
(``arena tournament --in-process``) and over gRPC through the SDK (``arena.sdk``),
which turns the wire messages into the very same view objects.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from arena.truf.actions import Action
from arena.truf.view import SeatView


@runtime_checkable
class Bot(Protocol):
    name: str
    version: str

    def act(self, view: SeatView, legal: Sequence[Action]) -> Action | int:
        """Choose an action from ``legal`` (or return its index)."""
        ...


class BaseBot:
    """Convenience base: a name, a version and no-op result hooks."""

    name = "bot"
    version = "0"

    def act(self, view: SeatView, legal: Sequence[Action]) -> Action | int:
        raise NotImplementedError

    def deal_over(self, record: Mapping[str, Any]) -> None:
        """Called with the deal's public record (the replay fields) when a deal ends."""

    def match_over(self, result: Mapping[str, Any]) -> None:
        """Called with ``{"match", "seats", "totals", "ranks", "seat"}`` when a match ends."""
