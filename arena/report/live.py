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
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from arena.report.console import plain
from arena.standings.ratings import Ratings

ETA_AFTER_MATCHES = 3  # matches this run must finish before the ETA means anything
ETA_AFTER_SECONDS = 5.0


class EtaColumn(ProgressColumn):
    """Time left, from this run's average pace since it started (matches finished so far,
    a resumed run's earlier ones excluded), shown only once a few matches have finished:
    concurrent tables finish in bursts, so early rates are far off."""

    def render(self, task: Task) -> Text:
        done = task.completed - task.fields.get("resumed", 0)
        elapsed = task.elapsed or 0.0
        if task.total is not None and task.completed >= task.total:
            return Text("ETA 0:00:00", style="progress.remaining")
        if task.total is None or done < ETA_AFTER_MATCHES or elapsed < ETA_AFTER_SECONDS:
            return Text("ETA -:--:--", style="progress.remaining")
        left = max(task.total - task.completed, 0) * elapsed / done
        minutes, seconds = divmod(int(left + 0.5), 60)
        hours, minutes = divmod(minutes, 60)
        return Text(f"ETA {hours}:{minutes:02d}:{seconds:02d}", style="progress.remaining")


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
            EtaColumn(),
            console=console,
        )
        self.task = self.progress.add_task(
            "matches", total=total, completed=done, rate="", resumed=done
        )
        self._start = time.perf_counter()
        self._decisions = 0
        self._live = Live(self._render(), console=console, refresh_per_second=4, transient=False)

    def _render(self) -> Group:
        table = Table(title="standings (μ − 3σ)", box=None, pad_edge=False, show_header=True)
        table.add_column("#", justify="right")
        table.add_column("bot", overflow="fold")
        table.add_column("μ − 3σ", justify="right")
        table.add_column("μ", justify="right")
        ranked = sorted(self.entrants, key=lambda e: -self.ratings.expose(e))
        for i, name in enumerate(ranked[:8], start=1):
            r = self.ratings.rating(name)
            table.add_row(str(i), plain(name), f"{self.ratings.expose(name):.2f}", f"{r.mu:.2f}")
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
