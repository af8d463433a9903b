"""How many rounds until the leaderboard shows the true order: per rating method, the share
of seeds whose order is the true one after 5, 10, 16, 20, 40 and 80 rounds, in both Truf
variants, and the rounds from which that share stays at 95% or more.

Run: ``python bench/ratings.py`` (``--seeds``, ``--rounds``, ``--variants``, ``--modes``,
``--methods all`` make it smaller or larger; the README's figures came from
``--seeds 100 --truth-rounds 2000``). On a quiet 2-core machine the default run plays
about ten minutes the first time (the runs are cached) and rates for a few more.
Every tournament is played in-process with the bundled bots,
through the arena's own plan and runner, and kept under ``results/bench-ratings/`` (git
ignores ``results/``), so a second run only re-rates. The true order comes from one long
tournament per variant (``--truth-rounds``), cached there too: the order of its
leaderboard, which must agree with its score per deal (the bench says so if not). The
methods are ``RatingParams`` of ``arena.standings.ratings`` (what the leaderboard sorts by,
μ − 3σ) and, for reference, score per deal. The last lines check ``--until-settled``:
across seeds, the order at the stop must be the true one at least 95% of the time
(``Ratings.settled``, as the CLI stops).
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.core.seeding import seeded_secret  # noqa: E402
from arena.play.run import RunConfig, load_bots, make_plan  # noqa: E402
from arena.play.tournament import run_in_process  # noqa: E402
from arena.standings.ratings import (  # noqa: E402
    DEFAULT_PARAMS,
    RatingParams,
    Ratings,
    match_order,
)

CACHE = ROOT / "results" / "bench-ratings"
CHECKPOINTS = (5, 10, 16, 20, 40, 80)  # 16 and 20: the goals in target and classic
GOAL = 0.95
TODAY = RatingParams(unit="match", tau=25.0 / 300)  # the leaderboard before issue 16

# name -> rating parameters; "score/deal" is the reference, not a rating.
METHODS: dict[str, RatingParams | None] = {
    "match (today)": TODAY,
    "match τ=0": replace(TODAY, tau=0.0),
    "deal": RatingParams(unit="deal", tau=25.0 / 300),
    "deal τ=0": RatingParams(unit="deal", tau=0.0),
    "deal+match τ=0 m2": RatingParams(unit="both", tau=0.0, margin=2.0, draw_probability=0.4),
    "boards τ=0": RatingParams(unit="deal", tau=0.0, boards=True),
    "deal+match τ=0": RatingParams(unit="both", tau=0.0),  # the default of stop 22
    "default": DEFAULT_PARAMS,
    "score/deal": None,
}

QUICK = ("match (today)", "deal+match τ=0", "default", "score/deal")  # the default run's methods


class MemoryWriter:
    """What ``run_in_process`` writes to, kept in memory: the match lines."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def write_match(self, record: Mapping[str, Any], deals: object) -> None:
        self.records.append(dict(record))


def play(
    variant: str, seed: int, rounds: int, *, duplicate: bool, cache: Path = CACHE
) -> list[dict[str, Any]]:
    """The match records of one in-process tournament of the bundled bots (cached)."""
    mode = "duplicate" if duplicate else "plain"
    path = cache / f"{variant}-{mode}-r{rounds}" / f"seed{seed}.jsonl"
    if path.exists():
        return [json.loads(line) for line in path.read_text().splitlines() if line]
    config = RunConfig(
        rounds=rounds, variant=variant, seed=seed, transport="in-process", duplicate=duplicate
    )
    secret = seeded_secret(seed)
    plan = make_plan(config, secret=secret)
    writer = MemoryWriter()
    run_in_process(plan, load_bots(config, secret), writer)  # type: ignore[arg-type]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(json.dumps(r) + "\n" for r in writer.records))
    tmp.replace(path)
    return writer.records


def rating_order(params: RatingParams, records: Sequence[Mapping[str, Any]]) -> list[str]:
    ratings = Ratings(params)
    ratings.rate_all(records)
    return sorted(ratings.names(), key=lambda n: (-ratings.expose(n), n))


def score_order(records: Sequence[Mapping[str, Any]]) -> list[str]:
    points: dict[str, float] = {}
    deals: dict[str, int] = {}
    for rec in records:
        for seat, name in enumerate(rec["seats"]):
            points[name] = points.get(name, 0.0) + rec["totals"][seat]
            deals[name] = deals.get(name, 0) + rec["deals"]
    return sorted(points, key=lambda n: (-points[n] / deals[n], n))


def truth(variant: str, rounds: int, cache: Path = CACHE) -> list[str]:
    """The true order: the default leaderboard's after one long run (cached)."""
    started = time.perf_counter()
    records = play(variant, 0, rounds, duplicate=False, cache=cache)
    order = rating_order(DEFAULT_PARAMS, records)
    if order != score_order(records):
        print(f"warning: {variant}: after {rounds} rounds the ratings order {order} but score "
              f"per deal orders {score_order(records)}; the truth is the ratings'")  # fmt: skip
    print(f"{variant}: true order {' > '.join(order)} ({rounds} rounds, seed 0, "
          f"{time.perf_counter() - started:.0f}s)")  # fmt: skip
    return order


