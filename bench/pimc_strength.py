"""How strong is ``pimc``: in-process tournaments against tracker, planner and greedy.

For each variant it runs ``arena tournament --in-process`` (seeded, so it can be
repeated) and reports the leaderboard's order and, for pimc against each other bot, the
probability that pimc is the better player under TrueSkill:

    P(a better than b) = Phi((mu_a - mu_b) / sqrt(2 beta^2 + sigma_a^2 + sigma_b^2))

with the leaderboard's beta (``arena.ratings.DEFAULT_PARAMS``): the chance that pimc
finishes above the other in one match. It also shows the same with beta = 0, the chance
that pimc's skill is the higher given the ratings' uncertainty alone. Issue 19's goal:
pimc first, with P(better than tracker) >= 0.95, in both variants, over 200 rounds.

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

from arena.leaderboard import read_leaderboard_json
from arena.ratings import DEFAULT_PARAMS

OPPONENTS = ("tracker", "planner", "greedy")


def p_better(
    mu_a: float, sigma_a: float, mu_b: float, sigma_b: float, beta: float = DEFAULT_PARAMS.beta
) -> float:
    """Phi((mu_a - mu_b) / sqrt(2 beta^2 + sigma_a^2 + sigma_b^2)): with the ratings' beta,
    TrueSkill's chance that a finishes above b in one match; with ``beta=0``, the chance
    that a's skill (its mean performance) is the higher."""
    z = (mu_a - mu_b) / math.sqrt(2 * beta**2 + sigma_a**2 + sigma_b**2)
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
        p = p_better(me.mu, me.sigma, other.mu, other.sigma)
        skill = p_better(me.mu, me.sigma, other.mu, other.sigma, beta=0.0)
        print(
            f"  vs {other.bot}: mu {other.mu:.2f} sigma {other.sigma:.2f}, "
            f"wins {other.wins}/{other.matches}, P(pimc better) = {p:.4f} "
            f"(skill alone, beta 0: {skill:.4f})"
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
