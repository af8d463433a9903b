"""The leaderboard: statistics from match records, its files, and its renderings."""

from __future__ import annotations

import csv
import io
import json
import random
import statistics
from collections.abc import Sequence
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from arena.report.console import leaderboard_table
from arena.standings.leaderboard import (
    COLUMNS,
    LeaderboardRow,
    ResultsError,
    build_leaderboard,
    interval95,
    load_matches,
    read_csv,
    read_leaderboard_json,
    to_markdown,
    write_csv,
    write_json,
)
from arena.standings.ratings import Ratings, prob_better


def record(
    match: str,
    round: int,
    table: int,
    seats: Sequence[str],
    totals: Sequence[int],
    *,
    deals: int = 13,
    exact: Sequence[int] | None = None,
    timeout: Sequence[int] | None = None,
    illegal: Sequence[int] | None = None,
    disconnect: Sequence[int] | None = None,
    disqualified: Sequence[bool] | None = None,
    forfeit: Sequence[bool] | None = None,
) -> dict[str, Any]:
    n = len(seats)
    return {
        "schema": 1,
        "game": "truf",
        "variant": "classic",
        "match": match,
        "round": round,
        "table": table,
        "seats": list(seats),
        "teams": [[s] for s in range(n)],
        "totals": list(totals),
        "ranks": [1 + sum(o > t for o in totals) for t in totals],
        "deals": deals,
        "exact": list(exact or [0] * n),
        "faults": {
            "timeout": list(timeout or [0] * n),
            "illegal": list(illegal or [0] * n),
            "disconnect": list(disconnect or [0] * n),
        },
        "disqualified": list(disqualified or [False] * n),
        "forfeit": list(forfeit or [False] * n),
    }


def sample_records() -> list[dict[str, Any]]:
    return [
        record(
            "r0001-t01", 1, 1, ["a", "b", "c", "d"], [3, -5, 0, 12],
            exact=[4, 1, 2, 6], timeout=[1, 0, 0, 0], illegal=[0, 2, 0, 0],
            disconnect=[0, 0, 0, 1],
        ),
        record(
            "r0002-t01", 2, 1, ["e", "a", "b", "c"], [7, 7, -2, 1],
            exact=[3, 5, 0, 2], timeout=[0, 0, 0, 2], illegal=[0, 0, 3, 0],
            disqualified=[False, False, True, False],
        ),
        record(
            "r0003-t01", 3, 1, ["b", "d", "e"], [0, 4, -1],
            deals=6, exact=[1, 2, 0], forfeit=[True, False, False],
        ),
    ]  # fmt: skip


def by_bot(rows: Sequence[LeaderboardRow]) -> dict[str, LeaderboardRow]:
    return {r.bot: r for r in rows}


