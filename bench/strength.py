"""What the search bots' strength benches share (bench/truco_strength.py,
bench/ruff_strength.py): one seeded in-process tournament per seat count or form, and a
report of its leaderboard: the order, each bot's wins and points per hand or deal, and
for the search bot against each other bot the leaderboard's own probability that it is
the better player (``arena.ratings.prob_better``) beside TrueSkill's chance that it
finishes above the other in one match.

The goal (issue 30): the search bot first, and P(better than the best heuristic bot)
>= 0.99, in every form.
"""

from __future__ import annotations

import math
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from arena.leaderboard import read_leaderboard_json
from arena.ratings import DEFAULT_PARAMS, Rating, prob_better

GOAL = 0.99


def match_chance(me: Rating, other: Rating, beta: float = DEFAULT_PARAMS.beta) -> float:
    """TrueSkill's chance that ``me`` finishes above ``other`` in one match."""
    z = (me.mu - other.mu) / math.sqrt(2 * beta**2 + me.sigma**2 + other.sigma**2)
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def run_form(
    game: str,
    label: str,
    options: Sequence[str],
    bots: Sequence[str],
    best: str,
    rounds: int,
    seed: int,
    results: Path,
    unit: str,
) -> bool:
    """One tournament of ``bots`` (the search bot first, ``best`` the heuristic to beat);
    prints its standings and returns whether the goal is met."""
    cmd = [
        sys.executable, "-m", "arena.cli", "tournament", "--in-process", "--quiet",
        "--game", game, *options, "--rounds", str(rounds), "--seed", str(seed),
        "--bots", ",".join(bots), "--results", str(results),
    ]  # fmt: skip
    started = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    took = time.perf_counter() - started
    rows, _ = read_leaderboard_json(results / "leaderboard.json")
    print(f"{game} {label}, {rounds} rounds, seed {seed} ({took:.0f}s): "
          + " > ".join(r.bot for r in rows))  # fmt: skip
    me = next(r for r in rows if r.bot == bots[0].split(":")[0])
    for row in rows:
        per = "—" if row.avg_score_per_deal is None else f"{row.avg_score_per_deal:.2f}"
        share = row.wins / max(row.matches, 1)
        print(
            f"  {row.bot:>8}: wins {row.wins:g}/{row.matches} ({share:.0%}), "
            f"points/{unit} {per}, mu {row.mu:.2f} sigma {row.sigma:.2f}"
        )
    goal = rows[0] is me
    mine = Rating(me.mu, me.sigma)
    for other in rows:
        if other is me:
            continue
        theirs = Rating(other.mu, other.sigma)
        p = prob_better(mine, theirs)
        print(
            f"  P({me.bot} better than {other.bot}) = {p:.4f} "
            f"(finishes above it in one match: {match_chance(mine, theirs):.4f})"
        )
        if other.bot == best:
            goal = goal and p >= GOAL
    print(f"  goal (first, P(better than {best}) >= {GOAL}): {'met' if goal else 'NOT met'}")
    return goal
