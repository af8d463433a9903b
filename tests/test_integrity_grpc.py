"""Issue 25 over real gRPC on loopback: crashes are faults on every transport, in-process and
gRPC agree, a bot killed mid-tournament forfeits and finishes last, one slow decision does
not cost strikes at other tables, and any bot spec works. Each test waits for events (a
line in a results file, a process's end), never for a guess at a duration."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bots import bundled_module

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 240.0  # seconds any one subprocess may take before it is killed


def env(**extra: str) -> dict[str, str]:
    out = dict(os.environ)
    out["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), str(ROOT / "tests"), out.get("PYTHONPATH")) if p
    )
    out["PYTHONUNBUFFERED"] = "1"
    out.update(extra)
    return out


def spawn(cmd: Sequence[str], cwd: Path, **extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        list(cmd), cwd=cwd, env=env(**extra), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, start_new_session=True,
    )  # fmt: skip


def stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=10)


def arena(cwd: Path, *args: str, **extra: str) -> tuple[int, str]:
    proc = spawn([sys.executable, "-m", "arena.cli", *args], cwd, **extra)
    try:
        out, _ = proc.communicate(timeout=TIMEOUT)
    finally:
        stop(proc)
    return proc.returncode, out


def jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def located(out: Path) -> list[tuple[Any, ...]]:
    """Every fault of a run, without what differs by transport (detail, request id)."""
    return sorted(
        (
            r["match"],
            r["deal"],
            f["seat"],
            f["decision"],
            f["kind"],
            f["played"],
            f["strikes"],
            f["disqualified"],
        )  # fmt: skip
        for r in jsonl(out / "replays.jsonl")
        for f in r["faults"]
    )


@pytest.mark.parametrize(
    ("game", "bots"),
    [
        ("truf", "integritybots:RaisesOnCalls,integritybots:ReturnsNone,integritybots:Pick,"
                 "integritybots:Raises"),
        ("truf", "integritybots:Chaotic,integritybots:Pick,integritybots:Pick,"
                 "integritybots:Pick"),
        ("truco", "integritybots:RaisesOnCalls,integritybots:Pick,integritybots:Pick,"
                  "integritybots:Pick"),
        ("ruff", "integritybots:RaisesOnCalls,integritybots:ReturnsNone,integritybots:Pick,"
                 "integritybots:Pick"),
    ],
)  # fmt: skip
def test_in_process_and_grpc_give_the_same_faults_strikes_and_disqualifications(
    tmp_path: Path, game: str, bots: str
) -> None:
    runs = {}
    for transport in ("in-process", "grpc"):
        out = tmp_path / transport
        args = ["tournament", "--game", game, "--bots", bots, "--rounds", "2", "--seed", "9",
                "--results", str(out), "--quiet"]  # fmt: skip
        if "Chaotic" in bots:  # strikes enough that every kind of bad answer comes up
            args += ["--strikes", "25"]
        if transport == "in-process":
            args += ["--in-process", "--workers", "1"]
        else:  # no timeout on a loaded machine: only the bots' own faults
            args += ["--decision-timeout", "30"]
        code, text = arena(tmp_path, *args)
        assert code == 0, text
        runs[transport] = out
    grpc_faults = located(runs["grpc"])
    assert grpc_faults and grpc_faults == located(runs["in-process"])
    kinds = {f[4] for f in grpc_faults}
    assert "crash" in kinds and "timeout" not in kinds
    if "Chaotic" in bots:
        assert kinds == {"crash", "illegal", "unparseable"}
    for transport, out in runs.items():
        matches = {m["match"]: m for m in jsonl(out / "matches.jsonl")}
        runs[transport] = {
            k: (m["faults"], m["disqualified"], m["ranks"]) for k, m in matches.items()
        }  # type: ignore[assignment]
    assert runs["grpc"] == runs["in-process"]
    # Over gRPC each fault names its request; the referee's log has every one of them.
    requests = [
        f["request"] for r in jsonl(tmp_path / "grpc" / "replays.jsonl") for f in r["faults"]
    ]
    assert all(isinstance(rid, int) and rid > 0 for rid in requests)
    assert len(set(requests)) == len(requests)
    if game == "truco":  # a crash while answering a call plays Quiero, never a raise (R6)
        played = {f[5] for f in grpc_faults}
        assert "quiero" in played
        assert not any(p.startswith("call") for p in played), played
    crashed = [f for f in grpc_faults if f[4] == "crash"]
    text = (tmp_path / "grpc" / "bots").glob("*.log")
    assert any("Traceback" in p.read_text() for p in text)
    assert crashed


def test_the_terminal_says_once_where_a_crashing_bots_log_is(tmp_path: Path) -> None:
    bots = "integritybots:Raises,integritybots:Pick,integritybots:Pick,random"
    code, text = arena(tmp_path, "tournament", "--bots", bots, "--rounds", "2",
                       "--seed", "3", "--results", str(tmp_path / "r"))  # fmt: skip
    assert code == 0, text
    said = [line for line in text.splitlines() if line.startswith("[bot raises]")]
    assert len(said) == 1, text
    assert "its tracebacks are in" in said[0] and str(tmp_path / "r" / "bots") in said[0]
    assert "Traceback" not in text  # the tracebacks are in the log, not on the terminal


def wait_for_lines(path: Path, count: int, proc: subprocess.Popen[str]) -> None:
    """Until ``path`` holds ``count`` lines (an event: a match written), or ``proc`` ends."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and len(path.read_text().splitlines()) >= count:
            return
        time.sleep(0.02)
    raise AssertionError(f"{path} never held {count} lines")


