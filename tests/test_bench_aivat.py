"""bench/aivat.py (issue 29 part 6) runs end to end and prints its table. Not a goal
check: the variance the correction removes is the bench's to report (README), never a
test's; what makes the correction safe is tested in tests/test_truf_luck.py."""

from __future__ import annotations

import re

from procs import run_bench


def test_the_aivat_bench_prints_its_table() -> None:
    out = run_bench("aivat.py", "--seeds", "2", "--rounds", "10", "--samples", "1",
                    "--width", "3", "--true-order", "tracker,planner,greedy,random",
                    timeout=300)  # fmt: skip
    assert out.returncode == 0, out.stderr
    said = out.stdout
    assert ("classic, 2 seeds of 10 rounds, corrected at the random bot's bid and mode, "
            "1 playouts an option, 3 options a decision") in said  # fmt: skip
    for pair in ("tracker − planner", "planner − greedy", "greedy − random"):
        assert re.search(rf"  {pair}: variance \d+\.\d\d → \d+\.\d\d, ratio \d\.\d{{3}} "
                         r"\[\d\.\d{3}, \d\.\d{3}\]; mean [+-]\d\.\d{3} → [+-]\d\.\d{3}, "
                         r"change [+-]\d\.\d{3} ± \d\.\d{3}", said), pair  # fmt: skip
    assert re.search(r"R= 10: [01]\.\d{3} \[[01]\.\d{3}, [01]\.\d{3}\]  [01]\.\d{3} ", said)
    assert re.search(r"play \d+\.\d\d ms a deal, correction \d+\.\d\d ms a deal", said)
    stops = r"\d+ of \d+ stopped, median (\d+|-)"
    assert re.search(rf"  bundled bots: {stops}; {stops}\n", said)
    wrong = rf"{stops}, wrong stops [01]\.\d{{3}} \[[01]\.\d{{3}}, [01]\.\d{{3}}\]"
    assert re.search(rf"identical bots \(tracker and planner, .*\): {wrong}; {wrong}\n", said)


def test_the_aivat_bench_refuses_a_decision_it_does_not_know() -> None:
    out = run_bench("aivat.py", "--decisions", "bids", "--true-order", "a,b", timeout=60)
    assert out.returncode == 2
    assert "--decisions takes bid, mode and play" in out.stderr
    assert "Traceback" not in out.stderr
