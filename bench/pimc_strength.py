"""How strong is ``pimc``: in-process tournaments against tracker, planner and greedy.

For each variant it runs ``arena tournament --in-process`` (seeded, so it can be
repeated) and reports the leaderboard's order and, for pimc against each other bot, the
leaderboard's own probability that pimc is the better player (``arena.standings.ratings.
prob_better``: its skill is the higher, given both ratings), and beside it TrueSkill's
chance that pimc finishes above the other in one match (with the performance noise beta).
Issue 19's goal: pimc first, with P(better than tracker) >= 0.95, in both variants, over
200 rounds.

Run: ``python bench/pimc_strength.py [--rounds 200] [--pimc pimc:budget=0.05]
[--variant classic] [--results DIR]``. Long: with the default 50 ms budget a classic
round takes several seconds of pimc's thinking alone.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import tempfile
from pathlib import Path

from arena.standings.leaderboard import read_leaderboard_json
from arena.standings.ratings import DEFAULT_PARAMS, Rating, prob_better

OPPONENTS = ("tracker", "planner", "greedy")


def match_chance(me: Rating, other: Rating, beta: float = DEFAULT_PARAMS.beta) -> float:
    """TrueSkill's chance that ``me`` finishes above ``other`` in one match."""
    z = (me.mu - other.mu) / math.sqrt(2 * beta**2 + me.sigma**2 + other.sigma**2)
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def run_variant(variant: str, rounds: int, pimc: str, seed: int, results: Path) -> bool:
    """Run one tournament, print its standings; True if the goal is met."""
    bots = ",".join((pimc, *OPPONENTS))
    cmd = [
        sys.executable, "-m", "arena.cli", "tournament", "--in-process", "--quiet",
        "--variant", variant, "--rounds", str(rounds), "--seed", str(seed),
        "--bots", bots, "--results", str(results),
    ]  # fmt: skip
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    rows, _ = read_leaderboard_json(results / "leaderboard.json")
    print(f"{variant}, {rounds} rounds, seed {seed}: {' > '.join(r.bot for r in rows)}")
    me = next(r for r in rows if r.bot.startswith("pimc"))
    print(f"  {me.bot}: mu {me.mu:.2f} sigma {me.sigma:.2f}, wins {me.wins}/{me.matches}")
    goal = rows[0] is me
    for other in rows:
        if other is me:
            continue
        mine, theirs = Rating(me.mu, me.sigma), Rating(other.mu, other.sigma)
        p = prob_better(mine, theirs)
        print(
            f"  vs {other.bot}: mu {other.mu:.2f} sigma {other.sigma:.2f}, "
            f"wins {other.wins}/{other.matches}, P(pimc better) = {p:.4f} "
            f"(finishes above it in one match: {match_chance(mine, theirs):.4f})"
        )
        if other.bot == "tracker":
            goal = goal and p >= 0.95
    print(f"  goal (first, P(better than tracker) >= 0.95): {'met' if goal else 'NOT met'}")
    return goal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--pimc", default="pimc", help="the pimc entrant, options included")
    parser.add_argument("--variant", choices=("classic", "target"), action="append")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--results", type=Path, help="keep each run in DIR/VARIANT")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    with tempfile.TemporaryDirectory() as tmp:
        base = args.results or Path(tmp)
        met = [
            run_variant(v, args.rounds, args.pimc, args.seed, base / v)
            for v in args.variant or ("classic", "target")
        ]
    raise SystemExit(0 if all(met) else 1)


if __name__ == "__main__":
    main()
