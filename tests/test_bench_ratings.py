"""bench/ratings.py runs end to end on a tiny field of runs and prints its four tables: the
share in the true order per round with intervals, the calibration of P(>next) for the
bundled bots and a field without the random bot, and the stops. Not a goal check: the
figures are the bench's to report (README), never a test's."""

from __future__ import annotations

import re
from pathlib import Path

from procs import run_bench


def test_the_ratings_bench_prints_its_tables(tmp_path: Path) -> None:
    args = ["--seeds", "2", "--rounds", "5", "--stop-seeds", "1", "--stop-rounds", "6",
            "--draws", "2", "--truth-rounds", "8", "--variants", "target",
            "--alternatives", "--cache", str(tmp_path)]  # fmt: skip
    out = run_bench("ratings.py", *args, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("target: true order ")
    head = lines.index(next(x for x in lines if x.startswith("target: share of 2 seeds")))
    assert re.fullmatch(r"\s+R\s+deals/entrant\s+leaderboard\s+score/deal\s+μ − 3σ\s*",
                        lines[head + 1])  # fmt: skip
    share = r"[01]\.\d{3} \[[01]\.\d{3}, [01]\.\d{3}\]"
    assert re.fullmatch(rf"\s+5\s+\d+\s+{share}\s+{share}\s+{share}\s*", lines[head + 2])
    assert re.match(r"  the leaderboard's share (first reaches 95% at round \d+: \d+ deals "
                    r"per entrant|stays under 95% up to round 5)", lines[head + 3])  # fmt: skip
    for title in ("target, bundled bots", "target, no random bot (norandom)"):
        assert any(x.startswith(f"{title}: P(>next) shown against how often") for x in lines)
        for other in ("'t'", "'eb'", "'eb+t'"):  # --alternatives: the same table for each
            heading = f"{title}, P(>next) by {other} (--alternatives): P(>next) shown"
            assert any(x.startswith(heading) for x in lines), heading
    # each bin: pairs, shown, right with its interval, and right if the true gap were known
    assert any(re.match(rf"  \[0\.\d\d, [01]\.\d\d\)\s+\d+\s+[01]\.\d{{3}}\s+{share}"
                        r"\s+[01]\.\d{3}\s*$", x) for x in lines)  # fmt: skip
    said = "\n".join(lines)
    assert "target: --until-settled checked after every round, cap 6 rounds" in said
    assert re.search(rf"identical bots .*: wrong stops {share} of 2 runs", said)
    assert re.search(rf"a tenth of tracker-planner's gap .*: wrong stops {share} of 2 runs", said)
    assert (tmp_path / "target-plain-r5" / "seed2.jsonl").exists()  # kept for a re-run
    assert (tmp_path / "target-plain-r5-norandom" / "seed2.jsonl").exists()


def test_the_ratings_bench_prints_the_default_fields_stops(tmp_path: Path) -> None:
    """--tables fields: the default Truco and Ruff fields' runs walked by --until-settled
    (bots tested as bots), and wrong stops between Ruff's label-swapped bots."""
    args = ["--tables", "fields", "--field-seeds", "1", "--field-rounds", "3",
            "--field-draws", "2", "--cache", str(tmp_path)]  # fmt: skip
    out = run_bench("ratings.py", *args, timeout=300)
    assert out.returncode == 0, out.stderr
    said = out.stdout
    for game in ("truco", "ruff"):
        assert f"{game}, default field: --until-settled checked after every round, cap 3" in said
        assert (tmp_path / f"{game}-default-r3" / "seed1.jsonl").exists()
    verdict = r"\w+#\d (same|above|level|open) "
    assert re.search(rf"  seed 1: (stopped after \d+|open at the cap): {verdict}", said)
    share = r"[01]\.\d{3} \[[01]\.\d{3}, [01]\.\d{3}\]"
    assert re.search(rf"identical bots \(sharp and steady .*: wrong stops {share} of 2 runs", said)
    assert re.search(rf"a tenth of their gap .*: wrong stops {share} of 2 runs", said)
