"""Issue 25: every fault record locates its decision and names the action played in its
place, and the project's independent oracles (which import nothing from arena) check that
action against the documented fallback from the log alone."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from arena.cli import app

sys.path.insert(0, str(Path(__file__).parent))
import ruff_oracle  # noqa: E402
import rules_oracle  # noqa: E402
import truco_oracle  # noqa: E402

FAULTY = ("integritybots:RaisesOnCalls", "integritybots:Pick", "integritybots:ReturnsNone",
          "integritybots:Raises")  # fmt: skip
RUNS: list[tuple[list[str], Callable[..., Any]]] = [
    (["--variant", "classic"], rules_oracle.audit_run),
    (["--variant", "target"], rules_oracle.audit_run),
    (["--game", "truco", "--seats", "4"], truco_oracle.audit_run),
    (["--game", "truco", "--seats", "2"], truco_oracle.audit_run),
    (["--game", "ruff", "--form", "double"], ruff_oracle.audit_run),
    (["--game", "ruff", "--form", "single", "--seats", "3"], ruff_oracle.audit_run),
]


def faulty_run(out: Path, game: list[str], seed: str = "6") -> None:
    seats = int(game[-1]) if "--seats" in game else 4
    bots = ",".join(FAULTY[:seats])
    args = ["tournament", "--in-process", "--workers", "1", *game, "--bots", bots,
            "--rounds", "2", "--seed", seed, "--results", str(out), "--quiet"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(("game", "audit"), RUNS)
def test_the_oracle_checks_every_faults_fallback_from_the_log(
    tmp_path: Path, game: list[str], audit: Callable[..., Any]
) -> None:
    faulty_run(tmp_path, game)
    faults = [f for line in map(json.loads, (tmp_path / "replays.jsonl").read_text().splitlines())
              for f in line["faults"]]  # fmt: skip
    assert faults and all(f["request"] is None and f["played"] for f in faults)
    cover: Counter[str] = Counter()
    assert audit(tmp_path, cover) == []
    assert cover["fault located"] == len(faults)


@pytest.mark.parametrize(("game", "audit"), RUNS)
def test_a_fault_whose_played_action_is_not_the_logged_one_is_found(
    tmp_path: Path, game: list[str], audit: Callable[..., Any]
) -> None:
    faulty_run(tmp_path, game)
    path = tmp_path / "replays.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    line = next(r for r in lines if r["faults"])
    line["faults"][0]["played"] = "call retruco"  # a raise where the fallback was played
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    findings = [str(f) for f in audit(tmp_path, Counter())]
    assert any("fault location" in f for f in findings), findings


def test_the_truco_oracle_finds_a_raise_played_as_a_fallback(tmp_path: Path) -> None:
    """A crash answering a call must play Quiero (rules.md); a log whose fallback is a
    raise, consistently with its fault record, is caught by the documented fallback."""
    faulty_run(tmp_path, ["--game", "truco", "--seats", "2"], seed="1")  # crashes at calls
    path = tmp_path / "replays.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for r in lines:
        actions = [a for p in r["plays"] for a in p["actions"]]
        for f in r["faults"]:
            if f["played"] == "quiero":
                f["played"] = "no-quiero"
                actions[f["decision"] - 1][1] = "no-quiero"
                path.write_text("".join(json.dumps(x) + "\n" for x in lines))
                findings = [str(x) for x in truco_oracle.audit_run(tmp_path, Counter())]
                assert any("fallback R6" in x and "'quiero'" in x for x in findings), findings
                return
    pytest.fail("no crash while answering a call in this run")
