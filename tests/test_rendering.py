"""What the console shows: a leaderboard and live standings that fit narrow terminals with
names whole and no number cut, and bot-chosen names shown as plain text (issue 12.2)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from arena.cli import app
from arena.report.console import leaderboard_table
from arena.report.live import LiveDisplay
from arena.standings.leaderboard import (
    COLUMNS,
    build_leaderboard,
    load_matches,
    to_csv,
    to_markdown,
)

HOSTILE = ("[/]", "[bold red]x", "[link=http://e.vil]me[/link]", "planner_with_a_long_name#12")


def rows_with_hostile_names() -> list:  # type: ignore[type-arg]
    records = [
        {
            "schema": 1, "match": f"r{r:04d}-t01", "round": r, "table": 1,
            "seats": list(HOSTILE), "teams": [[0], [1], [2], [3]],
            "totals": [30 - r, 20, -5 + r, 7], "ranks": [1, 2, 4, 3] if r % 2 else [2, 1, 3, 4],
            "deals": 13, "exact": [3, 2, 1, 4],
            "faults": {"timeout": [0, 1, 0, 0], "illegal": [0, 0, 12, 0], "disconnect": [0] * 4},
            "disqualified": [False, False, r == 1, False], "forfeit": [False] * 4,
        }
        for r in range(1, 4)
    ]  # fmt: skip
    return build_leaderboard(records, list(HOSTILE))


def render(renderable: object, width: int) -> str:
    console = Console(width=width, file=io.StringIO(), record=True, color_system="truecolor")
    console.print(renderable)
    return console.export_text()


@pytest.mark.parametrize("width", [60, 80, 100, 132, 160, 200])
def test_the_leaderboard_fits_the_terminal_with_names_whole_and_nothing_cut(width: int) -> None:
    rows = rows_with_hostile_names()
    text = render(leaderboard_table(rows, "Leaderboard · 3 matches"), width)
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= width
    for row in rows:  # every name whole, on one line
        assert row.bot in text
    assert "μ−3σ" in text and "matches" in text  # the key columns stay
    # A number is never cut: every rating shown is one of the true ones, in full.
    for row in rows:
        assert f"{row.conservative:.2f}" in text


def test_a_narrow_leaderboard_folds_faults_and_says_where_the_rest_is() -> None:
    text = render(leaderboard_table(rows_with_hostile_names()), 80)
    assert "faults" in text and "0/36/0/0/1" in text  # timeouts/illegal/disc./forfeits/DQ
    # Where the rest is, in words that fit every command showing it (arena tournament has
    # no --format).
    assert "more columns in a wider terminal and in leaderboard.csv" in " ".join(text.split())
    assert "--format" not in text
    wide = render(leaderboard_table(rows_with_hostile_names()), 160)
    assert "timeouts" in wide and "illegal" in wide and "leaderboard.csv" not in wide


def rows_of(game: str, *, faults: bool) -> list:  # type: ignore[type-arg]
    """A leaderboard of ``game`` from a small real run's matches, with or without a fault."""
    from arena.games.registry import make_game
    from arena.play.tournament import MatchContext, play_match
    from bots.random import Bot as Random

    seats = make_game(game).table_size
    names = [f"entrant{i}" for i in range(seats)]
    records = []
    for n in range(2):
        bots = [Random(seed=n * 10 + i) for i in range(seats)]
        out = play_match(make_game(game), bots, ctx=MatchContext(f"m{n}", seed=str(n)), names=names)
        records.append(out.record)
    if faults:
        records[0]["faults"]["illegal"][1] = 2
    return build_leaderboard(records, names, game=game)


@pytest.mark.parametrize("game", ["truf", "truco", "ruff"])
def test_at_80_columns_the_table_keeps_the_evidence_and_the_points_before_sigma(game: str) -> None:
    text = render(leaderboard_table(rows_of(game, faults=False)), 80)
    head = next(line for line in text.splitlines() if "μ−3σ" in line)
    points = {"truf": "score/deal", "truco": "for/hand", "ruff": "points/deal"}[game]
    assert "P(>next)" in head and points in head, head
    assert "faults" not in head and "timeouts" not in head  # all zero: the first to go
    assert "no faults" in " ".join(text.split())
    assert " σ " not in head  # the rating's spread is the least needed
    faulty = render(leaderboard_table(rows_of(game, faults=True)), 80)
    head = next(line for line in faulty.splitlines() if "μ−3σ" in line)
    assert "faults" in head and "P(>next)" in head and points in head, head
    assert "0/2/0/0/0" in faulty


