"""The ladder at scale (issue 31, item 7), and its matchmaking policy measured.

    python bench/ladder.py --bots 1000 --procs 4 --seconds 60      # over loopback
    python bench/ladder.py --simulate                              # the policy alone

Over loopback: a ladder (``arena ladder run``, its own process) and ``--bots`` fast bots
(index 0 at once, written on the raw generated stub, many connections per process, in
``--procs`` processes), each declaring ``--capacity`` tables. After every bot is
connected and ``--warmup`` seconds have passed, ``--seconds`` of play are measured from
the ladder's database and its ``/api/status``: decisions a second against the one-core
ceiling of docs/scaling.md, the ladder's CPU per decision, matches per bot per minute
and their spread, the matchmaker's cost per table started, and the ladder's memory.

``--simulate``: the matchmaker alone, in the discrete-event simulation of
``arena.ladder.simulation`` (simulated seconds): rate spread, the newcomer rule, a slow
bot, seat balance, and the matchmaker's cost per table at 1,000 bots.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CEILING = 3300  # decisions/s on one referee core, docs/scaling.md (bench/tables.py)


# ------------------------------------------------------------------ bot workers


def worker(address: str, tokens: list[str], capacity: int, ready: object) -> None:
    import grpc

    from arena._proto.truf.arena.v1 import arena_pb2 as pb

    method = "/truf.arena.v1.ArenaService/Play"

    async def one(channel: grpc.aio.Channel, token: str, welcomed: asyncio.Event) -> None:
        play = channel.stream_stream(
            method,
            request_serializer=lambda m: m.SerializeToString(),
            response_deserializer=pb.PlayResponse.FromString,
        )
        while True:
            queue: asyncio.Queue[pb.PlayRequest | None] = asyncio.Queue()
            hello = pb.PlayRequest()
            h = hello.hello
            h.protocol_version, h.bot_name, h.bot_version = 1, "fast", "1"
            h.token, h.capacity = token, capacity
            h.games.append("truf")
            await queue.put(hello)

            async def requests(q: asyncio.Queue[pb.PlayRequest | None] = queue) -> Any:
                while (msg := await q.get()) is not None:
                    yield msg

            call = play(requests())
            try:
                async for msg in call:
                    if msg.HasField("welcome"):
                        welcomed.set()
                    elif msg.HasField("decision_request"):
                        answer = pb.PlayRequest()
                        answer.answer.request_id = msg.decision_request.request_id
                        answer.answer.index = 0
                        queue.put_nowait(answer)
            except grpc.aio.AioRpcError:
                pass  # refused while others waited to say hello (paced per address): again
            await asyncio.sleep(0.2)

    async def main() -> None:
        channels: list[grpc.aio.Channel] = []
        tasks = []
        for i, token in enumerate(tokens):
            if i % 8 == 0:  # eight bots a connection (the referee allows 16 streams on one)
                # its own connection: grpc would share one among equal channels
                options = [("grpc.use_local_subchannel_pool", 1)]
                channels.append(grpc.aio.insecure_channel(address, options=options))
            welcomed = asyncio.Event()
            tasks.append(asyncio.create_task(one(channels[-1], token, welcomed)))
            await welcomed.wait()  # one hello at a time per process: the gate paces an address
        ready.set()  # type: ignore[attr-defined]
        await asyncio.gather(*tasks)

    asyncio.run(main())


# ------------------------------------------------------------------ measuring


def proc_stat(pid: int) -> tuple[float, int, int]:
    """(CPU seconds, RSS KiB, peak RSS KiB) of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    status = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return cpu, int(status["VmRSS"].split()[0]), int(status["VmHWM"].split()[0])


def get(web: str, path: str) -> dict[str, object]:
    with urllib.request.urlopen(web + path, timeout=30) as r:
        data: dict[str, object] = json.loads(r.read())
        return data


