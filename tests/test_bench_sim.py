"""bench/sim.py runs both sides (the bare loop and the simulator) in one run and ends with
``playouts/s: N``. Not timed: speed is the bench's to report, never a test's."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("variant", ["classic", "target"])
def test_the_sim_bench_reports_both_sides_and_ends_with_playouts_per_second(
    variant: str,
) -> None:
    out = subprocess.run(
        [sys.executable, "bench/sim.py", "--deals", "20", "--repeat", "1", "--variant", variant],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("baseline (bench/engine.py's bare classic loop)")
    assert lines[1].startswith(f"sim ({variant}:")
    assert re.fullmatch(r"sim / baseline: \d+\.\d\d \(goal: 1\.5 or more\)", lines[2])
    assert re.fullmatch(r"playouts/s: [1-9]\d*", lines[-1])
