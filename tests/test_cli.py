"""The command line, through typer's CliRunner: results, errors, formats."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app

runner = CliRunner()


def arena(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def run_in_process(tmp: Path, *extra: str) -> Path:
    out = tmp / "run"
    code, text = arena(
        "tournament",
        "--in-process",
        "--rounds",
        "2",
        "--deals",
        "3",
        "--seed",
        "7",
        "--results",
        str(out),
        "--quiet",
        *extra,
    )
    assert code == 0, text
    return out


def test_in_process_tournament_writes_every_results_file(tmp_path: Path) -> None:
    out = run_in_process(tmp_path)
    for name in (
        "tournament.json",
        "replays.jsonl",
        "matches.jsonl",
        "leaderboard.csv",
        "leaderboard.json",
    ):
        assert (out / name).is_file(), name
    matches = [json.loads(x) for x in (out / "matches.jsonl").read_text().splitlines()]
    deals = [json.loads(x) for x in (out / "replays.jsonl").read_text().splitlines()]
    assert len(matches) == 2 and len(deals) == 6
    assert {m["round"] for m in matches} == {1, 2}
    for m in matches:
        assert sorted(m["seats"]) == ["greedy", "planner", "random", "tracker"]
        assert m["ranks"] == [1 + sum(o > t for o in m["totals"]) for t in m["totals"]]
    config = json.loads((out / "tournament.json").read_text())
    assert config["seed"] == 7 and config["config"]["deals"] == 3
    assert [e["name"] for e in config["entrants"]] == ["random", "greedy", "planner", "tracker"]
    board = json.loads((out / "leaderboard.json").read_text())
    assert {r["bot"] for r in board["rows"]} == {"random", "greedy", "planner", "tracker"}
    assert all(r["matches"] == 2 for r in board["rows"])


def test_same_seed_writes_byte_identical_results(tmp_path: Path) -> None:
    a = run_in_process(tmp_path / "a")
    b = run_in_process(tmp_path / "b")
    for name in ("replays.jsonl", "matches.jsonl", "tournament.json", "leaderboard.json"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_a_repeated_bot_name_gives_separate_entrants(tmp_path: Path) -> None:
    out = run_in_process(tmp_path, "--bots", "random,random,greedy,greedy,tracker")
    config = json.loads((out / "tournament.json").read_text())
    names = [e["name"] for e in config["entrants"]]
    assert names == ["random#1", "random#2", "greedy#1", "greedy#2", "tracker"]
    rows = json.loads((out / "leaderboard.json").read_text())["rows"]
    assert {r["bot"] for r in rows} == set(names)


def test_target_variant_and_scoring_options_reach_the_logs(tmp_path: Path) -> None:
    out = run_in_process(tmp_path / "t", "--variant", "target")
    deal = json.loads((out / "replays.jsonl").read_text().splitlines()[0])
    assert deal["variant"] == "target" and "scoring" not in deal
    out = run_in_process(tmp_path / "c", "--scoring", "2+3", "--multiplier", "4")
    deal = json.loads((out / "replays.jsonl").read_text().splitlines()[0])
    assert deal["scoring"] == {"method": "2+3", "multiplier": 4}


def test_verify_accepts_a_real_run_and_catches_a_tampered_one(tmp_path: Path) -> None:
    out = run_in_process(tmp_path)
    code, text = arena("verify", str(out))
    assert code == 0 and "6 deals" in text
    lines = (out / "replays.jsonl").read_text().splitlines()
    rec = json.loads(lines[0])
    rec["scores"][0] += 3
    lines[0] = json.dumps(rec)
    (out / "replays.jsonl").write_text("\n".join(lines) + "\n")
    code, text = arena("verify", str(out))
    assert code == 1 and "field 'scores'" in text


def test_verify_catches_a_match_line_whose_points_are_not_its_replays(tmp_path: Path) -> None:
    """deal_points is what the ratings rate: a line that moves a point between seats,
    totals and ranks untouched, is caught against the replays (one line, no traceback)."""
    out = run_in_process(tmp_path)
    lines = (out / "matches.jsonl").read_text().splitlines()
    rec = json.loads(lines[1])
    rec["deal_points"][0][0] += 1
    rec["deal_points"][0][1] -= 1
    lines[1] = json.dumps(rec)
    (out / "matches.jsonl").write_text("\n".join(lines) + "\n")
    code, text = arena("verify", str(out))
    said = " ".join(text.split())
    assert code == 1 and f"match {rec['match']}: deal_points" in said
    assert "but its replays give" in said and "Traceback" not in text


@pytest.mark.parametrize("fmt", ["table", "csv", "json", "markdown"])
def test_leaderboard_rerenders_from_saved_files(tmp_path: Path, fmt: str) -> None:
    out = run_in_process(tmp_path)
    code, text = arena("leaderboard", str(out), "--format", fmt)
    assert code == 0, text
    for bot in ("random", "greedy", "planner", "tracker"):
        assert bot in text
    if fmt == "json":
        assert json.loads(text)["schema"] == 3  # leaderboard schema 3 (issue 29)
    if fmt == "csv":
        assert text.splitlines()[0].startswith("rank,bot,mu,sigma,conservative")


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["tournament", "--rounds", "0"], 1, "--rounds"),
        (["tournament", "--variant", "poker"], 1, "--variant"),
        (["tournament", "--scoring", "4"], 1, "--scoring"),
        (
            ["tournament", "--in-process", "--variant", "target", "--scoring", "2"],
            1,
            "--scoring applies to the classic variant only (ruling C13)",
        ),
        (
            ["serve", "--entrants", "4", "--variant", "target", "--multiplier", "3"],
            1,
            "--multiplier applies to the classic variant only",
        ),
        (
            ["tournament", "--in-process", "--multiplier", "3"],
            1,
            "--multiplier applies to scoring methods 3 and 2+3 (ruling C13), not to method 1",
        ),
        (
            ["tournament", "--in-process", "--bots", "random,nosuchbot,greedy,planner"],
            1,
            "unknown bot 'nosuchbot'",
        ),
        (["tournament", "--in-process", "--bots", "random,greedy"], 1, "seats 4; --bots gives"),
        (
            ["tournament", "--in-process", "--decision-timeout", "0.1", "--grace", "5"],
            1,
            "--decision-timeout, --grace only apply over gRPC",
        ),
        (
            ["tournament", "--in-process", "--listen", "127.0.0.1:9"],
            1,
            "--listen only applies over gRPC",
        ),
        (["serve", "--entrants", "2", "--listen", "127.0.0.1:0"], 1, "seats 4; --entrants gives"),
        (["serve", "--entrants", "4", "--deals-file", "/nonexistent.jsonl"], 1, "nonexistent"),
        (["leaderboard", "/nonexistent/dir"], 1, "not a directory"),
        (["frobnicate"], 1, "No such command"),
    ],
)
def test_user_mistakes_get_a_clear_error_and_no_traceback(
    tmp_path: Path, args: list[str], code: int, message: str
) -> None:
    if args[0] in ("tournament", "serve"):
        args = [*args, "--results", str(tmp_path / "r"), "--quiet"]
    got, text = arena(*args)
    assert got == code, text
    assert message in text
    assert "Traceback" not in text


def test_a_broken_deal_file_is_refused_with_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "deals.jsonl"
    bad.write_text('{"hands": [["AS"]]}\n', encoding="utf-8")
    code, text = arena(
        "tournament", "--in-process", "--deals-file", str(bad), "--results", str(tmp_path / "r")
    )
    assert code == 1
    assert "deals.jsonl line 1" in text and "Traceback" not in text


def test_an_existing_results_directory_is_not_overwritten(tmp_path: Path) -> None:
    out = run_in_process(tmp_path)
    before = (out / "matches.jsonl").read_bytes()
    code, text = arena("tournament", "--in-process", "--results", str(out), "--quiet")
    assert code == 1 and "--resume" in text
    assert (out / "matches.jsonl").read_bytes() == before


def test_help_works_with_h() -> None:
    code, text = arena("tournament", "-h")
    assert code == 0 and "--rounds" in text and "--in-process" in text


# ------------------------------------------------------------------------- resume


def crash_after(out: Path, finished: int) -> None:
    """Make ``out`` look as a crash would leave it: ``finished`` whole match lines, the
    next match's deal lines written but not its match line, and a torn line in each."""
    matches = (out / "matches.jsonl").read_text().splitlines(keepends=True)
    replays = (out / "replays.jsonl").read_text().splitlines(keepends=True)
    kept = {json.loads(line)["match"] for line in matches[:finished]}
    half = json.loads(matches[finished])["match"]
    deals = [r for r in replays if json.loads(r)["match"] in kept | {half}]
    (out / "matches.jsonl").write_text("".join(matches[:finished]) + matches[finished][:30])
    (out / "replays.jsonl").write_text("".join(deals) + replays[-1][:50])
    (out / "leaderboard.json").unlink()


