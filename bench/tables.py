"""One gRPC referee under 16, 64 and 256 tables in play: decisions/s and the referee's
CPU per decision.

Each measurement is a real tournament over loopback: the referee (``grpc.aio``, this
process) plays the schedule with ``max_tables`` = T tables at once, against four fast
bundled bots (``random``, Python SDK, each its own process) that each declare a capacity
of T, so every table seats the same four streams. Matches are two deals, so that T
tables finish several waves within a short run. The referee's CPU time per decision
(Linux ``/proc``) says how many decisions a second one referee core can serve at most,
whatever the bots: ``1e6 / (us per decision)``.

Run: ``python bench/tables.py [--tables 16,64,256] [--waves W]``. The machine may be
shared: the load average is printed beside each figure.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import subprocess
import tempfile
import time
from pathlib import Path

from arena.core.seeding import bot_seed, seeded_secret
from arena.play.run import RunConfig, make_plan, tune_gc
from arena.referee.host import Launched, bot_command, run_schedule, wait_for_entrants
from arena.referee.server import Referee, start_server
from arena.standings.results import ResultsWriter

BOTS = 4


def cpu_seconds() -> float:
    """This process's user plus system CPU time so far."""
    times = os.times()
    return times.user + times.system


def load() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


async def measure(tables: int, waves: int) -> tuple[float, float, int]:
    """(decisions/s, referee CPU us per decision, decisions) with ``tables`` in play,
    counted from the end of the first wave of matches to the last (start-up excluded)."""
    config = RunConfig(rounds=tables * waves, bots=["random"] * BOTS, seed=1, deals=2)
    plan = make_plan(config, secret=seeded_secret(1))
    tokens = {secrets.token_hex(16): name for name in plan.entrants}
    referee = Referee(decision_timeout=5.0, tokens=tokens, game="truf")
    server, port = await start_server(referee, "127.0.0.1:0")
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root)}
    launched = []
    with tempfile.TemporaryDirectory() as tmp:
        for token, name in tokens.items():
            command = bot_command(
                "random", f"127.0.0.1:{port}", token, bot_seed(plan.secret, name), capacity=tables
            )
            log = Path(tmp) / f"{name}.log"
            with open(log, "wb") as f:
                process = subprocess.Popen(command, stdout=f, stderr=subprocess.STDOUT, env=env)
            launched.append(Launched(name, process, log))
        try:
            await wait_for_entrants(referee, BOTS, launched, 60)
            referee.start()
            entrants = {e.name: e for e in referee.entrants}
            marks: list[tuple[float, float, int]] = []

            def on_match(outcome: object, decisions: int) -> None:
                marks.append((time.perf_counter(), cpu_seconds(), decisions))

            with ResultsWriter(Path(tmp) / "run", fsync=False) as writer:
                await run_schedule(
                    plan, entrants, writer, skip=frozenset(), on_match=on_match, max_tables=tables
                )
            await referee.goodbye()
            await referee.wait_all_gone(5)
        finally:
            for bot in launched:
                try:
                    bot.process.wait(5)
                except subprocess.TimeoutExpired:
                    bot.process.kill()
            await server.stop(0.5)
    first, last = marks[tables - 1], marks[-1]
    decisions = last[2] - first[2]
    return decisions / (last[0] - first[0]), 1e6 * (last[1] - first[1]) / decisions, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="16,64,256", help="tables in play, comma-separated")
    parser.add_argument("--waves", type=int, default=4, help="matches per table slot")
    args = parser.parse_args()
    tune_gc()  # as `arena tournament` runs its referee
    print(f"one referee, {BOTS} random bots (Python SDK), 2-deal Truf matches")
    for tables in (int(t) for t in args.tables.split(",")):
        rate, cpu, decisions = asyncio.run(measure(tables, args.waves))
        print(
            f"{tables:>4} tables: {rate:,.0f} decisions/s, referee {cpu:.0f} us CPU/decision "
            f"(<= {1e6 / cpu:,.0f}/s a core), {decisions} decisions  ({load()})",
            flush=True,
        )


if __name__ == "__main__":
    main()
