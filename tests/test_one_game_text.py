"""No text left from the one-game arena: the package description, the help of ``arena``,
``python -m arena.sdk`` and a bundled bot's program, the README's threat model and the
results folder's README speak of every game the registry holds (issue 27)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from typer.testing import CliRunner

from arena.cli import app
from arena.games.registry import REGISTRY
from arena.report.html import REPORT
from arena.standings.results import MATCHES, REPLAYS, SECRET, TOURNAMENT

ROOT = Path(__file__).resolve().parents[1]


def said(text: str) -> str:
    return " ".join(text.split())  # help and prose wrap at any word


def test_the_package_description_names_every_game() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    for entry in REGISTRY.values():
        assert entry.title in project["description"], entry.title


def test_arena_help_names_every_game() -> None:
    text = said(CliRunner().invoke(app, ["-h"]).output)
    assert all(entry.title in text for entry in REGISTRY.values()), text
    assert "for Truf." not in text


def program_help(module: str) -> str:
    got = subprocess.run(
        [sys.executable, "-m", module, "-h"], capture_output=True, text=True, timeout=60,
        check=True, cwd=ROOT,
    )  # fmt: skip
    return said(got.stdout)


def test_the_sdk_and_a_bundled_bot_program_say_which_games_they_play() -> None:
    sdk = program_help("arena.sdk")
    assert "Truf bot" not in sdk and all(name in sdk for name in REGISTRY), sdk
    random = program_help("bots.random")
    assert "Run the random bot (it plays truf, truco, ruff)" in random, random
    basic = program_help("bots.truco.basic")
    assert "Run the basic bot (it plays truco)" in basic, basic


def test_the_threat_model_says_what_a_bot_learns_in_every_game() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    learns = re.search(r"- \*\*What a (?:remote )?bot learns\.\*\*(.*?)\n- \*\*", readme, re.S)
    assert learns, "README's threat model has no 'What a bot learns'"
    for entry in REGISTRY.values():
        assert f"In {entry.title}" in said(learns[1]), entry.title


def test_the_results_folder_readme_lists_every_file_a_run_writes() -> None:
    text = (ROOT / "results" / "README.md").read_text("utf-8")
    for name in (TOURNAMENT, REPLAYS, MATCHES, "leaderboard.csv", REPORT, SECRET, "tokens.txt"):
        assert f"`{name}`" in text, name


def test_the_docs_speak_of_the_project_not_of_an_issue() -> None:
    for doc in (ROOT / "docs").glob("*.md"):
        assert "this issue" not in doc.read_text("utf-8"), doc.name
