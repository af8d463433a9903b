"""One rating per run (issue 29): every match rated once, in schedule order, whatever the
order matches finish in; shared by the display, --until-settled, the leaderboard and the
report."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena.ratings import Ratings
from arena.report.data import _rating_history
from arena.runratings import RunRatings


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
