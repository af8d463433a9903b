"""docs/results.md is the readers' contract: its field tables name exactly the fields the
arena writes, and its fault columns say how every fault kind is counted."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.play.faults import COLUMN, FaultKind
from arena.standings.results import read_jsonl

DOC = Path(__file__).resolve().parent.parent / "docs" / "results.md"


def documented_fields(section: str) -> set[str]:
    """The field names in the table under ``## `section` ...`` (first column, backticked;
    a row may name several, as in `` `round`, `table` ``)."""
    text = DOC.read_text(encoding="utf-8")
    return table_fields(text.split(f"## `{section}`", 1)[1].split("\n## ", 1)[0])


def table_fields(body: str) -> set[str]:
    """The field names in the first column of the tables in ``body``."""
    names: set[str] = set()
    for line in body.splitlines():
        if line.startswith("| `"):
            names.update(re.findall(r"`([a-z_]+)`", line.split("|")[1]))
    return names


@pytest.fixture(scope="module")
def run_dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    dirs = {}
    for variant in ("classic", "target"):
        out = tmp_path_factory.mktemp(variant)
        args = ["tournament", "--in-process", "--rounds", "2", "--variant", variant]
        result = CliRunner().invoke(app, [*args, "--results", str(out), "--quiet"])
        assert result.exit_code == 0, result.output
        dirs[variant] = out
    return dirs


@pytest.mark.parametrize("variant", ["classic", "target"])
def test_replay_lines_have_exactly_the_documented_fields(
    run_dirs: dict[str, Path], variant: str
) -> None:
    documented = documented_fields("replays.jsonl")
    expected = documented if variant == "classic" else documented - {"scoring"}  # classic only
    for record in read_jsonl(run_dirs[variant] / "replays.jsonl"):
        assert set(record) == expected


@pytest.mark.parametrize("variant", ["classic", "target"])
def test_match_lines_have_exactly_the_documented_fields(
    run_dirs: dict[str, Path], variant: str
) -> None:
    for record in read_jsonl(run_dirs[variant] / "matches.jsonl"):
        assert set(record) == documented_fields("matches.jsonl")
        assert set(record["faults"]) == set(COLUMN.values())  # type: ignore[arg-type]


def test_the_doc_says_how_each_fault_kind_is_counted_in_matches() -> None:
    text = DOC.read_text(encoding="utf-8")
    row = next(r for r in text.splitlines() if r.startswith("| `faults` | object |"))
    counted_as_illegal = set(re.findall(r"`([a-z_]+)`", row.split("counts the replay kinds")[1]))
    assert counted_as_illegal == {k.value for k in FaultKind if COLUMN[k] == "illegal"}
    replay_row = next(r for r in text.splitlines() if r.startswith("| `faults` | [object] |"))
    assert set(re.findall(r"`([a-z_]+)`", replay_row.split("`kind` is")[1])) == {
        k.value for k in FaultKind
    }


def duplicate_fields() -> set[str]:
    """The fields the doc's Duplicate runs section lists (``- `name` (type)``)."""
    body = DOC.read_text(encoding="utf-8").split("## Duplicate runs", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^- `([a-z_]+)` \(", body, flags=re.MULTILINE))


def test_a_duplicate_run_adds_exactly_the_documented_block_fields(tmp_path: Path) -> None:
    args = ["tournament", "--in-process", "--rounds", "2", "--duplicate", "--seed", "1"]
    result = CliRunner().invoke(app, [*args, "--results", str(tmp_path), "--quiet"])
    assert result.exit_code == 0, result.output
    extra = duplicate_fields()
    assert extra == {"block", "rotation"}
    for record in read_jsonl(tmp_path / "replays.jsonl"):
        assert set(record) == documented_fields("replays.jsonl") | extra
    for record in read_jsonl(tmp_path / "matches.jsonl"):
        assert set(record) == documented_fields("matches.jsonl") | extra


def test_a_luck_corrected_run_adds_exactly_the_documented_fields(tmp_path: Path) -> None:
    """--correct-random (issue 29): the fields its section lists, on every line of a table
    that seats the random bot, and nothing else."""
    body = DOC.read_text(encoding="utf-8").split("## Luck-corrected runs", 1)[1]
    extra = set(re.findall(r"^- `([a-z_]+)` \(", body.split("\n## ", 1)[0], flags=re.MULTILINE))
    assert extra == {"luck_seats", "deal_luck"}
    args = ["tournament", "--in-process", "--rounds", "2", "--correct-random", "--seed", "1"]
    result = CliRunner().invoke(app, [*args, "--results", str(tmp_path), "--quiet"])
    assert result.exit_code == 0, result.output
    for record in read_jsonl(tmp_path / "matches.jsonl"):
        assert set(record) == documented_fields("matches.jsonl") | extra


def test_fault_records_have_exactly_the_documented_fields(tmp_path: Path) -> None:
    """Issue 25: every fault record locates its decision and names the action played."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from integritybots import Pick, RaisesOnCalls, ReturnsNone

    from arena.games.registry import make_game
    from arena.play.tournament import MatchContext, play_match

    text = DOC.read_text(encoding="utf-8")
    documented = table_fields(text.split("## Fault records", 1)[1].split("\n## ", 1)[0])
    bots = [RaisesOnCalls(1), ReturnsNone(), Pick(2), Pick(3)]
    out = play_match(make_game(), bots, ctx=MatchContext("m1", seed="5"), names=list("abcd"))
    faults = [f for deal in out.deals for f in deal["faults"]]
    assert {f["kind"] for f in faults} == {"crash", "unparseable"}
    for fault in faults:
        assert set(fault) == documented
