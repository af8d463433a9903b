"""The Truf wire codec: every view and action survives protobuf bytes exactly.

Views come from random playouts of both variants. The codec's hand-written wire
bytes are also checked against a reference encoder written here with the plain
protobuf API, so the two cannot drift apart.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from arena._proto.truf.arena.v1 import arena_pb2
from arena._proto.truf.arena.v1 import truf_pb2 as pb
from arena.core.cards import CARDS, CODES, Card
from arena.games.truf import wire as wire
from arena.games.truf.actions import BIDS, MODES, PLAYS, Action, Declare, Mode
from arena.games.truf.errors import ActionFormatError
from arena.games.truf.rules import TrufRules
from arena.games.truf.state import Phase, TrufMatch
from arena.games.truf.view import PlayedCard, SeatView, Trick

VARIANTS = ("classic", "target")
SEEDS = (0, 1, 2)


def playout(variant: str, seed: int) -> Iterator[tuple[TrufMatch, int, list[Action]]]:
    """Every decision of a random match: (match, seat, legal) before the seat acts."""
    m = TrufMatch(TrufRules(variant=variant), seed=seed, match_id=f"wire-{variant}-{seed}")
    rng = random.Random(seed)
    while not m.is_over:
        for seat in m.to_act():
            legal = list(m.legal_actions(seat))
            yield m, seat, legal
            m.apply(seat, rng.choice(legal))


def assert_same(got: Any, want: Any, path: str = "view") -> None:
    """Equal values of exactly the same types, all the way down (Card is not int)."""
    assert type(got) is type(want), f"{path}: {type(got).__name__} != {type(want).__name__}"
    if isinstance(want, tuple):
        assert len(got) == len(want), f"{path}: length {len(got)} != {len(want)}"
        fields = getattr(want, "_fields", None) or range(len(want))
        for i, name in enumerate(fields):
            assert_same(got[i], want[i], f"{path}.{name}")
    else:
        assert got == want, f"{path}: {got!r} != {want!r}"
        if isinstance(want, Card):
            assert got is want, f"{path}: not the interned card {want!r}"


def reference_view(v: SeatView) -> pb.TrufView:
    """TrufView through the protobuf API, field by field, as the .proto documents it."""
    m = pb.TrufView(
        variant=pb.TrufVariant.Value("TRUF_VARIANT_" + v.variant.upper()),
        match_id=v.match_id,
        deal=v.deal,
        deals=v.deals,
        seat=v.seat,
        names=v.names,
        dealer=v.dealer,
        direction=pb.Direction.Value("DIRECTION_" + v.direction.upper()),
        order=v.order,
        phase=pb.TrufPhase.Value("TRUF_PHASE_" + v.phase.upper()),
        to_act=v.to_act,
        hand=[c.code for c in v.hand],
        no_truf=v.no_truf,
        trump_broken=v.trump_broken,
        tricks_won=v.tricks_won,
        totals=v.totals,
    )
    for bid in v.bids or ():
        if isinstance(bid, Declare):
            op = pb.TrufDeclareOp.Value("TRUF_DECLARE_OP_" + bid.op.upper())
            m.bids.add(declaration=pb.TrufDeclaration(cards=[c.code for c in bid.cards], op=op))
        else:
            m.bids.add(card=bid.card.code)
    if v.bid_total is not None:
        m.bid_total = v.bid_total
    if v.high_bidder is not None:
        m.high_bidder = v.high_bidder
    if v.trump is not None:
        m.trump = pb.Suit.Value("SUIT_" + ("SPADES", "HEARTS", "DIAMONDS", "CLUBS")[v.trump])
    if v.mode is not None:
        m.mode = pb.TrufMode.Value("TRUF_MODE_" + v.mode.upper())
    m.final_bids.extend(v.final_bids or ())
    for t in v.tricks:
        trick = m.tricks.add(leader=t.leader, winner=t.winner)
        for seat, card in t.cards:
            trick.cards.add(seat=seat, card=card.code)
    if v.trick_leader is not None:
        m.trick_leader = v.trick_leader
    for p in v.trick:
        m.trick.add(seat=p.seat, card="" if p.card is None else p.card.code, face_down=p.face_down)
    return m


def reference_action(a: Action) -> pb.TrufAction:
    if isinstance(a, Declare):
        op = pb.TrufDeclareOp.Value("TRUF_DECLARE_OP_" + a.op.upper())
        return pb.TrufAction(declare=pb.TrufDeclaration(cards=[c.code for c in a.cards], op=op))
    if a.kind == "mode":
        return pb.TrufAction(
            mode=pb.TrufModeAction(mode=pb.TrufMode.Value("TRUF_MODE_" + a.mode.upper()))
        )
    if a.kind == "bid":
        return pb.TrufAction(bid=pb.TrufBidAction(card=a.card.code))
    return pb.TrufAction(play=pb.TrufPlayAction(card=a.card.code))


# ----------------------------------------------------------------- round trips


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_decision_round_trips_exactly_through_bytes(variant: str, seed: int) -> None:
    decisions = 0
    for m, seat, legal in playout(variant, seed):
        view = m.view(seat)
        data = wire.decision_to_proto(view, legal).SerializeToString()
        got_view, got_legal = wire.decision_from_proto(pb.TrufDecision.FromString(data))
        assert_same(got_view, view)
        assert got_legal == tuple(legal)
        for got, want in zip(got_legal, legal, strict=True):
            assert type(got) is type(want)
            if not isinstance(want, Declare):
                assert got is want  # plays, bids and modes are the interned objects
        decisions += 1
    assert decisions > 100


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_seat_view_matches_the_protobuf_api_encoding(variant: str) -> None:
    """Views of all four seats at every step, including the seats not to act."""
    last = None
    for m, seat, legal in playout(variant, 7):
        if seat != m.to_act()[0]:
            continue  # once per step of the bidding, not once per bidder
        for s in range(4):
            view = m.view(s)
            assert wire.view_to_proto(view) == reference_view(view)
            data = reference_view(view).SerializeToString()
            assert_same(wire.view_from_proto(pb.TrufView.FromString(data)), view)
        decision = wire.decision_to_proto(m.view(seat), legal)
        assert list(decision.legal_actions) == [reference_action(a) for a in legal]
        last = m
    assert last is not None and last.is_over
    for s in range(4):  # the final view, phase over
        view = last.view(s)
        assert view.phase is Phase.OVER
        assert_same(wire.view_from_proto(wire.view_to_proto(view)), view)


def test_every_action_round_trips_to_the_same_object() -> None:
    declarations: set[Declare] = set()
    for _m, _seat, legal in playout("target", 3):
        declarations.update(a for a in legal if isinstance(a, Declare))
        if len(declarations) > 300:
            break
    for action in (*PLAYS, *BIDS, *MODES.values(), *declarations):
        msg = pb.TrufAction.FromString(wire.action_to_proto(action).SerializeToString())
        assert msg == reference_action(action)
        back = wire.action_from_proto(msg)
        assert back == action and type(back) is type(action)
        if not isinstance(action, Declare):
            assert back is action


def test_a_declaration_may_name_its_cards_in_any_order() -> None:
    msg = pb.TrufAction(declare=pb.TrufDeclaration(cards=["9S", "4S"], op=pb.TRUF_DECLARE_OP_SUM))
    action = wire.action_from_proto(msg)
    assert isinstance(action, Declare)
    assert action.cards == (Card.parse("4S"), Card.parse("9S"))


@pytest.mark.parametrize("code", ["td", "10D", "10d", " TD"])
def test_card_codes_are_read_as_leniently_as_card_parse(code: str) -> None:
    msg = pb.TrufAction(play=pb.TrufPlayAction(card=code))
    assert wire.action_from_proto(msg) is PLAYS[Card.parse("TD")]


def test_zero_and_negative_values_keep_their_presence() -> None:
    """Seat 0, a bid total of 0, a -1 bid and large negative totals all survive."""
    five, ace = Card.parse("5S"), Card.parse("AH")
    view = SeatView(
        game="truf",
        variant="classic",
        match_id="",
        deal=1,
        deals=13,
        seat=0,
        names=("Kopi ☕", "b", "c", "d"),
        dealer=0,
        direction="cw",
        order=(1, 2, 3, 0),
        phase=Phase.PLAY,
        to_act=(0,),
        hand=(five, ace),
        bids=(BIDS[Card.parse("JS")], BIDS[Card.parse("QS")], BIDS[five], BIDS[ace]),
        bid_total=0,
        high_bidder=0,
        trump=0,
        no_truf=False,
        mode=Mode.BAWAH,
        final_bids=(-1, -1, 4, 0),
        tricks=(Trick(0, ((0, Card.parse("2C")), (1, Card.parse("3C"))), 1),),
        trick_leader=0,
        trick=(PlayedCard(0, five, True), PlayedCard(1, None, True)),
        trump_broken=True,
        tricks_won=(0, 1, 0, 0),
        totals=(-300, 5000, 0, -1),
    )
    msg = pb.TrufView.FromString(wire.view_to_proto(view).SerializeToString())
    assert msg == reference_view(view)
    assert msg.HasField("bid_total") and msg.HasField("high_bidder")
    assert msg.HasField("trick_leader")
    assert_same(wire.view_from_proto(msg), view)


def test_not_yet_known_fields_are_absent_before_the_reveal() -> None:
    m = TrufMatch(TrufRules(), seed=5)
    msg = wire.view_to_proto(m.view(0))
    assert not msg.HasField("bid_total") and not msg.HasField("high_bidder")
    assert not msg.HasField("trick_leader")
    assert len(msg.bids) == 0 and len(msg.final_bids) == 0
    assert msg.trump == pb.SUIT_UNSPECIFIED and msg.mode == pb.TRUF_MODE_UNSPECIFIED


# ------------------------------------------------------------------- hiding (C11)


def test_a_face_down_trump_stays_hidden_in_the_bytes_other_seats_get() -> None:
    """Ruling C11: the others learn that a trump lies face down, never which one."""
    checked = hidden_in_bytes = 0
    for seed in range(4):
        for m, _seat, _legal in playout("classic", seed):
            view = m.view(0)
            if view.phase is not Phase.PLAY or not view.trick:
                continue
            for i, played in enumerate(m.view(0).trick):
                owner_view = m.view(played.seat)
                card = owner_view.trick[i].card
                if not owner_view.trick[i].face_down:
                    continue
                assert card is not None  # the owner sees its own card
                owner = wire.view_to_proto(owner_view)
                assert owner.trick[i].card == card.code and owner.trick[i].face_down
                bid_cards = {b.card for b in owner_view.bids or () if not isinstance(b, Declare)}
                for other in range(4):
                    if other == played.seat:
                        continue
                    data = wire.view_to_proto(m.view(other)).SerializeToString()
                    seen = pb.TrufView.FromString(data).trick[i]
                    assert seen.card == "" and seen.face_down and seen.seat == played.seat
                    if card not in bid_cards:  # a revealed bid card is public (C3)
                        assert card.code.encode() not in data
                        hidden_in_bytes += 1
                    checked += 1
    assert checked > 50 and hidden_in_bytes > 50


# --------------------------------------------------------------- malformed actions


def _declare(cards: list[str], op: int) -> pb.TrufAction:
    return pb.TrufAction(declare=pb.TrufDeclaration(cards=cards, op=op))


@pytest.mark.parametrize(
    ("msg", "words"),
    [
        pytest.param(pb.TrufAction(), ["no action set", "bid, declare, mode, play"], id="empty"),
        pytest.param(
            pb.TrufAction(play=pb.TrufPlayAction(card="1D")),
            ["play.card", "'1D'", "'TD'"],
            id="unknown-card",
        ),
        pytest.param(
            pb.TrufAction(play=pb.TrufPlayAction()), ["play.card", "''"], id="play-without-card"
        ),
        pytest.param(
            pb.TrufAction(bid=pb.TrufBidAction(card="XS")), ["bid.card", "'XS'"], id="bad-bid"
        ),
        pytest.param(
            pb.TrufAction(mode=pb.TrufModeAction()),
            ["mode.mode", "TRUF_MODE_UNSPECIFIED"],
            id="mode-unspecified",
        ),
        pytest.param(
            pb.TrufAction(mode=pb.TrufModeAction(mode=9)),
            ["mode.mode", "unknown value 9"],
            id="mode-unknown",
        ),
        pytest.param(
            _declare([], pb.TRUF_DECLARE_OP_SINGLE),
            ["declare.cards", "0 cards", "one or two"],
            id="declare-no-cards",
        ),
        pytest.param(
            _declare(["2S", "3S", "4S"], pb.TRUF_DECLARE_OP_SUM),
            ["declare.cards", "3 cards", "'2S', '3S', '4S'"],
            id="declare-three-cards",
        ),
        pytest.param(
            _declare(["5S", "5S"], pb.TRUF_DECLARE_OP_SUM),
            ["5S twice", "must differ"],
            id="declare-same-card-twice",
        ),
        pytest.param(
            _declare(["5S", "QQ"], pb.TRUF_DECLARE_OP_SUM),
            ["declare.cards", "'QQ'"],
            id="declare-bad-card",
        ),
        pytest.param(
            _declare(["5S"], pb.TRUF_DECLARE_OP_UNSPECIFIED),
            ["declare.op", "UNSPECIFIED"],
            id="declare-op-unspecified",
        ),
        pytest.param(
            _declare(["5S", "6S"], 42), ["declare.op", "unknown value 42"], id="declare-op-unknown"
        ),
    ],
)
def test_a_malformed_action_raises_action_format_error_saying_what(
    msg: pb.TrufAction, words: list[str]
) -> None:
    with pytest.raises(ActionFormatError) as info:
        wire.action_from_proto(pb.TrufAction.FromString(msg.SerializeToString()))
    text = str(info.value)
    assert text.startswith("cannot read Truf action")
    for word in words:
        assert word in text, f"{word!r} not in {text!r}"


def test_a_malformed_action_is_still_refused_the_second_time() -> None:
    """Only successful reads are cached."""
    msg = pb.TrufAction(play=pb.TrufPlayAction(card="ZZ"))
    for _ in range(2):
        with pytest.raises(ActionFormatError):
            wire.action_from_proto(msg)


def test_a_view_with_an_unknown_card_is_refused() -> None:
    m = TrufMatch(TrufRules(), seed=0)
    msg = wire.view_to_proto(m.view(1))
    msg.hand[0] = "ZZ"
    with pytest.raises(ValueError, match="hand.*'ZZ'"):
        wire.view_from_proto(msg)


# ------------------------------------------------------------------- WireView


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_sdks_wire_view_is_the_seat_view_field_by_field(variant: str) -> None:
    """What a bot gets over gRPC reads, iterates, compares and hashes as the SeatView."""
    directions = set()
    for n, (m, seat, legal) in enumerate(playout(variant, 3)):
        view = m.view(seat)
        directions.add(view.direction)
        got, got_legal = wire.wire_decision(wire.decision_bytes(view, legal))
        assert got_legal == tuple(legal)
        if n % 2:  # read in field order, or all at once
            for name in SeatView._fields:
                assert_same(getattr(got, name), getattr(view, name), f"view.{name}")
        assert_same(got.materialize(), view)
        assert got == view and view == got.materialize() and hash(got) == hash(view)
        assert tuple(got) == tuple(view) and len(got) == len(view) and got[12] == view.hand
        assert got.led_suit == view.led_suit
        # C6: next_seat walks the play order, clockwise or counter-clockwise as dealt
        # (bots/truf/planner.py relies on it); view.order is built apart from next_seat
        order = view.order
        for i, s in enumerate(order):
            assert got.next_seat(s) == view.next_seat(s) == order[(i + 1) % len(order)], s
        assert got._asdict() == view._asdict()
        assert got._replace(seat=9) == view._replace(seat=9)
    assert directions == {"cw", "ccw"}  # both ways round were checked


def test_a_wire_view_decodes_the_collections_only_when_one_is_read() -> None:
    m = TrufMatch(TrufRules(), seed=2, match_id="lazy")
    for _ in range(12):
        seat = m.to_act()[0]
        m.apply(seat, m.legal_actions(seat)[0])
    seat = m.to_act()[0]
    got, _ = wire.wire_decision(wire.decision_bytes(m.view(seat), m.legal_actions(seat)))
    assert set(vars(got)) == {"_data"}  # not even parsed yet
    assert (got.match_id, got.seat, got.phase) == ("lazy", seat, Phase.PLAY)
    scalars = set(vars(got)) - {"_data", "_lite"}
    assert "seat" in scalars and not {"hand", "tricks", "bids", "trick", "totals"} & scalars
    assert got.hand == m.view(seat).hand
    assert set(vars(got)) == {"_data", "_lite", *SeatView._fields}
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        got.nonsense  # noqa: B018
    with pytest.raises(AttributeError, match="read-only"):
        got.seat = 3
    assert got.seat == seat


def test_a_wire_view_knows_the_requests_match_and_seat_without_parsing() -> None:
    """The SDK passes the decision request's match id and seat: a bot that reads only
    those never has the view parsed, and a view that says otherwise is refused."""
    m = TrufMatch(TrufRules(), seed=5, match_id="m7")
    data = wire.decision_bytes(m.view(2), m.legal_actions(2))
    got, _ = wire.wire_decision(data, match_id="m7", seat=2)
    assert (got.match_id, got.seat) == ("m7", 2)
    assert set(vars(got)) == {"_data", "match_id", "seat"}
    assert got == m.view(2) and got.phase == Phase.BID
    liar, _ = wire.wire_decision(data, match_id="m7", seat=3)
    assert liar.seat == 3
    for _ in range(2):  # and every time, not just the first
        with pytest.raises(ValueError, match="match 'm7' seat 2, the request of match 'm7' seat 3"):
            liar.hand  # noqa: B018


def test_a_wire_view_with_an_unknown_card_says_so_when_the_hand_is_read() -> None:
    m = TrufMatch(TrufRules(), seed=0)
    msg = wire.view_to_proto(m.view(1))
    msg.hand[0] = "ZZ"
    got = wire.WireView(msg.SerializeToString())
    assert got.seat == 1
    with pytest.raises(ValueError, match="hand.*'ZZ'"):
        got.hand  # noqa: B018


# ---------------------------------------------------------------- envelopes, results


def test_a_decision_request_envelope_carries_the_decision() -> None:
    m = TrufMatch(TrufRules(variant="target"), seed=4)
    view, legal = m.view(2), m.legal_actions(2)
    out = arena_pb2.PlayResponse()
    req = out.decision_request
    req.request_id = 7
    req.seat = 2
    wire.fill_decision(req.truf, view, legal)
    got = arena_pb2.PlayResponse.FromString(out.SerializeToString())
    assert got.WhichOneof("message") == "decision_request"
    assert got.decision_request.WhichOneof("game") == "truf"
    got_view, got_legal = wire.decision_from_proto(got.decision_request.truf)
    assert_same(got_view, view)
    assert got_legal == tuple(legal)
    answer = arena_pb2.PlayRequest(answer=arena_pb2.Answer(request_id=7, index=0))
    assert arena_pb2.PlayRequest.FromString(answer.SerializeToString()).answer.index == 0


def test_the_referees_hand_built_request_equals_the_generated_message() -> None:
    from arena.referee.server import decision_request_bytes

    m = TrufMatch(TrufRules(), seed=5, match_id="r0003-t02")
    for _ in range(9):
        seat = m.to_act()[0]
        m.apply(seat, m.legal_actions(seat)[-1])
    seat = m.to_act()[0]
    view, legal = m.view(seat), m.legal_actions(seat)
    now_ns = 1_790_000_000_123_456_789
    decision = wire.decision_bytes(view, legal)
    # The decision timeout and what is left of the bank are sent apart (and summed).
    for bank, bank_ms in ((0.0, 0), (1.2345, 1234)):
        data = decision_request_bytes(
            2**40 + 3, "r0003-t02", view.deal, seat, 0.75, bank, now_ns, decision
        )
        expected = arena_pb2.PlayResponse()
        req = expected.decision_request
        req.request_id = 2**40 + 3
        req.table_id = req.match_id = "r0003-t02"
        req.deal, req.seat, req.timeout_ms = view.deal, seat, 750 + bank_ms
        req.base_timeout_ms, req.time_bank_ms = 750, bank_ms
        # To the millisecond, rounded down.
        req.deadline.FromNanoseconds(1_790_000_000_873_000_000 + bank_ms * 1_000_000)
        wire.fill_decision(req.truf, view, legal)
        assert arena_pb2.PlayResponse.FromString(data) == expected


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_deal_result_carries_the_public_record(variant: str) -> None:
    records: list[dict[str, Any]] = []
    for m, _seat, _legal in playout(variant, 11):
        records.extend(m.finished)
        m.finished.clear()
    assert records
    for rec in records:
        msg = pb.TrufDealResult.FromString(wire.deal_result_to_proto(rec).SerializeToString())
        assert len(msg.tricks) == 13
        assert all(len(t.cards) == 4 for t in msg.tricks)
        back = wire.deal_result_from_proto(msg)
        for key in (
            "variant", "dealer", "direction", "bids", "bid_total", "high_bidder", "trump",
            "mode", "mode_chosen", "final_bids", "tricks", "tricks_won", "scores", "totals",
        ):  # fmt: skip
            assert back[key] == rec[key], key


def test_a_deal_record_without_the_optional_keys_still_encodes() -> None:
    records: list[dict[str, Any]] = []
    for m, _seat, _legal in playout("classic", 2):
        records.extend(m.finished)
        if records:
            break
    rec = {k: v for k, v in records[0].items() if k not in ("variant", "bid_total", "mode_chosen")}
    msg = wire.deal_result_to_proto(rec)
    assert msg.bid_total == records[0]["bid_total"]
    assert msg.variant == pb.TRUF_VARIANT_UNSPECIFIED
    with pytest.raises(ValueError, match="trump"):
        wire.deal_result_to_proto({k: v for k, v in rec.items() if k != "trump"})


# --------------------------------------------------------------------- layering


def test_the_codec_imports_no_grpc_and_the_engine_imports_no_codec() -> None:
    code = (
        "import sys, arena.games.truf.state, arena.games.truf.replay\n"
        "assert not any(m.startswith(('arena.wire', 'arena._proto', 'google.protobuf')) "
        "for m in sys.modules), 'the engine pulled in the wire layer'\n"
        "import arena.games.truf.wire\n"
        "assert 'grpc' not in sys.modules, 'the codec pulled in grpc'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_every_card_code_reads_as_the_interned_card() -> None:
    for code, card in zip(CODES, CARDS, strict=True):
        assert wire.CARD_OF[code] is card


@given(st.integers(min_value=0, max_value=2**64 - 1))
@example(127)
@example(128)
@example(2**14 - 1)
@example(2**14)
@example(2**21 - 1)
@example(2**21)
def test_a_hand_written_varint_is_protobufs(n: int) -> None:
    from arena.wire.pbwire import uint_field

    assert uint_field(1, n) == arena_pb2.AnswerRejected(request_id=n).SerializeToString() or n == 0
