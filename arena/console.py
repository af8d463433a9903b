"""Rich renderings for the CLI. The engine, ratings and leaderboard never import rich."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import JustifyMethod
from rich.table import Table
from rich.text import Text

from arena.leaderboard import LeaderboardRow, format_cell

# (column, header, justify); the order matches the markdown table.
_COLUMNS: tuple[tuple[str, str, JustifyMethod], ...] = (
    ("rank", "#", "right"),
    ("bot", "bot", "left"),
    ("conservative", "μ−3σ", "right"),
    ("mu", "μ", "right"),
    ("sigma", "σ", "right"),
    ("matches", "matches", "right"),
    ("wins", "wins", "right"),
    ("avg_placement", "avg place", "right"),
    ("avg_score_per_deal", "score/deal", "right"),
    ("exact_rate", "exact", "right"),
    ("timeouts", "timeouts", "right"),
    ("illegal", "illegal", "right"),
    ("disconnects", "disc.", "right"),
    ("forfeits", "forfeits", "right"),
    ("disqualified", "DQ", "right"),
)
_FAULT_COLUMNS = frozenset({"timeouts", "illegal", "disconnects", "forfeits", "disqualified"})


def leaderboard_table(rows: Sequence[LeaderboardRow], title: str = "Leaderboard") -> Table:
    """The leaderboard as a rich table: sorted as given, faults highlighted when non-zero."""
    table = Table(title=title, caption="sorted by μ−3σ (TrueSkill)", header_style="bold")
    for column, header, justify in _COLUMNS:
        table.add_column(
            header,
            justify=justify,
            style="bold" if column == "conservative" else None,
            no_wrap=column != "bot",
        )
    for row in rows:
        cells: list[Text | str] = []
        for column, _, _ in _COLUMNS:
            value = getattr(row, column)
            text = format_cell(column, value)
            if column in _FAULT_COLUMNS:
                cells.append(Text(text, style="red" if value else "dim"))
            else:
                cells.append(text)
        table.add_row(*cells, style="green" if row.rank == 1 and row.matches else None)
    return table
