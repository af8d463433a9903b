"""How many tables the referee plays at once (issue 31): what the connected entrants'
declared capacities can fill, bounded by a safety limit, instead of a fixed 16.

The served run is outsider-style: four bots on the raw generated stub (written from the
proto) declare their capacity in ``Hello`` and answer every decision with index 0; the
referee counts the tables in play each time one starts (``run_schedule``'s ``on_start``).
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena._proto.truf.arena.v1 import arena_pb2_grpc as pb_grpc
from arena.core.seeding import seeded_secret
from arena.play.run import RunConfig, make_plan
from arena.referee import host
from arena.referee.host import TABLES_LIMIT, run_schedule, tables_at_once, wait_for_entrants
from arena.referee.server import Referee, start_server
from arena.standings.results import ResultsWriter, read_jsonl

OLD_FIXED_CAP = 16  # the referee's former MAX_TABLES


def test_the_tables_the_capacities_can_fill_at_once() -> None:
    assert tables_at_once([1] * 8, 4) == 2  # eight bots of capacity 1: two tables of four
    assert tables_at_once([16] * 4, 4) == 16  # the bundled bots: as with the old fixed cap
    assert tables_at_once([40] * 4, 4) == 40
    assert tables_at_once([3, 3, 1, 1, 1, 1], 2) == 5  # 3 + 3 + 4 seats for 5 tables of two
    assert tables_at_once([1, 1], 4) == 1  # too few entrants: one table, as before


def test_a_huge_declared_capacity_is_clamped() -> None:
    # One bot alone cannot fill more tables than its table mates' capacities allow...
    assert tables_at_once([2**32 - 1, 1, 1, 1], 4) == 1
    # ... and a field of bots all declaring the protocol's largest capacity gets the limit.
    assert tables_at_once([2**32 - 1] * 4, 4) == TABLES_LIMIT
    assert tables_at_once([2**32 - 1] * 400, 4) == TABLES_LIMIT


class RawBot:
    """One ``ArenaService.Play`` stream on the generated stub, answering index 0 to every
    request until the tournament is over, in a thread of its own."""

    def __init__(self, address: str, token: str, capacity: int, game: str) -> None:
        # A connection of its own: the referee allows 16 streams on one connection, and
        # channels to one address otherwise share a connection.
        self.channel = grpc.insecure_channel(address, [("grpc.use_local_subchannel_pool", 1)])
        self.outbox: queue.SimpleQueue[pb.PlayRequest | None] = queue.SimpleQueue()
        hello = pb.PlayRequest()
        hello.hello.CopyFrom(
            pb.Hello(
                protocol_version=1, bot_name="raw", token=token, capacity=capacity, games=[game]
            )  # fmt: skip
        )
        self.outbox.put(hello)
        self.call = pb_grpc.ArenaServiceStub(self.channel).Play(self._requests(), timeout=120)
        self.thread = threading.Thread(target=self._play, daemon=True)
        self.thread.start()

    def _requests(self) -> Iterator[pb.PlayRequest]:
        while (msg := self.outbox.get()) is not None:
            yield msg

    def _play(self) -> None:
        try:
            for msg in self.call:
                if msg.HasField("tournament_over"):
                    break
                if msg.HasField("decision_request"):
                    reply = pb.PlayRequest()
                    reply.answer.request_id = msg.decision_request.request_id
                    reply.answer.index = 0
                    self.outbox.put(reply)
        except grpc.RpcError:
            pass  # the stream was closed at the end
        finally:
            self.outbox.put(None)

    def close(self) -> None:
        self.outbox.put(None)
        self.call.cancel()
        self.thread.join(timeout=10)
        self.channel.close()


def serve(
    tmp: Path, capacity: int, rounds: int, game: str = "truf", count: int = 4
) -> tuple[list[int], int, list[int]]:
    """Serve a seeded tournament of ``rounds`` one-deal rounds of ``game`` to ``count`` raw
    bots declaring ``capacity``; the tables in play at each start, the matches recorded,
    and the capacities the referee saw."""
    names = [f"bot{i}" for i in range(count)]
    tokens = {f"token{i}": name for i, name in enumerate(names)}
    in_play: list[int] = []
    bots: list[RawBot] = []

    async def main() -> list[int]:
        referee = Referee(tokens=tokens, game=game, decision_timeout=30.0)
        server, port = await start_server(referee, "127.0.0.1:0")
        try:
            for token in tokens:  # the bots connect from their own threads
                bots.append(RawBot(f"127.0.0.1:{port}", token, capacity, game))
            await wait_for_entrants(referee, count, [], timeout=60.0)
            referee.start()
            entrants = {e.name: e for e in referee.entrants}
            config = RunConfig(game=game, rounds=rounds, deals=1, seed=7, points=15)
            config.seats = 2 if game == "truco" else 4  # Truco heads-up (ruling R2)
            config.bots, config.names = list(names), list(names)
            plan = make_plan(config, secret=seeded_secret(7))
            with ResultsWriter(tmp, fsync=False) as writer:
                await run_schedule(
                    plan, entrants, writer, skip=frozenset(), on_match=lambda o, d: None,
                    on_start=in_play.append,
                )  # fmt: skip
            capacities = [e.capacity for e in referee.entrants]
            await referee.goodbye()
            return capacities
        finally:
            await server.stop(1.0)

    try:
        capacities = asyncio.run(main())
    finally:
        for bot in bots:
            bot.close()
    return in_play, len(read_jsonl(tmp / "matches.jsonl")), capacities


def test_a_served_run_plays_more_tables_at_once_than_the_old_fixed_cap(tmp_path: Path) -> None:
    # Four bots of capacity 20 and 20 one-table rounds: all 20 tables can be in play at
    # once (rounds are not waited for), more than the 16 the referee used to allow.
    in_play, matches, capacities = serve(tmp_path / "wide", capacity=20, rounds=20)
    assert capacities == [20] * 4
    assert max(in_play) == 20 > OLD_FIXED_CAP
    assert matches == 20


def test_a_served_run_with_huge_capacities_is_clamped_to_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Bots declaring the protocol's largest capacity, and a limit lowered to 20 so that
    # 25 one-table rounds can show it: never more than the limit in play at once.
    monkeypatch.setattr(host, "TABLES_LIMIT", 20)
    in_play, matches, capacities = serve(tmp_path / "huge", capacity=2**32 - 1, rounds=25)
    assert capacities == [2**32 - 1] * 4  # taken as declared, clamped where it counts
    assert max(in_play) == 20
    assert matches == 25


def test_more_than_16_tables_worth_of_entrants_play_a_whole_round_at_once(
    tmp_path: Path,
) -> None:
    # 34 heads-up Truco bots of capacity 1 (ruling R2: two seats) are 17 tables a round:
    # the whole round is in play at once, where the old cap held one table back.
    in_play, matches, capacities = serve(tmp_path / "many", 1, rounds=2, game="truco", count=34)
    assert capacities == [1] * 34
    assert max(in_play) == 17 > OLD_FIXED_CAP
    assert matches == 34
