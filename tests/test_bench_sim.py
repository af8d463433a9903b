"""bench/sim.py runs both sides (the bare loop and the simulator) in one run and ends with
``playouts/s: N``. Not timed: speed is the bench's to report, never a test's."""

from __future__ import annotations

import re

import pytest
from procs import run_bench


@pytest.mark.parametrize("variant", ["classic", "target"])
def test_the_sim_bench_reports_both_sides_and_ends_with_playouts_per_second(
    variant: str,
) -> None:
    out = run_bench("sim.py", "--deals", "20", "--repeat", "1", "--variant", variant)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("baseline (bench/engine.py's bare classic loop)")
    assert lines[1].startswith(f"sim ({variant}:")
    assert re.fullmatch(r"sim / baseline: \d+\.\d\d \(goal: 1\.5 or more\)", lines[2])
    assert re.fullmatch(r"playouts/s: [1-9]\d*", lines[-1])


@pytest.mark.parametrize(
    "args",
    [("--game", "truco", "--seats", "6"), ("--game", "ruff", "--form", "single", "--seats", "3")],
)
def test_the_sim_bench_reports_truco_and_ruff_beside_the_engines_bare_loop(
    args: tuple[str, ...],
) -> None:
    out = run_bench("sim.py", "--deals", "20", "--repeat", "1", *args)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("engine (legal_actions + apply, random moves, " + args[1])
    assert lines[1].startswith(f"sim ({args[1]}")
    assert re.fullmatch(r"sim / engine: \d+\.\d\d", lines[2])
    assert re.fullmatch(r"playouts/s: [1-9]\d*", lines[-1])
