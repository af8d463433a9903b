"""The CLI's live display: a progress bar (matches, ETA, decisions/s) and standings."""

from __future__ import annotations

import time
from collections.abc import Sequence
from types import TracebackType

from rich.console import Console, Group
from rich.live import Live
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from arena.ratings import Ratings


class LiveDisplay:
    """Shows progress and the current top of the ratings while a tournament runs.

    The standings are provisional: they rate matches in the order they end, which
    varies with concurrent tables, while the leaderboard rates them in schedule order.
    So a run that finishes leaves only its progress bar on screen, and the leaderboard
    printed next is the one set of figures; an interrupted run keeps its last standings.
    """

    def __init__(
        self, console: Console, total: int, entrants: Sequence[str], done: int = 0
    ) -> None:
        self.console = console
        self.entrants = list(entrants)
        self.ratings = Ratings()
        self.progress = Progress(
            TextColumn("[bold]matches"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
        )
        self.task = self.progress.add_task("matches", total=total, completed=done, rate="")
        self._start = time.perf_counter()
        self._decisions = 0
        self._live = Live(self._render(), console=console, refresh_per_second=4, transient=False)

    def _render(self) -> Group:
        table = Table(title="standings (μ − 3σ)", box=None, pad_edge=False, show_header=True)
        table.add_column("#", justify="right")
        table.add_column("bot")
        table.add_column("μ − 3σ", justify="right")
        table.add_column("μ", justify="right")
        ranked = sorted(self.entrants, key=lambda e: -self.ratings.expose(e))
        for i, name in enumerate(ranked[:8], start=1):
            r = self.ratings.rating(name)
            table.add_row(str(i), name, f"{self.ratings.expose(name):.2f}", f"{r.mu:.2f}")
        return Group(self.progress, table)

    def update(self, record: dict[str, object], decisions: int) -> None:
        self.ratings.rate_match(record)
        self._decisions = decisions
        elapsed = max(time.perf_counter() - self._start, 1e-9)
        self.progress.update(self.task, advance=1, rate=f"{decisions / elapsed:,.0f} decisions/s")
        self._live.update(self._render())

    def __enter__(self) -> LiveDisplay:
        self._live.__enter__()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is None:
            self._live.update(self.progress)
        self._live.__exit__(exc_type, exc, tb)
        if not self._live.console.is_terminal:
            self._live.console.line()  # rich leaves the last frame unterminated off a terminal