def write_lines(path: Path, lines: Sequence[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


# --- statistics ---------------------------------------------------------------------


def test_rows_have_the_documented_columns_in_order() -> None:
    assert tuple(f.name for f in fields(LeaderboardRow)) == COLUMNS


def test_a_shared_first_place_is_a_fraction_of_a_win_so_wins_add_up_to_matches() -> None:
    records = sample_records()
    rows = by_bot(build_leaderboard(records))
    assert {n: r.matches for n, r in rows.items()} == {"a": 2, "b": 3, "c": 2, "d": 2, "e": 2}
    # r0002: a and e tie for first on 7: half a win each
    assert {n: r.wins for n, r in rows.items()} == {"a": 0.5, "b": 0, "c": 0, "d": 2, "e": 0.5}
    assert sum(r.wins for r in rows.values()) == len(records)
    assert rows["a"].avg_placement == pytest.approx(1.5)
    # r0003: b forfeits on 0, ahead of e's -1 by total, but places below it (issue 25)
    assert rows["b"].avg_placement == pytest.approx(11 / 3, abs=1e-3)
    assert rows["c"].avg_placement == pytest.approx(3.0)
    assert rows["d"].avg_placement == pytest.approx(1.0)
    assert rows["e"].avg_placement == pytest.approx(1.5)


def test_score_per_deal_and_exact_rate_divide_by_deals_played() -> None:
    rows = by_bot(build_leaderboard(sample_records()))
    assert rows["a"].avg_score_per_deal == pytest.approx(10 / 26, abs=1e-3)
    assert rows["b"].avg_score_per_deal == pytest.approx(-7 / 32, abs=1e-3)
    assert rows["d"].avg_score_per_deal == pytest.approx(16 / 19, abs=1e-3)
    assert rows["a"].exact_rate == pytest.approx(9 / 26, abs=1e-3)
    assert rows["b"].exact_rate == pytest.approx(2 / 32, abs=1e-3)
    assert rows["d"].exact_rate == pytest.approx(8 / 19, abs=1e-3)
    assert rows["e"].exact_rate == pytest.approx(3 / 19, abs=1e-3)


def test_fault_columns_add_up_over_matches() -> None:
    rows = by_bot(build_leaderboard(sample_records()))
    faults = {
        n: (r.timeouts, r.illegal, r.disconnects, r.forfeits, r.disqualified)
        for n, r in rows.items()
    }
    assert faults == {
        "a": (1, 0, 0, 0, 0),
        "b": (0, 5, 0, 1, 1),
        "c": (2, 0, 0, 0, 0),
        "d": (0, 0, 1, 0, 0),
        "e": (0, 0, 0, 0, 0),
    }


def test_ratings_on_the_board_are_the_ratings_of_the_matches() -> None:
    ratings = Ratings()
    ratings.rate_all(sample_records())
    for row in build_leaderboard(sample_records()):
        r = ratings.rating(row.bot)
        assert row.mu == pytest.approx(r.mu, abs=1e-3)
        assert row.sigma == pytest.approx(r.sigma, abs=1e-3)
        assert row.conservative == pytest.approx(r.mu - 3 * r.sigma, abs=2e-3)


def test_rows_are_sorted_by_conservative_rating_and_numbered() -> None:
    rows = build_leaderboard(sample_records())
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    keys = [r.conservative for r in rows]
    assert keys == sorted(keys, reverse=True)
    assert rows[0].bot == "d"  # two wins, never behind anyone


def test_an_entrant_without_matches_still_appears_with_no_averages() -> None:
    rows = by_bot(build_leaderboard(sample_records(), ["a", "b", "c", "d", "e", "newbie"]))
    new = rows["newbie"]
    assert new.matches == 0 and new.wins == 0
    assert new.mu == pytest.approx(25.0) and new.conservative == pytest.approx(0.0)
    assert new.avg_placement is None and new.avg_score_per_deal is None
    assert new.exact_rate is None


def test_equal_ratings_are_ordered_by_name() -> None:
    rows = build_leaderboard([], ["zed", "amy", "max"])
    assert [r.bot for r in rows] == ["amy", "max", "zed"]
    assert [r.rank for r in rows] == [1, 2, 3]


def test_a_disqualified_winner_places_last_loses_its_win_and_is_rated_last() -> None:
    recs = [
        record("m1", 1, 1, ["cheat", "b", "c", "d"], [50, 1, 0, -1],
               disqualified=[True, False, False, False]),
    ]  # fmt: skip
    rows = by_bot(build_leaderboard(recs))  # issue 25: one rule for places (arena.standings.places)
    assert rows["cheat"].wins == 0 and rows["cheat"].disqualified == 1
    assert rows["cheat"].avg_placement == 4 and rows["b"].wins == 1
    assert rows["cheat"].rank == 4


def test_shuffled_records_give_the_same_leaderboard() -> None:
    rng = random.Random(11)
    names = ["p", "q", "r", "s", "t", "u"]
    recs = []
    for rnd in range(1, 9):
        for tbl in (1, 2, 3):
            seats = rng.sample(names, 4)
            totals = [rng.randint(-10, 10) for _ in seats]
            recs.append(record(f"r{rnd:04d}-t{tbl:02d}", rnd, tbl, seats, totals))
    expected = build_leaderboard(recs, names)
    for _ in range(5):
        rng.shuffle(recs)
        assert build_leaderboard(recs, names) == expected


def test_a_bad_record_is_refused_naming_its_match() -> None:
    bad = sample_records()
    del bad[1]["exact"]
    with pytest.raises(ResultsError, match=r"match 'r0002-t01': missing field 'exact'"):
        build_leaderboard(bad)


def test_a_match_seen_twice_is_refused() -> None:
    recs = sample_records()
    with pytest.raises(ResultsError, match="appears twice"):
        build_leaderboard([*recs, recs[0]])


def test_partnership_records_are_rated_by_team() -> None:
    rec = record("m1", 1, 1, ["a", "b", "c", "d"], [20, 0, 20, 0])
    rec["teams"] = [[0, 2], [1, 3]]
    rows = by_bot(build_leaderboard([rec]))
    assert rows["a"].mu == pytest.approx(rows["c"].mu)
    assert rows["a"].wins == rows["c"].wins == 1
    assert rows["a"].mu > rows["b"].mu


# --- files --------------------------------------------------------------------------


def test_csv_round_trips(tmp_path: Path) -> None:
    rows = build_leaderboard(sample_records(), ["a", "b", "c", "d", "e", "newbie"])
    path = tmp_path / "leaderboard.csv"
    write_csv(rows, path)
    assert read_csv(path) == rows
    with path.open(encoding="utf-8", newline="") as f:
        assert tuple(next(csv.reader(f))) == COLUMNS
    newbie = next(line for line in path.read_text().splitlines() if ",newbie," in line)
    assert newbie.split(",")[9:12] == ["", "", ""]  # no averages yet


def test_json_round_trips_with_meta_and_rating_parameters(tmp_path: Path) -> None:
    rows = build_leaderboard(sample_records(), ["a", "b", "c", "d", "e", "newbie"])
    path = tmp_path / "leaderboard.json"
    meta = {"matches": 3, "results": "results/x"}
    write_json(rows, path, meta)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["schema"] == 2
    assert doc["rating"]["draw_probability"] == pytest.approx(0.02)
    assert doc["rating"]["mu"] == pytest.approx(25.0)
    assert tuple(doc["rows"][0]) == COLUMNS
    assert read_leaderboard_json(path) == (rows, meta)


def test_the_same_matches_write_the_same_bytes(tmp_path: Path) -> None:
    for name in ("one", "two"):
        recs = sample_records()
        random.Random(name).shuffle(recs)
        rows = build_leaderboard(recs)
        write_csv(rows, tmp_path / f"{name}.csv")
        write_json(rows, tmp_path / f"{name}.json", {"matches": 3})
    assert (tmp_path / "one.csv").read_bytes() == (tmp_path / "two.csv").read_bytes()
    assert (tmp_path / "one.json").read_bytes() == (tmp_path / "two.json").read_bytes()
    assert b"25.0000000" not in (tmp_path / "one.json").read_bytes()  # rounded


def test_writes_leave_no_temporary_files(tmp_path: Path) -> None:
    rows = build_leaderboard(sample_records())
    write_csv(rows, tmp_path / "leaderboard.csv")
    write_csv(rows, tmp_path / "leaderboard.csv")  # over an existing file
    write_json(rows, tmp_path / "leaderboard.json", {})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["leaderboard.csv", "leaderboard.json"]


def test_a_leaderboard_json_of_another_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "leaderboard.json"
    path.write_text(json.dumps({"schema": 3, "rows": [], "meta": {}}), encoding="utf-8")
    with pytest.raises(ResultsError, match="schema-1 or -2"):
        read_leaderboard_json(path)


def test_a_leaderboard_row_with_a_bad_value_is_refused(tmp_path: Path) -> None:
    rows = build_leaderboard(sample_records())
    path = tmp_path / "leaderboard.json"
    write_json(rows, path, {})
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["rows"][1]["wins"] = "many"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ResultsError, match=r"row 2: bad value for 'wins'"):
        read_leaderboard_json(path)


# --- matches.jsonl ------------------------------------------------------------------


def test_load_matches_reads_every_line(tmp_path: Path) -> None:
    recs = sample_records()
    path = write_lines(tmp_path / "matches.jsonl", [json.dumps(r) for r in recs] + [""])
    assert load_matches(path) == recs


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"schema": 2}', "unsupported schema 2"),
        ("DROP:exact", "missing field 'exact'"),
        ("DROP:teams", "missing field 'teams'"),
        ("SET:ranks=[1, 2]", "'ranks' must be a list of 4 values"),
        ("SET:teams=[[0, 1], [1, 2, 3]]", "'teams' must split seats 0..3"),
        ('SET:faults={"timeout": [0, 0, 0, 0]}', "missing field 'faults.illegal'"),
        ("SET:disqualified=[0, 0, 0, 0]", "'disqualified' has a bad value for seat 0"),
        ('SET:seats=["a", "b", "a", "c"]', "an entrant holds two seats"),
    ],
)
def test_a_malformed_match_line_names_the_file_and_line(
    tmp_path: Path, line: str, problem: str
) -> None:
    good = sample_records()
    if line.startswith("DROP:"):
        bad = dict(good[1])
        del bad[line[5:]]
        line = json.dumps(bad)
    elif line.startswith("SET:"):
        key, value = line[4:].split("=", 1)
        line = json.dumps({**good[1], key: json.loads(value)})
    path = write_lines(tmp_path / "matches.jsonl", [json.dumps(good[0]), line, json.dumps(good[2])])
    with pytest.raises(ResultsError) as info:
        load_matches(path)
    assert f"{path} line 2: " in str(info.value)
    assert problem in str(info.value)
    assert isinstance(info.value, ValueError)


