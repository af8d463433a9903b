"""gRPC tournament throughput against the bare transport floor, in one run.

* ``arena``: a real tournament over loopback -- the referee (``grpc.aio``) in this
  process, four ``random`` bots as separate processes through the Python SDK --
  counting decisions per second while the schedule plays.
* ``floor``: the same process layout with no game at all: the referee's own transport
  (``start_server``, its outbox, pre-serialized messages) drives one bidi stream per
  client process, sending a view-sized message (a real encoded decision request) and
  reading a small reply per round trip, with as many round trips in flight as the
  tournament has tables in play; the clients use the SDK's transport and answer index 0.

Both report the CPU time each side spends per round trip (Linux ``/proc``), counted
between the first and the last finished match so that start-up does not count.

Run: ``python bench/grpc_speed.py [--rounds N] [--repeat K]``. Measures K floor/arena pairs
back to back (the machine's speed drifts, so each ratio compares neighbours) and prints
each pair, then the median pair's figures and ratio; the target is at least 0.8.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

import grpc

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena.core.seeding import seeded_secret
from arena.games.truf import wire as truf_wire
from arena.games.truf.rules import TrufRules
from arena.games.truf.state import TrufMatch
from arena.play.run import RunConfig, make_plan, tune_gc
from arena.referee.host import BOT_CAPACITY, run_hosted_tournament
from arena.referee.server import Outbox, start_server
from arena.sdk import RequestLite, play_stream
from arena.standings.results import ResultsWriter

CLIENTS = 4


def sample_request() -> bytes:
    """A real mid-deal decision request, serialized: the floor's view-sized message."""
    m = TrufMatch(TrufRules(), seed=1)
    for _ in range(20):
        seat = m.to_act()[0]
        m.apply(seat, m.legal_actions(seat)[0])
    seat = m.to_act()[0]
    msg = pb.PlayResponse()
    req = msg.decision_request
    req.request_id = 1
    req.match_id = req.table_id = "r0001-t01"
    req.deal, req.seat, req.timeout_ms = 1, seat, 1000
    truf_wire.fill_decision(req.truf, m.view(seat), m.legal_actions(seat))
    return msg.SerializeToString()


def cpu_seconds(pid: int | str = "self") -> float:
    """User plus system CPU time of a process so far (Linux /proc; 0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children() -> list[int]:
    """This process's child processes (the bots), from /proc."""
    out: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children") as f:
                out += [int(p) for p in f.read().split()]
    return out


class Meter:
    """Marks taken as round trips (or matches) finish: the time, the count so far, and the
    CPU time of this process and of the client processes."""

    def __init__(self) -> None:
        self.marks: list[tuple[float, int, float, float]] = []
        self.clients: list[int] = []

    def mark(self, count: int) -> None:
        clients = sum(cpu_seconds(p) for p in self.clients)
        self.marks.append((time.perf_counter(), count, cpu_seconds(), clients))

    def update(self, record: dict[str, object], decisions: int) -> None:
        """The hosted tournament's display hook: a match has ended."""
        if not self.clients:
            self.clients = children()
        self.mark(decisions)

    def cpu_per_count(self, skip: int = 0) -> tuple[float, float]:
        """CPU microseconds per count (this process, the clients) from mark ``skip`` to the
        last, so that start-up and shut-down do not count. A tournament's tables start
        together and their matches are the same length, so they end in waves: the work
        done after the first wave ends is what the matches ending later count."""
        first, last = self.marks[skip], self.marks[-1]
        n = last[1] - first[1]
        return 1e6 * (last[2] - first[2]) / n, 1e6 * (last[3] - first[3]) / n


def bench_arena(rounds: int) -> tuple[float, Meter]:
    config = RunConfig(rounds=rounds, bots=["random"] * 4, seed=1)
    plan = make_plan(config, secret=seeded_secret(1))
    meter = Meter()
    with tempfile.TemporaryDirectory() as tmp, ResultsWriter(Path(tmp)) as writer:
        decisions, seconds = run_hosted_tournament(config, plan, writer, display=meter)
    return decisions / seconds, meter


# --------------------------------------------------------------------- the floor


def floor_client(address: str) -> None:
    """The bot side of the floor: the SDK's transport, answering index 0 at once."""
    import queue

    outbox: queue.SimpleQueue[pb.PlayRequest | None] = queue.SimpleQueue()

    def requests():  # type: ignore[no-untyped-def]
        hello = pb.PlayRequest()
        hello.hello.protocol_version = 1
        hello.hello.bot_name = "floor"
        yield hello
        while (msg := outbox.get()) is not None:
            yield msg

    with grpc.insecure_channel(address) as channel:
        for msg in play_stream(channel)(requests()):
            if msg.WhichOneof("message") == "tournament_over":
                break
            answer = pb.PlayRequest()
            answer.answer.request_id = RequestLite.FromString(msg.decision_request).request_id
            answer.answer.index = 0
            outbox.put(answer)
    outbox.put(None)


