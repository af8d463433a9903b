"""docs/results.md names, for each game, exactly the columns its leaderboard.csv has: the
header of a real in-process run of the game, and the JSON rows' keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app

DOC = Path(__file__).resolve().parent.parent / "docs" / "results.md"

# Where each game's leaderboard section is: after its heading (Truf's is the first).
SECTIONS = {"truf": "# Results formats", "truco": "## Truco (", "ruff": "## Ruff and Trump ("}
RUNS = {
    "truf": ["--rounds", "1", "--deals", "2"],
    "truco": ["--game", "truco", "--rounds", "1", "--points", "15"],
    "ruff": ["--game", "ruff", "--rounds", "1"],
}


def documented_columns(game: str) -> list[str]:
    text = DOC.read_text(encoding="utf-8").split(SECTIONS[game], 1)[1]
    section = text.split("leaderboard.csv` / `leaderboard.json`\n", 1)[1]
    listed = section.split("Columns: `", 1)[1].split("`", 1)[0]
    return [c.strip() for c in " ".join(listed.split()).split(",")]


@pytest.mark.parametrize("game", list(RUNS))
def test_each_games_documented_leaderboard_columns_are_the_csv_header(
    game: str, tmp_path: Path
) -> None:
    args = ["tournament", "--in-process", *RUNS[game], "--seed", "27"]
    result = CliRunner().invoke(app, [*args, "--results", str(tmp_path), "--quiet"])
    assert result.exit_code == 0, result.output
    header = (tmp_path / "leaderboard.csv").read_text(encoding="utf-8").splitlines()[0]
    assert documented_columns(game) == header.split(",")
    rows = json.loads((tmp_path / "leaderboard.json").read_text(encoding="utf-8"))["rows"]
    assert all(list(row) == header.split(",") for row in rows)
