"""Truco bots on the raw generated stub, written from the proto alone (truco.proto's
messages, no arena.wire): what a bot in another language does. Used by
tests/test_truco_grpc.py, each in a thread against an in-process referee."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rawgame import RawBot, game_hello

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena._proto.truf.arena.v1 import truco_pb2 as tpb

CALL_TEXT = {
    tpb.TRUCO_CALL_TRUCO: "truco",
    tpb.TRUCO_CALL_RETRUCO: "retruco",
    tpb.TRUCO_CALL_VALE_CUATRO: "vale-cuatro",
    tpb.TRUCO_CALL_ENVIDO: "envido",
    tpb.TRUCO_CALL_REAL_ENVIDO: "real-envido",
    tpb.TRUCO_CALL_FALTA_ENVIDO: "falta-envido",
}


def text(action: tpb.TrucoAction) -> str:
    """The replay log's text of an action (docs/results.md), from the message alone."""
    kind = action.WhichOneof("action")
    if kind == "play":
        return f"play {action.play.upper()}"
    if kind == "call":
        return f"call {CALL_TEXT[action.call]}"
    if kind == "answer":
        return "quiero" if action.answer == tpb.TRUCO_ANSWER_QUIERO else "no-quiero"
    if kind == "declare":
        return f"declare {action.declare}"
    return "son-buenas" if kind == "son_buenas" else "mazo"


def truco_hello(token: str, name: str, games: tuple[str, ...] = ("truco",)) -> pb.PlayRequest:
    return game_hello(token, name, games)


class RawTruco(RawBot):
    """Answers index 0, the first legal action."""

    game = "truco"

    def choose(self, req: pb.DecisionRequest, answer: pb.Answer) -> str:
        answer.index = 0
        return text(req.truco.legal_actions[0])


class Caller(RawTruco):
    """Answers by value: makes an Envido call and a Truco call once per play when it may
    (the first of each ladder listed), accepts every call,
    declares its envido, and plays its first card spelled in lower case."""

    def choose(self, req: pb.DecisionRequest, answer: pb.Answer) -> str:
        decision = req.truco
        legal = list(decision.legal_actions)
        kinds = [a.WhichOneof("action") for a in legal]
        me = decision.view.seat
        play = decision.view.plays[-1]
        mine = [e.action.call for e in play.log if e.seat == me and e.action.HasField("call")]
        envido = [a for a in legal if a.call >= tpb.TRUCO_CALL_ENVIDO]
        truco = [a for a in legal if tpb.TRUCO_CALL_TRUCO <= a.call < tpb.TRUCO_CALL_ENVIDO]
        if "answer" in kinds:
            pick = tpb.TrucoAction(answer=tpb.TRUCO_ANSWER_QUIERO)
        elif envido and not any(c >= tpb.TRUCO_CALL_ENVIDO for c in mine):
            pick = envido[0]
        elif truco and not any(c < tpb.TRUCO_CALL_ENVIDO for c in mine):
            pick = truco[0]
        elif "declare" in kinds:
            pick = legal[kinds.index("declare")]
        elif "play" in kinds:
            pick = tpb.TrucoAction(play=legal[kinds.index("play")].play.lower())
        else:
            pick = legal[0]
        answer.truco.CopyFrom(pick)
        return text(pick)


class Spy(RawTruco):
    """Plays a seeded random legal index; ``views`` is what the test audits."""

    def choose(self, req: pb.DecisionRequest, answer: pb.Answer) -> str:
        legal = req.truco.legal_actions
        rng = random.Random(f"{self.token}:{req.match_id}:{req.request_id}")
        answer.index = rng.randrange(len(legal))
        return text(legal[answer.index])


Misdeed = tuple[str, Callable[[tpb.TrucoView], bool], Callable[[pb.Answer, tpb.TrucoView], None]]


def _play_unheld(answer: pb.Answer, view: tpb.TrucoView) -> None:
    answer.truco.play = next(c for c in ("1E", "1B", "7E", "7O", "4C") if c not in view.cards)


MISDEEDS: list[Misdeed] = [
    # Vale Cuatro is never legal before a Retruco (R7).
    ("illegal call", lambda v: True,
     lambda a, v: setattr(a.truco, "call", tpb.TRUCO_CALL_VALE_CUATRO)),
    # Quiero with no call to answer (R6).
    ("illegal answer", lambda v: v.asked == tpb.TRUCO_ASKED_PLAY,
     lambda a, v: setattr(a.truco, "answer", tpb.TRUCO_ANSWER_QUIERO)),
    ("unheld card", lambda v: v.asked == tpb.TRUCO_ASKED_PLAY, _play_unheld),
    ("no call", lambda v: True,
     lambda a, v: setattr(a.truco, "call", tpb.TRUCO_CALL_UNSPECIFIED)),
    ("no card", lambda v: v.asked == tpb.TRUCO_ASKED_PLAY,
     lambda a, v: setattr(a.truco, "play", "8E")),
    ("truf action", lambda v: True, lambda a, v: setattr(a.truf.play, "card", "TD")),
]  # fmt: skip


class Cheater(RawTruco):
    """Commits each of MISDEEDS once, in order, each at the first request it fits, and
    otherwise answers index 0. For a misdeed the fallback is expected: the engine's (a
    card when playing, Quiero when answering), named by the test from the record."""

    def __init__(self, address: str, token: str) -> None:
        super().__init__(address, token, "cheater")
        self.todo = list(MISDEEDS)
        self.done: list[tuple[str, int]] = []  # (misdeed, request id)

    def choose(self, req: pb.DecisionRequest, answer: pb.Answer) -> str:
        view = req.truco.view
        if self.todo and self.todo[0][1](view):
            name, _, commit = self.todo.pop(0)
            commit(answer, view)
            self.done.append((name, req.request_id))
            return fallback(req.truco.legal_actions)
        return super().choose(req, answer)


def fallback(legal: Sequence[tpb.TrucoAction]) -> str:
    """The documented fallback (truco.proto): the weakest card (the first play in the
    list), the true envido (the one declaration listed), Quiero; else son buenas."""
    for action in legal:
        if action.WhichOneof("action") in ("play", "declare") or action.answer == 1:
            return text(action)
    return text(legal[-1])
