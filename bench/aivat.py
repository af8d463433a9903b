"""Issue 29 part 6, measured: the random bot's luck taken out of the points (AIVAT).

The bundled ``random`` bot picks uniformly among the legal actions (``bots/random.py``),
so a value correction at its decisions leaves every expected score as it was and removes
the part of its luck that the values explain: ``arena.games.truf.luck`` (its docstring
has the method). This bench measures what that buys and costs in Truf, where the random
bot's draws were 72–79% of the variance (issue 29). ``--decisions`` (default ``bid,mode``;
``play`` adds its cards), ``--samples`` (playouts an option) and ``--width`` (options
played out a decision, 0: all) are ``luck``'s.

Per seed it plays the bundled field in process (one core, through the arena's own plan
and runner), corrects the deals, and rates the run round by round as the leaderboard does
(``bench/ratings.py``'s ``walk``) twice: with each deal's points as played and as
corrected. Reported:

* the variance of each true neighbour pair's per-deal difference, as played and
  corrected, and their ratio with a 95% bootstrap interval over seeds: the rounds needed
  for the same precision scale with it;
* the mean of each pair's difference both ways (the correction must not move it: no
  bias), with the mean change and its standard error;
* the share of seeds whose leaderboard shows the true order after 10, 20 and 40 rounds,
  both ways, with 95% intervals;
* the cost: seconds of correction a deal against seconds of play a deal (process time).

Run: ``python bench/aivat.py --variant classic --seeds 100`` (``--rounds``, ``--samples``,
``--decisions``, ``--width``). The true order is ``bench/ratings.py``'s (its long cached
run), or ``--true-order``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ratings import Walk, declared, share, swapped, truth, walk  # noqa: E402

from arena.core.seeding import seeded_secret  # noqa: E402
from arena.games.truf.luck import DECISIONS, luck  # noqa: E402
from arena.play.run import RunConfig, load_bots, make_plan  # noqa: E402
from arena.play.tournament import run_in_process  # noqa: E402

RANDOM = "random"  # the bundled bot whose policy is known: uniform over the legal actions
CHECKPOINTS = (10, 20, 40)


class DealWriter:
    """What ``run_in_process`` writes to, kept in memory: each match line and its deals."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self.deals: list[list[dict[str, Any]]] = []

    def write_match(self, record: Mapping[str, Any], deals: Sequence[Mapping[str, Any]]) -> None:
        self.records.append(dict(record))
        self.deals.append([dict(d) for d in deals])


def corrected(
    records: Sequence[Mapping[str, Any]],
    deals: Sequence[Sequence[Mapping[str, Any]]],
    samples: int,
    decisions: Sequence[str],
    width: int = 0,
) -> list[dict[str, Any]]:
    """The match records with each deal's points less its correction."""
    out = []
    for record, match_deals in zip(records, deals, strict=True):
        points = []
        uniform = [s for s, name in enumerate(record["seats"]) if name == RANDOM]
        for played, deal in zip(record["deal_points"], match_deals, strict=True):
            terms = luck(deal, uniform, decisions=decisions, samples=samples, width=width)
            points.append([p - t for p, t in zip(played, terms, strict=True)])
        out.append({**record, "deal_points": points})
    return out


def pair_differences(records: Sequence[Mapping[str, Any]], upper: str, lower: str) -> list[float]:
    """``upper``'s points less ``lower``'s in every deal that seats both."""
    out: list[float] = []
    for record in records:
        seats = record["seats"]
        if upper in seats and lower in seats:
            a, b = seats.index(upper), seats.index(lower)
            out.extend(p[a] - p[b] for p in record["deal_points"])
    return out


