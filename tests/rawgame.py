"""A bot on the raw generated stub for any game, written from the proto alone (no
arena.wire): the base of tests/truco_rawbots.py and tests/ruff_rawbots.py, whose bots
each run in a thread against an in-process referee."""

from __future__ import annotations

import queue
import threading
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import grpc

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena._proto.truf.arena.v1 import arena_pb2_grpc as pb_grpc


def game_hello(token: str, name: str, games: tuple[str, ...]) -> pb.PlayRequest:
    msg = pb.PlayRequest()
    msg.hello.CopyFrom(
        pb.Hello(protocol_version=1, bot_name=name, token=token, games=list(games), capacity=1)
    )
    return msg


class RawBot(threading.Thread):
    """Answers every request of its game with ``choose``'s answer; keeps every message it
    got, the view of each request (``views``) and, per deal, the text of each action it
    meant to be played (``expect``)."""

    game = ""  # the DecisionRequest branch it plays, listed in its Hello.games

    def __init__(self, address: str, token: str, name: str = "raw") -> None:
        super().__init__(name=f"raw-{token}", daemon=True)
        self.address, self.token, self.bot_name = address, token, name
        self.outbox: queue.SimpleQueue[pb.PlayRequest | None] = queue.SimpleQueue()
        self.received: list[pb.PlayResponse] = []
        self.views: list[Any] = []
        self.expect: dict[tuple[str, int], list[str]] = defaultdict(list)
        self.error: BaseException | None = None

    def _requests(self) -> Iterator[pb.PlayRequest]:
        yield game_hello(self.token, self.bot_name, (self.game,))
        while (msg := self.outbox.get()) is not None:
            yield msg

    def run(self) -> None:
        channel = grpc.insecure_channel(self.address)
        try:
            for msg in pb_grpc.ArenaServiceStub(channel).Play(self._requests(), timeout=120):
                self.received.append(msg)
                kind = msg.WhichOneof("message")
                if kind == "decision_request":
                    req = msg.decision_request
                    assert req.WhichOneof("game") == self.game
                    self.views.append(getattr(req, self.game).view)
                    answer = pb.PlayRequest()
                    answer.answer.request_id = req.request_id
                    meant = self.choose(req, answer.answer)
                    self.expect[(req.match_id, req.deal)].append(meant)
                    self.outbox.put(answer)
                elif kind == "tournament_over":
                    break
        except BaseException as exc:  # reported by the test
            self.error = exc
        finally:
            self.outbox.put(None)
            channel.close()

    def choose(self, req: pb.DecisionRequest, answer: pb.Answer) -> str:
        """Fill ``answer``; return the text of the action that should be played."""
        raise NotImplementedError

    def rejections(self) -> list[pb.AnswerRejected]:
        return [m.answer_rejected for m in self.received if m.HasField("answer_rejected")]
