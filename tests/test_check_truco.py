"""``arena check --game truco`` against a bundled Truco bot and a raw client that
answers an illegal call, over real gRPC."""

from __future__ import annotations

import subprocess
import sys

from test_check import ROOT, check, free_port
from truco_rawbots import RawTruco

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena._proto.truf.arena.v1 import truco_pb2 as tpb

CASES = (
    "a Truco call, Retruco possible",
    "a Vale Cuatro to answer",
    "an Envido called in answer to Truco",
    "a Falta Envido to answer",
    "the second trick after a tied first one",
    "a partner gone al mazo",
    "a six-seat duel hand",
    "a match result, then one more hand",
)


def test_a_bundled_truco_bot_passes_every_truco_check() -> None:
    code, out, log = check(["bots.truco.basic"], "--game", "truco")
    assert code == 0, out + log
    for case in CASES:
        assert f"✓ {case}" in out, case
    assert f"all {len(CASES)} checks passed" in out


class SkipsRetruco(RawTruco):
    """Answers every Truco call with Vale Cuatro, skipping Retruco (ruling R7: only the
    next raise is legal); otherwise the first legal action."""

    def choose(self, req: pb.DecisionRequest, answer: pb.Answer) -> str:
        legal = req.truco.legal_actions
        if any(a.WhichOneof("action") == "answer" for a in legal) and any(
            a.call == tpb.TRUCO_CALL_RETRUCO for a in legal
        ):
            answer.truco.CopyFrom(tpb.TrucoAction(call=tpb.TRUCO_CALL_VALE_CUATRO))
            return "call vale-cuatro"
        return super().choose(req, answer)


def test_a_raw_client_answering_an_illegal_call_is_told_the_fault_and_the_request() -> None:
    address = f"127.0.0.1:{free_port()}"
    checker = subprocess.Popen(
        [sys.executable, "-m", "arena.cli", "check", "--game", "truco", "--listen", address,
         "--wait", "60"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
    )  # fmt: skip
    try:
        assert checker.stdout is not None
        first = checker.stdout.readline()
        assert "listening" in first, first
        bot = SkipsRetruco(address, "", "skips-retruco")
        bot.start()
        out, _ = checker.communicate(timeout=120)
        bot.join(30)
    finally:
        checker.kill()
    assert checker.returncode == 1, out
    assert "✗ a Truco call, Retruco possible" in out, out
    assert "an illegal answer" in out and "not the next Truco raise" in out, out
    assert "asked to answer-truco" in out and "legal: call retruco" in out, out  # the request
    assert "✓ a Vale Cuatro to answer" in out, out  # the rest still ran
    assert bot.rejections(), "the bot heard why, through AnswerRejected"


def test_an_unknown_game_is_one_clear_line_before_anything_listens() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "arena.cli", "check", "--game", "chess", "--wait", "1",
         "--listen", f"127.0.0.1:{free_port()}"],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert run.returncode == 1
    assert "arena check plays truf, truco or ruff, not 'chess'" in run.stderr + run.stdout
    assert "Traceback" not in run.stderr
    assert "listening" not in run.stdout
