"""In-process tournament throughput on one core, on two, and on a local Ray instance.

Plays the same schedule (the bundled Truf bots, ``--rounds`` matches, seed 1) three
ways, into results directories as ``arena tournament --in-process`` does, and checks that
all three wrote the same bytes:

* ``--workers 1``: every match in this process (``SerialRunner``);
* ``--workers N``: matches in N worker processes (``ProcessRunner``; their start-up is
  counted, as a user pays it);
* ``--ray``: matches as tasks on a local Ray instance with N CPUs (``RayRunner``); the
  instance, and its worker processes (a short warm-up run), are started before the
  clock: a cluster keeps them.

Prints matches/s for each, with the load average beside it (the machine may be shared:
compare figures taken at the same load), then the ratios. Goals on 2 cores:
``workers N / workers 1`` at least 1.8, ``ray / workers N`` at least 0.85. First it
measures the machine's own ceiling at that moment: a bare loop in one process, then in N
at once (a plain ``multiprocessing`` pool); on a loaded machine, where the kernel shares
CPU time between sessions (``sched_autogroup``), N processes may get no more than one.

Run: ``python bench/parallel.py [--rounds R] [--workers N] [--no-ray]`` (Ray: ``pip
install -e '.[ray]'``).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from arena.bot import Bot
from arena.core.seeding import seeded_secret
from arena.play.parallel import ProcessRunner
from arena.play.run import RunConfig, load_bots, make_plan, tune_gc
from arena.play.tournament import MatchRunner, SerialRunner, TournamentPlan, run_in_process
from arena.standings.results import ResultsWriter

ROOT = Path(__file__).resolve().parents[1]
FILES = ("replays.jsonl", "matches.jsonl")


def load() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def spin(count: int) -> int:
    total = 0
    for i in range(count):
        total += i
    return total


def machine_ratio(n: int, count: int = 5_000_000) -> float:
    """How much faster N processes finish N bare loops than one process finishes one, now:
    the ceiling of any ``workers N / workers 1`` measured at this moment."""
    import multiprocessing

    with multiprocessing.get_context("forkserver").Pool(n) as pool:
        pool.map(spin, [1] * n)  # started before the clock
        start = time.perf_counter()
        spin(count)
        one = time.perf_counter() - start
        start = time.perf_counter()
        pool.map(spin, [count] * n)
        many = time.perf_counter() - start
    return n * one / many


def timed(
    plan: TournamentPlan, make_runner: Callable[[dict[str, Bot]], MatchRunner], out: Path
) -> float:
    """Matches per second playing ``plan`` into ``out`` with ``make_runner(bots)``: fresh bots
    each time, as a run loads them (a bot remembers the matches it has played)."""
    config = RunConfig(rounds=plan.rounds, seed=1, transport="in-process")
    bots = load_bots(config, plan.secret)
    runner = make_runner(bots)
    with ResultsWriter(out) as writer:
        start = time.perf_counter()
        run_in_process(plan, bots, writer, runner=runner)
        elapsed = time.perf_counter() - start
    return len(plan.tables()) / elapsed


def same(a: Path, b: Path) -> None:
    for name in FILES:
        if (a / name).read_bytes() != (b / name).read_bytes():
            raise SystemExit(f"{b / name} differs from {a / name}: parallel play is broken")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="matches (one table a round)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes and Ray CPUs")
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray measurement")
    args = parser.parse_args()
    config = RunConfig(rounds=args.rounds, seed=1, transport="in-process")
    secret = seeded_secret(1)
    plan = make_plan(config, secret=secret)
    tune_gc()  # as `arena tournament` does
    n = args.workers
    print(f"{len(plan.tables())} Truf matches, bots {', '.join(plan.entrants)}")
    ceiling = machine_ratio(n)
    print(f"machine: {n} processes of a bare loop run {ceiling:.2f}x one  ({load()})", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        one = timed(plan, SerialRunner, root / "one")
        print(f"workers 1: {one:.2f} matches/s  ({load()})", flush=True)
        many = timed(plan, lambda bots: ProcessRunner(bots, n), root / "many")
        same(root / "one", root / "many")
        print(f"workers {n}: {many:.2f} matches/s  ({load()})", flush=True)
        print(f"workers {n} / workers 1: {many / one:.2f}  (goal on 2 cores: >= 1.8)")
        if args.no_ray:
            return
        from arena.play.cluster import RayRunner, connect, import_ray

        connect("local", ROOT, num_cpus=n)
        try:
            warm_config = RunConfig(rounds=2 * n, seed=2, transport="in-process")
            warm = make_plan(warm_config, secret=seeded_secret(2))
            timed(warm, lambda bots: RayRunner(bots, "auto"), root / "warm-up")
            ray = timed(plan, lambda bots: RayRunner(bots, "auto"), root / "ray")
            same(root / "one", root / "ray")
        finally:
            import_ray().shutdown()
        print(f"ray ({n} CPUs): {ray:.2f} matches/s  ({load()})", flush=True)
        print(f"ray / workers {n}: {ray / many:.2f}  (goal: >= 0.85)")


if __name__ == "__main__":
    main()
