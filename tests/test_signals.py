"""SIGTERM stops `arena tournament`, `arena serve` and `arena check` cleanly when a script
starts them in the background, where the shell has them ignore SIGINT (security issue,
SIGTERM): the bots are told and stopped, finished matches stay on disk, and the run
resumes. Each command is the real `arena` program, started as `bash -c 'arena ... &'`.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from procs import alive, children_of

from arena.standings.results import read_jsonl

ARENA = shutil.which("arena") or ""
pytestmark = pytest.mark.skipif(not ARENA, reason="the arena command is not installed")
ROOT = Path(__file__).resolve().parents[1]


class Background:
    """`arena ARGS &` from a non-interactive bash: SIGINT ignored, as in any script."""

    def __init__(self, tmp: Path, *args: str) -> None:
        self.tmp = tmp
        self.out, self.err = tmp / "out.txt", tmp / "err.txt"
        pidfile, self.rcfile = tmp / "pid", tmp / "rc"
        for f in (pidfile, self.rcfile):
            f.unlink(missing_ok=True)
        command = " ".join(f"'{a}'" for a in (ARENA, *args))
        script = (
            f"{command} >{self.out} 2>{self.err} & echo $! >{pidfile}; "
            f"wait $!; echo $? >{self.rcfile}"
        )
        self.shell = subprocess.Popen(["bash", "-c", script], cwd=tmp)
        wait_until(lambda: pidfile.exists() and pidfile.read_text().strip() != "", 10)
        self.pid = int(pidfile.read_text())

    def sigint_ignored(self) -> bool:
        """Whether the job ignores SIGINT, as a background job of a script does. The shell
        sets that in its child after the fork, and `$!` is known before: wait for it."""
        status = Path(f"/proc/{self.pid}/status").read_text()
        ignored = int(
            next(x for x in status.splitlines() if x.startswith("SigIgn:")).split()[1], 16
        )
        return bool(ignored >> (signal.SIGINT - 1) & 1)

    def children(self) -> list[int]:
        return children_of(self.pid)

    def terminate(self, timeout: float = 30) -> int:
        os.kill(self.pid, signal.SIGTERM)
        self.shell.wait(timeout)
        return int(self.rcfile.read_text())

    def stdout(self) -> str:
        """What the job printed so far ("" until the shell's child has opened the file:
        `$!` is known before the redirection is made)."""
        return self.out.read_text() if self.out.exists() else ""

    def stderr(self) -> str:
        return self.err.read_text()

    def stop(self) -> None:
        if self.shell.poll() is None:
            with_pid(self.pid, signal.SIGKILL)
            self.shell.wait(10)


def with_pid(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)


def wait_until(ready: object, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not ready():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"not ready within {timeout} s")
        time.sleep(0.1)


def lines(path: Path) -> int:
    return len(read_jsonl(path)) if path.exists() else 0


def arena(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ARENA, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


# Long enough that SIGTERM lands mid-run (gRPC tables play 16 at once), short to resume.
RUNS = {
    "grpc": ("--rounds", "24", "--deals", "2", "--bots", "random,random,random,random"),
    # In-process a match takes tens of milliseconds: enough rounds that the run cannot end
    # between its first match line and the SIGTERM the test then sends.
    "in-process": ("--in-process", "--rounds", "60", "--deals", "13"),
}


@pytest.mark.parametrize("transport", RUNS)
def test_sigterm_stops_a_background_tournament_which_then_resumes(
    tmp_path: Path, transport: str
) -> None:
    results = tmp_path / "run"
    options = RUNS[transport]
    total = int(options[options.index("--rounds") + 1])
    job = Background(tmp_path, "tournament", *options, "--quiet", "--results", str(results))
    try:
        wait_until(job.sigint_ignored, 10)
        if transport == "grpc":
            wait_until(lambda: len(job.children()) == 4, 60)  # the four bots
        wait_until(lambda: lines(results / "matches.jsonl") >= 1, 120)
        bots = job.children()
        code = job.terminate()
    finally:
        job.stop()
    assert code == 130, job.stderr()
    assert "interrupted" in job.stderr() and f"--resume {results}" in job.stderr()
    assert "Traceback" not in job.stderr()
    # The bot programs, and the workers' process starter once the run has started one,
    # are told and go: each exits on its own time once the arena has (an event, waited).
    wait_until(lambda: not [b for b in bots if alive(b)], 15)
    kept = lines(results / "matches.jsonl")
    assert 1 <= kept < total  # the run was stopped, and what finished is on disk
    done = arena("tournament", "--resume", str(results), "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert lines(results / "matches.jsonl") == total
    assert arena("verify", str(results), cwd=tmp_path).returncode == 0


def start_bots(address: str, tokens: dict[str, str], tmp: Path) -> list[subprocess.Popen[bytes]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return [
        subprocess.Popen(
            [sys.executable, "-m", "bots.random", "--connect", address, "--token", token],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=tmp,
        )
        for token in tokens
    ]


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def read_tokens(path: Path) -> dict[str, str]:
    """Token -> name; only whole lines (serve may be writing the file)."""
    text = path.read_text()
    whole = text[: text.rfind("\n") + 1].splitlines()
    words = [line.split() for line in whole if line and not line.startswith("#")]
    return {w[1]: w[0] for w in words if len(w) == 2}


def test_sigterm_stops_a_background_serve_whose_bots_come_back_to_resume(tmp_path: Path) -> None:
    results = tmp_path / "run"
    address = f"127.0.0.1:{free_port()}"
    job = Background(
        tmp_path, "serve", "--issue-tokens", "-n", "4", "--rounds", "10", "--deals", "2",
        "--listen", address, "--results", str(results), "--quiet",
    )  # fmt: skip
    path = results / "tokens.txt"
    wait_until(lambda: path.exists() and len(read_tokens(path)) == 4, 30)  # written whole
    tokens = read_tokens(path)
    bots = start_bots(address, tokens, tmp_path)
    try:
        wait_until(job.sigint_ignored, 10)
        wait_until(lambda: lines(results / "matches.jsonl") >= 1, 120)
        code = job.terminate()
        for bot in bots:  # told the tournament is over: they leave on their own
            bot.wait(15)
    finally:
        job.stop()
        for bot in bots:
            bot.kill()
    assert code == 130, job.stderr()
    assert f"--resume {results}" in job.stderr() and "Traceback" not in job.stderr()
    assert 1 <= lines(results / "matches.jsonl") < 10
    config = json.loads((results / "tournament.json").read_text())
    assert config["config"]["external"] is True

    # 13.11: the resumed run waits for the same entrants, with their tokens, and finishes.
    resumed = subprocess.Popen(
        [ARENA, "tournament", "--resume", str(results), "--quiet"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        time.sleep(1)
        bots = start_bots(address, tokens, tmp_path)
        out, err = resumed.communicate(timeout=240)
    finally:
        resumed.kill()
        for bot in bots:
            bot.kill()
    assert resumed.returncode == 0, err
    assert "No module named" not in err
    assert lines(results / "matches.jsonl") == 10
    names = {n for m in read_jsonl(results / "matches.jsonl") for n in m["seats"]}
    assert names == set(tokens.values())


def test_sigterm_before_the_start_of_serve_suggests_no_resume(tmp_path: Path) -> None:
    results = tmp_path / "run"
    job = Background(
        tmp_path, "serve", "-n", "4", "--listen", f"127.0.0.1:{free_port()}",
        "--results", str(results),
    )  # fmt: skip
    try:
        wait_until(lambda: "listening" in job.stdout(), 30)
        code = job.terminate()
    finally:
        job.stop()
    assert code == 130
    assert "nothing to resume" in job.stderr() and "--resume" not in job.stderr()
    assert not results.exists()


def test_sigterm_stops_a_background_check(tmp_path: Path) -> None:
    job = Background(tmp_path, "check", "--listen", f"127.0.0.1:{free_port()}")
    try:
        wait_until(lambda: "listening" in job.stdout(), 30)
        wait_until(job.sigint_ignored, 10)
        code = job.terminate()
    finally:
        job.stop()
    assert code == 130 and "interrupted" in job.stderr()
    assert "Traceback" not in job.stderr()