def test_resume_after_a_crash_writes_what_an_uninterrupted_run_writes(tmp_path: Path) -> None:
    whole = run_in_process(tmp_path / "whole", "--rounds", "4")
    crashed = run_in_process(tmp_path / "crashed", "--rounds", "4")
    crash_after(crashed, finished=1)
    code, text = arena("tournament", "--resume", str(crashed), "--quiet")
    assert code == 0, text
    assert "resuming" in text and "1 finished matches kept" in text
    for name in ("replays.jsonl", "matches.jsonl", "leaderboard.json", "leaderboard.csv"):
        assert (crashed / name).read_bytes() == (whole / name).read_bytes(), name


def test_resume_refuses_what_is_not_a_results_directory(tmp_path: Path) -> None:
    code, text = arena("tournament", "--resume", str(tmp_path))
    assert code == 1 and "no tournament.json" in text and "Traceback" not in text
    out = run_in_process(tmp_path / "bad")
    lines = (out / "replays.jsonl").read_text().splitlines(keepends=True)
    lines[1] = "{not json\n"
    (out / "replays.jsonl").write_text("".join(lines))
    code, text = arena("tournament", "--resume", str(out))
    assert code == 1 and "replays.jsonl line 2" in text


def test_a_results_directory_in_use_is_refused_and_resume_is_suggested(tmp_path: Path) -> None:
    out = run_in_process(tmp_path)
    code, text = arena("tournament", "--in-process", "--results", str(out))
    assert code == 1 and f"--resume {out}" in text


def test_a_bad_listen_address_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    out = tmp_path / "r"
    code, text = arena("tournament", "--listen", "nonsense", "--results", str(out))
    assert code == 1 and "--listen must be HOST:PORT" in text
    assert not out.exists()


def test_a_bad_deal_file_is_named_with_its_path_and_line(tmp_path: Path) -> None:
    deals = tmp_path / "my deals.jsonl"
    deals.write_text("not json\n")
    code, text = arena("tournament", "--in-process", "--deals-file", str(deals),
                       "--results", str(tmp_path / "r"))  # fmt: skip
    assert code == 1 and f"{deals} line 1: not valid JSON" in text


def test_a_tournament_plays_under_the_arenas_collector_settings(tmp_path: Path) -> None:
    """``tune_gc``: the young generation collected every 10,000 allocations, and what
    start-up built frozen out of the collector's way (restored after the test)."""
    import gc

    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        frozen = gc.get_freeze_count()
        run_in_process(tmp_path)
        assert gc.get_threshold() == (10_000, 20, 20)
        assert gc.get_freeze_count() > frozen
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