def network(args: argparse.Namespace) -> None:
    from arena.ladder.store import Store
    from arena.play.run import RunConfig

    tmp = Path(tempfile.mkdtemp(prefix="ladder-bench-"))
    config = RunConfig(bots=[], game="truf", deals=args.deals, decision_timeout=5.0, external=True)
    store = Store.create(tmp, config.to_json())
    tokens = [store.add(f"bot{i:04d}") for i in range(args.bots)]
    store.close()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    ladder = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "arena.cli",
            "ladder",
            "run",
            str(tmp),
            "--listen",
            "127.0.0.1:0",
            "--http",
            "127.0.0.1:0",
        ],  # fmt: skip
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert ladder.stdout is not None
    line = ladder.stdout.readline()
    address = line.split("bots connect to ")[1].split(",")[0]
    web = "http://" + line.split("http://")[1].strip().rstrip("/")
    ctx = multiprocessing.get_context("spawn")
    workers = []
    start = time.monotonic()
    for p in range(args.procs):
        mine = tokens[p :: args.procs]
        ready = ctx.Event()
        proc = ctx.Process(target=worker, args=(address, mine, args.capacity, ready), daemon=True)
        proc.start()
        workers.append((proc, ready))
    try:
        for proc, ready in workers:
            while not ready.wait(timeout=1.0):
                if not proc.is_alive():
                    raise SystemExit(f"a bot process exited with code {proc.exitcode}")
        connected = time.monotonic() - start
        time.sleep(args.warmup)
        t0, s0, c0 = time.time(), get(web, "/api/status"), proc_stat(ladder.pid)
        time.sleep(args.seconds)
        t1, s1, c1 = time.time(), get(web, "/api/status"), proc_stat(ladder.pid)
        db = sqlite3.connect(f"file:{tmp / 'ladder.db'}?mode=ro", uri=True)
        matches, decisions = db.execute(
            "SELECT COUNT(*), COALESCE(SUM(decisions), 0) FROM matches "
            "WHERE finished >= ? AND finished < ?",
            (t0, t1),
        ).fetchone()
        per_bot = dict.fromkeys(range(1, args.bots + 1), 0)
        for vid, n in db.execute(
            "SELECT s.version_id, COUNT(*) FROM seats s JOIN matches m ON m.seq = s.seq "
            "WHERE m.finished >= ? AND m.finished < ? GROUP BY s.version_id",
            (t0, t1),
        ):
            per_bot[vid] = n
        db.close()
    finally:
        for proc, _ in workers:
            proc.kill()
        ladder.terminate()
        ladder.wait(timeout=60)
    span = t1 - t0
    rates = sorted(60.0 * n / span for n in per_bot.values())
    median = statistics.median(rates)
    tables = int(s1["tables_started"]) - int(s0["tables_started"])  # type: ignore[call-overload]
    mm = float(s1["matchmaking_seconds"]) - float(s0["matchmaking_seconds"])  # type: ignore[arg-type]
    cpu = c1[0] - c0[0]
    print(f"{args.bots} bots in {args.procs} processes, capacity {args.capacity}, Truf "
          f"{args.deals} deal(s) a match; all connected after {connected:.1f} s; "
          f"measured {span:.0f} s after {args.warmup:g} s of warm-up")  # fmt: skip
    print(f"matches: {matches} ({matches / span:.1f}/s); decisions: {decisions / span:,.0f}/s "
          f"(one-core ceiling {CEILING:,}/s: {decisions / span / CEILING:.0%})")  # fmt: skip
    print(
        f"ladder CPU: {cpu / span:.0%} of a core; {1e6 * cpu / max(1, decisions):.0f} µs "
        "per decision"
    )
    print(f"matches per bot per minute: median {median:.2f}, min {rates[0]:.2f}, "
          f"p10 {rates[len(rates) // 10]:.2f}, p90 {rates[9 * len(rates) // 10]:.2f}, "
          f"max {rates[-1]:.2f}; within 20% of the median: "
          f"{sum(0.8 * median <= r <= 1.2 * median for r in rates) / len(rates):.0%}")  # fmt: skip
    print(f"matchmaker: {1e6 * mm / max(1, tables):.0f} µs per table started ({tables} tables)")
    print(f"ladder memory: {c1[1] / 1024:.0f} MiB resident, peak {c1[2] / 1024:.0f} MiB")


def simulated(args: argparse.Namespace) -> None:
    from arena.ladder.simulation import SimBot, simulate, spread

    def show(what: str, bots: list[SimBot], steady: list[SimBot] | None = None,
             **kw: object) -> None:  # fmt: skip
        result = simulate(bots, seconds=kw.pop("seconds", 600), **kw)  # type: ignore[arg-type]
        median, low, high = spread(result, steady or bots)
        extra = ""
        if result.newcomer_overtaken:
            most = max(result.newcomer_overtaken.values())
            extra += f"; others' starts before a newcomer's 20th: {most}"
        per = 1e6 * result.matchmaker_seconds / max(1, result.tables_formed)
        print(f"{what}: median {median:.1f} matches/min, min/median {low:.2f}, "
              f"max/median {high:.2f}; matchmaker {per:.0f} µs a table{extra}")  # fmt: skip

    same = [SimBot(f"b{i}", capacity=4, finished=50) for i in range(40)]
    show("40 bots, capacity 4", same)
    mixed = [SimBot(f"b{i}", capacity=(2, 6, 16)[i % 3], finished=50) for i in range(39)]
    show("39 bots, capacity 2/6/16 (capacity-2 bots limited by their own capacity)", mixed)
    show("  the same, capacity 6 and 16 only", mixed, [b for b in mixed if b.capacity > 2])
    new = [SimBot(f"b{i}", capacity=8, finished=100) for i in range(24)]
    show("24 bots + a newcomer (capacity 1) at 60 s", [*new, SimBot("new", arrives=60.0)], new)
    steady = [SimBot(f"b{i}", capacity=4, finished=100) for i in range(24)]
    show("24 steady bots alone", steady)
    show("  + one 10x slower bot (steady bots' rates)",
         [*steady, SimBot("slow", capacity=4, pace=10.0, finished=100)], steady)  # fmt: skip
    big = [SimBot(f"b{i}", capacity=2, skill=15 + (i % 100) / 10, finished=50)
           for i in range(1000)]  # fmt: skip
    show("1,000 bots, capacity 2 (120 simulated seconds)", big, seconds=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--simulate", action="store_true")
    parser.add_argument("--bots", type=int, default=1000)
    parser.add_argument("--procs", type=int, default=4)
    parser.add_argument("--capacity", type=int, default=2)
    parser.add_argument("--deals", type=int, default=1)
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    if args.simulate:
        simulated(args)
    else:
        network(args)


if __name__ == "__main__":
    main()
