"""In-process tournaments on a real local Ray instance (issue 18.2): the same bytes as one
process, the bots' code sent in the runtime environment (this folder), and a worker
killed mid-match losing nothing. Ray is an optional extra: without it these tests skip,
and fail in CI (``.ci/run`` installs it). One Ray instance (2 CPUs) serves the module:
starting one takes seconds."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import MissingTool
from parallelbots import PausingBot, SlowBot
from test_parallel import FILES, play, same_files, small_plan
from typer.testing import CliRunner

from arena.cli import app
from arena.play.tournament import SerialRunner
from arena.standings.results import read_jsonl

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def ray_instance(missing_tool: MissingTool) -> Iterator[Any]:
    try:
        import ray
    except ImportError:
        missing_tool("Ray is not installed", "pip install -e '.[ray]'")
    from arena.play.cluster import connect

    connect("local", HERE, num_cpus=2)  # this folder travels: parallelbots, and this module
    yield ray
    ray.shutdown()


def test_ray_writes_the_bytes_one_process_writes(ray_instance: Any, tmp_path: Path) -> None:
    from arena.play.cluster import RayRunner

    plan = small_plan("truf")
    bots = {e: SlowBot(seed=e) for e in plan.entrants}
    one = play(plan, bots, tmp_path / "one", SerialRunner(bots))
    two = play(plan, bots, tmp_path / "ray", RayRunner(bots, "auto"))
    same_files(one, two)


def test_a_worker_killed_mid_match_loses_nothing(ray_instance: Any, tmp_path: Path) -> None:
    from arena.play.cluster import RayRunner

    plan = small_plan("truf")
    pids = tmp_path / "pids"
    pids.mkdir()
    bots = {e: PausingBot(seed=e) for e in plan.entrants}
    for bot in bots.values():
        bot.pids = str(pids)
    killed: list[int] = []

    def kill_when_paused() -> None:
        mark = pids / PausingBot.match
        deadline = time.monotonic() + 120
        while not mark.exists() or not mark.read_text():
            if time.monotonic() > deadline:
                return
            time.sleep(0.05)
        killed.append(int(mark.read_text()))
        with contextlib.suppress(ProcessLookupError):
            os.kill(killed[0], signal.SIGKILL)

    killer = threading.Thread(target=kill_when_paused)
    killer.start()
    two = play(plan, bots, tmp_path / "ray", RayRunner(bots, "auto"))
    killer.join()
    assert killed and killed[0] != os.getpid()
    one = play(plan, {e: SlowBot(seed=e) for e in plan.entrants}, tmp_path / "one", None)
    same_files(one, two)


def test_the_command_line_plays_on_ray(ray_instance: Any, tmp_path: Path) -> None:
    args = ["tournament", "--rounds", "3", "--deals", "1", "--seed", "3", "--quiet",
            "--bots", "random,greedy,parallelbots:SlowBot,tracker"]  # fmt: skip
    cli = CliRunner()
    one = cli.invoke(
        app, [*args, "--in-process", "--workers", "1", "--results", str(tmp_path / "1")]
    )
    assert one.exit_code == 0, one.output
    two = cli.invoke(app, [*args, "--ray", "auto", "--results", str(tmp_path / "r")])
    assert two.exit_code == 0, two.output
    same_files(tmp_path / "1", tmp_path / "r", (*FILES, "leaderboard.csv", "leaderboard.json"))
    assert len(read_jsonl(tmp_path / "r" / "matches.jsonl")) == 3


def test_without_ray_installed_ray_is_one_line_saying_how_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray: ImportError
    result = CliRunner().invoke(
        app, ["tournament", "--ray", "auto", "--rounds", "1", "--results", str(tmp_path / "r")]
    )
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "error: --ray needs Ray, which is not installed: pip install 'truf-arena[ray]' (in a "
        "clone: pip install -e '.[ray]')"
    ]
