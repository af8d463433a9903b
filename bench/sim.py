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

``--game truco [--seats 2|4|6]`` and ``--game ruff [--form double|single] [--seats
4|3|2]`` measure ``arena.games.truco.sim`` and ``arena.games.ruff.sim`` beside the engine's own bare
loop: ``TrucoMatch`` / ``RuffMatch`` driven by ``legal_actions`` and ``apply`` alone (no
views, no bots), random moves both sides (al mazo never, in Truco: a fold ends most hands
at once). A Truco playout is one hand from its deal (at six seats, team and duel hands
alternately); a Ruff playout one deal, from its announcements to its card points.
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

from arena.games.ruff import sim as ruff_sim  # noqa: E402
from arena.games.ruff.rules import RuffRules  # noqa: E402
from arena.games.ruff.state import RuffMatch  # noqa: E402
from arena.games.truco import sim as truco_sim  # noqa: E402
from arena.games.truco.actions import MAZO  # noqa: E402
from arena.games.truco.rules import TrucoRules  # noqa: E402
from arena.games.truco.state import TrucoMatch  # noqa: E402
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


def bench_truco_engine(hands: int, seed: int, rules: TrucoRules) -> float:
    """Hands per second through ``TrucoMatch`` alone, random moves (never al mazo)."""
    rng = random.Random(seed)
    done, m = 0, 0
    start = time.perf_counter()
    while done < hands:
        match = TrucoMatch(rules, seed=f"bench:{seed}:{m}")
        m += 1
        while not match.is_over and done < hands:
            hand_no = match.hand_no
            while match.hand_no == hand_no and not match.is_over:
                (seat,) = match.to_act()
                legal = [a for a in match.legal_actions(seat) if a is not MAZO]
                match.apply(seat, legal[int(rng.random() * len(legal))])
            done += 1
    return done / (time.perf_counter() - start)


def bench_truco_sim(hands: int, seed: int, rules: TrucoRules) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for h in range(hands):
        duels = rules.seats == 6 and h % 2 == 1  # ruling R13: every second hand
        dealt = truco_sim.random_dealt(rng, rules.seats)
        truco_sim.Sim.start(rules, dealt, h % rules.seats, duels=duels).playout(rng)
    return hands / (time.perf_counter() - start)


def bench_ruff_engine(deals: int, seed: int, rules: RuffRules) -> float:
    """Deals per second through ``RuffMatch`` alone, random moves."""
    rng = random.Random(seed)
    done, m = 0, 0
    start = time.perf_counter()
    while done < deals:
        match = RuffMatch(rules, seed=f"bench:{seed}:{m}")
        m += 1
        while not match.is_over and done < deals:
            deal_no = match.deal_no
            while match.deal_no == deal_no and not match.is_over:
                (seat,) = match.to_act()
                legal = match.legal_actions(seat)
                match.apply(seat, legal[int(rng.random() * len(legal))])
            done += 1
    return done / (time.perf_counter() - start)


def bench_ruff_sim(deals: int, seed: int, rules: RuffRules) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for d in range(deals):
        deal = ruff_sim.random_deal(rng, rules)
        ruff_sim.Sim.start(rules, deal.dealt, deal.head, d % rules.seats).playout(rng)
    return deals / (time.perf_counter() - start)


def other_game(args: argparse.Namespace) -> None:
    """``--game truco`` or ``--game ruff``: the simulator beside the engine's bare loop."""
    if args.game == "truco":
        rules: TrucoRules | RuffRules = TrucoRules(seats=args.seats or 4)
        what = f"truco, {rules.seats} seats: a hand"
        engine = max(bench_truco_engine(args.deals, args.seed, rules) for _ in range(args.repeat))  # type: ignore[arg-type]
        rate = max(bench_truco_sim(args.deals, args.seed, rules) for _ in range(args.repeat))  # type: ignore[arg-type]
        unit = "hands"
    else:
        seats = args.seats or 4
        try:
            rules = RuffRules(form=args.form, seats=seats)
        except ValueError as exc:
            raise SystemExit(f"bench/sim.py: {exc}") from None
        what = f"ruff, {args.form} {seats} seats: a deal"
        engine = max(bench_ruff_engine(args.deals, args.seed, rules) for _ in range(args.repeat))
        rate = max(bench_ruff_sim(args.deals, args.seed, rules) for _ in range(args.repeat))
        unit = "deals"
    print(f"engine (legal_actions + apply, random moves, {what}): {engine:,.0f} {unit}/s")
    print(f"sim ({what}, from the shuffle, random moves): {rate:,.0f} playouts/s")
    print(f"sim / engine: {rate / engine:.2f}")
    print(f"playouts/s: {rate:.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6500, help="deals per run")
    parser.add_argument("--variant", choices=("classic", "target"), default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs each")
    parser.add_argument("--game", choices=("truf", "truco", "ruff"), default="truf")
    parser.add_argument("--seats", type=int, choices=(2, 3, 4, 6), help="truco or ruff")
    parser.add_argument("--form", choices=("double", "single"), default="double", help="ruff")
    args = parser.parse_args()
    if args.deals < 1 or args.repeat < 1:
        parser.error("--deals and --repeat must be at least 1")
    if args.game == "truco" and args.seats not in (None, 2, 4, 6):
        parser.error("--seats: Truco is played by 2, 4 or 6 (R2)")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    tune_gc()
    if args.game != "truf":
        other_game(args)
        return
    rules = TrufRules(variant=args.variant)
    base = max(bench_baseline(args.deals, args.seed) for _ in range(args.repeat))
    print(f"baseline (bench/engine.py's bare classic loop): {base:,.0f} deals/s")
    rate = max(bench_sim(args.deals, args.seed, rules) for _ in range(args.repeat))
    print(f"sim ({args.variant}: deal, bids, mode, random play, score): {rate:,.0f} playouts/s")
    print(f"sim / baseline: {rate / base:.2f} (goal: 1.5 or more)")
    print(f"playouts/s: {rate:.0f}")


if __name__ == "__main__":
    main()