def test_a_bot_killed_mid_tournament_forfeits_and_finishes_below_every_honest_bot(
    tmp_path: Path,
) -> None:
    """Issue 25, 2: leaving must never pay. The strongest bundled bot plays one match, is
    killed, forfeits the rest, and ends last; the honest bots keep their order."""
    out = tmp_path / "r"
    serve = spawn([sys.executable, "-m", "arena.cli", "serve", "--entrants", "4",
                   "--rounds", "12", "--grace", "0.2", "--seed", "5", "--decision-timeout", "5",
                   "--listen", "127.0.0.1:0",
                   "--results", str(out), "--quiet"], tmp_path)  # fmt: skip
    bots: list[subprocess.Popen[str]] = []
    try:
        assert serve.stdout is not None
        address = ""
        for line in serve.stdout:  # the referee says where it listens
            found = re.search(r"listening on (\S+?);", line)
            if found:
                address = found.group(1)
                break
        assert address, "the referee never said where it listens"
        for name in ("tracker", "random", "greedy", "planner"):
            cmd = [sys.executable, "-m", bundled_module(name) or name, "--connect", address,
                   "--capacity", "1"]  # fmt: skip
            bots.append(spawn(cmd, tmp_path))
        wait_for_lines(out / "matches.jsonl", 1, serve)
        os.killpg(bots[0].pid, signal.SIGKILL)  # the tracker leaves for good
        rest, _ = serve.communicate(timeout=TIMEOUT)
        assert serve.returncode == 0, rest
    finally:
        for proc in (serve, *bots):
            stop(proc)
    matches = jsonl(out / "matches.jsonl")
    assert len(matches) == 12
    forfeits = [m for m in matches if m["forfeit"][m["seats"].index("tracker")]]
    assert len(forfeits) >= 8, [m["forfeit"] for m in matches]
    for m in forfeits:
        assert m["ranks"][m["seats"].index("tracker")] == 4
    board = json.loads((out / "leaderboard.json").read_text())["rows"]
    order = [row["bot"] for row in board]
    assert order[-1] == "tracker", order
    tracker = next(row for row in board if row["bot"] == "tracker")
    assert tracker["wins"] <= 1 and tracker["forfeits"] == len(forfeits)


