"""The game options, built from the registry (issue 28) and checked in one place
(``arena.games.registry.option_values``); and the CLI points of issue 27 that they fix:
``--seats`` on a Truf run names the games that take it, ``--form double --seats 4`` is
accepted, Truco's traditional envido count (ruling R9) is an option of ``tournament`` and
``serve``, a bundled bot of another game gets a hint, and ``--help`` lists every game's
bots (or, after ``--game G``, G's options and bots only)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.games.registry import REGISTRY, option_values

runner = CliRunner()


def arena(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def one_line_error(*args: str) -> str:
    code, text = arena(*args)
    assert code == 1, text
    assert "Traceback" not in text
    assert text.startswith("error: ") and len(text.strip().splitlines()) == 1, text
    return text


def flat(text: str) -> str:
    """Help text with its line breaks and indents as single spaces."""
    return " ".join(text.split())


def test_option_values_are_each_games_defaults_and_what_was_given() -> None:
    assert option_values("truco", {}) == {
        "game": "truco", "seats": 4, "points": 30, "envido_count": "seed",
    }  # fmt: skip
    assert option_values("ruff", {"--form": "single", "--seats": 3}) == {
        "game": "ruff", "form": "single", "seats": 3, "alt_deals": False,
    }  # fmt: skip
    assert option_values("truf", {"--variant": "target"})["variant"] == "target"


@pytest.mark.parametrize(
    ("game", "given", "message"),
    [
        ("truf", {"--seats": 4},
         "--seats is a Truco option and a Ruff and Trump option; a Truf tournament "
         "(--game truf) does not take it"),
        ("ruff", {"--points": 15}, "--points is a Truco option; a Ruff and Trump tournament"),
        ("truco", {"--points": 21}, "--points must be 30 or 15, not 21 (R11)"),
        ("truco", {"--envido-count": "lenient"},
         "--envido-count must be seed or traditional, not 'lenient' (ruling R9)"),
        ("ruff", {"--seats": 3}, "--seats applies to --form single only"),
        ("ruff", {"--form": "single", "--seats": 5}, "--seats must be 4, 3 or 2, not 5 (F1)"),
        ("truf", {"--variant": "target", "--scoring": "3"},
         "--scoring applies to the classic variant only (ruling C13)"),
    ],
)  # fmt: skip
def test_option_values_refuses_with_one_line_naming_the_option(
    game: str, given: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError) as caught:
        option_values(game, given)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_the_double_form_takes_its_four_seats_said_aloud(tmp_path: Path) -> None:
    """Issue 27: ``--form double --seats 4`` says what the double form is (ruling F1)."""
    out = tmp_path / "r"
    code, text = arena("tournament", "--game", "ruff", "--form", "double", "--seats", "4",
                       "--in-process", "--rounds", "1", "--seed", "3", "--results", str(out),
                       "--quiet")  # fmt: skip
    assert code == 0, text
    game = json.loads((out / "tournament.json").read_text())["game"]
    assert (game["form"], game["seats"]) == ("double", 4)
    text = one_line_error("tournament", "--game", "ruff", "--form", "double", "--seats", "2",
                          "--in-process", "--results", str(tmp_path / "x"))  # fmt: skip
    assert "--seats applies to --form single only" in text
    assert not (tmp_path / "x").exists()


def test_truco_help_shows_truco_options_and_bots_only() -> None:
    for command in ("tournament", "serve"):
        code, text = arena(command, "--game", "truco", "--help")
        assert code == 0, text
        for flag in ("--seats", "--points", "--envido-count"):
            assert flag in text, (command, flag)
        for flag in ("--variant", "--scoring", "--multiplier", "--form", "--alt-deals"):
            assert flag not in text, (command, flag)
        assert "Seats at a table, 2, 4 or 6 (ruling R2)." in flat(text)
    code, text = arena("tournament", "--help", "-g", "truco")  # --help first works too
    assert "Truco: random, basic, shrewd" in flat(text) and "greedy" not in text


def test_ruff_help_shows_ruff_options_with_ruffs_help() -> None:
    code, text = arena("tournament", "--game=ruff", "-h")
    assert code == 0, text
    assert "--form" in text and "--alt-deals" in text and "--points" not in text
    assert "Seats at a table: 4 in the double form; 4, 3 or 2 in the single form" in flat(text)
    assert "Ruff and Trump: random, steady, sharp" in flat(text)


def test_help_without_a_game_lists_every_games_options_and_bots() -> None:
    code, text = arena("tournament", "-h")
    assert code == 0, text
    for entry in REGISTRY.values():
        for option in entry.options:
            assert option.flag in text, option.flag
    shown = flat(text)
    assert "Truf: random, greedy, planner, tracker, pimc" in shown
    assert "Truco: random, basic, shrewd" in shown
    assert "Ruff and Trump: random, steady, sharp" in shown
    assert "Truf and Ruff and Trump: deals; Truco: hands" in shown  # --deals-file
    assert "Truco: seats at a table" in shown and "Ruff and Trump: seats at a table" in shown


def test_a_bundled_bot_of_another_game_gets_a_hint(tmp_path: Path) -> None:
    out = tmp_path / "r"
    text = one_line_error("tournament", "--bots", "basic,shrewd,random,random", "--in-process",
                          "--results", str(out), "--quiet")  # fmt: skip
    assert "unknown bot 'basic'; bundled truf bots" in text
    assert "basic is a bundled Truco bot (--game truco)" in text
    assert not out.exists()
    text = one_line_error("tournament", "--game", "truco", "--bots", "greedy,basic,shrewd,random",
                          "--in-process", "--results", str(out), "--quiet")  # fmt: skip
    assert "greedy is a bundled Truf bot (--game truf)" in text


def test_the_traditional_envido_count_is_played_and_saved(tmp_path: Path) -> None:
    """Ruling R9 lists the traditional count as an option: ``--envido-count``."""
    out = tmp_path / "r"
    code, text = arena("tournament", "--game", "truco", "--envido-count", "traditional",
                       "--in-process", "--rounds", "1", "--seed", "5", "--results", str(out),
                       "--quiet")  # fmt: skip
    assert code == 0, text
    doc = json.loads((out / "tournament.json").read_text())
    assert doc["game"]["envido_count"] == "traditional"
    assert doc["config"]["envido_count"] == "traditional"  # so --resume plays it again
    hands = [json.loads(line) for line in (out / "replays.jsonl").read_text().splitlines()]
    assert hands and {h["envido_count"] for h in hands} == {"traditional"}


def test_at_the_default_count_tournament_json_is_as_before(tmp_path: Path) -> None:
    """An option added later is saved only when chosen (``saved_at_default=False``): a run
    at the defaults writes the file earlier versions wrote, and those files still load."""
    out = tmp_path / "r"
    code, text = arena("tournament", "--game", "truco", "--in-process", "--rounds", "1",
                       "--seed", "5", "--results", str(out), "--quiet")  # fmt: skip
    assert code == 0, text
    doc = json.loads((out / "tournament.json").read_text())
    assert "envido_count" not in doc["config"]
    assert doc["game"]["envido_count"] == "seed"


def test_serve_takes_the_envido_count_and_checks_it_first(tmp_path: Path) -> None:
    out = tmp_path / "r"
    # Accepted: the next thing serve wants is how many bots to wait for.
    text = one_line_error("serve", "--game", "truco", "--envido-count", "traditional",
                          "--results", str(out))  # fmt: skip
    assert "say how many bots to wait for" in text
    text = one_line_error("serve", "--game", "truco", "--envido-count", "lenient", "-n", "2",
                          "--results", str(out))  # fmt: skip
    assert "--envido-count must be seed or traditional, not 'lenient' (ruling R9)" in text
    text = one_line_error("serve", "--envido-count", "traditional", "-n", "2",
                          "--results", str(out))  # fmt: skip
    assert "--envido-count is a Truco option; a Truf tournament (--game truf)" in text
    assert not out.exists()
