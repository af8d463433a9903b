"""bench/ruff_duplicate.py plays each deal twice, seat 0 changed: a bot against itself
gains exactly nothing and never leaves its own choice; a different bot's gain is split
by its first different decision (F5, F7) and the parts add up; ``--late`` plays a deal
near the set's end (F9) and scores the match's ranks (F10)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from procs import run_bench

from arena.games.ruff.rules import RuffRules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import ruff_duplicate  # noqa: E402


def test_a_bot_against_itself_gains_nothing_and_never_departs() -> None:
    out = run_bench("ruff_duplicate.py", "--form", "single", "--seats", "3", "--deals", "4",
                    "--bot", "sharp", "--base", "sharp", "--others", "sharp,random")  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "4 deals: sharp - sharp = +0.00 ± 0.00 points a deal" in out.stdout
    assert re.search(r"^  same\s+4 deals  \+0\.000 a deal", out.stdout, re.M)
    quiet = run_bench("ruff_duplicate.py", "--deals", "2", "--bot", "sharp", "--no-split")
    assert quiet.returncode == 0, quiet.stderr
    assert "2 deals: sharp - sharp = +0.00" in quiet.stdout and "first decision" not in quiet.stdout


def test_the_split_names_the_first_departure_and_adds_up() -> None:
    rules = RuffRules(form="single", seats=2)
    gains, parts = [], {}
    for i in range(6):
        mine, first = ruff_duplicate.one_deal(rules, "steady", ["sharp"], i, base="sharp")
        base, same = ruff_duplicate.one_deal(rules, "sharp", ["sharp"], i, base="sharp")
        assert same == "same"  # sharp never leaves its own choice
        assert first == "discard" or re.fullmatch(r"play [ \d]\d", first) or first == "same"
        if first == "same":
            assert mine == base  # the same moves, the same points
        gains.append(mine - base)
        parts[first] = parts.get(first, 0.0) + mine - base
    assert sum(parts.values()) == sum(gains)
    assert set(parts) - {"same"}  # steady plays other cards than sharp


def test_a_late_deal_scores_ranks_and_a_bot_against_itself_gains_nothing() -> None:
    rules = RuffRules(form="single", seats=3)
    played = 0
    for i in range(4):
        one = ruff_duplicate.late_deal(rules, "sharp", "sharp", ["steady", "random"], i, 15)
        two = ruff_duplicate.late_deal(rules, "sharp", "sharp", ["steady", "random"], i, 15)
        assert one == two
        if one is not None:
            played += 1
            assert -1.0 <= one[1] <= 1.0
    assert played
    other = [ruff_duplicate.late_deal(rules, "steady", "sharp", ["sharp"], i, 15)
             for i in range(4)]  # fmt: skip
    assert any(o is not None for o in other)
