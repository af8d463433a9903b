"""Ruff and Trump's wire codec (arena/games/ruff/wire.py): every view, legal list and deal
record of random playouts in every form and seat count survives the generated messages
unchanged; a discard decision names no card list but means the engine's; a deal result
holds no hidden card (F11); a bot's unreadable actions are one-line ActionFormatErrors."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena._proto.truf.arena.v1 import ruff_pb2 as rpb
from arena.core.cards import Card
from arena.core.errors import ActionFormatError
from arena.games.codecs import codec_for
from arena.games.ruff import wire as ruff_wire
from arena.games.ruff.actions import Announce, Discard, Play
from arena.games.ruff.discards import Discards
from arena.games.ruff.replay import public_deal
from arena.games.ruff.rules import RuffRules
from arena.games.ruff.state import RuffMatch

FORMS = [("double", 4, False), ("single", 4, False), ("single", 3, False),
         ("single", 2, False), ("single", 3, True)]  # fmt: skip


def new_match(form: str, seats: int, alt: bool, seed: str) -> RuffMatch:
    rules = RuffRules(form=form, seats=seats, alt_deals=alt)  # type: ignore[arg-type]
    return RuffMatch(rules, match_id="w", seed=seed, names=[f"n{i}" for i in range(seats)])


@pytest.mark.parametrize(("form", "seats", "alt"), FORMS)
def test_every_view_legal_list_and_deal_record_round_trips(
    form: str, seats: int, alt: bool
) -> None:
    rng = random.Random(f"{form}{seats}{alt}")
    codec = codec_for("ruff")
    decisions = deals = rubs = 0
    for n in range(2):
        match = new_match(form, seats, alt, f"w{n}")
        while not match.is_over:
            (seat,) = match.to_act()
            view, legal = match.view(seat), match.legal_actions(seat)
            data = codec.decision_bytes(view, legal)
            assert codec.wire_decision(data, match_id="w", seat=seat) == (view, tuple(legal))
            decisions += 1
            rubs += view.phase == "rub"
            match.apply(seat, rng.choice(legal))
            for record in match.finished:
                result = pb.DealResult(deal=record["deal"])
                codec.fill_deal_result(result, record)
                again = pb.DealResult.FromString(result.SerializeToString())
                assert again.WhichOneof("game") == "ruff"
                assert codec.deal_result_from(again) == public_deal(record)
                assert_no_hidden_card(again.ruff, record)
                deals += 1
            match.finished.clear()
    assert decisions > 100 and deals >= 2 and rubs >= 1


def assert_no_hidden_card(msg: rpb.RuffDealResult, record: dict[str, Any]) -> None:
    """Only played cards, the turned card and shown cards appear: never a discard, an
    unseen head card, or a card nobody played (F11)."""
    public = {code for t in record["tricks"] for _, code in t["cards"]} | {record["turned"]}
    if record["shown"]:
        public |= set(record["shown"]["cards"])
    text = str(msg)
    hidden = {
        *record["head"],
        *(record["discards"] or ()),
        *(c for h in record["hands"] for c in h),
    }
    assert hidden - public, "a deal in which every card is public proves nothing"
    for code in hidden - public:
        assert f'"{code}"' not in text, code


def test_a_discard_decision_sends_no_list_and_means_every_four_of_the_hand() -> None:
    match = new_match("double", 4, False, "rub")
    rng = random.Random(3)
    while match.view(match.to_act()[0]).phase != "rub":
        (seat,) = match.to_act()
        match.apply(seat, rng.choice(match.legal_actions(seat)))
        if match.is_over:
            pytest.skip("the set ended at the ruff")
    (seat,) = match.to_act()
    view, legal = match.view(seat), match.legal_actions(seat)
    msg = rpb.RuffDecision.FromString(ruff_wire.decision_bytes(view, legal))
    assert msg.discard.count == 4 and not msg.legal_actions
    assert len(msg.view.hand) == 16 and len(legal) == 1820
    # The documented order: sets of four of RuffView.hand, lexicographic by position.
    hand = [Card.parse(c) for c in msg.view.hand]
    assert [a.cards for a in legal] == list(combinations(hand, 4))
    assert ruff_wire.discards_of(view.hand) == legal
    assert isinstance(ruff_wire.decision_from_bytes(msg.SerializeToString())[1], Discards)
    with pytest.raises(ValueError, match="legal discards from 16 cards"):
        ruff_wire.decision_bytes(view, legal[:5])


def test_every_action_round_trips_by_value() -> None:
    four = tuple(Card.parse(c) for c in ("2C", "AS", "TD", "7H"))
    for action in (Announce(0), Announce(61), Play(Card.parse("QH")), Discard(four)):
        msg = rpb.RuffAction.FromString(ruff_wire.action_to_proto(action).SerializeToString())
        assert ruff_wire.action_from_proto(msg) == action
        answer = pb.Answer()
        codec_for("ruff").fill_answer(answer, action)
        assert answer.WhichOneof("choice") == "ruff"
        assert codec_for("ruff").action_from_answer(answer) == action
    # A discard is read in any order and case.
    msg = rpb.RuffAction(discard=rpb.RuffDiscard(cards=["7h", "td", "as", "2c"]))
    assert ruff_wire.action_from_proto(msg) == Discard(four)


@pytest.mark.parametrize(
    ("action", "words"),
    [
        (rpb.RuffAction(), "no action set"),
        (rpb.RuffAction(play="1D"), "play: not a card code: '1D'"),
        (rpb.RuffAction(discard=rpb.RuffDiscard(cards=["2C", "3C", "4C"])), "4 different cards"),
        (rpb.RuffAction(discard=rpb.RuffDiscard(cards=["2C", "2C", "3C", "4C"])), "4 different"),
        (rpb.RuffAction(discard=rpb.RuffDiscard(cards=["2C", "3C", "4C", "ZZ"])),
         "discard: not a card code: 'ZZ'"),
        # A bot's padding is never echoed: a count, or a length and a start, instead.
        (rpb.RuffAction(discard=rpb.RuffDiscard(cards=["2C"] * 5000)), "cards, not 5000"),
        (rpb.RuffAction(play="AS" + "x" * 5000), "not a card code: 5002 characters, from 'ASxx"),
    ],
)  # fmt: skip
def test_an_unreadable_action_is_a_one_line_error_saying_what(
    action: rpb.RuffAction, words: str
) -> None:
    with pytest.raises(ActionFormatError) as info:
        ruff_wire.action_from_proto(rpb.RuffAction.FromString(action.SerializeToString()))
    assert words in str(info.value) and "\n" not in str(info.value)
    assert str(info.value).startswith("cannot read Ruff action: ")
    assert len(str(info.value)) < 200


def test_a_view_of_another_match_or_seat_is_refused() -> None:
    match = new_match("double", 4, False, "x")
    (seat,) = match.to_act()
    data = ruff_wire.decision_bytes(match.view(seat), match.legal_actions(seat))
    with pytest.raises(ValueError, match="the view is of match 'w' seat"):
        codec_for("ruff").wire_decision(data, match_id="w", seat=(seat + 1) % 4)


def test_discards_are_built_on_demand_in_the_engines_order() -> None:
    """ruling F5: any four of the hand; the lazy list is itertools.combinations' order,
    indexes back to itself, and holds nothing else."""
    deck = [Card.parse(f"{r}{s}") for s in "SHDC" for r in "23456789TJQKA"]
    rng = random.Random(5)
    hand16 = sorted(rng.sample(deck, 16))
    lazy = Discards(hand16)
    assert tuple(lazy) == tuple(Discard(c) for c in combinations(hand16, 4)) == lazy[:]
    assert lazy == tuple(lazy) and lazy[-1] == lazy[1819]
    hand28 = sorted(rng.sample(deck, 28))
    big = Discards(reversed(hand28))  # the hand in any order: read in card order
    assert len(big) == 20475
    for i in [0, 1, 2, 20474, *rng.sample(range(20475), 200)]:
        assert big.index(big[i]) == i and big[i] in big
    assert big[0] == Discard(tuple(hand28[:4])) and big[-1] == Discard(tuple(hand28[-4:]))
    foreign = Discard((*hand28[:3], next(c for c in deck if c not in hand28)))
    assert foreign not in big and Play(hand28[0]) not in big
    with pytest.raises(ValueError, match="is not a discard of this hand"):
        big.index(foreign)
    with pytest.raises(IndexError):
        big[20475]
