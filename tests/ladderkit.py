"""A ladder as the tests run it: ``arena ladder run`` as its own process (so that it can be
killed with SIGKILL), bots as their own processes, and the JSON API read over HTTP."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
ARENA = [sys.executable, "-m", "arena.cli"]
READY = re.compile(r"bots connect to (\S+):(\d+), the page is http://(\S+):(\d+)/")
T = TypeVar("T")


def env() -> dict[str, str]:
    out = dict(os.environ)
    out["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), out.get("PYTHONPATH", "")) if p)
    return out


def arena(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*ARENA, *args], capture_output=True, text=True, timeout=60, check=check, env=env()
    )


def new_ladder(directory: Path, names: list[str], *options: str) -> dict[str, str]:
    """``arena ladder init`` and ``add``; returns name -> token."""
    arena("ladder", "init", str(directory), *options)
    tokens = {}
    for name in names:
        line = arena("ladder", "add", str(directory), name).stdout.strip()
        got, token = line.split()
        assert got == name
        tokens[name] = token
    return tokens


class Ladder:
    """``arena ladder run DIR`` on free loopback ports, its addresses read from its output."""

    def __init__(self, directory: Path, listen: str = "127.0.0.1:0") -> None:
        self.proc = subprocess.Popen(
            [
                *ARENA,
                "ladder",
                "run",
                str(directory),
                "--listen",
                listen,
                "--http",
                "127.0.0.1:0",
            ],  # fmt: skip
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env(),
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()  # the ready line: an event, not a guess
        found = READY.search(line)
        if not found:
            self.proc.kill()
            raise AssertionError(f"ladder did not start: {line!r} {self.proc.stderr.read()}")
        self.address = f"{found[1]}:{found[2]}"
        self.web = f"http://{found[3]}:{found[4]}"

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.web + path, timeout=10) as r:
            return json.loads(r.read())

    def leaderboard(self) -> dict[str, Any]:
        result: dict[str, Any] = self.get("/api/leaderboard")
        return result

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def bot(address: str, token: str, spec: str = "random", *, game: str = "truf",
        capacity: int = 1, log: Path | None = None) -> subprocess.Popen[bytes]:  # fmt: skip
    """A bundled bot (or module:Class) as its own process, as a bot author runs it."""
    out = open(log, "wb") if log else subprocess.DEVNULL  # noqa: SIM115
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "arena.sdk",
            spec,
            "--game",
            game,
            "--connect",
            address,
            "--token",
            token,
            "--capacity",
            str(capacity),
        ],  # fmt: skip
        stdout=out,
        stderr=subprocess.STDOUT,
        env=env(),
    )


def until(check: Callable[[], T], timeout: float = 60.0, what: str = "the condition") -> T:
    """Poll ``check`` until it returns something true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def stop_all(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        if p.poll() is None:
            p.kill()
    for p in procs:
        p.wait(timeout=10)
