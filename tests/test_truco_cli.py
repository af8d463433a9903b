"""Truco through the user's path: ``arena tournament --game truco --in-process`` at 2, 4
and 6 seats, ``arena verify`` and ``arena leaderboard`` on its results, ``--resume``, a
Truco deal file, team ratings from real match records, and every refused option."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from arena.cli import app
from arena.games.registry import REGISTRY
from arena.report.console import leaderboard_table
from arena.standings.leaderboard import (
    build_leaderboard,
    load_matches,
    to_csv,
    to_json,
    to_markdown,
)
from arena.standings.ratings import Ratings

runner = CliRunner()
FILES = ("tournament.json", "matches.jsonl", "replays.jsonl", "leaderboard.csv", "leaderboard.json")


def arena(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def truco_run(out: Path, *extra: str, rounds: int = 3) -> Path:
    code, text = arena(
        "tournament", "--game", "truco", "--in-process", "--rounds", str(rounds), "--seed", "5",
        "--points", "15", "--results", str(out), "--quiet", *extra,
    )  # fmt: skip
    assert code == 0, text
    return out


def default_field_order(game: str, seed: int, out: Path) -> list[str]:
    """The bot kinds of a 100-round in-process run of ``game``'s default field, best first
    on its leaderboard (``sharp#2`` counts as ``sharp``)."""
    code, text = arena("tournament", "--game", game, "--in-process", "--rounds", "100",
                       "--seed", str(seed), "--results", str(out), "--quiet")  # fmt: skip
    assert code == 0, text
    rows = json.loads((out / "leaderboard.json").read_text())["rows"]
    return [r["bot"].split("#")[0] for r in rows]


def one_line_error(*args: str) -> str:
    code, text = arena(*args)
    assert code == 1, text
    assert "Traceback" not in text
    assert text.startswith("error: ") and len(text.strip().splitlines()) == 1, text
    return text


@pytest.fixture(scope="module", params=[2, 4, 6])
def run_at(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    seats = request.param
    return truco_run(tmp_path_factory.mktemp(f"truco{seats}") / "r", "--seats", str(seats))


def test_a_truco_tournament_finishes_writes_its_files_and_replays_exactly(run_at: Path) -> None:
    for name in FILES:
        assert (run_at / name).stat().st_size > 0, name
    config = json.loads((run_at / "tournament.json").read_text())
    seats = config["game"]["seats"]
    assert config["game"] == {
        "game": "truco",
        "seats": seats,
        "points": 15,
        "envido_count": "seed",
        "tied_hands": 10,
    }
    assert "variant" not in config["config"] and config["config"]["seats"] == seats
    matches = load_matches(run_at / "matches.jsonl")
    assert len(matches) >= 3
    for record in matches:
        assert record["game"] == "truco" and len(record["seats"]) == seats
        assert max(record["totals"]) >= 15  # R11: played to the target
        assert sorted(len(t) for t in record["teams"]) == [seats // 2] * 2  # R12
    hands = [json.loads(line) for line in (run_at / "replays.jsonl").read_text().splitlines()]
    assert {h["game"] for h in hands} == {"truco"}
    assert len(hands) == sum(m["deals"] for m in matches)
    code, text = arena("verify", str(run_at))
    assert code == 0, text
    assert f"ok: {len(hands)} hands in {len(matches)} matches replay exactly" in text
    assert "dealt hands are the ones the run's secret deals" in text


def test_the_leaderboard_has_truco_columns_and_no_truf_ones(run_at: Path) -> None:
    stats = [s.name for s in REGISTRY["truco"].stats]
    stats.insert(1, "points_for_per_hand_ci95")  # the points column's 95% interval
    header = (run_at / "leaderboard.csv").read_text().splitlines()[0].split(",")
    assert header[9 : 9 + len(stats)] == stats
    assert "exact_rate" not in header and "avg_score_per_deal" not in header
    for fmt in ("csv", "json", "markdown", "table"):
        code, text = arena("leaderboard", str(run_at), "--format", fmt)
        assert code == 0, text
        assert ("points_for_per_hand" if fmt in ("csv", "json") else "for/hand") in text
    rows = build_leaderboard(load_matches(run_at / "matches.jsonl"))
    doc = json.loads(to_json(rows, {}))
    assert list(doc["rows"][0]) == header
    assert "| for/hand | ±95% | against/hand |" in to_markdown(rows)
    assert to_csv(rows) == (run_at / "leaderboard.csv").read_text()


def test_the_truco_table_fits_80_columns(run_at: Path) -> None:
    rows = build_leaderboard(load_matches(run_at / "matches.jsonl"))
    console = Console(width=80, record=True, force_terminal=False)
    console.print(leaderboard_table(rows))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 80
    assert any("shrewd" in line for line in lines)


def test_points_for_and_against_per_hand_add_up_from_the_records(run_at: Path) -> None:
    matches = load_matches(run_at / "matches.jsonl")
    rows = {r.bot: r for r in build_leaderboard(matches)}
    for name, row in rows.items():
        mine = [(m, m["seats"].index(name)) for m in matches if name in m["seats"]]
        hands = sum(m["deals"] for m, _ in mine)
        points_for = sum(m["totals"][s] for m, s in mine)
        against = sum(max(m["totals"][o] for o in range(len(m["seats"])) if o % 2 != s % 2)
                      for m, s in mine)  # fmt: skip
        assert row.points_for_per_hand == pytest.approx(points_for / hands, abs=1e-3)
        assert row.points_against_per_hand == pytest.approx(against / hands, abs=1e-3)


def test_trueskill_rates_each_truco_match_as_two_teams(run_at: Path) -> None:
    """Ruling R12: partners share one result, so one match moves partners' ratings alike."""
    record = load_matches(run_at / "matches.jsonl")[0]
    ratings = Ratings()
    ratings.rate_all([record])
    for team in record["teams"]:
        mus = {round(ratings.rating(record["seats"][s]).mu, 9) for s in team}
        assert len(mus) == 1, (team, mus)
    winners = [t for t in record["teams"] if record["ranks"][t[0]] == 1]
    losers = [t for t in record["teams"] if record["ranks"][t[0]] == 2]
    assert len(winners) == 1 and len(losers) == 1
    assert ratings.rating(record["seats"][winners[0][0]]).mu > 25
    assert ratings.rating(record["seats"][losers[0][0]]).mu < 25


def test_resume_of_a_truco_run_writes_what_an_uninterrupted_run_writes(tmp_path: Path) -> None:
    whole = truco_run(tmp_path / "whole")
    crashed = truco_run(tmp_path / "crashed")
    matches = (crashed / "matches.jsonl").read_text().splitlines(keepends=True)
    replays = (crashed / "replays.jsonl").read_text().splitlines(keepends=True)
    kept = json.loads(matches[0])["match"]
    half = json.loads(matches[1])["match"]
    hands = [r for r in replays if json.loads(r)["match"] in (kept, half)]
    (crashed / "matches.jsonl").write_text(matches[0] + matches[1][:30])  # torn
    (crashed / "replays.jsonl").write_text("".join(hands[:-1]) + hands[-1][:40])
    (crashed / "leaderboard.json").unlink()
    code, text = arena("tournament", "--resume", str(crashed), "--quiet")
    assert code == 0, text
    assert "1 finished matches kept" in text
    for name in FILES:
        assert (crashed / name).read_bytes() == (whole / name).read_bytes(), name


def test_a_truco_deal_file_gives_the_first_hands_of_every_match(tmp_path: Path) -> None:
    hands = [
        [["1E", "7O", "4B"], ["1B", "7E", "5C"]],
        [["3E", "3O", "2B"], ["12C", "11C", "10C"]],
    ]
    deals = tmp_path / "hands.jsonl"
    deals.write_text("".join(json.dumps({"hands": h}) + "\n" for h in hands))
    out = truco_run(tmp_path / "r", "--seats", "2", "--deals-file", str(deals), rounds=2)
    records = [json.loads(line) for line in (out / "replays.jsonl").read_text().splitlines()]
    for rec in records:
        if rec["deal"] <= 2:
            assert rec["hands"] == hands[rec["deal"] - 1]
            assert rec["source"] == f"file:hands.jsonl:{rec['deal']}"
        else:
            assert rec["source"] == "seed"
    code, text = arena("verify", str(out))
    assert code == 0, text


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"hands": [["1E", "7O", "4B"]]}', "line 1: a 2-seat hand deals 2 hands, this one has 1"),
        ('{"hands": [["1E", "7O", "4B"], ["1E", "2E", "3E"]], "dealer": 1}',
         "line 1: unknown field(s) ['dealer'] (the dealer is never given: R3)"),
        ("not json", "line 1: not valid JSON"),
        ('{"hands": [["1E", "7O", "9B"], ["1B", "7E", "5C"]]}', "line 1: '9B' is not a Spanish"),
    ],
)  # fmt: skip
def test_a_bad_truco_deal_file_is_one_line_naming_the_line(
    tmp_path: Path, line: str, message: str
) -> None:
    deals = tmp_path / "hands.jsonl"
    deals.write_text(line + "\n")
    out = tmp_path / "r"
    text = one_line_error(
        "tournament", "--game", "truco", "--seats", "2", "--in-process", "--deals-file",
        str(deals), "--results", str(out),
    )  # fmt: skip
    assert message in text
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "truco", "--variant", "target"], "--variant is a Truf option"),
        (["--game", "truco", "--variant", "classic"], "--variant is a Truf option"),
        (["--game", "truco", "--scoring", "3"], "--scoring is a Truf option"),
        (["--game", "truco", "--multiplier", "3"], "--multiplier is a Truf option"),
        (["--game", "truco", "--deals", "4"], "--deals is a Truf option"),
        (["--seats", "2"], "--seats is a Truco option and a Ruff and Trump option; a Truf"),
        (["--game", "truf", "--points", "15"], "--points is a Truco option"),
        (["--game", "truco", "--seats", "3"], "not 3 (R2)"),
        (["--game", "truco", "--points", "21"], "not 21 (R11)"),
        (["--game", "truco", "--seats", "6", "--bots", "basic,shrewd"], "--bots gives only 2"),
        (["--game", "truco", "--bots", "greedy,basic,shrewd,random"],
         "unknown bot 'greedy'; bundled truco bots"),
        (["--game", "chess"], "'chess' is not one of: truf, truco"),
        (["--game", "truco", "--in-process", "--listen", "127.0.0.1:5"], "--listen only applies"),
    ],
)  # fmt: skip
def test_options_that_do_not_apply_are_refused_before_any_file(
    tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "r"
    extra = [] if "--listen" in args else ["--in-process"]
    text = one_line_error("tournament", *args, *extra, "--results", str(out), "--quiet")
    assert message in text
    assert not out.exists()


def test_serve_refuses_another_games_options(tmp_path: Path) -> None:
    out = tmp_path / "r"
    text = one_line_error("serve", "--game", "truco", "--variant", "target", "-n", "4",
                          "--results", str(out))  # fmt: skip
    assert "--variant is a Truf option" in text
    assert not out.exists()


def test_resume_refuses_a_new_game_option(tmp_path: Path) -> None:
    out = truco_run(tmp_path / "r", "--seats", "2", rounds=1)
    text = one_line_error("tournament", "--resume", str(out), "--points", "30")
    assert "--points cannot be changed when resuming" in text


def test_the_stronger_truco_bot_beats_the_weaker_in_a_100_round_run(tmp_path: Path) -> None:
    """Issue 14.6, at the table where a bot's own play decides (2 seats, no partner): the
    one slow test of this file (about 10 s)."""
    out = tmp_path / "r"
    code, text = arena(
        "tournament", "--game", "truco", "--in-process", "--seats", "2", "--bots",
        "random,basic,shrewd", "--rounds", "100", "--seed", "1", "--results", str(out), "--quiet",
    )  # fmt: skip
    assert code == 0, text
    rows = json.loads((out / "leaderboard.json").read_text())["rows"]
    assert [r["bot"] for r in rows] == ["shrewd", "basic", "random"]


def _damage(out: Path, change: str) -> None:
    lines = (out / "replays.jsonl").read_text().splitlines(keepends=True)
    rec = json.loads(lines[1])
    if change == "points":
        rec["points"] = [p + 1 for p in rec["points"]]
    elif change == "action":
        rec["plays"][0]["actions"][0][1] = "play 9X"
    else:
        del rec["plays"]
    lines[1] = json.dumps(rec) + "\n"
    (out / "replays.jsonl").write_text("".join(lines))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("points", "replays.jsonl line 2: match r0001-t01 hand 2: field 'points' logged as"),
        ("action", "replays.jsonl line 2: match r0001-t01 hand 2: the engine refuses"),
        ("missing", "replays.jsonl line 2: missing field(s) 'plays'"),
    ],
)
def test_verify_names_the_line_of_a_damaged_truco_log(
    tmp_path: Path, change: str, message: str
) -> None:
    out = truco_run(tmp_path / "r", "--seats", "2", rounds=1)
    _damage(out, change)
    assert message in one_line_error("verify", str(out))


