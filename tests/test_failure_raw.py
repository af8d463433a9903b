"""Issue 25 from outside: raw gRPC clients written from arena.proto alone (the generated
stubs, no SDK) say ``Answer.failure``, or never answer at all as a bot built against the
older proto would. The referee records a ``crash`` fault with a strike for each failure,
names its request, rejects it with REASON_BOT_FAILED and plays the documented fallback; a
bot that never says it failed still gets timeout faults."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import grpc
import pytest

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena._proto.truf.arena.v1 import arena_pb2_grpc as pb_grpc
from arena.games.registry import make_game
from arena.play.tournament import MatchContext
from arena.referee.host import wait_for_entrants
from arena.referee.server import Referee, start_server
from arena.referee.table import play_remote_match

Answer = Callable[[pb.DecisionRequest], pb.PlayRequest | None]


def index0(req: pb.DecisionRequest) -> pb.PlayRequest:
    msg = pb.PlayRequest()
    msg.answer.request_id, msg.answer.index = req.request_id, 0
    return msg


def failure(req: pb.DecisionRequest) -> pb.PlayRequest:
    msg = pb.PlayRequest()
    msg.answer.request_id = req.request_id
    msg.answer.failure.reason = "KeyError: 'x' \x1b[31m in my engine"
    return msg


def silent(req: pb.DecisionRequest) -> None:
    return None  # a bot built against the older proto that cannot decide: it says nothing


async def raw_bot(address: str, token: str, game: str, answer: Answer, log: list[Any]) -> None:
    """A client on the generated stub: hello, then ``answer`` each request until goodbye."""
    async with grpc.aio.insecure_channel(address) as channel:
        call = pb_grpc.ArenaServiceStub(channel).Play()
        hello = pb.PlayRequest()
        h = hello.hello
        h.protocol_version, h.bot_name, h.token, h.capacity = 1, "raw", token, 1
        h.games.append(game)
        await call.write(hello)
        async for msg in call:
            log.append(msg)
            kind = msg.WhichOneof("message")
            if kind == "decision_request":
                reply = answer(msg.decision_request)
                if reply is not None:
                    await call.write(reply)
            elif kind == "tournament_over":
                await call.done_writing()
                break


async def play(game: str, seat0: Answer, timeout: float) -> tuple[Any, list[Any]]:
    tokens = {f"token-{s}": f"bot{s}" for s in range(4)}
    referee = Referee(tokens=tokens, decision_timeout=timeout, strike_limit=3, game=game)
    server, port = await start_server(referee, "127.0.0.1:0")
    log: list[Any] = []
    tasks = []
    try:
        for n, token in enumerate(tokens, 1):  # one at a time: seats follow the token order
            answer = seat0 if n == 1 else index0
            mine = log if n == 1 else []
            tasks.append(
                asyncio.create_task(raw_bot(f"127.0.0.1:{port}", token, game, answer, mine))
            )
            await wait_for_entrants(referee, n, [], 30)
        outcome = await play_remote_match(
            make_game(game), referee.entrants, ctx=MatchContext("r0001-t01", seed="raw"),
            strike_limit=3,
        )  # fmt: skip
        await referee.goodbye()
        await asyncio.wait_for(asyncio.gather(*tasks), 30)
    finally:
        await server.stop(1)
    return outcome, log


@pytest.mark.parametrize("game", ["truf", "truco", "ruff"])
def test_a_failure_answer_is_a_crash_fault_with_its_request_and_the_documented_fallback(
    game: str,
) -> None:
    outcome, log = asyncio.run(play(game, failure, timeout=30.0))
    faults = [f for d in outcome.deals for f in d["faults"]]
    assert [f["kind"] for f in faults] == ["crash"] * 3
    assert [f["strikes"] for f in faults] == [1, 2, 3] and faults[-1]["disqualified"]
    assert outcome.record["disqualified"] == [True, False, False, False]
    assert outcome.record["ranks"][0] == max(outcome.record["ranks"])
    sent = [
        m.decision_request.request_id for m in log if m.WhichOneof("message") == "decision_request"
    ]
    assert [f["request"] for f in faults] == sent[:3]  # each fault names its request
    rejected = [m.answer_rejected for m in log if m.WhichOneof("message") == "answer_rejected"]
    assert [r.reason for r in rejected] == [pb.AnswerRejected.REASON_BOT_FAILED] * 3
    assert [r.request_id for r in rejected] == sent[:3]
    detail = faults[0]["detail"]
    assert detail.startswith("the bot failed: KeyError") and "\x1b" not in detail
    for f in faults:
        assert isinstance(f["decision"], int) and f["decision"] >= 1 and f["played"]


@pytest.mark.parametrize("game", ["truf", "truco"])
def test_a_bot_that_never_says_it_failed_still_times_out(game: str) -> None:
    # 1.5 s: the index-0 bots answer in milliseconds, with room on a loaded machine
    outcome, log = asyncio.run(play(game, silent, timeout=1.5))
    faults = [f for d in outcome.deals for f in d["faults"] if f["seat"] == 0]
    assert [f["kind"] for f in faults] == ["timeout"] * 3
    rejected = [m.answer_rejected for m in log if m.WhichOneof("message") == "answer_rejected"]
    assert [r.reason for r in rejected] == [pb.AnswerRejected.REASON_LATE] * 3
    record = outcome.record
    assert record["disqualified"][0]
    assert record["ranks"][0] == max(record["ranks"]) > max(record["ranks"][1:])
    if game == "truco":  # issue 25, 5: the silent attacker's partner keeps its team's place
        raw = record["raw_ranks"]
        assert record["ranks"][2] == (1 if raw[2] == 1 else 2)
