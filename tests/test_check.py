"""``arena check`` against a good bot and a deliberately broken one, over real gRPC."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def check(bot: list[str], *extra: str) -> tuple[int, str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "tests"), str(ROOT), env.get("PYTHONPATH")) if p
    )
    address = f"127.0.0.1:{free_port()}"
    checker = subprocess.Popen(
        [sys.executable, "-m", "arena.cli", "check", "--listen", address, "--wait", "60", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True,
    )  # fmt: skip
    try:
        player = subprocess.run(
            [sys.executable, "-m", *bot, "--connect", address],
            capture_output=True, text=True, env=env, timeout=120,
        )  # fmt: skip
        out, _ = checker.communicate(timeout=120)
    finally:
        checker.kill()
    return checker.returncode, out, player.stdout + player.stderr


def test_a_good_bot_passes_every_check() -> None:
    code, out, log = check(["bots.greedy"])
    assert code == 0, out
    for case in ("void in the led suit", "trump not yet broken", "only trumps in hand",
                 "face-down trump lead", "a total of exactly 13", "a bid of 0 shifted to -1",
                 "the last trick", "every kind of target declaration",
                 "deal and match results"):  # fmt: skip
        assert f"✓ {case}" in out, case
    assert "all 9 checks passed" in out
    assert "tournament over" in log  # the bot was told, and left


def test_a_broken_bot_is_told_each_fault_with_the_request_that_caused_it() -> None:
    code, out, log = check(["arena.sdk", "checkbots:Broken"])
    assert code == 1, out
    assert "✗ trump not yet broken" in out
    assert "C10" in out and "trump may not be led" in out
    assert "✗ a total of exactly 13" in out and "wrong kind" in out
    assert "legal: mode atas, mode bawah" in out  # the request, shown with the fault
    assert "✓ void in the led suit" in out  # the rest still ran
    assert "2 of 9 checks failed" in out
    assert "rejected" in log  # the bot heard why, through AnswerRejected
