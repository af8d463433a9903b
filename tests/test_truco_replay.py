"""Truco replay records: one per hand, JSON round trip, replayed through the engine."""

from __future__ import annotations

import json

import pytest

from arena.core.errors import ActionFormatError
from arena.games.registry import make_game
from arena.games.truco.actions import parse_action
from arena.games.truco.replay import ReplayMismatch, replay_match
from arena.games.truco.rules import TrucoRules
from arena.play.tournament import MatchContext, play_match
from arena.standings.results import dumps
from bots.random import Bot as RandomBot
from bots.truco.basic import Bot as BasicBot


def play(seats: int, seed: str, bots: str = "random") -> list[dict[str, object]]:
    game = make_game("truco", rules=TrucoRules(seats=seats))
    players = [RandomBot(seed=s) if bots == "random" else BasicBot() for s in range(seats)]
    out = play_match(
        game, players, ctx=MatchContext("r1", seed=seed), names=[f"b{s}" for s in range(seats)]
    )
    assert out.record["game"] == "truco" and out.record["deals"] == len(out.deals)
    return [json.loads(dumps(rec)) for rec in out.deals]


@pytest.mark.parametrize("seats", [2, 4, 6])
@pytest.mark.parametrize("bots", ["random", "basic"])
def test_records_replay_through_the_engine(seats: int, bots: str) -> None:
    for seed in ("a", "b", "c"):
        records = play(seats, seed, bots)
        assert all(r["game"] == "truco" and r["schema"] == 1 for r in records)
        assert [r["deal"] for r in records] == list(range(1, len(records) + 1))
        assert replay_match(records) == len(records)


def test_a_tampered_record_is_reported_with_match_hand_and_field() -> None:
    records = play(4, "t")
    bad = json.loads(json.dumps(records))
    bad[0]["points"] = [99, 0]
    with pytest.raises(ReplayMismatch, match=r"match r1 hand 1: field 'points'"):
        replay_match(bad)
    bad = json.loads(json.dumps(records))
    bad[0]["plays"][0]["actions"][0][0] += 1  # the wrong seat acts
    with pytest.raises(ReplayMismatch, match="refuses the logged play"):
        replay_match(bad)


def test_action_text_round_trips() -> None:
    texts = ["play 1E", "play 12C", "call truco", "call retruco", "call vale-cuatro",
             "call envido", "call real-envido", "call falta-envido", "quiero", "no-quiero",
             "declare 27", "son-buenas", "mazo"]  # fmt: skip
    for text in texts:
        assert str(parse_action(text)) == text
    for bad in ["play 9E", "call flor", "declare x", "", "quiero ya"]:
        with pytest.raises(ActionFormatError, match="Truco action"):
            parse_action(bad)


def test_truco_records_share_the_envelope_game_neutral_readers_use() -> None:
    from arena.games.truf.replay import group_by_match

    records = play(6, "e")
    for rec in records:
        assert list(rec)[:5] == ["schema", "game", "match", "deal", "seats"]
    grouped = group_by_match(reversed(records))
    assert list(grouped) == ["r1"] and replay_match(grouped["r1"]) == len(records)
