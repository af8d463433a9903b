"""Hostile bots over real gRPC: a flooder and an oversized message are cut off, the
match still finishes, every deal in it is legal, and the honest bots see no error."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import grpc
import pytest
from test_grpc import (  # noqa: F401 (host is a fixture)
    ByIndex,
    Hosted,
    SdkThread,
    Stream,
    hello,
    host,
    join_all,
    play_hosted_match,
)

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena.referee.server import FLOOD_LIMIT, MAX_MESSAGE_BYTES
from arena.truf.replay import replay_match


class Hostile(threading.Thread):
    """A raw-stub bot that misbehaves at its first decision request, then keeps reading."""

    def __init__(self, address: str, token: str, attack: Callable[[Stream, int], None]) -> None:
        super().__init__(daemon=True)
        self.stream = Stream(address, hello(token, name="hostile"))
        self.attack = attack
        self.status: grpc.StatusCode | None = None
        self.details = ""

    def run(self) -> None:
        try:
            for msg in self.stream.call:
                if msg.HasField("decision_request"):
                    self.attack(self.stream, msg.decision_request.request_id)
        except grpc.RpcError as exc:
            self.status, self.details = exc.code(), exc.details() or ""


def flood(stream: Stream, request_id: int) -> None:
    for n in range(FLOOD_LIMIT * 4):
        msg = pb.PlayRequest()
        msg.answer.request_id = request_id + 10_000 + n  # answers to nothing
        msg.answer.index = 0
        stream.send(msg)


def oversize(stream: Stream, request_id: int) -> None:
    msg = pb.PlayRequest()
    msg.answer.request_id = request_id
    msg.answer.truf.declare.cards.extend(["AS"] * (MAX_MESSAGE_BYTES // 2))
    stream.send(msg)


@pytest.mark.parametrize(
    ("attack", "words"), [(flood, "flooding"), (oversize, "")], ids=["flooder", "oversized"]
)
def test_a_hostile_bot_is_cut_off_and_the_match_finishes(
    host: Callable[..., Hosted],  # noqa: F811
    attack: Callable[[Stream, int], None],
    words: str,
) -> None:
    tokens = {f"tok-{i}": f"bot{i}" for i in range(4)}
    h = host(tokens=tokens)
    honest = [ByIndex() for _ in range(3)]
    threads = [SdkThread(b, h.address, f"tok-{i}") for i, b in enumerate(honest)]
    for t in threads:
        t.start()
    hostile = Hostile(h.address, "tok-3", attack)
    hostile.start()
    outcome = play_hosted_match(h, deals=2, strike_limit=3)
    join_all(threads)
    hostile.join(30)
    assert hostile.status is grpc.StatusCode.RESOURCE_EXHAUSTED, hostile.details
    assert words in hostile.details
    # The match finished: every deal is whole, legal, and replays exactly.
    assert len(outcome.deals) == 2
    assert replay_match(outcome.deals) == 2
    # Its seat played the fallback after it was cut off; the honest seats, their own.
    seats = [f["seat"] for d in outcome.deals for f in d["faults"]]
    assert seats and set(seats) == {3}
    # Cut off (its decisions were disconnects) or, flooding wrong ids, out of strikes first.
    faults = outcome.record["faults"]
    assert faults["disconnect"][3] > 0 or outcome.record["disqualified"][3]
    assert all(bot.decisions >= 2 * 14 for bot in honest)  # a bid and 13 plays a deal
    assert outcome.record["faults"]["illegal"][:3] == [0, 0, 0]
    assert outcome.record["faults"]["timeout"][:3] == [0, 0, 0]


class Sleeper(ByIndex):
    """Slow on its first ``slow`` decisions (``pause`` seconds each), then quick."""

    def __init__(self, slow: int, pause: float) -> None:
        super().__init__()
        self.slow, self.pause = slow, pause

    def choose(self, view: Any, legal: Any) -> Any:
        if self.decisions <= self.slow:
            time.sleep(self.pause)
        return super().choose(view, legal)


@pytest.mark.parametrize(("bank", "late"), [(0.0, True), (1.0, False)], ids=["no-bank", "bank"])
def test_a_time_bank_absorbs_slow_decisions_and_without_one_they_time_out(
    host: Callable[..., Hosted],  # noqa: F811
    bank: float,
    late: bool,
) -> None:
    tokens = {f"tok-{i}": f"bot{i}" for i in range(4)}
    h = host(tokens=tokens, decision_timeout=0.25, time_bank=bank)
    bots: list[ByIndex] = [ByIndex(), Sleeper(slow=2, pause=0.45), ByIndex(), ByIndex()]
    threads = [SdkThread(b, h.address, f"tok-{i}") for i, b in enumerate(bots)]
    for t in threads:
        t.start()
    outcome = play_hosted_match(h, deals=1, strike_limit=5)
    join_all(threads)
    timeouts = outcome.record["faults"]["timeout"]
    assert timeouts[0] == timeouts[2] == timeouts[3] == 0
    # Without a bank both slow answers are late (and may make the next one late too);
    # with one, the 2 x 0.2 s overrun comes out of the bank's 1 s.
    assert (timeouts[1] >= 2) if late else (timeouts[1] == 0), timeouts
    (deal,) = outcome.deals
    assert replay_match([deal]) == 1
