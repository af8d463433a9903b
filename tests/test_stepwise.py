"""arena.core.stepwise.run is game-neutral: on Truf it plays exactly what Truf's own tuned
loop plays, faults included."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.core import stepwise
from arena.games.truf.rules import TrufRules
from arena.games.truf.state import TrufMatch
from bots.random import Bot as RandomBot


class Flaky:
    """Answers garbage every seventh decision."""

    def __init__(self) -> None:
        self.bot = RandomBot(seed=3)
        self.calls = 0

    def act(self, view: Any, legal: Sequence[Any]) -> Any:
        self.calls += 1
        return "nonsense" if self.calls % 7 == 0 else self.bot.act(view, legal)


def play(runner: str) -> tuple[list[dict[str, Any]], list[tuple[int, str]], int]:
    match = TrufMatch(TrufRules(deals=4), match_id="s", seed="s")
    bots = [RandomBot(seed=0), Flaky(), RandomBot(seed=2), RandomBot(seed=3)]
    acts: list[Any] = [b.act for b in bots]
    acts[3] = None  # plays its fallback unasked
    records: list[dict[str, Any]] = []
    faults: list[tuple[int, str]] = []

    def on_fault(seat: int, exc: Exception) -> None:
        faults.append((seat, type(exc).__name__))

    if runner == "truf":
        decisions = match.run(acts, on_fault, records.append)
    else:
        decisions = stepwise.run(match, acts, on_fault, records.append)
    assert match.is_over and not match.finished
    return records, faults, decisions


def test_stepwise_run_plays_truf_exactly_as_its_own_loop() -> None:
    ours = play("stepwise")
    assert ours == play("truf")
    records, faults, _ = ours
    assert len(records) == 4 and faults and all(seat == 1 for seat, _ in faults)
