"""``wait_for_entrants`` tells who joins with a count that goes up one by one, even when
several bots arrive between two of its looks (tests/test_grpc.py's serve test once saw
"2 of 4" twice when two bots connected at once)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from arena.referee.host import wait_for_entrants


def entrant(name: str) -> SimpleNamespace:
    return SimpleNamespace(
        name=name, bot_name="random", bot_version="", conn=SimpleNamespace(closed=False)
    )


def test_bots_that_arrive_together_are_counted_one_by_one() -> None:
    referee: Any = SimpleNamespace(
        entrants=[entrant("a"), entrant("b"), entrant("c")],
        refused=0,
        refusals=[],
        changed=asyncio.Event(),
    )
    said: list[str] = []
    asyncio.run(wait_for_entrants(referee, 3, [], 5.0, say=said.append))
    assert [line.rsplit("· ", 1)[1] for line in said] == ["1 of 3", "2 of 3", "3 of 3"]
