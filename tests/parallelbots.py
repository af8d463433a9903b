"""Bots for the parallel-play tests (``tests/test_parallel.py``, ``tests/test_ray.py``):
each plays any game (a seeded choice among the legal actions), and each misbehaves in
one way a worker process must survive or report. They are found by module name, as
``parallelbots:SlowBot``, in this folder (on the tests' path and sent to workers with it).
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.bot import BaseBot


class PickBot(BaseBot):
    """A seeded choice among the legal actions: a function of the seed and the match."""

    name = "pick"
    games = ("truf", "truco", "ruff")

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed

    def act(self, view: Any, legal: Sequence[Any]) -> int:
        rng = random.Random(f"{self.seed}:{view.match_id}:{view.seat}:{len(legal)}")
        return rng.randrange(len(legal))


class SlowBot(PickBot):
    """Takes ``pause`` seconds over each match (odd-numbered rounds twice as long), so that
    matches finish out of schedule order on two workers."""

    name = "slow"
    pause = 0.12

    def match_over(self, result: Mapping[str, Any]) -> None:
        round_no = int(str(result["match"]).split("-")[0].lstrip("r") or 1)
        time.sleep(self.pause * (2 if round_no % 2 else 1) / 4)


class FaultyBot(PickBot):
    """Raises from act() on some decisions: faults, and one traceback shown per kind."""

    name = "faulty"

    def act(self, view: Any, legal: Sequence[Any]) -> int:
        choice = super().act(view, legal)
        if choice == 0 and len(legal) > 3:
            raise ValueError("no first choices")
        return choice


class LockedBot(PickBot):
    """Holds a lock: it cannot be pickled, so it cannot be sent to a worker process."""

    name = "locked"

    def __init__(self, seed: int | str = 0) -> None:
        super().__init__(seed)
        self.lock = threading.Lock()


class ExitingBot(PickBot):
    """Ends its process in the middle of match ``match`` (the interpreter gone, as a bot
    calling os._exit or crashing an extension would). With ``marks`` (a folder), only the
    first time: the match played again then finishes."""

    name = "exiting"
    match = "r0002-t01"
    marks: str | None = None

    def act(self, view: Any, legal: Sequence[Any]) -> int:
        if view.match_id == self.match and self._first_time():
            os._exit(3)
        return super().act(view, legal)

    def _first_time(self) -> bool:
        if self.marks is None:
            return True
        mark = Path(self.marks) / self.match
        if mark.exists():
            return False
        mark.write_text(str(os.getpid()))
        return True


class PausingBot(SlowBot):
    """Halts for a while in its first decision of match ``match``, after writing its
    process id to ``pids`` (a folder), so a test can kill the worker mid-match; the match
    played again finds the file there and goes straight on."""

    name = "pausing"
    match = "r0003-t01"
    pids = ""

    def act(self, view: Any, legal: Sequence[Any]) -> int:
        if view.match_id == self.match:
            mark = Path(self.pids) / self.match
            if not mark.exists():
                mark.write_text(str(os.getpid()))
                time.sleep(30)
        return super().act(view, legal)
