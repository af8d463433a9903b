"""What the commands check before anything starts (new users' issue 13.3, 13.4, 13.8,
13.9, 13.11): one line that says what is wrong, and no results folder left behind."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app

runner = CliRunner()
ARENA = shutil.which("arena") or ""


def arena(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def real_arena(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The installed command, as a user runs it (gRPC's own logging included)."""
    return subprocess.run(
        [ARENA, *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )


def one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    return lines[0]


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield int(s.getsockname()[1])


# ------------------------------------------------------------------ 13.3 bot names


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("randmo", "unknown bot 'randmo'"),
        ("no_such_module:Bot", "bot 'no_such_module:Bot': no module named 'no_such_module'"),
    ],
)
def test_an_unknown_bot_over_grpc_is_refused_before_anything_starts(
    tmp_path: Path, name: str, says: str
) -> None:
    out = tmp_path / "run"
    code, text = arena(
        "tournament", "--bots", f"{name},random,greedy,planner", "--results", str(out)
    )
    assert code == 1
    assert says in one_line(text)
    assert not out.exists()


def test_a_bot_module_in_the_current_folder_passes_the_name_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.play.run import check_bot_names

    (tmp_path / "mybot_startup.py").write_text("class Bot: ...\n")
    monkeypatch.chdir(tmp_path)  # its own process (python -m arena.sdk) will find it here
    check_bot_names(["mybot_startup:Bot", "random", "random#2", "js"])


# ------------------------------------------------------------------ 13.4 --listen


@pytest.mark.skipif(not ARENA, reason="the arena command is not installed")
@pytest.mark.parametrize("command", ["tournament", "serve", "check"])
def test_a_busy_listen_address_is_one_line_and_leaves_no_files(
    tmp_path: Path, busy_port: int, command: str
) -> None:
    address = f"127.0.0.1:{busy_port}"
    extra = {"tournament": ["--results", "run"], "serve": ["-n", "4", "--results", "run"]}
    done = real_arena(tmp_path, command, "--listen", address, *extra.get(command, []))
    assert done.returncode == 1
    line = one_line(done.stderr)
    assert address in line and "in use" in line, line
    assert "GRPC_VERBOSITY" not in done.stderr and "E0000" not in done.stderr
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    "listen", ["192.0.2.1:50051", "no-such-host.invalid:50051"]
)  # not this machine's address; a name that does not resolve
def test_a_bad_listen_address_is_one_line_and_leaves_no_files(tmp_path: Path, listen: str) -> None:
    out = tmp_path / "run"
    for args in (
        ("tournament", "--results", str(out)),
        ("serve", "-n", "4", "--results", str(out)),
    ):
        code, text = arena(*args, "--listen", listen)
        assert code == 1
        assert f"cannot listen on {listen}" in one_line(text)
        assert not out.exists()


# ------------------------------------------------------------------ 13.8 serve --results


def test_serve_with_results_it_cannot_write_fails_at_start(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    code, text = arena(
        "serve", "-n", "4", "--listen", "127.0.0.1:0", "--results", str(blocker / "run")
    )
    assert code == 1 and "not a directory" in one_line(text)
    assert sorted(os.listdir(tmp_path)) == ["a-file"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_serve_with_a_read_only_results_folder_fails_at_start(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)
    try:
        code, text = arena(
            "serve", "-n", "4", "--listen", "127.0.0.1:0", "--results", str(locked / "run")
        )
    finally:
        locked.chmod(0o755)
    assert code == 1 and "cannot write results" in one_line(text)
    assert os.listdir(locked) == []


# ------------------------------------------------------------------ 13.9 --resume


def test_resume_refuses_other_options_naming_them(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, text = arena(
        "tournament", "--in-process", "-r", "1", "--deals", "1", "--results", str(out), "-q"
    )
    assert code == 0, text
    before = (out / "matches.jsonl").read_bytes()
    code, text = arena("tournament", "--resume", str(out), "-r", "5", "--seed", "3")
    assert code == 1
    line = one_line(text)
    assert "--rounds" in line and "--seed" in line and "cannot be changed" in line
    assert (out / "matches.jsonl").read_bytes() == before
    code, text = arena("tournament", "--resume", str(out), "--quiet")  # --quiet changes nothing
    assert code == 0, text


# ------------------------------------------------------------------ 13.11 serve runs


def served_run(tmp_path: Path, **config: object) -> Path:
    """A stopped `arena serve` run as its directory holds it (no matches finished yet)."""
    out = tmp_path / "served"
    out.mkdir()
    settings = {
        "rounds": 1, "deals": 1, "bots": ["random", "greedy", "planner", "tracker"],
        "transport": "grpc", "external": True, "seed": 5, "listen": "127.0.0.1:0", **config,
    }  # fmt: skip
    saved = {"schema": 1, "config": settings, "randomness": "seeded"}
    (out / "tournament.json").write_text(json.dumps(saved))
    return out


def test_a_served_run_resumes_by_waiting_never_by_starting_bundled_bots(tmp_path: Path) -> None:
    # An external bot named "random" must not be replaced by the bundled one: the resumed
    # run listens for the entrants instead. Nothing connects here; the tokens file is gone,
    # so it stops at once with one line, before listening.
    out = served_run(tmp_path, tokens_file=str(tmp_path / "gone.txt"))
    code, text = arena("tournament", "--resume", str(out), "--quiet")
    assert code == 1 and "cannot read the tokens file" in text
    assert not (out / "bots").exists()  # no bot was started
    assert "No module named" not in text


def test_resuming_a_served_run_on_a_busy_address_says_so(tmp_path: Path, busy_port: int) -> None:
    out = served_run(tmp_path, listen=f"127.0.0.1:{busy_port}")
    code, text = arena("tournament", "--resume", str(out), "--quiet")
    assert code == 1 and f"cannot listen on 127.0.0.1:{busy_port}" in text
    assert not (out / "bots").exists()


@pytest.mark.skipif(not ARENA, reason="the arena command is not installed")
def test_a_resumed_open_run_plays_only_with_its_own_entrants(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    address = f"127.0.0.1:{port}"
    out = served_run(tmp_path, bots=["alpha", "beta", "gamma", "delta"], listen=address)
    resumed = subprocess.Popen(
        [ARENA, "tournament", "--resume", str(out), "--quiet"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    bots = [
        subprocess.Popen(
            [ARENA, "bot", "random", "--connect", address],
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        for _ in range(4)
    ]
    try:
        _, err = resumed.communicate(timeout=120)
    finally:
        resumed.kill()
        for bot in bots:
            bot.kill()
    assert resumed.returncode == 1
    assert "this run's entrants are alpha, beta, gamma, delta" in err
    assert not (out / "matches.jsonl").exists() or (out / "matches.jsonl").read_text() == ""
