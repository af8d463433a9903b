"""A new user's path, run as they run it: the real ``arena`` command (or ``python -m
arena.sdk``) in a fresh folder holding their bot. Every mistake is one line on stderr,
names the user's file and line, and exits 1; nothing prints an arena traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from procs import alive, children_of

ARENA = str(Path(sys.executable).with_name("arena"))

LOWEST = """\
from arena.bot import BaseBot


class Lowest(BaseBot):
    name = "lowest"

    def act(self, view, legal):
        return legal[0]
"""


def run(folder: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["COLUMNS"] = "80"
    return subprocess.run(
        args, cwd=folder, capture_output=True, text=True, timeout=timeout, env=env, check=False
    )


def write(folder: Path, name: str, text: str) -> None:
    (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")


def test_the_readme_in_process_command_runs_from_the_bots_folder(tmp_path: Path) -> None:
    write(tmp_path, "mybot.py", LOWEST)
    got = run(
        tmp_path, ARENA, "tournament", "--in-process", "--bots",
        "mybot:Lowest,random,greedy,planner", "--rounds", "2", "--deals", "1",
        "--results", "r", "--quiet",
    )  # fmt: skip
    assert got.returncode == 0, got.stderr
    assert entrants(tmp_path / "r") == ["greedy", "lowest", "planner", "random"]


def entrants(results: Path) -> list[str]:
    doc = json.loads((results / "leaderboard.json").read_text(encoding="utf-8"))
    return sorted(row["bot"] for row in doc["rows"])


@pytest.mark.parametrize("transport", ["--in-process", "--grpc"])
def test_an_entrant_plays_under_its_bots_own_name_in_process_and_over_grpc(
    tmp_path: Path, transport: str
) -> None:
    # One rule for both: the class's `name` (what the SDK says in its hello), made unique.
    write(tmp_path, "mybot.py", LOWEST)
    got = run(
        tmp_path, ARENA, "tournament", *([transport] if transport == "--in-process" else []),
        "--bots", "mybot:Lowest,mybot:Lowest,random,greedy", "--rounds", "1", "--deals", "1",
        "--results", "r", "--quiet",
    )  # fmt: skip
    assert got.returncode == 0, got.stderr
    assert entrants(tmp_path / "r") == ["greedy", "lowest#1", "lowest#2", "random"]
    config = json.loads((tmp_path / "r" / "tournament.json").read_text(encoding="utf-8"))
    assert [e["bot"] for e in config["entrants"]][:2] == ["mybot:Lowest", "mybot:Lowest"]


@pytest.mark.parametrize(
    ("source", "spec", "expected"),
    [
        ("x = (\n", "broken:Bot", "broken.py line 1: SyntaxError: '(' was never closed"),
        (
            "import os\n\nraise ValueError('no config file')\n",
            "raising:Bot",
            "raising.py line 3: ValueError: no config file",
        ),
        (
            "import no_such_dependency\n",
            "needs:Bot",
            "needs.py line 1: ModuleNotFoundError: No module named 'no_such_dependency'",
        ),
        (
            "class Bot:\n    def __init__(self):\n        raise RuntimeError('no model')\n",
            "ctor:Bot",
            "its constructor raised: ctor.py line 3: RuntimeError: no model",
        ),
        (
            "import json\n\nCONFIG = json.loads('not json')\n",
            "jsonbad:Bot",
            "jsonbad.py line 3: JSONDecodeError: Expecting value",  # its line, not json's
        ),
        ("class Other:\n    pass\n", "noattr:Bot", "noattr.py has no 'Bot'"),
        (None, "nosuch:Bot", "no module named 'nosuch' in"),
    ],
)
def test_a_broken_bot_module_is_one_line_naming_its_file_and_line(
    tmp_path: Path, source: str | None, spec: str, expected: str
) -> None:
    if source is not None:
        write(tmp_path, spec.split(":")[0] + ".py", source)
    commands = [
        [ARENA, "tournament", "--in-process", "--bots", f"{spec},random,greedy,planner",
         "--results", "r", "--quiet"],
        [ARENA, "bot", spec, "--connect", "127.0.0.1:9"],
        [sys.executable, "-m", "arena.sdk", spec, "--connect", "127.0.0.1:9"],
    ]  # fmt: skip
    for command in commands:
        got = run(tmp_path, *command)
        assert got.returncode == 1, (command, got.stderr)
        assert expected in got.stderr, (command, got.stderr)
        assert "Traceback" not in got.stderr and "arena/" not in got.stderr, got.stderr
        assert len(got.stderr.strip().splitlines()) == 1, got.stderr
    assert not (tmp_path / "r").exists()  # refused before any file


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--decision-timeout", "nan", "'--decision-timeout': must be a finite number"),
        ("--decision-timeout", "0", "'--decision-timeout': must be more than 0"),
        ("--time-bank", "inf", "'--time-bank': must be a finite number"),
        ("--time-bank", "-1", "'--time-bank': must be 0 or more"),
        ("--grace", "-inf", "'--grace': must be a finite number"),
        ("--rounds", "many", "'--rounds'"),
    ],
)
def test_a_bad_number_is_refused_at_parse_time_in_one_line(
    tmp_path: Path, option: str, value: str, message: str
) -> None:
    got = run(tmp_path, ARENA, "tournament", option, value, "--results", "r")
    assert got.returncode == 1
    assert got.stderr.startswith("error: ") and message in got.stderr, got.stderr
    assert len(got.stderr.strip().splitlines()) == 1, got.stderr
    assert not (tmp_path / "r").exists()


def test_check_refuses_an_infinite_wait(tmp_path: Path) -> None:
    got = run(tmp_path, ARENA, "check", "--wait", "inf")
    assert got.returncode == 1 and "'--wait': must be a finite number" in got.stderr


def test_usage_errors_are_one_line_with_the_same_exit_code(tmp_path: Path) -> None:
    for args in (["frobnicate"], ["tournament", "--no-such-option"], ["leaderboard"]):
        got = run(tmp_path, ARENA, *args)
        assert got.returncode == 1, (args, got.stderr)
        assert got.stderr.startswith("error: "), got.stderr
        assert len(got.stderr.strip().splitlines()) == 1, got.stderr


def test_help_reads_naturally(tmp_path: Path) -> None:
    got = run(tmp_path, ARENA, "tournament", "-h")
    assert got.returncode == 0
    text = " ".join(got.stdout.split())  # help wraps at any word
    assert "<bool>" not in text and "(1)" not in text and "(2)" not in text
    assert "--in-process " in text and "--decision-timeout SECONDS" in text
    assert "[default: 1]" in text  # --scoring
    assert "sit out" in text  # --rounds says what the scheduler does with a remainder
    top = run(tmp_path, ARENA, "-h").stdout
    assert "Exit codes: 0" in top


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_the_bots_a_killed_arena_launched_exit_within_two_seconds(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    arena = subprocess.Popen(
        [ARENA, "tournament", "--rounds", "500", "--results", "r", "--quiet"],
        cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "r" / "matches.jsonl").exists() or not (
            (tmp_path / "r" / "matches.jsonl").stat().st_size
        ):  # the bots are connected and playing
            assert time.monotonic() < deadline and arena.poll() is None
            time.sleep(0.1)
        bots = children_of(arena.pid)
        assert len(bots) == 4
    finally:
        arena.kill()  # kill -9: the arena cannot stop its bots
        arena.wait()
    deadline = time.monotonic() + 3
    while any(alive(b) for b in bots) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [b for b in bots if alive(b)]
    for b in left:
        os.kill(b, signal.SIGKILL)
    assert not left, "bots outlived the arena"


CRASHY = """\
from arena.bot import BaseBot


def pick(legal):
    return legal[99]


class Crashy(BaseBot):
    name = "crashy"
    calls = 0

    def act(self, view, legal):
        self.calls += 1
        if self.calls % 2:
            raise ValueError("odd call")
        return pick(legal)
"""


def test_an_in_process_bots_exception_is_shown_once_per_kind_with_its_own_frames(
    tmp_path: Path,
) -> None:
    write(tmp_path, "crashy.py", CRASHY)
    got = run(
        tmp_path, ARENA, "tournament", "--in-process", "--bots",
        "crashy:Crashy,random,greedy,planner", "--rounds", "3", "--deals", "2",
        "--strikes", "50", "--results", "r", "--quiet",
    )  # fmt: skip
    assert got.returncode == 0, got.stderr
    err = got.stderr
    assert err.count("act() raised ValueError") == 1, err
    assert err.count("act() raised IndexError") == 1, err
    assert 'crashy.py", line 15, in act' in err and 'raise ValueError("odd call")' in err
    assert 'crashy.py", line 5, in pick' in err  # the bot's own frames, down to the bug
    assert "arena/" not in err  # none of the arena's
    assert "ValueError: odd call" in err and "IndexError: tuple index out of range" in err