def bootstrap_ratio(
    played: Sequence[Sequence[float]], fixed: Sequence[Sequence[float]], draws: int = 1000
) -> tuple[float, float]:
    """A 95% interval of var(corrected) / var(played), resampling seeds."""
    rng = random.Random(29)
    n = len(played)
    ratios = []
    for _ in range(draws):
        picks = [rng.randrange(n) for _ in range(n)]
        a = [x for i in picks for x in played[i]]
        b = [x for i in picks for x in fixed[i]]
        ratios.append(statistics.variance(b) / statistics.variance(a))
    ratios.sort()
    return ratios[int(0.025 * draws)], ratios[int(0.975 * draws) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="classic", choices=("classic", "target"))
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--samples", type=int, default=4, help="playouts per option")
    parser.add_argument("--decisions", default="bid,mode", help="of bid, mode, play")
    parser.add_argument("--width", type=int, default=0,
                        help="options played out a decision: the chosen and width - 1 drawn "
                             "(0: all)")  # fmt: skip
    parser.add_argument("--draws", type=int, default=2,
                        help="label draws a seed for the identical bots' stops")  # fmt: skip
    parser.add_argument(
        "--true-order",
        default=None,
        help="e.g. tracker,planner,greedy,random (default: bench/ratings.py's)",
    )
    args = parser.parse_args()
    decisions = args.decisions.split(",")
    if (
        any(d not in DECISIONS for d in decisions)
        or args.samples < 1
        or args.seeds < 1
        or args.width < 0
    ):
        parser.error(
            "--decisions takes bid, mode and play; --samples and --seeds at least 1; "
            "--width 0 or more"
        )
    order = args.true_order.split(",") if args.true_order else truth(args.variant, 2000)
    pairs = list(zip(order, order[1:], strict=False))
    closest = pairs[0]  # made identical by swapping their names (bench/ratings.py)
    played_walks, fixed_walks = [], []
    diffs: dict[tuple[str, str], tuple[list[list[float]], list[list[float]]]] = {
        p: ([], []) for p in pairs
    }
    twins: tuple[list[Walk], list[Walk]] = ([], [])
    play_time = fix_time = 0.0
    deals = 0
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        config = RunConfig(rounds=args.rounds, variant=args.variant, seed=seed,
                           transport="in-process")  # fmt: skip
        secret = seeded_secret(seed)
        writer = DealWriter()
        started = time.process_time()
        run_in_process(make_plan(config, secret=secret), load_bots(config, secret), writer)  # type: ignore[arg-type]
        play_time += time.process_time() - started
        started = time.process_time()
        fixed = corrected(writer.records, writer.deals, args.samples, decisions, args.width)
        fix_time += time.process_time() - started
        deals += sum(len(d) for d in writer.deals)
        played_walks.append(walk(writer.records, args.rounds, order))
        fixed_walks.append(walk(fixed, args.rounds, order))
        for pair in pairs:
            diffs[pair][0].append(pair_differences(writer.records, *pair))
            diffs[pair][1].append(pair_differences(fixed, *pair))
        for draw in range(args.draws):  # the same label draws for both: like for like
            for records, out in ((writer.records, twins[0]), (fixed, twins[1])):
                rng = random.Random(f"{seed}:{draw}")
                same = swapped(records, *closest, 0.5, rng)
                out.append(walk(same, args.rounds, order, sorts=False))
        so_far = f"{play_time / deals * 1000:.1f} ms of play, {fix_time / deals * 1000:.1f} ms"
        print(f"seed {seed}: {so_far} of correction a deal so far", flush=True)
    n = args.seeds
    print(f"\n{args.variant}, {n} seeds of {args.rounds} rounds, corrected at the random "
          f"bot's {' and '.join(decisions)}, {args.samples} playouts an option, "
          f"{args.width or 'all'} options a decision")  # fmt: skip
    print(
        "  per-deal difference of true neighbours: variance played → corrected, ratio "
        "(95% bootstrap over seeds); mean played → corrected, change ± s.e."
    )
    for (upper, lower), (played_runs, fixed_runs) in diffs.items():
        a = [x for run in played_runs for x in run]
        b = [x for run in fixed_runs for x in run]
        low, high = bootstrap_ratio(played_runs, fixed_runs)
        change = [y - x for x, y in zip(a, b, strict=True)]
        se = statistics.stdev(change) / len(change) ** 0.5
        va, vb = statistics.variance(a), statistics.variance(b)
        ma, mb, mc = statistics.mean(a), statistics.mean(b), statistics.mean(change)
        print(
            f"  {upper} − {lower}: variance {va:.2f} → {vb:.2f}, ratio {vb / va:.3f} "
            f"[{low:.3f}, {high:.3f}]; mean {ma:+.3f} → {mb:+.3f}, change {mc:+.3f} ± {se:.3f}"
        )
    print("  share of seeds in the true order after R rounds (95% interval): played, corrected")
    for r in (c for c in CHECKPOINTS if c <= args.rounds):
        hits = [sum(w.right["leaderboard"][r - 1] for w in walks)
                for walks in (played_walks, fixed_walks)]  # fmt: skip
        print(f"  R={r:>3}: {share(hits[0], n)}  {share(hits[1], n)}")
    print(f"  --until-settled, checked after every round, cap {args.rounds}: played; corrected")
    first, second = closest
    for title, runs_of, wrong in (
        ("bundled bots", (played_walks, fixed_walks), None),
        (f"identical bots ({first} and {second}, names swapped at 1/2)", twins, closest),
    ):
        said = []
        for runs in runs_of:
            stops = sorted(w.stop for w in runs if w.stop is not None)
            median = stops[len(stops) // 2] if stops else "-"
            text = f"{len(stops)} of {len(runs)} stopped, median {median}"
            if wrong is not None:
                bad = sum(declared(w, *wrong) or declared(w, *wrong[::-1]) for w in runs)
                text += f", wrong stops {share(bad, len(runs))}"
            said.append(text)
        print(f"  {title}: {said[0]}; {said[1]}")
    print(f"  cost (process time, one core): play {play_time / deals * 1000:.2f} ms a deal, "
          f"correction {fix_time / deals * 1000:.2f} ms a deal")  # fmt: skip


if __name__ == "__main__":
    main()