def test_a_slow_decision_at_one_table_costs_no_timeout_at_another(tmp_path: Path) -> None:
    """Issue 25, 6: the gate bot holds its first decision at table r0001-t01 until 40 of its
    decisions at other tables were answered. An SDK that answered one request at a time
    would time them all out; with a worker per table nothing times out."""
    out = tmp_path / "r"
    code, text = arena(
        tmp_path, "tournament", "--bots", "integritybots:Gate,random,greedy,planner",
        "--rounds", "3", "--seed", "2", "--decision-timeout", "15", "--results", str(out),
        "--quiet", GATE_AFTER="40", GATE_LIMIT="120",
    )  # fmt: skip
    assert code == 0, text
    faults = [f for r in jsonl(out / "replays.jsonl") for f in r["faults"]]
    assert faults == []
    rounds = {m["round"] for m in jsonl(out / "matches.jsonl")}
    assert rounds == {1, 2, 3}


def test_a_bot_spec_with_any_characters_in_its_options_plays_over_grpc(tmp_path: Path) -> None:
    """Issue 25, 7: ``module:Class:log=/a/path`` names the bot's log file safely."""
    note = tmp_path / "sub dir" / "noted.txt"
    note.parent.mkdir()
    code, text = arena(tmp_path, "tournament", "--bots",
                       f"integritybots:Noted:log={note},random,greedy,planner", "--rounds", "1",
                       "--seed", "1", "--results", str(tmp_path / "r"), "--quiet")  # fmt: skip
    assert code == 0, text
    assert "Traceback" not in text
    assert note.read_text() == "noted made\n"  # made once, by its own program
    logs = [p.name for p in (tmp_path / "r" / "bots").iterdir()]
    assert len(logs) == 4 and all("/" not in n and ":" not in n for n in logs)


def readme_template() -> str:
    """The README's Python bot template, as a reader copies it."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### In Python, with the SDK", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_readme_template_refused_at_hello_ends_with_one_clear_line(tmp_path: Path) -> None:
    """Issue 27 (taken here): the template's run() shows one line, as `arena bot` does, when
    the referee refuses the bot (this one plays Truco; the template bot plays Truf)."""
    serve = spawn([sys.executable, "-m", "arena.cli", "serve", "--game", "truco",
                   "--entrants", "4", "--listen", "127.0.0.1:0", "--results",
                   str(tmp_path / "r"), "--quiet"], tmp_path)  # fmt: skip
    try:
        assert serve.stdout is not None
        address = next(
            m.group(1) for line in serve.stdout if (m := re.search(r"listening on (\S+?);", line))
        )
        script = tmp_path / "mybot.py"
        script.write_text(readme_template().replace("127.0.0.1:50051", address))
        bot = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                             env=env(), timeout=TIMEOUT)  # fmt: skip
    finally:
        stop(serve)
    assert bot.returncode == 1
    lines = bot.stderr.strip().splitlines()
    assert "Traceback" not in bot.stderr, bot.stderr
    assert lines[-1].startswith("[bot] error: FAILED_PRECONDITION") and "truco" in lines[-1]


def test_run_without_a_referee_ends_with_one_clear_line(tmp_path: Path) -> None:
    script = tmp_path / "mybot.py"
    text = readme_template().replace('run(Lowest(), "127.0.0.1:50051")',
                                     'run(Lowest(), "127.0.0.1:9", retry_for=0.2)')  # fmt: skip
    assert "retry_for" in text
    script.write_text(text)
    bot = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         env=env(), timeout=TIMEOUT)  # fmt: skip
    assert bot.returncode == 1 and "Traceback" not in bot.stderr, bot.stderr
    assert bot.stderr.strip().splitlines()[-1] == (
        "[bot] error: cannot reach the referee at 127.0.0.1:9 for 0.2 s"
    )
