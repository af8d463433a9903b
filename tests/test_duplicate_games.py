"""--duplicate in Ruff and Truco (issue 30): a rotated match deals every deal of the
unrotated one with the hands and the dealer turned, in every seat count and form, whatever
was played before; a duplicate run ends, its blocks can be rated board by board, and
``arena verify`` re-deals it and names a record whose rotation is wrong."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import ruff_oracle
import truco_oracle
from typer.testing import CliRunner

from arena.cli import app
from arena.core.cards import codes
from arena.core.replaycheck import ReplayMismatch
from arena.games import registry
from arena.games.ruff.rules import Form, RuffRules
from arena.games.ruff.state import RuffMatch
from arena.games.truco.rules import TrucoRules
from arena.games.truco.state import TrucoMatch
from arena.standings.ratings import RatingParams, Ratings
from arena.standings.results import read_jsonl

runner = CliRunner()


def arena(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def random_play(match: Any, rnd: random.Random) -> list[dict[str, Any]]:
    """Play ``match`` to its end with random legal actions; its deal records. Never a
    falta envido (Truco R8), which would often end the match in its first hand."""
    records: list[dict[str, Any]] = []
    while not match.is_over:
        seat = match.to_act()[0]
        legal = list(match.legal_actions(seat))
        match.apply(seat, rnd.choice([a for a in legal if "falta" not in str(a)] or legal))
        records += match.finished
        match.finished.clear()
    return records + list(match.finished)


RUFF_FORMS = [("double", 4, False), ("single", 2, False), ("single", 3, False),
              ("single", 4, False), ("single", 2, True), ("single", 3, True)]  # fmt: skip


def ruff_match(form: str, seats: int, alt: bool) -> Callable[[str, int], RuffMatch]:
    rules = RuffRules(form=Form(form), seats=seats, alt_deals=alt)
    return lambda seed, turn: RuffMatch(rules, seed=seed, rotation=turn)


def truco_match(seats: int) -> Callable[[str, int], TrucoMatch]:
    rules = TrucoRules(seats=seats)
    return lambda seed, turn: TrucoMatch(rules, seed=seed, rotation=turn)


CASES = [pytest.param(ruff_match(*f), f[1], id=f"ruff-{f[0]}-{f[1]}{'-alt' * f[2]}")
         for f in RUFF_FORMS] + [
         pytest.param(truco_match(n), n, id=f"truco-{n}") for n in (2, 4, 6)]  # fmt: skip


@pytest.mark.parametrize(("make", "seats"), CASES)
def test_a_rotation_turns_every_deals_hands_and_dealer(
    make: Callable[[str, int], Any], seats: int
) -> None:
    """Seat s holds what seat s + r holds at rotation 0, and every dealer is turned back by
    r (F2, R3, R13), in every deal both matches reach: each rotation is played by other
    random moves, so a deal cannot depend on what was played before it."""
    compared = 0
    for seed in ("d1", "d2", "d3", "d4"):
        base = random_play(make(seed, 0), random.Random(seed))
        for turn in range(seats):
            rotated = random_play(make(seed, turn), random.Random(f"{seed}/{turn}"))
            for was, now in zip(base, rotated, strict=False):
                where = (seed, turn, was["deal"])
                assert now["dealer"] == (was["dealer"] - turn) % seats, where
                assert now["hands"] == was["hands"][turn:] + was["hands"][:turn], where
                for same in ("head", "turned", "kind"):  # Ruff's head, Truco's R13 duels
                    assert now.get(same) == was.get(same), where
                compared += 1
    assert compared >= 4 * seats * 3  # the matches last a few deals each


def test_rotation_zero_deals_what_a_match_without_rotation_deals() -> None:
    """The non-duplicate deals are unchanged: rotation 0 is the plain match."""
    ruff = RuffRules(form=Form.SINGLE, seats=3)
    plain = random_play(RuffMatch(ruff, seed="z"), random.Random(5))
    assert plain == random_play(RuffMatch(ruff, seed="z", rotation=0), random.Random(5))
    truco = TrucoRules(seats=6)
    plain = random_play(TrucoMatch(truco, seed="z"), random.Random(5))
    assert plain == random_play(TrucoMatch(truco, seed="z", rotation=0), random.Random(5))


def duplicate_run(out: Path, game: str, *extra: str, rounds: int) -> list[dict[str, Any]]:
    code, text = arena(
        "tournament", "--in-process", "--duplicate", "--game", game, "--rounds", str(rounds),
        "--seed", "7", "--results", str(out), "--quiet", *extra,
    )  # fmt: skip
    assert code == 0, text
    return read_jsonl(out / "replays.jsonl")


RUNS = [
    pytest.param("ruff", ("--form", "single", "--seats", "3", "--bots", "random,steady,sharp"),
                 3, ruff_oracle.audit_run, id="ruff-single-3"),
    pytest.param("ruff", ("--form", "double", "--bots", "random,random,steady,sharp"),
                 4, ruff_oracle.audit_run, id="ruff-double"),
    pytest.param("truco", ("--seats", "2", "--points", "15", "--bots", "random,basic"),
                 2, truco_oracle.audit_run, id="truco-2"),
    pytest.param("truco", ("--seats", "6", "--points", "15", "--bots",
                           "random,random,random,basic,basic,basic"),
                 6, truco_oracle.audit_run, id="truco-6"),
]  # fmt: skip


@pytest.mark.parametrize(("game", "extra", "seats", "audit"), RUNS)
def test_a_duplicate_run_ends_deals_every_hand_from_every_seat_and_verifies(
    tmp_path: Path, game: str, extra: tuple[str, ...], seats: int, audit: Any
) -> None:
    deals = duplicate_run(tmp_path / "r", game, *extra, rounds=seats)
    assert {(d["block"], d["rotation"]) for d in deals} == {(1, r) for r in range(seats)}
    by_turn = {d["rotation"]: d for d in deals if d["deal"] == 1}
    for turn, rec in by_turn.items():  # deal 1 turned from rotation 0's
        assert rec["hands"] == by_turn[0]["hands"][turn:] + by_turn[0]["hands"][:turn]
        assert rec["dealer"] == (by_turn[0]["dealer"] - turn) % seats
    code, text = arena("verify", str(tmp_path / "r"))
    assert code == 0, text
    assert f"{len(deals)} dealt" in text and "the ones the run's secret deals" in text
    assert audit(tmp_path / "r") == []  # the rules oracle accepts the block fields


@pytest.mark.parametrize(
    ("game", "extra", "seats"),
    [("ruff", ("--form", "single", "--seats", "2", "--bots", "steady,sharp"), 2),
     ("truco", ("--seats", "2", "--points", "15", "--bots", "random,basic"), 2)],
)  # fmt: skip
def test_a_duplicate_runs_blocks_are_rated_board_by_board(
    tmp_path: Path, game: str, extra: tuple[str, ...], seats: int
) -> None:
    """Every match line carries its block and rotation, so ratings with ``boards`` hold a
    block until its last rotation and then rate it by boards."""
    duplicate_run(tmp_path / "r", game, *extra, rounds=2 * seats)
    matches = read_jsonl(tmp_path / "r" / "matches.jsonl")
    boards = Ratings(RatingParams(unit="deal", tau=0.0, boards=True))
    for rec in sorted(matches, key=lambda m: (m["block"], m["rotation"])):
        boards.rate_match(rec)
        assert boards.pending() == (0 if rec["rotation"] == seats - 1 else rec["rotation"] + 1)
    by_deal = Ratings(RatingParams(unit="deal", tau=0.0))
    by_deal.rate_all(matches)
    names = {n for m in matches for n in m["seats"]}
    assert any(boards.rating(n) != by_deal.rating(n) for n in names)  # boards, not deals


@pytest.mark.parametrize(
    ("game", "extra", "word"),
    [("ruff", ("--form", "single", "--seats", "3", "--bots", "random,steady,sharp"), "deal"),
     ("truco", ("--seats", "4", "--points", "15", "--bots", "random,random,basic,basic"),
      "hand")],
)  # fmt: skip
def test_verify_names_a_record_whose_rotation_is_wrong(
    tmp_path: Path, game: str, extra: tuple[str, ...], word: str
) -> None:
    run = tmp_path / "r"
    duplicate_run(run, game, *extra, rounds=3)
    path = run / "replays.jsonl"
    clean = path.read_text().splitlines()
    # a later deal of rotation 1 (its dealer is not checked against deal 1's alone)
    at = next(i for i, line in enumerate(clean)
              if json.loads(line)["rotation"] == 1 and json.loads(line)["deal"] == 2)  # fmt: skip
    for wrong, said in ((2, "the dealer is not the one the run's secret draws at rotation 2"),
                        (9, "rotation must be a seat number, got 9"),
                        ("1", "rotation must be a seat number, got '1'")):  # fmt: skip
        lines = list(clean)
        rec = json.loads(lines[at])
        rec["rotation"] = wrong
        lines[at] = json.dumps(rec)
        path.write_text("\n".join(lines) + "\n")
        code, text = arena("verify", str(run))
        one = " ".join(text.split())
        assert code == 1 and f"match {rec['match']} {word} 2: {said}" in one, text
        assert "Traceback" not in text


def test_a_game_that_cannot_rotate_its_deals_is_refused_and_told_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every bundled game deals duplicate now; a game entry without it is still refused."""
    monkeypatch.setitem(
        registry.REGISTRY, "truco", dataclasses.replace(registry.REGISTRY["truco"], duplicate=False)
    )
    code, text = arena(
        "tournament", "--game", "truco", "--in-process", "--duplicate",
        "--results", str(tmp_path / "r"),
    )  # fmt: skip
    assert code == 1 and "Truco does not deal duplicate" in text and "Traceback" not in text
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize(
    ("game", "extra"),
    [("ruff", ("--form", "single", "--seats", "2", "--bots", "random,steady")),
     ("truco", ("--seats", "2", "--points", "15", "--bots", "random,basic"))],
)  # fmt: skip
def test_a_duplicate_run_over_grpc_deals_what_it_deals_in_process(
    tmp_path: Path, game: str, extra: tuple[str, ...]
) -> None:
    """The referee starts its matches as the in-process runner does (rotated), and
    ``arena verify`` accepts what it wrote."""
    from test_grpc import run_arena

    local = duplicate_run(tmp_path / "local", game, *extra, rounds=2)
    out = tmp_path / "grpc"
    code, text = run_arena(
        tmp_path, "tournament", "--duplicate", "--game", game, "--rounds", "2", "--seed", "7",
        "--results", str(out), "--quiet", *extra,
    )  # fmt: skip
    assert code == 0, text
    code, text = run_arena(tmp_path, "verify", str(out))
    assert code == 0, text

    def dealt(deals: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        return sorted((d["match"], d["deal"], d["rotation"], d["dealer"], json.dumps(d["hands"]))
                      for d in deals)  # fmt: skip

    assert dealt(read_jsonl(out / "replays.jsonl")) == dealt(local)


@pytest.mark.parametrize(
    ("game", "extra"),
    [("ruff", ("--form", "single", "--seats", "3", "--bots", "random,steady,sharp")),
     ("truco", ("--seats", "2", "--points", "15", "--bots", "random,basic"))],
)  # fmt: skip
def test_a_seeded_deal_after_a_deals_files_still_has_its_dealer_checked(
    tmp_path: Path, game: str, extra: tuple[str, ...]
) -> None:
    """The dealer is never given by a deals file (Ruff F2, Truco R3: drawn and passed by
    the seed), so a seeded deal after a file's has the dealer the seed draws: a record
    whose dealer and hands are both turned by a seat, hands the seed would deal from that
    dealer, is caught (it passed while a file's deal stopped the dealer check)."""
    from arena.cli import _known_secret
    from arena.core.seeding import deal_key
    from arena.games.registry import game_entry

    run = tmp_path / "r"
    code, text = arena("tournament", "--in-process", "--game", game, "--rounds", "1",
                       "--seed", "7", "--results", str(run), "--quiet", *extra)  # fmt: skip
    assert code == 0, text
    first = [r for r in read_jsonl(run / "replays.jsonl") if r["match"].endswith("t01")]
    assert len(first) >= 2
    secret = _known_secret(run)
    assert secret is not None
    key, entry = deal_key(secret, first[0]["match"]), game_entry(game)
    assert entry.check_dealt(first, key) == len(first)
    seats = len(first[1]["hands"])
    turned = dict(first[1], dealer=(first[1]["dealer"] + 1) % seats)
    if game == "ruff":
        from arena.games.ruff.deal import seeded_deal
        from arena.games.ruff.replay import rules_of

        hands, head = seeded_deal(key, int(turned["deal"]), turned["dealer"], rules_of(turned))
        turned["head"] = codes(head)
        turned["hands"] = [codes(hand) for hand in hands]
    else:
        from arena.games.truco.cards import codes as truco_codes
        from arena.games.truco.state import seeded_hands

        dealt = seeded_hands(key, int(turned["deal"]), turned["dealer"], seats)
        turned["hands"] = [truco_codes(list(hand)) for hand in dealt]
    from_file = dict(first[0], source="file")
    with pytest.raises(ReplayMismatch, match="the dealer is not the one the run's secret draws"):
        entry.check_dealt([from_file, turned], key)
