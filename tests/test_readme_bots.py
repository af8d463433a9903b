"""Every Python bot in the README's "Writing a bot" section (each block after an
``<!-- example: NAME -->`` line) runs as written: saved as the user saves it, it plays a
match of the game its ``games`` names with no fault, in-process and over gRPC (the real
``arena`` command, which launches it through the SDK). And a bot that leaves ``games``
out is refused the same way on both paths, in one line that says what to add."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.bot import BaseBot

README = Path(__file__).resolve().parents[1] / "README.md"
ARENA = str(Path(sys.executable).with_name("arena"))
BLOCK = re.compile(r"<!-- example: ([\w-]+) -->\n+```python\n(.*?)```", re.DOTALL)
# Each game's other entrants, and options that keep a match short.
FIELD = {
    "truf": ("random,greedy,planner", ("--deals", "1")),
    "truco": ("random,basic,shrewd", ("--points", "15")),
    "ruff": ("random,steady,sharp", ()),
}


def section(text: str) -> str:
    start = text.index("## Writing a bot")
    return text[start : text.index("\n## ", start + 1)]


def examples() -> dict[str, str]:
    return {name: code for name, code in BLOCK.findall(section(README.read_text("utf-8")))}


def bot_class(code: str) -> Any:
    namespace: dict[str, Any] = {"__name__": "readme_example"}
    exec(compile(code, "README.md", "exec"), namespace)
    (cls,) = [
        v
        for v in namespace.values()
        if isinstance(v, type) and issubclass(v, BaseBot) and v is not BaseBot
    ]
    return cls


def test_every_python_block_of_the_bot_section_is_an_example_this_file_runs() -> None:
    blocks = section(README.read_text("utf-8")).count("```python")
    assert len(examples()) == blocks, "a python block without <!-- example: NAME -->"
    games = {bot_class(code).games[0] for code in examples().values()}
    assert games == set(FIELD), "the README shows a Python bot for every game"


def run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [ARENA, *args], cwd=folder, capture_output=True, text=True, timeout=300, env=env,
        check=False,
    )  # fmt: skip


@pytest.mark.parametrize("transport", ["--in-process", "--grpc"])
@pytest.mark.parametrize("example", ["bot-truf", "bot-truco", "bot-ruff", "sim"])
def test_a_readme_bot_plays_its_game_without_a_fault(
    tmp_path: Path, example: str, transport: str
) -> None:
    code = examples()[example]
    cls = bot_class(code)
    game = cls.games[0]
    (tmp_path / "mybot.py").write_text(code, encoding="utf-8")
    others, options = FIELD[game]
    got = run(
        tmp_path, "tournament", *([transport] if transport == "--in-process" else []),
        "--game", game, "--bots", f"mybot:{cls.__name__},{others}", "--rounds", "1",
        *options, "--seed", "3", "--results", "r", "--quiet",
    )  # fmt: skip
    assert got.returncode == 0, got.stderr
    rows = json.loads((tmp_path / "r" / "leaderboard.json").read_text("utf-8"))["rows"]
    (mine,) = [row for row in rows if row["bot"] == cls.name]
    assert mine["matches"] == 1
    faults = ("timeouts", "illegal", "disconnects", "forfeits", "disqualified")
    assert all(mine[f] == 0 for f in faults), mine


FORGOT = """\
from arena.bot import BaseBot


class First(BaseBot):
    name = "firstcard"

    def act(self, view, legal):
        return 0
"""


@pytest.mark.parametrize("game", ["truco", "ruff"])
def test_a_bot_without_its_game_in_games_is_refused_alike_on_every_path(
    tmp_path: Path, game: str
) -> None:
    (tmp_path / "tbot.py").write_text(FORGOT, encoding="utf-8")
    expected = (
        f"bot 'tbot:First' does not play {game} (its games: truf); "
        f'add games = ("{game}",) to class First in tbot.py'
    )
    others = FIELD[game][0]
    commands = [
        ["tournament", "--in-process", "--game", game, "--bots", f"tbot:First,{others}"],
        ["tournament", "--game", game, "--bots", f"tbot:First,{others}"],
        ["bot", "tbot:First", "--game", game, "--connect", "127.0.0.1:9"],
    ]
    for command in commands:
        got = run(tmp_path, *command, *(["--results", "r"] if command[0] != "bot" else []))
        assert got.returncode == 1, (command, got.stderr)
        assert got.stderr.strip() == f"error: {expected}", (command, got.stderr)
        assert not (tmp_path / "r").exists()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    sdk = subprocess.run(
        [sys.executable, "-m", "arena.sdk", "tbot:First", "--game", game, "--connect",
         "127.0.0.1:9"], cwd=tmp_path, capture_output=True, text=True, timeout=60, env=env,
        check=False,
    )  # fmt: skip
    assert sdk.returncode == 1 and sdk.stderr.strip() == f"[bot] error: {expected}", sdk.stderr


def test_arena_bot_runs_a_users_truco_bot_against_a_served_tournament(tmp_path: Path) -> None:
    """``arena bot mybot:Class --game truco``, as the README shows it, for the README's
    Truco bot: it joins an ``arena serve --game truco`` and plays its match to the end."""
    from test_cli_defects import address_of, line_with, started

    code = examples()["bot-truco"]
    (tmp_path / "mybot.py").write_text(code, encoding="utf-8")
    cls = bot_class(code)
    serve = [ARENA, "serve", "--game", "truco", "--seats", "2", "--points", "15", "-n", "2",
             "--rounds", "1", "--listen", "127.0.0.1:0", "--results", "r", "--quiet"]  # fmt: skip
    with started(tmp_path, *serve) as referee:
        address = address_of(line_with(referee, "referee listening on"))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        players = [
            subprocess.Popen(
                [ARENA, "bot", spec, "--game", "truco", "--connect", address],
                cwd=tmp_path,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )  # fmt: skip
            for spec in (f"mybot:{cls.__name__}", "basic")
        ]
        out, _ = referee.communicate(timeout=240)
        said = [p.communicate(timeout=60)[0] for p in players]
    assert referee.returncode == 0, out
    assert all(p.returncode == 0 for p in players), said
    rows = json.loads((tmp_path / "r" / "leaderboard.json").read_text("utf-8"))["rows"]
    assert sorted(row["bot"] for row in rows) == ["basic", cls.name]