def test_the_default_truco_tournament_runs_over_grpc_and_passes_the_oracle(
    tmp_path: Path,
) -> None:
    """Issue 14 item 1: ``arena tournament --game truco`` over gRPC on loopback with the
    bundled Truco bots, each its own program; the log replays and the independent oracle
    (tests/truco_oracle.py) finds nothing."""
    from test_grpc import run_arena
    from truco_oracle import audit_run

    out = tmp_path / "r"
    code, text = run_arena(tmp_path, "tournament", "--game", "truco", "--rounds", "2",
                           "--points", "15", "--seed", "3", "--results", str(out),
                           "--quiet")  # fmt: skip
    assert code == 0, text
    matches = [json.loads(line) for line in (out / "matches.jsonl").read_text().splitlines()]
    assert matches and all(m["game"] == "truco" for m in matches)
    assert all(sum(m["faults"]["timeout"]) == 0 for m in matches), matches
    assert audit_run(out) == []
    code, text = run_arena(tmp_path, "verify", str(out))
    assert code == 0, text


def test_arena_serve_hosts_a_truco_tournament_for_arena_bot_programs(tmp_path: Path) -> None:
    """Issue 14 item 2: ``arena serve --game truco`` hosts external bots, here four
    ``arena bot NAME --game truco`` programs; every match is a Truco match that verifies."""
    from test_grpc import Serving, arena_cmd, run_arena

    with Serving(tmp_path, "--game", "truco", "--entrants", "4", "--rounds", "1",
                 "--points", "15", "--seed", "4") as s:  # fmt: skip
        for name in ("random", "basic", "shrewd", "truco.basic"):
            s.bot(arena_cmd("bot", name, "--game", "truco", "--connect", s.address))
        s.finish()
    matches = [json.loads(line) for line in (s.out / "matches.jsonl").read_text().splitlines()]
    assert [m["game"] for m in matches] == ["truco"]
    code, text = run_arena(tmp_path, "verify", str(s.out))
    assert code == 0, text
