"""One rating per run (issue 29): every match rated once, in schedule order, whatever the
order matches finish in; shared by the display, --until-settled, the leaderboard and the
report."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from test_cli import arena, crash_after

from arena.report.data import _rating_history
from arena.standings.ratings import Ratings
from arena.standings.results import read_jsonl
from arena.standings.runratings import RunRatings


def match(r: int, t: int, seats: list[str], rng: random.Random) -> dict[str, Any]:
    deals = [[rng.gauss(0, 3) + (2 if s == "a" else 0) for s in seats] for _ in range(5)]
    totals = [round(sum(d[i] for d in deals)) for i in range(len(seats))]
    return {
        "match": f"r{r:04d}-t{t:02d}",
        "round": r,
        "table": t,
        "seats": seats,
        "teams": [[i] for i in range(len(seats))],
        "ranks": [1 + sum(o > x for o in totals) for x in totals],
        "deal_points": deals,
    }


def schedule(rounds: int) -> list[dict[str, Any]]:
    rng = random.Random(rounds)
    names = ["a", "b", "c", "d", "e", "f"]
    out = []
    for r in range(1, rounds + 1):
        order = rng.sample(names, 6)
        out.append(match(r, 1, order[:3], rng))
        out.append(match(r, 2, order[3:], rng))
    return out


def keys(records: list[dict[str, Any]]) -> list[tuple[int, int, str]]:
    return [(r["round"], r["table"], r["match"]) for r in records]


def test_matches_finishing_in_any_order_rate_as_the_schedule_does() -> None:
    records = schedule(8)
    shuffled = records[:]
    random.Random(3).shuffle(shuffled)
    run = RunRatings(keys(records))
    for record in shuffled:
        run.add(record)
        run.add(record)  # told twice (the display and --until-settled): rated once
    ratings = run.finish(records)
    reference = Ratings()
    reference.rate_all(records)
    for name in "abcdef":
        assert ratings.rating(name) == reference.rating(name)
        assert ratings.estimate(name) == pytest.approx(reference.estimate(name), abs=1e-12)


def test_a_round_ends_when_all_its_matches_and_all_before_are_rated() -> None:
    records = schedule(4)
    run = RunRatings(keys(records))
    ended: list[tuple[int, int]] = []
    run.on_round_end.append(lambda r: ended.append((r, len(run.matches()))))
    by_id = {r["match"]: r for r in records}
    for match_id in ("r0002-t01", "r0001-t02", "r0002-t02", "r0001-t01", "r0004-t01"):
        run.add(by_id[match_id])
    # rounds 1 and 2 ended when r0001-t01 came (the fourth match); round 4 waits for 3
    assert ended == [(1, 4), (2, 4)]
    assert run.rated_through() == 2
    run.add(by_id["r0003-t02"])
    run.add(by_id["r0003-t01"])
    assert [r for r, _ in ended] == [1, 2, 3]
    assert run.rated_through() == 3


def test_finish_rates_what_came_after_a_gap_in_schedule_order() -> None:
    records = schedule(5)
    played = [r for r in records if r["match"] != "r0002-t01"]  # one match never finished
    run = RunRatings(keys(records))
    for record in reversed(played):
        run.add(record)
    assert run.rated_through() == 1
    ratings = run.finish()
    reference = Ratings()
    reference.rate_all(played)
    for name in "abcdef":
        assert ratings.rating(name) == reference.rating(name)
    with pytest.raises(RuntimeError):
        run.add(records[2])


def test_the_history_is_the_reports_own() -> None:
    records = schedule(3)
    run = RunRatings(keys(records))
    for record in records:
        run.add(record)
    run.finish()
    names = ["a", "b", "c", "d", "e", "f", "never-played"]
    assert run.history(names) == _rating_history(records, names)


def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every match id ``Ratings.rate_match`` rates from now on, in any Ratings."""
    rated: list[str] = []
    original = Ratings.rate_match

    def rate_match(self: Ratings, record: Any) -> None:
        rated.append(str(record["match"]))
        original(self, record)

    monkeypatch.setattr(Ratings, "rate_match", rate_match)
    return rated


@pytest.mark.parametrize("extra", [(), ("--quiet",), ("--until-settled", "--quiet")])
def test_a_run_rates_each_match_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extra: tuple[str, ...]
) -> None:
    """Issue 29: the live display (shown or not), --until-settled, the leaderboard and the
    report share one rating of the run: each match is rated once in the whole command."""
    rated = counted(monkeypatch)
    out = tmp_path / "run"
    code, text = arena("tournament", "--in-process", "--rounds", "6", "--deals", "2",
                       "--seed", "3", "--results", str(out), *extra)  # fmt: skip
    assert code == 0, text
    matches = [r["match"] for r in read_jsonl(out / "matches.jsonl")]
    assert sorted(rated) == sorted(matches)
    assert (out / "report.html").exists()


def test_a_resumed_run_rates_each_match_once_and_ends_as_an_uninterrupted_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ("--in-process", "--rounds", "6", "--deals", "2", "--seed", "3", "--quiet")
    whole, crashed = tmp_path / "whole", tmp_path / "crashed"
    assert arena("tournament", *args, "--results", str(whole))[0] == 0
    assert arena("tournament", *args, "--results", str(crashed))[0] == 0
    crash_after(crashed, finished=2)
    rated = counted(monkeypatch)
    code, text = arena("tournament", "--resume", str(crashed), "--quiet")
    assert code == 0, text
    assert sorted(rated) == sorted(r["match"] for r in read_jsonl(crashed / "matches.jsonl"))
    assert (crashed / "leaderboard.json").read_text() == (whole / "leaderboard.json").read_text()
