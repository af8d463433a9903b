"""--correct-random (issue 29 part 6): a run's match lines take the bundled random bot's
luck out of the points the ratings read, the same in-process, in workers, over gRPC and
after a resume; ``arena verify`` recomputes it from the replays and refuses a line that
differs; a broken line is a one-line error; and the option is refused, in one line, where
the random bot's policy is not known or the game has no correction. What it buys is
measured by bench/aivat.py; the correction itself is tested in tests/test_truf_luck.py."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from test_cli import crash_after
from typer.testing import CliRunner

from arena.cli import app
from arena.core.seeding import seeded_secret
from arena.games.truf.luck import luck
from arena.play.run import ConfigError, RunConfig, make_plan
from arena.standings.ratings import RatingError, Ratings, rated_points
from arena.standings.results import read_jsonl

runner = CliRunner()
FAST = ("--bots", "random,random,greedy,greedy")  # two random entrants, the quick bots


def arena(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def corrected_run(out: Path, *extra: str, rounds: int = 3) -> Path:
    code, text = arena(
        "tournament", "--in-process", "--correct-random", "--rounds", str(rounds), "--deals",
        "3", "--seed", "11", "--results", str(out), "--quiet", *FAST, *extra,
    )  # fmt: skip
    assert code == 0, text
    return out


def lines(out: Path, name: str) -> list[dict[str, Any]]:
    return list(read_jsonl(out / name))


def test_each_match_line_holds_the_random_seats_luck_as_its_replays_give_it(
    tmp_path: Path,
) -> None:
    out = corrected_run(tmp_path / "run")
    deals: dict[str, list[dict[str, Any]]] = {}
    for deal in lines(out, "replays.jsonl"):
        deals.setdefault(deal["match"], []).append(deal)
    matches = lines(out, "matches.jsonl")
    assert matches
    for match in matches:
        seats = [s for s, name in enumerate(match["seats"]) if name.startswith("random")]
        assert match["luck_seats"] == seats and seats  # both random entrants, where seated
        assert len(match["deal_luck"]) == len(match["deal_points"]) == 3
        for logged, deal in zip(match["deal_luck"], deals[match["match"]], strict=True):
            assert logged == pytest.approx(luck(deal, seats), abs=1e-6)
    assert any(any(abs(x) > 1e-9 for x in d) for m in matches for d in m["deal_luck"])
    config = json.loads((out / "tournament.json").read_text())["config"]
    assert config["correct_random"] is True
    code, text = arena("verify", str(out))
    assert code == 0, text
    assert "the random bot's luck in 9 deals is the replays'" in text


def test_the_ratings_read_the_points_less_the_luck(tmp_path: Path) -> None:
    matches = lines(corrected_run(tmp_path / "run"), "matches.jsonl")
    with_luck, by_hand, played = Ratings(), Ratings(), Ratings()
    for match in matches:
        with_luck.rate_match(match)
        pairs = zip(match["deal_points"], match["deal_luck"], strict=True)
        fixed = [[p - x for p, x in zip(d, o, strict=True)] for d, o in pairs]
        bare = {k: v for k, v in match.items() if k not in ("deal_luck", "luck_seats")}
        by_hand.rate_match({**bare, "deal_points": fixed})
        played.rate_match(bare)
    for name in with_luck.names():
        assert with_luck.estimate(name) == pytest.approx(by_hand.estimate(name), abs=1e-9)
    assert any(abs(with_luck.estimate(n) - played.estimate(n)) > 1e-6 for n in with_luck.names())


def test_workers_grpc_and_a_resume_write_the_same_lines(tmp_path: Path) -> None:
    from test_grpc import run_arena

    one = corrected_run(tmp_path / "one", "--workers", "1")
    two = corrected_run(tmp_path / "two", "--workers", "2")
    crashed = corrected_run(tmp_path / "crashed", "--workers", "1")
    crash_after(crashed, finished=1)
    code, text = arena("tournament", "--resume", str(crashed), "--quiet")
    assert code == 0, text
    out = tmp_path / "grpc"
    code, text = run_arena(tmp_path, "tournament", "--correct-random", "--rounds", "3",
                           "--deals", "3", "--seed", "11", "--results", str(out), "--quiet",
                           *FAST)  # fmt: skip
    assert code == 0, text
    want = (one / "matches.jsonl").read_bytes()
    assert (two / "matches.jsonl").read_bytes() == want
    assert (crashed / "matches.jsonl").read_bytes() == want
    by_match = [  # over gRPC the matches may end in another order
        {m["match"]: m["deal_luck"] for m in lines(run, "matches.jsonl")} for run in (out, one)
    ]
    assert by_match[0] == by_match[1]


def test_a_line_whose_luck_is_not_its_replays_is_refused(tmp_path: Path) -> None:
    out = corrected_run(tmp_path / "run")
    matches = lines(out, "matches.jsonl")
    matches[1]["deal_luck"][2][0] += 0.25
    (out / "matches.jsonl").write_text("".join(json.dumps(m) + "\n" for m in matches))
    code, text = arena("verify", str(out))
    assert code == 1
    said = " ".join(text.split())
    assert f"match {matches[1]['match']} deal 3: deal_luck" in said
    assert "but its replay gives" in said and "Traceback" not in text


def _rewrite(out: Path, matches: list[dict[str, Any]]) -> None:
    (out / "matches.jsonl").write_text("".join(json.dumps(m) + "\n" for m in matches))


def test_verify_holds_the_lines_to_the_runs_random_seats(tmp_path: Path) -> None:
    """A line cannot drop its correction, correct another seat with numbers recomputed
    for it, or hold a NaN; a run that was not corrected holds no correction."""
    out = corrected_run(tmp_path / "run")
    good = lines(out, "matches.jsonl")
    deals = [d for d in lines(out, "replays.jsonl") if d["match"] == good[0]["match"]]
    greedy = good[0]["seats"].index("greedy#1")
    forged = dict(good[0], luck_seats=[greedy], deal_luck=[luck(d, [greedy]) for d in deals])
    stripped = {k: v for k, v in good[0].items() if k not in ("luck_seats", "deal_luck")}
    nan = json.loads(json.dumps(good[0]))
    nan["deal_luck"][0][0] = float("nan")
    for line, says in (
        (forged, f"luck_seats [{greedy}], but the run corrects seats"),
        (stripped, "luck_seats None, but the run corrects seats"),
        (nan, "deal 1: deal_luck [nan,"),
    ):
        _rewrite(out, [line, *good[1:]])
        code, text = arena("verify", str(out))
        assert code == 1 and says in " ".join(text.split()), text
        assert "Traceback" not in text
    plain = tmp_path / "plain"
    code, text = arena("tournament", "--in-process", "--rounds", "3", "--deals", "3",
                       "--seed", "11", "--results", str(plain), "--quiet", *FAST)  # fmt: skip
    assert code == 0, text
    played = lines(plain, "matches.jsonl")
    fields = [{k: c[k] for k in ("luck_seats", "deal_luck")} for c in good]
    _rewrite(plain, [{**m, **f} for m, f in zip(played, fields, strict=True)])
    code, text = arena("verify", str(plain))
    assert code == 1 and "but no seat of it is a corrected random bot" in " ".join(text.split())


def test_a_random_seat_the_fallback_played_unasked_is_not_corrected(tmp_path: Path) -> None:
    """Disqualified or forfeiting, its seat played the fallback unasked: no uniform
    choice, so the match line corrects only the other random seats."""
    from arena.games.registry import game_entry
    from arena.play.faults import FaultBook
    from arena.play.tournament import MatchContext, finish_match

    out = corrected_run(tmp_path / "run", rounds=1)
    (match,) = lines(out, "matches.jsonl")
    deals = lines(out, "replays.jsonl")
    game = RunConfig(deals=3).make_game()
    first, second = match["luck_seats"]
    ctx = MatchContext(match["match"], uniform=(first, second))
    for flag in ("disqualified", "forfeit"):
        book = FaultBook(4, 3)
        getattr(book, flag)[first] = True
        record = finish_match(game, ctx, match["seats"], match["totals"], match["raw_ranks"],
                              match["teams"], deals, book)  # fmt: skip
        assert record["luck_seats"] == [second]
        assert record["deal_luck"] == [game_entry("truf").deal_luck(d, [second])[0] for d in deals]
        getattr(book, flag)[second] = True
        record = finish_match(game, ctx, match["seats"], match["totals"], match["raw_ranks"],
                              match["teams"], deals, book)  # fmt: skip
        assert "luck_seats" not in record and "deal_luck" not in record


def test_every_spelling_of_the_bundled_random_bot_is_corrected(tmp_path: Path) -> None:
    code, text = arena("tournament", "--in-process", "--correct-random", "--rounds", "1",
                       "--deals", "1", "--results", str(tmp_path / "x"), "--quiet", "--bots",
                       "truf.random,bots.random:Bot,greedy,greedy")  # fmt: skip
    assert code == 0, text
    (match,) = lines(tmp_path / "x", "matches.jsonl")
    assert len(match["luck_seats"]) == 2


@pytest.mark.parametrize(
    ("seats", "says"),
    [(None, "luck_seats None, but the run corrects"), ([9], "luck_seats [9], but the run")],
)
def test_verify_refuses_luck_seats_that_are_no_seats(tmp_path: Path, seats: Any, says: str) -> None:
    out = corrected_run(tmp_path / "run")
    matches = lines(out, "matches.jsonl")
    matches[0]["luck_seats"] = seats
    _rewrite(out, matches)
    code, text = arena("verify", str(out))
    assert code == 1 and says in " ".join(text.split()) and "Traceback" not in text


@pytest.mark.parametrize(
    "luck_field",
    [[[0.5, 0.5]], "lucky", [[0.0, 0.0, 0.0, "x"]] * 3, [[0.0] * 4] * 2, [[math.nan] * 4] * 3],
    ids=["short-row", "not-a-list", "not-a-number", "too-few-deals", "nan"],
)
def test_a_broken_deal_luck_is_a_one_line_error(tmp_path: Path, luck_field: Any) -> None:
    out = corrected_run(tmp_path / "run")
    matches = lines(out, "matches.jsonl")
    matches[0]["deal_luck"] = luck_field
    with pytest.raises(RatingError, match=r"deal_luck must hold 4 finite numbers for each of its"):
        rated_points(matches[0])
    (out / "matches.jsonl").write_text("".join(json.dumps(m) + "\n" for m in matches))
    code, text = arena("leaderboard", str(out))
    assert code == 1 and "deal_luck must hold 4 finite numbers" in text
    assert "Traceback" not in text and len(text.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--game", "truco"), "--correct-random: Truco cannot take a random bot's luck out"),
        (("--bots", "greedy,greedy,planner,tracker"), "no entrant is the bundled random bot"),
    ],
)
def test_the_option_is_refused_where_it_cannot_work(
    tmp_path: Path, args: tuple[str, ...], says: str
) -> None:
    code, text = arena("tournament", "--in-process", "--correct-random", "--rounds", "1",
                       "--results", str(tmp_path / "x"), *args)  # fmt: skip
    assert code == 1
    assert says in " ".join(text.split()) and "Traceback" not in text


def test_bots_that_connect_on_their_own_are_never_corrected() -> None:
    """arena serve: an entrant that calls itself random is not the arena's random bot."""
    config = RunConfig(bots=["random", "a", "b", "c"], external=True, correct_random=True)
    with pytest.raises(ConfigError, match="needs the arena to run the random bot itself"):
        make_plan(config, secret=seeded_secret(1))


def test_a_run_without_the_option_writes_no_luck(tmp_path: Path) -> None:
    out = tmp_path / "plain"
    code, text = arena("tournament", "--in-process", "--rounds", "1", "--deals", "2",
                       "--results", str(out), "--quiet", *FAST)  # fmt: skip
    assert code == 0, text
    assert all("deal_luck" not in m and "luck_seats" not in m for m in lines(out, "matches.jsonl"))
    assert "correct_random" not in json.loads((out / "tournament.json").read_text())["config"]
