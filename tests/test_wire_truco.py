"""Truco's wire codec (arena/games/truco/wire.py) and the game-neutral codec registry: every
view, legal list and hand record of random playouts at 2, 4 and 6 seats survives the
generated messages unchanged, and a bot's unreadable actions are one-line
ActionFormatErrors saying what is wrong."""

from __future__ import annotations

import random

import pytest

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena._proto.truf.arena.v1 import truco_pb2 as tpb
from arena.core.errors import ActionFormatError
from arena.games.codecs import CODECS, codec_for
from arena.games.truco import wire as truco_wire
from arena.games.truco.actions import MAZO, NO_QUIERO, QUIERO, SON_BUENAS, Call, Declare, Play
from arena.games.truco.calls import EnvidoCall, TrucoCall
from arena.games.truco.cards import Card
from arena.games.truco.replay import public_hand
from arena.games.truco.rules import TrucoRules
from arena.games.truco.state import TrucoMatch


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_every_view_legal_list_and_hand_record_round_trips(seats: int) -> None:
    rng = random.Random(seats)
    decisions = hands = 0
    for n in range(4):
        match = TrucoMatch(TrucoRules(seats=seats, points=15), match_id="w", seed=f"w{seats}:{n}",
                           names=[f"n{i}" for i in range(seats)])  # fmt: skip
        decisions, hands = play_through(match, rng, decisions, hands)
    assert decisions > 100 and hands > 10


def play_through(
    match: TrucoMatch, rng: random.Random, decisions: int, hands: int
) -> tuple[int, int]:
    codec = codec_for("truco")
    while not match.is_over:
        (seat,) = match.to_act()
        view, legal = match.view(seat), match.legal_actions(seat)
        data = codec.decision_bytes(view, legal)
        assert codec.wire_decision(data, match_id="w", seat=seat) == (view, tuple(legal))
        decisions += 1
        match.apply(seat, rng.choice(legal))
        for record in match.finished:
            result = pb.DealResult(deal=record["deal"])
            codec.fill_deal_result(result, record)
            again = pb.DealResult.FromString(result.SerializeToString())
            assert again.WhichOneof("game") == "truco"
            assert codec.deal_result_from(again) == public_hand(record)
            hands += 1
        match.finished.clear()
    return decisions, hands


def test_every_action_round_trips_by_value() -> None:
    actions = [Play(Card.parse("12B")), QUIERO, NO_QUIERO, SON_BUENAS, MAZO, Declare(33),
               *(Call(c) for c in (*TrucoCall, *EnvidoCall))]  # fmt: skip
    for action in actions:
        answer = pb.Answer()
        CODECS["truco"].fill_answer(answer, action)
        assert answer.WhichOneof("choice") == "truco"
        assert CODECS["truco"].action_from_answer(answer) == action


@pytest.mark.parametrize(
    ("action", "words"),
    [
        (tpb.TrucoAction(), "no action set"),
        (tpb.TrucoAction(play="8E"), "'8E' is not a Spanish-deck card"),
        (tpb.TrucoAction(play=""), "play"),
        # A bot's padding is never echoed: its length and start instead.
        (
            tpb.TrucoAction(play="1E" + "x" * 5000),
            "play: not a card code: 5002 characters, from '1Exxxxxx'",
        ),
        (tpb.TrucoAction(call=tpb.TRUCO_CALL_UNSPECIFIED), "call is TRUCO_CALL_UNSPECIFIED"),
        (tpb.TrucoAction(call=99), "call is the unknown value 99"),  # type: ignore[arg-type]
        (tpb.TrucoAction(answer=tpb.TRUCO_ANSWER_UNSPECIFIED), "answer is TRUCO_ANSWER_UNSP"),
    ],
)
def test_an_unreadable_action_says_what_is_wrong(action: tpb.TrucoAction, words: str) -> None:
    with pytest.raises(ActionFormatError) as info:
        truco_wire.action_from_proto(tpb.TrucoAction.FromString(action.SerializeToString()))
    assert words in str(info.value) and "\n" not in str(info.value)


def test_the_registry_names_each_games_branch_and_refuses_unknown_games() -> None:
    for name, codec in CODECS.items():
        assert codec.game == name
        for message in (pb.DecisionRequest, pb.Answer, pb.DealResult):
            assert message.DESCRIPTOR.fields_by_name[codec.branch].number == codec.field
    assert set(CODECS) == {"truf", "truco", "ruff"}
    with pytest.raises(ValueError, match="no wire codec for game 'whist'; there are: truf, "):
        codec_for("whist")