def test_piped_output_follows_columns_when_it_is_set(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    arena = str(Path(sys.executable).with_name("arena"))
    run = tmp_path / "r"
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    subprocess.run(
        [arena, "tournament", "--in-process", "--rounds", "1", "--deals", "1", "--seed", "1",
         "--results", str(run), "--quiet"], env=env, check=True, capture_output=True,
        timeout=120,
    )  # fmt: skip
    for columns, widest in (("72", 72), (None, 160)):
        env_now = env if columns is None else {**env, "COLUMNS": columns}
        got = subprocess.run(
            [arena, "leaderboard", str(run)], env=env_now, capture_output=True, text=True,
            check=True, timeout=60,
        )  # fmt: skip
        width = max(len(line) for line in got.stdout.splitlines())
        assert width <= widest and (columns is not None or width > 80), got.stdout


def test_the_files_hold_every_column_whatever_the_terminal() -> None:
    rows = rows_with_hostile_names()
    assert to_csv(rows).splitlines()[0].split(",") == list(COLUMNS)
    assert "| timeouts | illegal | disconnects | forfeits | DQ |" in to_markdown(rows)


def test_bot_chosen_names_are_plain_text_in_the_leaderboard() -> None:
    console = Console(width=160, file=io.StringIO(), record=True, color_system="truecolor")
    console.print(leaderboard_table(rows_with_hostile_names()))
    text = console.export_text(clear=False)
    assert "href" not in console.export_html(inline_styles=True)  # no hyperlink made
    for name in HOSTILE:
        assert name in text


@pytest.mark.parametrize("width", [80, 132])
def test_the_live_standings_show_hostile_names_whole_at_80_columns(width: int) -> None:
    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=False)
    record = {"match": "m", "seats": list(HOSTILE), "teams": [[0], [1], [2], [3]]}
    with pytest.raises(KeyboardInterrupt), LiveDisplay(console, 100, HOSTILE) as display:
        display.update({**record, "ranks": [1, 2, 3, 4]}, 500)
        raise KeyboardInterrupt  # an interrupted run keeps its standings on screen
    out = buf.getvalue()
    for name in HOSTILE:
        assert name in out
    assert "…" not in out
    assert max(len(line) for line in out.splitlines()) <= width


def test_arena_leaderboard_shows_a_results_dir_with_markup_in_its_names(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "run"
    got = runner.invoke(
        app, ["tournament", "--in-process", "--rounds", "2", "--deals", "1",
              "--results", str(out), "--quiet"],
    )  # fmt: skip
    assert got.exit_code == 0, got.output
    renames = {"random": "[/]", "greedy": "[bold red]x"}
    for name in ("matches.jsonl", "tournament.json"):
        text = (out / name).read_text(encoding="utf-8")
        for old, new in renames.items():
            text = text.replace(json.dumps(old), json.dumps(new))
        (out / name).write_text(text, encoding="utf-8")
    assert {"[/]", "[bold red]x"} <= {
        s for r in load_matches(out / "matches.jsonl") for s in r["seats"]
    }
    for fmt in ("table", "markdown", "csv", "json"):
        got = runner.invoke(app, ["leaderboard", str(out), "--format", fmt])
        assert got.exit_code == 0, got.output
        assert "[/]" in got.output and "[bold red]x" in got.output, got.output


class _Task:
    """The fields of a rich progress task that the ETA column reads."""

    def __init__(self, completed: float, total: float, elapsed: float, resumed: int = 0) -> None:
        self.completed, self.total, self.elapsed = completed, total, elapsed
        self.fields = {"resumed": resumed}


def test_the_eta_waits_for_a_few_matches_then_uses_the_runs_own_pace() -> None:
    from arena.report.live import EtaColumn

    column = EtaColumn()
    assert column.render(_Task(1, 100, 30.0)).plain == "ETA -:--:--"  # one match: no estimate yet
    assert column.render(_Task(10, 100, 2.0)).plain == "ETA -:--:--"  # too soon
    # 10 matches in 60 s: 90 left take 540 s.
    assert column.render(_Task(10, 100, 60.0)).plain == "ETA 0:09:00"
    # A resumed run counts only the matches it played itself: 10 new in 60 s, 40 left.
    assert column.render(_Task(60, 100, 60.0, resumed=50)).plain == "ETA 0:04:00"
    assert re.fullmatch(r"ETA \d+:\d\d:\d\d", column.render(_Task(99, 100, 9.0)).plain)
    assert column.render(_Task(100, 100, 1.0)).plain == "ETA 0:00:00"  # done is done
