"""bench/engine.py runs both sides and ends with ``deals/s: N``; ``--only`` runs one side
(for callgrind). Not timed: speed is the bench's to report, never a test's."""

from __future__ import annotations

import re
import subprocess

from procs import run_bench


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return run_bench("engine.py", "--deals", "13", "--repeat", "1", *args)


def test_the_engine_bench_reports_both_sides_and_ends_with_deals_per_second() -> None:
    out = bench()
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("baseline (bare loop")
    assert re.fullmatch(r"engine / baseline: \d+\.\d\d", lines[2])
    assert re.fullmatch(r"deals/s: [1-9]\d*", lines[-1])


def test_only_runs_one_side() -> None:
    engine = bench("--only", "engine").stdout.splitlines()
    assert engine[0].startswith("engine (") and engine[-1].startswith("deals/s: ")
    assert not any(line.startswith("baseline") for line in engine)
    baseline = bench("--only", "baseline").stdout.splitlines()
    assert len(baseline) == 1 and baseline[0].startswith("baseline (bare loop")


def test_a_wrong_argument_is_an_error_not_a_traceback() -> None:
    out = bench("--deals", "0")
    assert out.returncode == 2
    assert "--deals and --repeat must be at least 1" in out.stderr
    assert "Traceback" not in out.stderr


def test_truco_reports_hands_per_second_at_every_table_size() -> None:
    for seats in ("2", "4", "6"):
        out = bench("--game", "truco", "--seats", seats)
        assert out.returncode == 0, out.stderr
        assert re.fullmatch(r"hands/s: [1-9]\d*", out.stdout.splitlines()[-1])
    out = bench("--game", "truco", "--only", "engine")
    assert out.returncode == 2 and "--only applies to Truf" in out.stderr


def test_the_ruff_bench_reports_deals_per_second_in_each_form() -> None:
    for args in ((), ("--form", "single", "--seats", "3")):
        out = bench("--game", "ruff", *args)
        assert out.returncode == 0, out.stderr
        assert re.fullmatch(r"deals/s: [1-9]\d*", out.stdout.splitlines()[-1])
    refused = bench("--game", "ruff", "--form", "double", "--seats", "3")  # F1: four seats
    assert refused.returncode == 2 and "--form single" in refused.stderr
