"""The in-process bot interface.

A bot receives its seat's view and the sorted list of legal actions, and returns
one of those actions (or its index in the list). The same class plays in-process
(``arena tournament --in-process``) and over gRPC through the SDK (``arena.sdk``),
which turns the wire messages into the same actions and an equal view. Either way
the view is a ``LazyView`` (in-process a ``MatchView``, over gRPC a ``WireView``): every
field, method and the equality of ``SeatView``, built as the bot reads it (use
``view.materialize()`` if you need the ``SeatView`` itself).
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

# A view and an action are the game's own (Truf's ``arena.games.truf.view.SeatView`` and
# ``arena.games.truf.actions.Action``, Truco's, Ruff's): this interface serves every game.
SeatView = Any
Action = Any


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
    # The games it plays, sent in Hello.games over gRPC ("truf", "truco", "ruff"): a referee
    # refuses a bot that does not list its tournament's game.
    games: tuple[str, ...] = ("truf",)

    def act(self, view: SeatView, legal: Sequence[Action]) -> Action | int:
        raise NotImplementedError

    def deal_over(self, record: Mapping[str, Any]) -> None:
        """Called when a deal ends with its public summary: the replay record's fields
        ``arena.games.truf.replay.PUBLIC_DEAL_KEYS`` (bids, trump, mode, every trick, scores...),
        the same in-process and over gRPC."""

    def match_over(self, result: Mapping[str, Any]) -> None:
        """Called with ``{"match", "seats", "totals", "ranks", "seat"}`` when a match ends."""


def call_hook(bot: object, name: str, arg: Mapping[str, Any]) -> None:
    """Call a bot's result hook, in-process and through the SDK alike. The hooks are
    not decisions: an error in one is the author's bug, shown, and never stops the bot."""
    try:
        getattr(bot, name)(arg)
    except Exception:
        print(f"[{getattr(bot, 'name', 'bot')}] {name}() raised:", file=sys.stderr, flush=True)
        traceback.print_exc()


def has_hook(bot: object, name: str) -> bool:
    """Whether ``bot`` has the result hook ``name`` other than BaseBot's no-op: runners
    skip building the hook's argument when nobody listens."""
    hook = getattr(type(bot), name, None)
    return hook is not None and hook is not getattr(BaseBot, name)
