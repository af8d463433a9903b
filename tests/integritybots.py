"""Bots that fault in one way each, for the results-integrity tests (issue 25): found by
module name, as ``integritybots:Raises``, in this folder (on the tests' path; the gRPC
runs get it through PYTHONPATH). Each plays every game: a seeded legal choice, except
for its one kind of fault, so that in-process and gRPC runs of the same seed agree."""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Sequence
from typing import Any

from arena.bot import BaseBot


class Pick(BaseBot):
    """A seeded choice among the legal actions: a function of the seed and the decision."""

    name = "pick"
    version = "1"
    games = ("truf", "truco", "ruff")

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed

    def pick(self, view: Any, legal: Sequence[Any]) -> int:
        key = f"{self.seed}:{view.match_id}:{view.seat}:{len(legal)}:{legal[0]!r}:{legal[-1]!r}"
        return random.Random(key).randrange(len(legal))

    def act(self, view: Any, legal: Sequence[Any]) -> int:
        return self.pick(view, legal)


class Raises(Pick):
    """act() raises on every decision: disqualified in every match, on every transport."""

    name = "raises"

    def act(self, view: Any, legal: Sequence[Any]) -> int:
        raise RuntimeError("this bot always fails")


class RaisesOnCalls(Pick):
    """act() raises when it is asked to answer in a choice of more than two (a Truco
    call to answer, a Truf bid...), otherwise a seeded choice: a crash that the fallback
    must replace by the documented action, not by a raise."""

    name = "raisesoncalls"

    def act(self, view: Any, legal: Sequence[Any]) -> int:
        choice = self.pick(view, legal)
        if choice == 1 and len(legal) > 2:
            raise ValueError(f"no second choice of {len(legal)}")
        return choice


class ReturnsNone(Pick):
    """Answers None: not an action at all."""

    name = "returnsnone"

    def act(self, view: Any, legal: Sequence[Any]) -> Any:
        return None


class Gate(Pick):
    """Waits on a gate (an event) for its first decision at table r0001-t01 until another
    table's decisions have gone through: a slow decision at one table (issue 25, 6)."""

    name = "gate"
    capacity_hint = 16

    def __init__(self, seed: int | str = 0) -> None:
        super().__init__(seed)
        self.others = 0
        self.lock = threading.Lock()
        self.release = threading.Event()
        self.held = False

    def act(self, view: Any, legal: Sequence[Any]) -> int:
        with self.lock:
            hold = not self.held and view.match_id == os.environ.get("GATE_TABLE", "r0001-t01")
            if hold:
                self.held = True
            else:
                self.others += 1
                if self.others >= int(os.environ.get("GATE_AFTER", "40")):
                    self.release.set()
        if hold:  # answered once enough decisions at other tables were answered
            self.release.wait(float(os.environ.get("GATE_LIMIT", "20")))
        return self.pick(view, legal)


class Noted(Pick):
    """Takes an option whose value is a path (``integritybots:Noted:log=/tmp/x``) and
    appends a line to that file when it is made: a bot spec with ``/`` and ``:`` in it."""

    name = "noted"

    def __init__(self, seed: int | str = 0, log: str = "") -> None:
        super().__init__(seed)
        if log:
            with open(log, "a", encoding="utf-8") as f:
                f.write(f"{self.name} made\n")


class Chaotic(Pick):
    """Mostly a seeded choice; now and then each kind of bad answer a bot can give in any
    game: its own exception, an index past the end or below 0, True, a string, or the
    legal action itself (fine). The same answers in-process and over gRPC."""

    name = "chaotic"

    def act(self, view: Any, legal: Sequence[Any]) -> Any:
        key = f"{self.seed}:{view.match_id}:{view.seat}:{len(legal)}:{legal[0]!r}:{legal[-1]!r}"
        rng = random.Random(key + ":chaos")
        pick = self.pick(view, legal)
        roll = rng.random()
        if roll < 0.7:
            return pick
        kind = rng.randrange(6)
        if kind == 0:
            raise ZeroDivisionError("chaos")
        return [len(legal) + 2, -1, True, "not an action", legal[pick]][kind - 1]
