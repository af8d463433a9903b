"""A spy: plays uniformly at random and writes down every view it is given.

Used by tests/test_no_leaks.py, in-process and as a bot process over gRPC
(``--bots spybot:Spy``, with ``tests/`` on PYTHONPATH). Each view goes to
``$SPY_LOG_DIR/<pid>-<id>.jsonl`` as JSON, so the test can audit it against the
replay log, which holds what the spy was not allowed to see.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena.bot import BaseBot
from arena.games.truf.actions import Action
from arena.games.truf.record import bid_to_json
from arena.games.truf.view import SeatView


def view_to_json(view: SeatView) -> dict[str, Any]:
    """Every field of the view, cards as ints, bids as the replay log writes them."""
    out: dict[str, Any] = {}
    for name, value in zip(view._fields, view, strict=True):
        if name == "bids":
            value = None if value is None else [bid_to_json(b) for b in value]
        elif name == "tricks":
            value = [[t.leader, [[s, int(c)] for s, c in t.cards], t.winner] for t in value]
        elif name == "trick":
            value = [[p.seat, None if p.card is None else int(p.card), p.face_down] for p in value]
        elif name == "hand":
            value = [int(c) for c in value]
        elif name == "mode":
            value = None if value is None else str(value)
        out[name] = value if not isinstance(value, tuple) else list(value)
    return out


class Spy(BaseBot):
    name = "spy"
    version = "1.0"

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed
        directory = Path(os.environ.get("SPY_LOG_DIR", "."))
        self.log = directory / f"{os.getpid()}-{id(self)}.jsonl"

    def act(self, view: SeatView, legal: Sequence[Action]) -> int:
        with open(self.log, "a", encoding="utf-8") as f:
            f.write(json.dumps(view_to_json(view)) + "\n")
        rng = random.Random(f"{self.seed}:{view.match_id}:{view.deal}:{len(view.tricks)}")
        return rng.randrange(len(legal))
