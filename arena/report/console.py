"""Rich renderings for the CLI. The engine, ratings and leaderboard never import rich.

Everything a bot chose (its name, its version) is shown as plain ``Text``, never read as
markup: a bot named ``[/]`` or ``[bold red]x`` is shown as it is, styles nothing and
crashes nothing (issue 12.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, JustifyMethod, RenderResult
from rich.table import Table
from rich.text import Text

from arena.standings.leaderboard import COLUMNS, Row, format_cell, headers_of, row_columns

_SHORT = {"disconnects": "disc."}  # headers shortened in the terminal
_FAULT_COLUMNS = ("timeouts", "illegal", "disconnects", "forfeits", "disqualified")
_FAULTS = "faults"  # the fault columns folded into one, "t/i/d/f/DQ", when space is short
_FAULTS_HEADER = "faults"
# What a narrower terminal keeps, most important first: the order and the evidence for it,
# the faults (when any seat has one: all-zero fault columns are the first to go), the
# game's points per deal, then the counts; the rating's parts, the other statistics and the
# intervals last. The rest are left out (they are always in leaderboard.csv,
# leaderboard.json and `arena leaderboard DIR --format markdown`).
_FIRST = ("rank", "bot", "conservative", "p_better_next")
_COUNTS = ("matches", "wins", "avg_placement", "mu")
_LAST = ("sigma",)
_CAPTION = "sorted by μ−3σ (TrueSkill)"


def plain(text: object) -> Text:
    """``text`` as rich shows it literally: never parsed as markup or highlighted."""
    return Text(str(text))


def _cell_width(text: str) -> int:
    return Text(text).cell_len


@dataclass(frozen=True)
class LeaderboardTable:
    """The leaderboard as a rich renderable that fits the width it is given: every
    column when there is room; in a narrower terminal the fault columns fold into one
    and the least important columns are left out, so names and numbers are never cut."""

    rows: Sequence[Row]
    title: str = "Leaderboard"

    @property
    def _columns(self) -> list[tuple[str, str, JustifyMethod]]:
        """(column, header, justify) of the rows' game; the order matches markdown's."""
        columns = row_columns(self.rows[0]) if self.rows else COLUMNS
        return [
            (c, _SHORT.get(c, h), "left" if c == "bot" else "right") for c, h in headers_of(columns)
        ]

    @property
    def _stats(self) -> list[str]:
        """The game's own columns (points per deal first) and their intervals, in order."""
        known = {*_FIRST, *_COUNTS, *_LAST, *_FAULT_COLUMNS}
        return [c for c, _, _ in self._columns if c not in known]

    @property
    def _any_fault(self) -> bool:
        return any(getattr(r, c) for r in self.rows for c in _FAULT_COLUMNS)

    @property
    def _priority(self) -> list[str]:
        stats = self._stats
        intervals = [c for c in stats if c.endswith("_ci95")]
        others = [c for c in stats if c not in intervals]
        faults = [_FAULTS] if self._any_fault else []
        return [*_FIRST, *faults, *others[:1], *_COUNTS, *others[1:], *intervals, *_LAST]

    def _cells(self, row: Row, column: str) -> str:
        if column == _FAULTS:
            return "/".join(str(getattr(row, c)) for c in _FAULT_COLUMNS)
        return format_cell(column, getattr(row, column))

    def _width(self, column: str, header: str) -> int:
        return max([_cell_width(header), *(_cell_width(self._cells(r, column)) for r in self.rows)])

    def columns_for(self, width: int) -> list[str]:
        """The columns shown at ``width`` cells, in display order."""
        headers = {c: h for c, h, _ in self._columns} | {_FAULTS: _FAULTS_HEADER}
        every = [c for c, _, _ in self._columns]
        if self._total(every, headers) <= width:
            return every
        if not self._any_fault:  # nothing to see in them: they go first
            every = [c for c in every if c not in _FAULT_COLUMNS]
            if self._total(every, headers) <= width:
                return every
        chosen: list[str] = []
        for column in self._priority:
            if self._total([*chosen, column], headers) <= width or len(chosen) < 2:
                chosen.append(column)  # rank and bot always, whatever the width
        order = [c for c, _, _ in self._columns]
        return sorted(chosen, key=lambda c: order.index(c) if c in order else len(order))

    def _total(self, columns: Sequence[str], headers: dict[str, str]) -> int:
        # Each column: its widest cell plus one space each side, plus a rule between
        # (and around) the columns.
        return sum(self._width(c, headers[c]) + 3 for c in columns) + 1

    def build(self, width: int) -> Table:
        columns = self.columns_for(width)
        shown = set(columns)
        caption = _CAPTION
        if _FAULTS in shown:
            caption += " · faults: timeouts/illegal/disconnected/forfeits/DQ"
        elif not shown & set(_FAULT_COLUMNS):
            caption += " · no faults"
        folded = _FAULT_COLUMNS if _FAULTS in shown or not self._any_fault else ()
        if any(c not in shown and c not in folded for c, _, _ in self._columns):
            # Every command that shows the table writes or reads leaderboard.csv (not every
            # one has --format: arena tournament has not).
            caption += " · more columns in a wider terminal and in leaderboard.csv"
        table = Table(title=plain(self.title), caption=plain(caption), header_style="bold")
        justify = {c: j for c, _, j in self._columns} | {_FAULTS: "right"}
        headers = {c: h for c, h, _ in self._columns} | {_FAULTS: _FAULTS_HEADER}
        for column in columns:
            table.add_column(
                plain(headers[column]),
                justify=justify[column],
                style="bold" if column == "conservative" else None,
                no_wrap=column != "bot",
                overflow="fold",  # a name wider than the terminal breaks, never loses letters
                min_width=self._width(column, headers[column]) if column == "bot" else None,
            )
        for row in self.rows:
            cells: list[Text] = []
            for column in columns:
                text = self._cells(row, column)
                if column in _FAULT_COLUMNS or column == _FAULTS:
                    faulty = any(getattr(row, c) for c in _FAULT_COLUMNS)
                    value = faulty if column == _FAULTS else getattr(row, column)
                    cells.append(Text(text, style="red" if value else "dim"))
                else:
                    cells.append(plain(text))
            table.add_row(*cells, style="green" if row.rank == 1 and row.matches else None)
        return table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.build(options.max_width)


def leaderboard_table(rows: Sequence[Row], title: str = "Leaderboard") -> LeaderboardTable:
    """The leaderboard as a rich renderable: sorted as given, faults highlighted when
    non-zero, as many columns as the console's width holds."""
    return LeaderboardTable(rows, title)