def test_a_torn_last_line_is_ignored(tmp_path: Path) -> None:
    recs = sample_records()
    path = tmp_path / "matches.jsonl"
    path.write_text(json.dumps(recs[0]) + "\n" + json.dumps(recs[1])[:40], encoding="utf-8")
    assert load_matches(path) == recs[:1]


def test_a_match_finished_twice_names_both_lines(tmp_path: Path) -> None:
    recs = sample_records()
    path = write_lines(tmp_path / "matches.jsonl", [json.dumps(r) for r in [*recs, recs[1]]])
    with pytest.raises(ResultsError, match=r"line 4: match 'r0002-t01' already finished on line 2"):
        load_matches(path)


def test_a_missing_matches_file_is_a_results_error(tmp_path: Path) -> None:
    with pytest.raises(ResultsError, match="no such file"):
        load_matches(tmp_path / "matches.jsonl")


# --- renderings ---------------------------------------------------------------------


def test_markdown_has_a_header_and_a_line_per_entrant() -> None:
    rows = build_leaderboard(sample_records(), ["a", "b", "c", "d", "e", "newbie"])
    lines = to_markdown(rows).splitlines()
    assert lines[0].startswith("| # | bot | μ−3σ | P(>next) | μ | σ |")
    assert set(lines[1]) <= set("|-:")
    assert len(lines) == 2 + len(rows)
    assert lines[2].startswith(f"| 1 | {rows[0].bot} |")
    assert "—" in next(line for line in lines if "| newbie |" in line)


