"""The wire codec of each game, behind one interface: what the referee and the SDK
use, so that neither knows any game in particular.

A game's codec names its branch of the per-game ``oneof``s of arena.proto (the same
name and field number in ``DecisionRequest.game``, ``Answer.choice`` and
``DealResult.game``), encodes a seat's view and legal actions for a request, reads a
bot's answer by value, and turns a deal's replay record into its ``DealResult`` branch
and back. Each game's codec is its ``wire.CODEC`` (``arena/games/<game>/wire.py``);
``arena.games.codecs.codec_for(game)`` finds it through the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena.wire.common import check_seat

# What ``GameCodec.fill_answer`` raises for a value that is no action of its game: the SDK
# then sends an answer without a choice, and the in-process runner judges it the same way.
NOT_AN_ACTION: tuple[type[Exception], ...] = (
    TypeError,
    ValueError,
    AttributeError,
    KeyError,
    IndexError,
)


class GameCodec(Protocol):
    @property
    def game(self) -> str:
        """The game's name, as in ``Hello.games`` and ``arena.games.registry.make_game``."""
        ...

    @property
    def branch(self) -> str:
        """The name of the game's branch in every per-game oneof."""
        ...

    @property
    def field(self) -> int:
        """That branch's field number (the same in every per-game oneof)."""
        ...

    def deal_of(self, view: Any) -> int:
        """The 1-based deal (hand) a view is in: ``DecisionRequest.deal``."""
        ...

    def decision_bytes(self, view: Any, legal: Sequence[Any]) -> bytes:
        """The serialized game decision message: the view and the legal actions."""
        ...

    def action_from_answer(self, answer: pb.Answer) -> Any:
        """The engine action in ``answer``'s branch of this game; ``ActionFormatError``
        (one line: what is wrong, and where) when it cannot be read."""
        ...

    def fill_answer(self, answer: pb.Answer, action: Any) -> None:
        """Set ``answer``'s branch of this game to ``action`` (the SDK's answer by value)."""
        ...

    def wire_decision(self, data: bytes, *, match_id: str, seat: int) -> tuple[Any, Any]:
        """The view and legal actions a bot gets from a serialized decision message."""
        ...

    def fill_deal_result(self, result: pb.DealResult, record: Mapping[str, Any]) -> None:
        """Fill ``result``'s branch of this game from a deal's replay record."""
        ...

    def deal_result_from(self, result: pb.DealResult) -> dict[str, Any]:
        """What a bot's ``deal_over`` hook gets from a ``DealResult``."""
        ...


@dataclass(frozen=True)
class ProtoCodec:
    """A game whose codec module is built on the generated classes (``arena.games.truco.wire``,
    ``arena.games.ruff.wire``): the module's functions, behind ``GameCodec``."""

    game: str  # also the branch's name
    field: int
    deal_field: str  # the view's field that holds its deal (hand)
    decision_bytes: Callable[[Any, Sequence[Any]], bytes]
    decision_from_bytes: Callable[[bytes], tuple[Any, Any]]
    action_from_proto: Callable[[Any], Any]
    fill_action: Callable[[Any, Any], None]
    fill_result: Callable[[Any, Mapping[str, Any]], None]
    result_from_proto: Callable[[Any, int], dict[str, Any]]

    @property
    def branch(self) -> str:
        return self.game

    def deal_of(self, view: Any) -> int:
        return int(getattr(view, self.deal_field))

    def action_from_answer(self, answer: pb.Answer) -> Any:
        return self.action_from_proto(getattr(answer, self.branch))

    def fill_answer(self, answer: pb.Answer, action: Any) -> None:
        self.fill_action(getattr(answer, self.branch), action)

    def wire_decision(self, data: bytes, *, match_id: str, seat: int) -> tuple[Any, Any]:
        view, legal = self.decision_from_bytes(data)
        check_seat(view, match_id=match_id, seat=seat)
        return view, legal

    def fill_deal_result(self, result: pb.DealResult, record: Mapping[str, Any]) -> None:
        self.fill_result(getattr(result, self.branch), record)

    def deal_result_from(self, result: pb.DealResult) -> dict[str, Any]:
        return self.result_from_proto(getattr(result, self.branch), result.deal)
