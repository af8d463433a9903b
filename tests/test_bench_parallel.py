"""bench/parallel.py plays one schedule on one process and on two, checks they wrote the
same bytes, and reports matches/s with the load average and the ratio. Not timed: speed
is the bench's to report, never a test's (Ray's part is left to tests/test_ray.py)."""

from __future__ import annotations

import re

from procs import run_bench


def test_the_parallel_bench_reports_both_rates_the_load_and_their_ratio() -> None:
    out = run_bench("parallel.py", "--rounds", "6", "--no-ray", timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "6 Truf matches, bots random, greedy, planner, tracker"
    load = r"\(load \d+\.\d\d \d+\.\d\d \d+\.\d\d\)"
    assert re.fullmatch(
        rf"machine: 2 processes of a bare loop run \d+\.\d\dx one  {load}", lines[1]
    )
    assert re.fullmatch(rf"workers 1: \d+\.\d\d matches/s  {load}", lines[2])
    assert re.fullmatch(rf"workers 2: \d+\.\d\d matches/s  {load}", lines[3])
    assert re.fullmatch(r"workers 2 / workers 1: \d+\.\d\d  \(goal on 2 cores: >= 1\.8\)", lines[4])
