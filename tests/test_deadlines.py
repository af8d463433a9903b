"""The referee's deadlines: one timer for every open request, each request failing with
a TIMEOUT at its own deadline and never before, whatever order they were asked in."""

from __future__ import annotations

import asyncio

import pytest

from arena.play.faults import FaultKind
from arena.referee.server import Connection, Deadlines, Entrant, Referee
from arena.referee.table import BotFault


def connection() -> Connection:
    return Connection(Entrant("bot", Referee()), 1)


async def expiries() -> dict[int, tuple[float, BotFault | None]]:
    """Requests 1..4 with deadlines 60, 30, 90 and 20 ms (asked in that order; 3 is
    answered at 10 ms): when each one's future settled, and with what fault."""
    loop = asyncio.get_running_loop()
    deadlines, conn = Deadlines(), connection()
    start = loop.time()
    futures = {rid: loop.create_future() for rid in (1, 2, 3, 4)}
    settled: dict[int, tuple[float, BotFault | None]] = {}
    for rid, future in futures.items():
        future.add_done_callback(
            lambda f, rid=rid: settled.__setitem__(
                rid, (loop.time() - start, f.exception() if not f.cancelled() else None)
            )
        )
    for rid, ms in ((1, 60), (2, 30), (3, 90), (4, 20)):
        deadlines.add(start + ms / 1000, rid, futures[rid], conn, ms / 1000)
    await asyncio.sleep(0.01)
    futures[3].set_result(0)  # answered in time: never timed out
    await asyncio.wait_for(asyncio.gather(*futures.values(), return_exceptions=True), 2.0)
    assert not deadlines.heap and deadlines.timer is None  # nothing left to time
    return settled


def test_each_open_request_times_out_at_its_own_deadline_and_an_answered_one_never() -> None:
    settled = asyncio.run(expiries())
    assert settled[3] == (pytest.approx(0.01, abs=0.05), None)
    for rid, ms in ((4, 20), (2, 30), (1, 60)):
        at, fault = settled[rid]
        assert isinstance(fault, BotFault) and fault.kind is FaultKind.TIMEOUT
        assert f"request {rid} within {ms / 1000:g} s" in fault.detail
        assert ms / 1000 <= at + 0.002 < ms / 1000 + 0.25  # not early; and not long after