def test_markdown_escapes_a_pipe_in_a_name() -> None:
    row = replace(build_leaderboard([], ["x"])[0], bot="a|b")
    assert "a\\|b" in to_markdown([row])


def test_console_table_shows_headers_and_every_bot() -> None:
    rows = build_leaderboard(sample_records(), ["a", "b", "c", "d", "e", "newbie"])
    console = Console(record=True, width=160, file=io.StringIO())
    console.print(leaderboard_table(rows, title="Leaderboard · 3 matches"))
    text = console.export_text()
    for header in ("bot", "μ−3σ", "μ", "σ", "wins", "exact", "timeouts", "DQ"):
        assert header in text
    for row in rows:
        assert row.bot in text
    assert "Leaderboard · 3 matches" in text
    assert "%" in text  # exact rate as a percentage


def test_a_schema_1_leaderboard_json_is_still_read_without_the_new_columns(
    tmp_path: Path,
) -> None:
    rows = build_leaderboard(sample_records())
    path = tmp_path / "leaderboard.json"
    write_json(rows, path, {})
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["schema"] = 1
    for row in doc["rows"]:
        del row["p_better_next"], row["avg_score_per_deal_ci95"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    old, _ = read_leaderboard_json(path)
    assert [r.bot for r in old] == [r.bot for r in rows]
    assert all(r.p_better_next is None and r.avg_score_per_deal_ci95 is None for r in old)


def test_each_row_says_how_likely_it_is_better_than_the_next_one_down() -> None:
    rows = build_leaderboard(sample_records())
    ratings = Ratings()
    ratings.rate_all(sample_records())
    for upper, lower in zip(rows, rows[1:], strict=False):
        want = prob_better(ratings.rating(upper.bot), ratings.rating(lower.bot))
        assert upper.p_better_next == pytest.approx(want, abs=1e-3)
    assert rows[-1].p_better_next is None


def test_score_per_deal_has_a_95_percent_interval_from_the_spread_between_matches() -> None:
    rows = by_bot(build_leaderboard(sample_records()))
    # a: +3 in 13 deals and +7 in 13: mean 10/26; matches differ by 4/13 per deal
    per_deal = [3 / 13, 7 / 13]
    sd = statistics.stdev(per_deal)
    assert rows["a"].avg_score_per_deal_ci95 == pytest.approx(1.96 * sd / 2**0.5, abs=1e-3)
    assert interval95([(5, 13)]) is None  # one match: no spread to measure
