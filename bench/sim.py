"""Simulator throughput: random playouts per second against the bare loop of bench/engine.py.

Two measurements in one run, on one core, of the same work: a whole classic deal from a
fresh shuffle (with the C2 redeal), random bids, a random mode choice at 13, and random
legal cards to the last trick, scored.

* ``baseline``: ``bench/engine.py``'s bare pure-Python loop (lists of (rank, suit) cards).
* ``sim``: ``arena.games.truf.sim``: ``random_deal``, ``Sim.start`` and ``playout``.

The goal (issue 19) is a simulator at least 1.5 times as fast as the bare loop. The
referee's own path (views, checks, replay records) is ``bench/engine.py``'s to measure.

Run: ``python bench/sim.py [--deals N] [--variant target]``. The last line is
``playouts/s: N`` (the simulator).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/engine.py, run as a script

from engine import bench_baseline  # noqa: E402

from arena.games.truf import sim  # noqa: E402
from arena.games.truf.rules import TrufRules  # noqa: E402
from arena.play.run import tune_gc  # noqa: E402


def bench_sim(deals: int, seed: int, rules: TrufRules) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for d in range(deals):
        state = sim.Sim.start(rules, sim.random_deal(rng), -1 if d % 2 == 0 else 1)
        state.playout(rng)
    return deals / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6500, help="deals per run")
    parser.add_argument("--variant", choices=("classic", "target"), default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs each")
    args = parser.parse_args()
    if args.deals < 1 or args.repeat < 1:
        parser.error("--deals and --repeat must be at least 1")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    tune_gc()
    rules = TrufRules(variant=args.variant)
    base = max(bench_baseline(args.deals, args.seed) for _ in range(args.repeat))
    print(f"baseline (bench/engine.py's bare classic loop): {base:,.0f} deals/s")
    rate = max(bench_sim(args.deals, args.seed, rules) for _ in range(args.repeat))
    print(f"sim ({args.variant}: deal, bids, mode, random play, score): {rate:,.0f} playouts/s")
    print(f"sim / baseline: {rate / base:.2f} (goal: 1.5 or more)")
    print(f"playouts/s: {rate:.0f}")


if __name__ == "__main__":
    main()
