"""bench/ratings.py runs end to end on a tiny field of runs and prints a line per method
with its share at each checkpoint and the rounds it needs. Not a goal check: the figures
are the bench's to report (README), never a test's."""

from __future__ import annotations

import re
from pathlib import Path

from procs import run_bench


def test_the_ratings_bench_reports_each_method_and_the_stop(tmp_path: Path) -> None:
    args = ["--seeds", "2", "--rounds", "5", "--truth-rounds", "8", "--variants", "target",
            "--methods", "match (today),default,score/deal", "--cache", str(tmp_path)]  # fmt: skip
    out = run_bench("ratings.py", *args, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("target: true order ")
    for mode in ("plain", "duplicate"):
        at = lines.index(next(x for x in lines if x.startswith(f"target {mode}: 2 seeds")))
        assert re.fullmatch(r"\s+method\s+5\s+rounds for 95%", lines[at + 1])
        for offset, name in enumerate(("match (today)", "default"), start=2):
            assert re.fullmatch(
                rf"\s+{re.escape(name)}\s+[01]\.\d\d\s+(\d+|>5)", lines[at + offset]
            )
        assert "--until-settled: order right at the stop in" in lines[at + 4]
    assert (tmp_path / "target-duplicate-r5" / "seed2.jsonl").exists()  # kept for a re-run
