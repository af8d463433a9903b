"""Small CLI defects a new user met (issue 27), run as they ran them: the real ``arena``
command and the SDK's program, on loopback. Each waits for the program's own output or
its exit, never for a guessed duration."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ARENA = str(Path(sys.executable).with_name("arena"))

FORGOT = """\
from arena.bot import BaseBot


class First(BaseBot):
    name = "firstcard"

    def act(self, view, legal):
        return 0
"""


def env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=folder, capture_output=True, text=True, timeout=120, env=env(), check=False
    )


@contextmanager
def started(folder: Path, *args: str) -> Iterator[subprocess.Popen[str]]:
    proc = subprocess.Popen(
        args, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env()
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream:
                stream.close()


def line_with(proc: subprocess.Popen[str], words: str) -> str:
    """The first line of the program's stdout holding ``words`` (it exits otherwise)."""
    assert proc.stdout is not None
    for line in proc.stdout:
        if words in line:
            return line
    raise AssertionError(f"the program ended without saying {words!r}")


def address_of(line: str) -> str:
    """HOST:PORT from 'arena check is listening on HOST:PORT: ...' or the serve line."""
    return line.split("--connect ", 1)[1].split()[0].rstrip(")")


def test_check_with_no_bot_says_no_bot_connected(tmp_path: Path) -> None:
    got = run(tmp_path, ARENA, "check", "--wait", "1", "--listen", "127.0.0.1:0")
    assert got.returncode == 1
    assert got.stderr.strip() == "error: no bot connected within 1 s", got.stderr


@pytest.mark.parametrize("game", ["truco", "ruff"])
def test_check_stops_and_says_why_when_the_bot_is_refused_at_hello(
    tmp_path: Path, game: str
) -> None:
    (tmp_path / "tbot.py").write_text(FORGOT, encoding="utf-8")
    check = [ARENA, "check", "--game", game, "--wait", "300", "--listen", "127.0.0.1:0"]
    with started(tmp_path, *check) as proc:
        address = address_of(line_with(proc, "arena check is listening on"))
        # The user starts the bot as the README says, without --game: the referee refuses.
        bot = run(tmp_path, sys.executable, "-m", "arena.sdk", "tbot:First", "--connect", address)
        assert bot.returncode == 1 and "FAILED_PRECONDITION" in bot.stderr, bot.stderr
        _, err = proc.communicate(timeout=60)  # the check ends by itself
    assert proc.returncode == 1
    assert err.strip() == (
        f"error: the referee refused the bot's hello: firstcard: FAILED_PRECONDITION: this "
        f'referee plays {game}; your Hello.games is [truf]; list "{game}" there (a Python '
        f'bot: games = ("{game}",) in its class)'
    ), err


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("nonsense", "the referee's address must be HOST:PORT, got 'nonsense'"),
        ("127.0.0.1:99999", "the referee's address must be HOST:PORT, got '127.0.0.1:99999'"),
        ("nonsense.invalid:50051", "cannot find the referee's host 'nonsense.invalid'"),
    ],
)
def test_an_address_that_cannot_work_fails_at_once_without_retrying(
    tmp_path: Path, address: str, message: str
) -> None:
    for command, prefix in (
        ([ARENA, "bot", "random", "--connect", address], "error: "),
        ([sys.executable, "-m", "bots.random", "--connect", address], "[bot] error: "),
    ):
        got = run(tmp_path, *command)
        assert got.returncode == 1, got.stderr
        assert got.stderr.startswith(prefix + message), got.stderr
        assert len(got.stderr.strip().splitlines()) == 1 and "retrying" not in got.stderr


def test_serve_with_issued_tokens_hints_at_the_token_and_shows_who_joins(
    tmp_path: Path,
) -> None:
    serve = [ARENA, "serve", "--game", "truco", "--seats", "2", "--points", "15",
             "--issue-tokens", "-n", "2", "--rounds", "1", "--listen", "127.0.0.1:0",
             "--results", "r", "--quiet"]  # fmt: skip
    with started(tmp_path, *serve) as proc:
        tokens = [line_with(proc, "entrant1 ").split()[1], line_with(proc, "entrant2 ").split()[1]]
        hint = line_with(proc, "referee listening on")
        assert "--token TOKEN" in hint, hint
        address = address_of(hint)
        bots = [
            subprocess.Popen(
                [sys.executable, "-m", "bots.random", "--connect", address, "--token", token],
                cwd=tmp_path,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=env(),
            )  # fmt: skip
            for token in tokens
        ]
        joined = [line_with(proc, "joined: "), line_with(proc, "joined: ")]
        out, _ = proc.communicate(timeout=120)
        for bot in bots:
            bot.wait(timeout=60)
    assert proc.returncode == 0
    assert sorted(line.split()[1] for line in joined) == ["entrant1", "entrant2"]
    assert [line.split("· ")[-1].strip() for line in joined] == ["1 of 2", "2 of 2"]
    assert "Leaderboard · 1 matches" in out


@pytest.mark.parametrize("transport", ["--in-process", "--grpc"])
def test_resuming_a_finished_run_shows_its_results_and_starts_no_bot(
    tmp_path: Path, transport: str
) -> None:
    first = run(
        tmp_path, ARENA, "tournament", *([transport] if transport == "--in-process" else []),
        "--rounds", "2", "--deals", "1", "--seed", "2", "--results", "r", "--quiet",
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    matches = (tmp_path / "r" / "matches.jsonl").read_bytes()
    logs = {p: p.stat().st_mtime_ns for p in (tmp_path / "r").glob("bots/*.log")}
    assert bool(logs) == (transport == "--grpc")
    again = run(tmp_path, ARENA, "tournament", "--resume", "r")
    assert again.returncode == 0, again.stderr
    assert "the run in r is finished; its results:" in again.stderr
    assert "Leaderboard · 2 matches" in again.stdout
    assert (tmp_path / "r" / "matches.jsonl").read_bytes() == matches
    assert {p: p.stat().st_mtime_ns for p in logs} == logs  # no bot was launched again
