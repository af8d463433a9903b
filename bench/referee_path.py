"""The referee's per-decision work without the network, for counting and profiling.

``bench/grpc_speed.py`` measures the real thing, but on a shared 2-core machine its timings
drift by 10-20% from run to run, more than most single changes move them. This bench
runs the referee's own code in one process -- ``play_remote_match``, the gRPC
``Entrant``/``Connection``, its ``Outbox`` and ``Deadlines``, the request encoding --
with the transport replaced by a task that parses each request and answers index 0 on
the next turn of the event loop (what a bot that reads nothing would send). Modes:

* ``referee``: real matches (classic, 13 deals), so all the game's work is in it;
* ``floor``: the same loop, tasks and answers with one pre-built request and no game,
  as the floor of ``bench/grpc_speed.py`` drives its streams.

Their difference is what the game costs the referee per decision, on top of transport.

Run: ``python bench/referee_path.py [referee|floor] [--decisions N]``; it prints
microseconds per decision. For counts that do not drift, run it under callgrind twice,
with ``--decisions 0`` (start-up only) and with N, and divide the difference in
instructions by the decisions it printed (whole matches: a little over N)::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg \\
        python bench/referee_path.py referee --decisions 4000
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import time
from collections import deque

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena.games.registry import TrufGame
from arena.games.truf.rules import TrufRules
from arena.play.run import tune_gc
from arena.play.tournament import MatchContext
from arena.referee.server import Connection, Entrant, Referee, _parse
from arena.referee.table import play_remote_match

SEATS = 4


def answer(request: bytes) -> bytes:
    """What the stand-in bot sends back: index 0 for the request's id."""
    msg = pb.PlayRequest()
    msg.answer.request_id = pb.PlayResponse.FromString(request).decision_request.request_id
    msg.answer.index = 0
    return msg.SerializeToString()


async def referee_bot(referee: Referee, conn: Connection) -> None:
    """Read the connection's outbox as ``Referee.Play`` does; answer each request as a
    bot's message read by ``Referee._read`` would, on the next turn of the loop."""
    loop = asyncio.get_running_loop()
    while (msg := await conn.outbox.get()) is not None:
        if isinstance(msg, bytes) and msg[:1] == b"\x12":  # PlayResponse.decision_request
            data = answer(msg)
            loop.call_soon(lambda d=data: referee._on_answer(conn, _parse(d).answer))  # type: ignore[misc, union-attr]


async def referee_path(decisions: int) -> tuple[int, float]:
    referee = Referee(tokens={f"t{i}": f"bot{i}" for i in range(SEATS)})
    tasks = []
    for e in referee.entrants:
        e.conn = Connection(e, 8)
        tasks.append(asyncio.create_task(referee_bot(referee, e.conn)))
    game = TrufGame(TrufRules(deals=13))
    done, m = 0, 0
    start = time.perf_counter()
    while done < decisions:
        ctx = MatchContext(f"bench-{m}", seed=f"1:{m}")
        done += (await play_remote_match(game, referee.entrants, ctx=ctx)).decisions
        m += 1
    elapsed = time.perf_counter() - start
    for e in referee.entrants:
        assert e.conn is not None
        e.conn.close()
    await asyncio.gather(*tasks)
    return done, elapsed


def sample_request() -> bytes:
    """The request the floor of bench/grpc_speed.py sends (a real mid-deal decision)."""
    spec = importlib.util.spec_from_file_location(
        "grpc_speed", os.path.join(os.path.dirname(os.path.abspath(__file__)), "grpc_speed.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    data: bytes = module.sample_request()
    return data


async def floor_path(decisions: int) -> tuple[int, float]:
    referee = Referee()
    payload = sample_request()
    loop = asyncio.get_running_loop()
    streams: list[tuple[Connection, deque[asyncio.Future[None]]]] = []

    async def bot(conn: Connection, waiting: deque[asyncio.Future[None]]) -> None:
        while (msg := await conn.outbox.get()) is not None:
            assert isinstance(msg, bytes)
            data = answer(msg)
            loop.call_soon(lambda d=data: (_parse(d), waiting.popleft().set_result(None)))

    tasks = []
    for i in range(SEATS):
        conn: Connection = Connection(Entrant(f"bot{i}", referee), 8)
        waiting: deque[asyncio.Future[None]] = deque()
        streams.append((conn, waiting))
        tasks.append(asyncio.create_task(bot(conn, waiting)))
    start = time.perf_counter()
    for i in range(decisions):
        conn, waiting = streams[i % SEATS]
        answered = loop.create_future()
        waiting.append(answered)
        conn.send(payload)
        await answered
    elapsed = time.perf_counter() - start
    for conn, _ in streams:
        conn.close()
    await asyncio.gather(*tasks)
    return decisions, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", nargs="?", choices=("referee", "floor"), default="referee")
    parser.add_argument("--decisions", type=int, default=20000)
    args = parser.parse_args()
    run = referee_path if args.mode == "referee" else floor_path
    tune_gc()  # as `arena tournament` runs its referee
    done, elapsed = asyncio.run(run(args.decisions))
    if done:
        print(f"{args.mode}: {done} decisions, {1e6 * elapsed / done:.1f} us/decision")


if __name__ == "__main__":
    main()