def by_round(records: Sequence[Mapping[str, Any]]) -> dict[int, list[Mapping[str, Any]]]:
    out: dict[int, list[Mapping[str, Any]]] = {}
    for rec in records:
        out.setdefault(int(rec["round"]), []).append(rec)
    return out


def orders_per_round(
    method: RatingParams | None, records: Sequence[Mapping[str, Any]], rounds: int
) -> tuple[list[list[str]], list[bool]]:
    """The leaderboard order after each round 1..rounds, and whether it was settled then."""
    rounds_of = by_round(records)
    orders: list[list[str]] = []
    settled_after: list[bool] = []
    if method is None:
        seen: list[Mapping[str, Any]] = []
        for r in range(1, rounds + 1):
            seen.extend(rounds_of.get(r, []))
            orders.append(score_order(seen))
            settled_after.append(False)
        return orders, settled_after
    ratings = Ratings(method)
    for r in range(1, rounds + 1):
        for record in sorted(rounds_of.get(r, []), key=match_order):
            ratings.rate_match(record)
        # The leaderboard of a run of r rounds: blocks still open are rated deal by deal.
        board = copy.deepcopy(ratings) if ratings.pending() else ratings
        board.flush()
        order = sorted(board.names(), key=lambda n: (-board.expose(n), n))
        orders.append(order)
        settled_after.append(board.settled(order))
    return orders, settled_after


def needed(shares: Sequence[float]) -> str:
    """The rounds from which the share stays at the goal, or '>N'."""
    for start in range(len(shares)):
        if all(s >= GOAL for s in shares[start:]):
            return str(start + 1)
    return f">{len(shares)}"


def block_ends(records: Sequence[Mapping[str, Any]], rounds: int) -> set[int]:
    """The rounds after which ``--until-settled`` may stop: every round, or in a duplicate
    run the last round of each block (as the CLI does)."""
    if not any("block" in r for r in records):
        return set(range(1, rounds + 1))
    ends = {int(r["round"]) for r in records if r["rotation"] == len(r["seats"]) - 1}
    return ends | {rounds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="tournaments per point")
    parser.add_argument("--rounds", type=int, default=80, help="rounds per tournament")
    parser.add_argument("--truth-rounds", type=int, default=1000)
    parser.add_argument("--variants", default="classic,target")
    parser.add_argument("--modes", default="plain,duplicate")
    parser.add_argument(
        "--methods", default=",".join(QUICK), help="comma-separated names, or 'all'"
    )
    parser.add_argument("--cache", type=Path, default=CACHE, help="where runs are kept")
    args = parser.parse_args()
    names = list(METHODS) if args.methods == "all" else args.methods.split(",")
    unknown = [m for m in names if m not in METHODS]
    if unknown:
        parser.error(f"unknown method(s) {', '.join(unknown)}; known: {', '.join(METHODS)}")
    methods = {m: METHODS[m] for m in names}
    checkpoints = [c for c in CHECKPOINTS if c <= args.rounds]
    for variant in args.variants.split(","):
        true_order = truth(variant, args.truth_rounds, args.cache)
        for mode in args.modes.split(","):
            started = time.perf_counter()
            runs = [
                play(variant, seed, args.rounds, duplicate=mode == "duplicate", cache=args.cache)
                for seed in range(1, args.seeds + 1)
            ]
            print(f"{variant} {mode}: {args.seeds} seeds × {args.rounds} rounds "
                  f"({time.perf_counter() - started:.0f}s)")  # fmt: skip
            head = "  ".join(f"{c:>5}" for c in checkpoints)
            print(f"  {'method':<16} {head}  rounds for {GOAL:.0%}")
            for name, method in methods.items():
                report(name, method, runs, true_order, args.rounds, checkpoints)


def report(
    name: str,
    method: RatingParams | None,
    runs: Sequence[Sequence[Mapping[str, Any]]],
    true_order: Sequence[str],
    rounds: int,
    checkpoints: Sequence[int],
) -> None:
    right = [0] * rounds
    stops: list[tuple[int, bool, bool]] = []  # (stop, settled there, order right)
    for records in runs:
        orders, settled_after = orders_per_round(method, records, rounds)
        for r, order in enumerate(orders):
            right[r] += order == list(true_order)
        ends = block_ends(records, rounds)
        stop = next((r for r in sorted(ends) if settled_after[r - 1]), rounds)
        stops.append((stop, settled_after[stop - 1], orders[stop - 1] == list(true_order)))
    shares = [n / len(runs) for n in right]
    cells = "  ".join(f"{shares[c - 1]:5.2f}" for c in checkpoints)
    print(f"  {name:<16} {cells}  {needed(shares)}")
    if method is not None and name == "default":
        correct = sum(ok for _, _, ok in stops) / len(stops)
        median = sorted(s for s, _, _ in stops)[len(stops) // 2]
        capped = sum(not was for _, was, _ in stops)
        print(f"  --until-settled: order right at the stop in {correct:.0%} of seeds "
              f"(goal {GOAL:.0%}); median stop {median} rounds; "
              f"{capped} reached the cap")  # fmt: skip


if __name__ == "__main__":
    main()
