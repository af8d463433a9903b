"""Issue 25: the bundled Node bot says it failed (``Answer.failure``) when its own code
throws, instead of answering index 0. A fake referee on the generated stubs sends it one
request its code cannot decide (a play decision whose view has no hand) and reads the
answer. Skipped without ``node`` or its installed dependencies."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena._proto.truf.arena.v1 import arena_pb2_grpc as pb_grpc
from arena._proto.truf.arena.v1 import truf_pb2 as truf_pb

JS_DIR = Path(__file__).resolve().parents[1] / "bots" / "js"
pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (JS_DIR / "node_modules").is_dir(),
    reason="node or bots/js/node_modules is missing",
)


class FakeReferee(pb_grpc.ArenaServiceServicer):
    """Welcomes one bot, asks it one impossible decision, keeps its answer, says goodbye."""

    def __init__(self) -> None:
        self.answers: list[pb.Answer] = []
        self.answered = asyncio.Event()

    async def Play(  # noqa: N802 (gRPC method name)
        self, request_iterator: AsyncIterator[pb.PlayRequest], context: Any
    ) -> AsyncIterator[pb.PlayResponse]:
        first = await anext(request_iterator)
        assert first.WhichOneof("message") == "hello"
        welcome = pb.PlayResponse()
        welcome.welcome.protocol_version, welcome.welcome.entrant = 1, "js"
        yield welcome
        ask = pb.PlayResponse()
        req = ask.decision_request
        req.request_id, req.table_id, req.match_id, req.timeout_ms = 7, "t", "t", 60000
        req.truf.view.phase = truf_pb.TRUF_PHASE_PLAY  # no hand, no legal actions
        yield ask
        msg = await anext(request_iterator)
        self.answers.append(msg.answer)
        self.answered.set()
        bye = pb.PlayResponse()
        bye.tournament_over.message = "done"
        yield bye


async def ask_node() -> tuple[list[pb.Answer], str]:
    server = grpc.aio.server()
    referee = FakeReferee()
    pb_grpc.add_ArenaServiceServicer_to_server(referee, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    proc = await asyncio.create_subprocess_exec(
        "node", str(JS_DIR / "bot.js"), "--connect", f"127.0.0.1:{port}",
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        await asyncio.wait_for(referee.answered.wait(), 60)
    finally:
        if proc.returncode is None:
            proc.kill()
        out, _ = await proc.communicate()
        await server.stop(1)
    return referee.answers, out.decode(errors="replace")


def test_the_node_bot_says_it_failed_instead_of_answering_index_0() -> None:
    answers, log = asyncio.run(ask_node())
    (answer,) = answers
    assert answer.request_id == 7
    assert answer.WhichOneof("choice") == "failure", (answer, log)
    assert answer.failure.reason and len(answer.failure.reason) <= 200
    assert "telling the referee this bot failed" in log
