"""Issue 25: one rule for places, and results that a faulting bot cannot game.

A disqualified or forfeiting seat places below every seat that was not, in every reader of a
result (matches.jsonl, the leaderboard, head to head, the report, arena verify); its partner
keeps its team's place and its rating; forfeiting or being disqualified never pays.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.games.registry import make_game
from arena.games.ruff.rules import RuffRules
from arena.games.truco.rules import TrucoRules
from arena.play.tournament import MatchContext, play_match
from arena.report.data import _head_to_head, _match_row
from arena.standings.leaderboard import build_leaderboard, load_matches
from arena.standings.places import places, record_places
from arena.standings.ratings import Ratings

sys.path.insert(0, str(Path(__file__).parent))
from integritybots import Pick, Raises  # noqa: E402


def test_a_disqualified_seat_places_last_whatever_its_total() -> None:
    assert places([1, 2, 3, 4], [True, False, False, False], [[0], [1], [2], [3]]) == [4, 1, 2, 3]


def test_offenders_keep_their_order_and_ties_among_themselves_below_the_rest() -> None:
    out = [True, True, False, True, False]
    assert places([1, 1, 3, 3, 5], out, [[s] for s in range(5)]) == [3, 3, 1, 5, 2]


def test_with_no_offender_the_places_are_the_games_own_ranks() -> None:
    assert places([1, 2, 1, 2], [False] * 4, [[0, 2], [1, 3]]) == [1, 2, 1, 2]  # R12
    assert places([1, 1, 3], [False] * 3, [[0], [1], [2]]) == [1, 1, 3]  # F10, C14


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_in_a_team_game_the_offender_places_last_and_its_partner_keeps_its_teams_place(
    seats: int,
) -> None:
    teams = [list(range(0, seats, 2)), list(range(1, seats, 2))]
    raw = [1 if s % 2 == 0 else 2 for s in range(seats)]  # team 0 won on points
    out = [s == 0 for s in range(seats)]
    got = places(raw, out, teams)
    assert got[0] == (2 if seats == 2 else 3)  # below every side that did not offend
    assert all(got[s] == 1 for s in teams[0][1:])  # the partners keep the win
    assert all(got[s] == (1 if seats == 2 else 2) for s in teams[1])


def test_the_rule_is_idempotent_so_old_and_new_lines_read_alike() -> None:
    old = {"seats": list("abcd"), "teams": [[0], [1], [2], [3]], "ranks": [1, 2, 3, 4],
           "disqualified": [True, False, False, False], "forfeit": [False] * 4}  # fmt: skip
    new = {**old, "ranks": [4, 1, 2, 3], "raw_ranks": [1, 2, 3, 4]}
    assert record_places(old) == record_places(new) == [4, 1, 2, 3]


def faulty_match(game: str, seats: int = 4, **rules: Any) -> dict[str, Any]:
    """A match of ``game`` whose seat 0 raises on every decision (disqualified)."""
    rules_type = TrucoRules if game == "truco" else RuffRules
    g = make_game(game, rules=rules_type(seats=seats, **rules))
    bots = [Raises(), *(Pick(s) for s in range(1, seats))]
    names = ["cheat", *(f"p{s}" for s in range(1, seats))]
    return play_match(g, bots, ctx=MatchContext("m1", seed="7"), names=names).record


FORMS = [("truco", 2, {}), ("truco", 4, {}), ("truco", 6, {}),
         ("ruff", 4, {"form": "double"}), ("ruff", 4, {"form": "single"}),
         ("ruff", 3, {"form": "single"})]  # fmt: skip


@pytest.mark.parametrize(("game", "seats", "rules"), FORMS)
def test_every_seat_count_and_form_places_the_offender_last_and_spares_its_partner(
    game: str, seats: int, rules: dict[str, Any]
) -> None:
    record = faulty_match(game, seats, **rules)
    assert record["disqualified"][0] and not any(record["disqualified"][1:])
    assert record["ranks"] == record_places(record)
    assert max(record["ranks"]) == record["ranks"][0]
    assert all(record["ranks"][0] > r for r in record["ranks"][1:])
    partners = next(t for t in record["teams"] if 0 in t)
    honest = [s for s in range(seats) if s != 0]
    for s in partners[1:]:  # its place among the honest seats is its team's raw place
        raw = record["raw_ranks"]
        ahead = {raw[o] for o in honest if raw[o] < raw[s]}
        assert record["ranks"][s] == 1 + len(ahead)
    # The rating moves the offender only: partner and opponents are as if never seated.
    ratings = Ratings()
    ratings.rate_match(record)
    assert ratings.rating("cheat").mu < 25.0
    assert all(n not in ratings for n in record["seats"][1:])


def test_a_disqualified_bot_never_wins_nor_is_drawn_as_the_winner(tmp_path: Path) -> None:
    """Issue 25, 1: four in-process bots, two disqualified in every match."""
    args = ["tournament", "--in-process", "--rounds", "3", "--seed", "4", "--quiet",
            "--bots", "integritybots:Raises,integritybots:ReturnsNone,random,greedy",
            "--results", str(tmp_path)]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    records = load_matches(tmp_path / "matches.jsonl")
    assert all(r["disqualified"][r["seats"].index("raises")] for r in records)
    for r in records:
        for s, out in enumerate(r["disqualified"]):
            assert not out or r["ranks"][s] > max(
                r["ranks"][o] for o in range(4) if not r["disqualified"][o]
            )
    rows = {row.bot: row for row in build_leaderboard(records)}
    for cheat in ("raises", "returnsnone"):
        assert rows[cheat].wins == 0
        assert rows[cheat].avg_placement > max(rows[h].avg_placement for h in ("random", "greedy"))
        assert rows[cheat].rank > max(rows[h].rank for h in ("random", "greedy"))
    # the report's match list (its winner is drawn in bold: place 1) and head to head
    names = sorted(rows)
    above = _head_to_head(records, names)["above"]
    i, j = names.index("raises"), names.index("random")
    assert above[i][j] == 0 and above[j][i] == len(records)
    for row in map(_match_row, records):
        seats, ranks = row[3], row[5]
        assert all(ranks[seats.index(c)] != 1 for c in ("raises", "returnsnone"))


def test_arena_verify_refuses_a_line_whose_disqualified_seat_is_not_last(tmp_path: Path) -> None:
    bots = "integritybots:Raises,random,greedy,planner"
    args = ["tournament", "--in-process", "--rounds", "1", "--seed", "4", "--quiet",
            "--bots", bots, "--results", str(tmp_path)]  # fmt: skip
    assert CliRunner().invoke(app, args).exit_code == 0
    ok = CliRunner().invoke(app, ["verify", str(tmp_path)])
    assert ok.exit_code == 0 and "place offenders last" in ok.output
    path = tmp_path / "matches.jsonl"
    record = json.loads(path.read_text())
    record["ranks"] = record["raw_ranks"]  # a disqualified seat left where its total put it
    record["raw_ranks"] = [1, 2, 3, 4] if record["raw_ranks"] == [4, 3, 2, 1] else [4, 3, 2, 1]
    path.write_text(json.dumps(record) + "\n")
    bad = CliRunner().invoke(app, ["verify", str(tmp_path)])
    assert bad.exit_code == 1 and "are not the places" in bad.output
    assert "Traceback" not in bad.output


def synthetic(match: int, seats: list[str], points: list[list[int]], *,
              forfeit: list[bool] | None = None) -> dict[str, Any]:  # fmt: skip
    totals = [sum(p[s] for p in points) for s in range(len(seats))]
    raw = [1 + sum(o > t for o in totals) for t in totals]
    out = forfeit or [False] * len(seats)
    return {"schema": 1, "game": "truf", "variant": "classic", "match": f"r{match:04d}-t01",
            "round": match, "table": 1, "seats": seats, "teams": [[s] for s in range(len(seats))],
            "totals": totals, "ranks": places(raw, out, [[s] for s in range(len(seats))]),
            "raw_ranks": raw, "deals": len(points), "exact": [0] * len(seats),
            "faults": {k: [0] * len(seats) for k in ("timeout", "illegal", "disconnect")},
            "disqualified": [False] * len(seats), "forfeit": out,
            "deal_points": points}  # fmt: skip


def test_forfeiting_after_a_few_crushing_wins_never_pays() -> None:
    """Issue 25, 2: a bot that wins its first matches by far, then forfeits the rest, ends
    below the weakest honest bot: each forfeit is rated as a loss in every deal."""
    seats = ["star", "weak", "mid", "good"]
    win = [[6, -3, -1, 0]] * 13  # the star far ahead in every deal, weak last
    play = [[0, -2, 0, 2], [1, -1, 0, 0]] * 6 + [[0, -2, 1, 1]]  # weak still last
    records = [synthetic(m, seats, win) for m in range(1, 4)]
    records += [synthetic(m, seats, play, forfeit=[True, False, False, False])
                for m in range(4, 30)]  # fmt: skip
    order = [row.bot for row in build_leaderboard(records)]
    assert order[-1] == "star", order
    assert [b for b in order if b != "star"][-1] == "weak"


GAMES = [
    ["--game", "truf"],
    ["--game", "truco", "--seats", "2"],
    ["--game", "truco", "--seats", "4"],
    ["--game", "truco", "--seats", "6"],
    ["--game", "ruff", "--form", "double"],
    ["--game", "ruff", "--form", "single", "--seats", "3"],
]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: "-".join(g[1::2]))
def test_a_bot_disqualified_in_every_match_finishes_below_every_honest_bundled_bot(
    tmp_path: Path, game: list[str]
) -> None:
    """Issue 25: in every game, whatever the seat count and form, with the bundled field."""
    from arena.games.registry import REGISTRY
    from arena.play.run import RunConfig

    values = (
        {**vars(RunConfig()), "seats": int(game[game.index("--seats") + 1])}
        if ("--seats" in game)
        else vars(RunConfig())
    )
    field = list(REGISTRY[game[1]].default_entrants(values))
    args = ["tournament", "--in-process", "--workers", "1", *game, "--rounds", "4",
            "--seed", "8", "--bots", ",".join(["integritybots:Raises", *field]),
            "--results", str(tmp_path), "--quiet"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    records = load_matches(tmp_path / "matches.jsonl")
    played = [r for r in records if "raises" in r["seats"]]
    assert played and all(r["disqualified"][r["seats"].index("raises")] for r in played)
    rows = build_leaderboard(records)
    assert rows[-1].bot == "raises", [(r.bot, r.conservative) for r in rows]
    assert rows[-1].wins == 0