class Floor:
    """The server side of the floor: the referee's own transport (``start_server``, its
    ``Outbox``, pre-serialized messages, a future per round trip) with no game."""

    def __init__(self, payload: bytes) -> None:
        self.payload = payload
        self.streams: list[tuple[Outbox, deque[asyncio.Future[None]]]] = []
        self.ready = asyncio.Event()

    async def Play(self, request_iterator, context):  # type: ignore[no-untyped-def]  # noqa: N802
        await anext(request_iterator)
        out = Outbox()
        waiting: deque[asyncio.Future[None]] = deque()  # answers come in the order asked
        self.streams.append((out, waiting))
        if len(self.streams) == CLIENTS:
            self.ready.set()

        async def read() -> None:
            async for _answer in request_iterator:
                waiting.popleft().set_result(None)

        reader = asyncio.create_task(read())
        while (data := await out.get()) is not None:
            yield data
        bye = pb.PlayResponse()
        bye.tournament_over.message = "done"
        yield bye
        reader.cancel()

    async def round_trip(self, client: int) -> None:
        out, waiting = self.streams[client]
        answered = asyncio.get_running_loop().create_future()
        waiting.append(answered)
        out.put(self.payload)
        await answered


async def bench_floor(round_trips: int, tables: int) -> tuple[float, Meter]:
    floor = Floor(sample_request())
    server, port = await start_server(floor, "127.0.0.1:0")  # type: ignore[arg-type]
    procs = [
        subprocess.Popen([sys.executable, __file__, "--floor-client", f"127.0.0.1:{port}"])
        for _ in range(CLIENTS)
    ]
    await floor.ready.wait()
    per_table = round_trips // tables

    async def table(t: int) -> None:
        for i in range(per_table):
            await floor.round_trip((t + i) % CLIENTS)

    meter = Meter()
    meter.clients = [p.pid for p in procs]
    meter.mark(0)
    await asyncio.gather(*(table(t) for t in range(tables)))
    meter.mark(per_table * tables)
    rate = per_table * tables / (meter.marks[-1][0] - meter.marks[0][0])
    for out, _ in floor.streams:
        out.put(None)
    for p in procs:  # off the loop: the server must still send the goodbyes
        await asyncio.to_thread(p.wait)
    await server.stop(0.5)
    return rate, meter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--rounds",
        type=int,
        default=48,
        help="tournament rounds (4 random bots); a multiple of the tables in play (16), so "
        "that the last wave of matches is whole",
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="floor/arena pairs, one after the other"
    )
    parser.add_argument("--floor-client", metavar="ADDR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.floor_client:
        floor_client(args.floor_client)
        return
    tune_gc()  # as `arena tournament` runs its referee (both sides)
    # With four entrants and one table a round, BOT_CAPACITY tables are in play at once
    # (what their capacities can fill: arena.referee.host.tables_at_once).
    tables = BOT_CAPACITY
    print(f"floor: bare transport, view-sized message, {tables} in flight; ", end="")
    print(f"arena: 4 random bots over gRPC, {args.rounds} rounds")
    # The machine's speed drifts (other tenants): each ratio compares a floor and an
    # arena measured back to back, and the summary is the median pair.
    pairs = []
    for n in range(1, args.repeat + 1):
        floor, floor_meter = asyncio.run(bench_floor(20000, tables))
        arena, arena_meter = bench_arena(args.rounds)
        server, clients = floor_meter.cpu_per_count()
        referee, bots = arena_meter.cpu_per_count(skip=tables - 1)
        pairs.append((arena / floor, floor, arena))
        print(
            f"#{n}  floor {floor:,.0f} rt/s (CPU/rt: server {server:.0f} us, "
            f"clients {clients:.0f} us)  arena {arena:,.0f} decisions/s (CPU/decision: "
            f"referee {referee:.0f} us, bots {bots:.0f} us)  ratio {arena / floor:.2f}",
            flush=True,
        )
    ratio, floor, arena = sorted(pairs)[len(pairs) // 2]
    print(f"floor (median pair): {floor:,.0f} rt/s")
    print(f"arena (median pair): {arena:,.0f} decisions/s")
    print(f"ratio: {ratio:.2f}")


if __name__ == "__main__":
    main()
