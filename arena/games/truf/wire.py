"""Truf over the wire: ``SeatView``, actions and deal records <-> protobuf messages.

The messages are documented in ``proto/truf/arena/v1/truf.proto``. Every function
here is exact: ``view_from_proto(view_to_proto(v)) == v`` with the same interned
``Card``, ``Bid``, ``Play``, ``ChooseMode`` objects and the same ``Phase``, ``Mode``,
``Declare``, ``PlayedCard`` and ``Trick`` types, so a bot written against
``SeatView`` plays the same in-process and over gRPC.

Encoding a decision is on the referee's hot path (one per decision), so the view
and the legal list are not set field by field through the protobuf API (about
50 us a decision) but written as wire bytes from precomputed pieces (each card
code, each played card, each action), with the pieces that recur in many views
(a closed trick, the revealed bids, the deal's header) cached, and then parsed
once, in C, into the message (about 9 us). Decoding reads the bytes through
private twins of the messages whose nested messages are plain ``bytes``, so the
tricks, bids and actions seen before are dict look-ups (about 20 us instead of
115); the SDK's ``WireView`` decodes a view only as far as the bot reads it.
``tests/test_wire_truf.py`` checks both against the protobuf API, view by view, over
random matches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, cast

from arena._proto.truf.arena.v1 import arena_pb2
from arena._proto.truf.arena.v1 import truf_pb2 as pb
from arena.core.cards import CARDS, CODES, VALUES, Card, CardError
from arena.games.truf.actions import (
    BIDS,
    MODES,
    PLAYS,
    Action,
    Bid,
    ChooseMode,
    Declare,
    DeclareOp,
    Mode,
    Play,
    declare,
)
from arena.games.truf.bidding import PAIRS, SINGLES
from arena.games.truf.errors import ActionFormatError
from arena.games.truf.state import Phase
from arena.games.truf.view import LazyView, PlayedCard, SeatView, Trick
from arena.wire.common import card_error
from arena.wire.pbwire import SMALL as _SMALL
from arena.wire.pbwire import len_field as _len
from arena.wire.pbwire import lite_class
from arena.wire.pbwire import str_field as _str
from arena.wire.pbwire import tag as _key
from arena.wire.pbwire import uint_field as _uint
from arena.wire.pbwire import uv as _uv
from arena.wire.pbwire import varint as _varint
from arena.wire.pbwire import zigzag as _zigzag

__all__ = [
    "action_from_proto",
    "action_to_proto",
    "deal_result_from_proto",
    "deal_result_to_proto",
    "decision_bytes",
    "decision_from_bytes",
    "decision_from_proto",
    "decision_to_proto",
    "fill_deal_result",
    "fill_decision",
    "fill_view",
    "view_bytes",
    "view_from_bytes",
    "view_from_proto",
    "view_to_proto",
    "wire_decision",
    "WireView",
]

# --------------------------------------------------------------------- enum maps

VARIANT_TO: dict[str, pb.TrufVariant] = {
    "classic": pb.TRUF_VARIANT_CLASSIC,
    "target": pb.TRUF_VARIANT_TARGET,
}
DIRECTION_TO: dict[str, pb.Direction] = {"ccw": pb.DIRECTION_CCW, "cw": pb.DIRECTION_CW}
PHASE_TO: dict[str, pb.TrufPhase] = {
    Phase.BID: pb.TRUF_PHASE_BID,
    Phase.DECLARE: pb.TRUF_PHASE_DECLARE,
    Phase.MODE: pb.TRUF_PHASE_MODE,
    Phase.PLAY: pb.TRUF_PHASE_PLAY,
    Phase.OVER: pb.TRUF_PHASE_OVER,
}
MODE_TO: dict[str, pb.TrufMode] = {Mode.ATAS: pb.TRUF_MODE_ATAS, Mode.BAWAH: pb.TRUF_MODE_BAWAH}
OP_TO: dict[str, pb.TrufDeclareOp] = {
    DeclareOp.SINGLE: pb.TRUF_DECLARE_OP_SINGLE,
    DeclareOp.SUM: pb.TRUF_DECLARE_OP_SUM,
    DeclareOp.SUBTRACT: pb.TRUF_DECLARE_OP_SUBTRACT,
    DeclareOp.NOTRUF: pb.TRUF_DECLARE_OP_NOTRUF,
}
# Suit enum numbers are the engine's suit index (S0 H1 D2 C3) plus one; 0 is "none".
SUIT_TO: tuple[pb.Suit, ...] = (pb.SUIT_SPADES, pb.SUIT_HEARTS, pb.SUIT_DIAMONDS, pb.SUIT_CLUBS)
SUIT_LETTER_TO: dict[str, pb.Suit] = dict(zip("SHDC", SUIT_TO, strict=True))

VARIANT_FROM: dict[int, str] = {int(v): k for k, v in VARIANT_TO.items()}
DIRECTION_FROM: dict[int, str] = {int(v): k for k, v in DIRECTION_TO.items()}
PHASE_FROM: dict[int, Phase] = {int(v): Phase(k) for k, v in PHASE_TO.items()}
MODE_FROM: dict[int, Mode] = {int(v): Mode(k) for k, v in MODE_TO.items()}
OP_FROM: dict[int, DeclareOp] = {int(v): DeclareOp(k) for k, v in OP_TO.items()}

# ------------------------------------------------------------------------ cards

CARD_OF: dict[str, Card] = dict(zip(CODES, CARDS, strict=True))  # exact codes: the fast path


def _card(code: str, where: str) -> Card:
    """The card of a code; also reads lower case and '10D'. Raises CardError naming ``where``."""
    card = CARD_OF.get(code)
    if card is not None:
        return card
    try:
        return Card.parse(code)
    except CardError as exc:
        raise CardError(f"{where}: {card_error(code, exc)}") from None


def _cache(
    make: Callable[..., bytes], limit: int = 4096
) -> tuple[Callable[[Any], bytes | None], Callable[..., bytes]]:
    """``make`` cached under a key the caller builds: ``get(key) or fill(key, *args)``
    is ``make(*args)``, made once per key; a hit is one dict look-up in C.

    The arguments are kept beside the bytes, so a key may hold the ``id`` of one of
    them (an object the engine keeps while it is unchanged, cheaper to find by
    identity than to hash): while the entry lives, so does the object, and no other
    object can have its id. Empty bytes are simply made again each time.
    """
    out_of: dict[Any, bytes] = {}
    kept: dict[Any, tuple[Any, ...]] = {}

    def fill(key: Any, *args: Any) -> bytes:
        out = make(*args)
        if len(out_of) >= limit:
            out_of.clear()
            kept.clear()
        kept[key] = args  # before the bytes: every key in out_of has its objects kept
        out_of[key] = out
        return out

    return out_of.get, fill


def _packed(field: int, item: Callable[[int], bytes], values: Sequence[int]) -> bytes:
    """A packed repeated field; nothing when empty."""
    return _len(field, b"".join(map(item, values))) if values else b""


def _played_card(field: int, seat: int, card: int | None, face_down: bool) -> bytes:
    """A TrufPlayedCard as field ``field``; no card (the empty string) when hidden (C11)."""
    body = _uint(1, seat)
    if card is not None:
        body += _str(2, CODES[card])
    if face_down:
        body += _uint(3, 1)
    return _len(field, body)


def _declaration_body(cards: Sequence[int], op: str) -> bytes:
    return b"".join(_str(1, CODES[c]) for c in cards) + _uint(2, OP_TO[op])


def _bid_body(bid: Bid | Declare) -> bytes:
    """A TrufBid: the classic card (field 1) or the declaration (field 2)."""
    if isinstance(bid, Bid):
        return _str(1, CODES[bid.card])
    return _len(2, _declaration_body(bid.cards, bid.op))


def _action_body(action: Action) -> bytes:
    """A TrufAction: bid = 1, declare = 2, mode = 3, play = 4."""
    if isinstance(action, Play):
        return _len(4, _str(1, CODES[action.card]))
    if isinstance(action, Bid):
        return _len(1, _str(1, CODES[action.card]))
    if isinstance(action, ChooseMode):
        return _len(3, _uint(1, MODE_TO[action.mode]))
    if isinstance(action, Declare):
        return _len(2, _declaration_body(action.cards, action.op))
    raise TypeError(f"not a Truf action: {action!r}")


# The pieces of a TrufView, by field (numbers as in truf.proto). A view is written in
# this order: the head (fields 1-4, 6-9, 5, 10, 11), the hand (12), tricks won (24),
# the deal's part (25, 13-19), the closed tricks and leader (20, 21), the open trick
# (22) and trump broken (23). Each run but the hand is cached whole under a key of
# the fields it is made of, so a view costs a few dict look-ups and joins.
_PHASE_FIELD = {phase: _uint(10, number) for phase, number in PHASE_TO.items()}
_hand_item = tuple(_str(12, code) for code in CODES).__getitem__  # the item of a card
_TRUMP_FIELD = tuple(_uint(16, suit) for suit in SUIT_TO)
_NO_TRUF_FIELD = _uint(17, 1)
_MODE_FIELD = {mode: _uint(18, number) for mode, number in MODE_TO.items()}
_TRUMP_BROKEN_FIELD = _uint(23, 1)


def _make_deal_head(key: tuple[Any, ...]) -> bytes:
    variant_name, match_id, deal, deals, names, dealer, direction_name, order = key
    variant = VARIANT_TO.get(variant_name)
    direction = DIRECTION_TO.get(direction_name)
    if variant is None or direction is None:
        raise ValueError(f"not a Truf variant and direction: {variant_name!r}, {direction_name!r}")
    return b"".join(
        (
            _uint(1, variant),
            _str(2, match_id) if match_id else b"",
            _uint(3, deal),
            _uint(4, deals),
            b"".join(_str(6, name) for name in names),
            _uint(7, dealer),
            _uint(8, direction),
            _packed(9, _uv, order),
        )
    )


def _make_turn(key: tuple[Any, ...]) -> bytes:
    seat, phase, to_act = key
    return _uint(5, seat) + _PHASE_FIELD[phase] + _packed(11, _uv, to_act)


# Fields 1-4 and 6-9, by value: the same in every view of one deal.
_deal_head_get, _deal_head_fill = _cache(_make_deal_head, limit=1024)
# Fields 5, 10 and 11, by value.
_turn_get, _turn_fill = _cache(_make_turn)


def _make_head(key: tuple[Any, ...]) -> bytes:
    deal_key = key[:8]
    turn = key[8:]
    return (_deal_head_get(deal_key) or _deal_head_fill(deal_key, deal_key)) + (
        _turn_get(turn) or _turn_fill(turn, turn)
    )


# Fields 1-4, 6-9, 5, 10 and 11, by value: the same in every view of one seat and
# phase of a deal (during play, to_act is the seat itself). Made of the two above,
# so that a seat's first view of a deal costs little.
_head_get, _head_fill = _cache(_make_head, limit=1024)
# Field 24, by value.
_won_get, _won_fill = _cache(lambda won: _packed(24, _uv, won))


def _make_deal(key: tuple[Any, ...], bids: Sequence[Bid | Declare] | None) -> bytes:
    totals, _, bid_total, high_bidder, trump, no_truf, mode, final_bids = key
    parts = [_packed(25, _zigzag, totals)]
    if bids is not None:
        parts.append(b"".join([_len(13, _bid_body(b)) for b in bids]))
    if bid_total is not None:
        parts.append(_key(14, 0) + _varint(bid_total))
    if high_bidder is not None:
        parts.append(_uint(15, high_bidder))
    if trump is not None:
        parts.append(_TRUMP_FIELD[trump])
    if no_truf:
        parts.append(_NO_TRUF_FIELD)
    if mode is not None:
        parts.append(_MODE_FIELD[mode])
    if final_bids is not None:
        parts.append(_packed(19, _zigzag, final_bids))
    return b"".join(parts)


# A closed trick's card, by value, and a closed trick (field 20), by identity.
_closed_get, _closed_fill = _cache(lambda seat, card: _played_card(2, seat, card, False))


def _trick_field(trick: Trick) -> bytes:
    cards = [_closed_get(sc) or _closed_fill(sc, *sc) for sc in trick.cards]
    return _len(20, _uint(1, trick.leader) + b"".join(cards) + _uint(3, trick.winner))


_trick_get, _trick_fill = _cache(_trick_field)


def _make_play(key: tuple[int, int | None], tricks: Sequence[Trick]) -> bytes:
    out = b"".join([_trick_get(id(t)) or _trick_fill(id(t), t) for t in tricks])
    trick_leader = key[1]
    return out if trick_leader is None else out + _uint(21, trick_leader)


# Fields 25 and 13-19, by value but the revealed bids by identity (the engine keeps
# them as one tuple per deal): the same in every view of one deal once bids are in.
_deal_get, _deal_fill = _cache(_make_deal)
# Fields 20 and 21, the closed tricks by identity (the engine keeps them as one tuple
# until one more closes; each closed trick is cached by identity too) and the leader.
_play_get, _play_fill = _cache(_make_play)
# An open trick's card (field 22), by value. ``_open_item`` is ``_open_get`` for
# ``map``: a miss is None, which the join refuses (TypeError), so the caller retries.
_open_get, _open_fill = _cache(lambda played: _played_card(22, *played))
_open_item = cast(Callable[[Any], bytes], _open_get)

# Legal-list items (TrufDecision field 2). The engine's actions (plays, bids, modes,
# declarations) are interned and kept here, so no other object can ever have their
# id: their bytes are found by id alone, in C. Any other action (one built elsewhere)
# is cached by identity like the rest.
_INTERNED: tuple[Action, ...] = (
    *PLAYS,
    *BIDS,
    *MODES.values(),
    *SINGLES,
    *(d for pair in PAIRS.values() for d in pair),
)
_LEGAL_OF_ID: dict[int, bytes] = {id(a): _len(2, _action_body(a)) for a in _INTERNED}
_legal_of_id = cast(Callable[[int], bytes], _LEGAL_OF_ID.get)  # a miss: None, as above
_item_get, _item_fill = _cache(lambda action: _len(2, _action_body(action)), limit=16384)
_VIEW_TAG = _key(1, 2)  # TrufDecision.view


def view_bytes(v: SeatView) -> bytes:
    """The serialized ``TrufView`` of ``v`` (``TrufView.FromString`` reads it)."""
    (
        _, variant, match_id, deal, deals, seat, names, dealer, direction, order, phase,
        to_act, hand, bids, bid_total, high_bidder, trump, no_truf, mode, final_bids,
        tricks, trick_leader, trick, trump_broken, tricks_won, totals,
    ) = v  # fmt: skip
    head = (variant, match_id, deal, deals, names, dealer, direction, order, seat, phase, to_act)
    deal_key = (totals, id(bids), bid_total, high_bidder, trump, no_truf, mode, final_bids)
    parts = [
        _head_get(head) or _head_fill(head, head),
        b"".join(map(_hand_item, hand)),
        _won_get(tricks_won) or _won_fill(tricks_won, tricks_won),
        _deal_get(deal_key) or _deal_fill(deal_key, deal_key, bids),
    ]
    if tricks or trick_leader is not None:
        play_key = (id(tricks), trick_leader)
        parts.append(_play_get(play_key) or _play_fill(play_key, play_key, tricks))
    if trick:
        try:
            parts.append(b"".join(map(_open_item, trick)))
        except TypeError:  # None in the join: a card not cached yet
            parts.append(b"".join([_open_get(p) or _open_fill(p, p) for p in trick]))
    if trump_broken:
        parts.append(_TRUMP_BROKEN_FIELD)
    return b"".join(parts)


def decision_bytes(view: SeatView, legal: Iterable[Action]) -> bytes:
    """The serialized ``TrufDecision``: the view (field 1) and the legal list (field 2)."""
    if type(legal) is not tuple:
        legal = tuple(legal)  # iterated twice if an action is not interned
    try:
        actions = b"".join(map(_legal_of_id, map(id, legal)))
    except TypeError:  # None in the join: an action not interned
        actions = b"".join(
            [_legal_of_id(id(a)) or _item_get(id(a)) or _item_fill(id(a), a) for a in legal]
        )
    body = view_bytes(view)
    n = len(body)
    return b"".join((_VIEW_TAG, _SMALL[n] if n < 2048 else _varint(n), body, actions))


# -------------------------------------------------------------------- encoding


def view_to_proto(view: SeatView) -> pb.TrufView:
    """The ``TrufView`` message of a seat's view."""
    return pb.TrufView.FromString(view_bytes(view))


def fill_view(msg: pb.TrufView, view: SeatView) -> None:
    """Merge ``view`` into ``msg`` (an empty ``TrufView``, e.g. a field of an envelope)."""
    msg.MergeFromString(view_bytes(view))


def decision_to_proto(view: SeatView, legal: Iterable[Action]) -> pb.TrufDecision:
    """The ``TrufDecision`` for a seat: its view and its legal actions, in the engine's order."""
    return pb.TrufDecision.FromString(decision_bytes(view, legal))


def fill_decision(msg: pb.TrufDecision, view: SeatView, legal: Iterable[Action]) -> None:
    """Merge the decision into ``msg`` (an empty ``TrufDecision``, e.g. ``request.truf``)."""
    msg.MergeFromString(decision_bytes(view, legal))


def action_to_proto(action: Action) -> pb.TrufAction:
    """The ``TrufAction`` message of an action (a new message each call)."""
    return pb.TrufAction.FromString(_action_body(action))


# -------------------------------------------------------------------- decoding


# Twins whose nested messages are bytes (see ``lite_class``); the hand's card codes too,
# so that each is found in a dict by its bytes.
_ViewLite = lite_class(pb.TrufView, "TrufViewLite", as_bytes=("hand",))
_DecisionLite = lite_class(pb.TrufDecision, "TrufDecisionLite")


def _bytes_memo(decode: Callable[[bytes], Any], limit: int = 4096) -> Callable[[bytes], Any]:
    """``decode`` cached by the serialized bytes it reads. Only successes are cached."""
    cache: dict[bytes, Any] = {}

    def get(data: bytes) -> Any:
        out = cache.get(data)
        if out is None:
            out = decode(data)
            if len(cache) >= limit:
                cache.clear()
            cache[data] = out
        return out

    return get


def _action_from(msg: pb.TrufAction) -> Action:
    kind = msg.WhichOneof("action")
    try:
        if kind == "play":
            return PLAYS[_card(msg.play.card, "play.card")]
        if kind == "bid":
            return BIDS[_card(msg.bid.card, "bid.card")]
        if kind == "mode":
            number = msg.mode.mode
            mode = MODE_FROM.get(number)
            if mode is None:
                raise ActionFormatError(
                    f"cannot read Truf action: mode.mode is {_enum_name(pb.TrufMode, number)}; "
                    "expected TRUF_MODE_ATAS or TRUF_MODE_BAWAH"
                )
            return MODES[mode]
        if kind == "declare":
            return _declaration(msg.declare, "declare")
    except CardError as exc:
        raise ActionFormatError(f"cannot read Truf action: {exc}") from None
    raise ActionFormatError(
        "cannot read Truf action: no action set (set exactly one of bid, declare, mode, play)"
    )


# Legal actions as the referee wrote them (canonical, a few dozen distinct): cached by
# their bytes. Never used for a bot's answers, whose bytes the bot chooses.
_action_of_bytes = _bytes_memo(lambda data: _action_from(pb.TrufAction.FromString(data)), 16384)


def action_from_proto(msg: pb.TrufAction) -> Action:
    """The engine action of a ``TrufAction``, or ``ActionFormatError`` saying what is wrong.

    Only the form is checked here (a readable card, one or two distinct cards, a
    known op or mode); whether the action is legal is the engine's question. Card
    codes are read leniently ("td" and "10D" are "TD"). Read from the parsed fields and
    kept nowhere: unknown fields or padding a bot adds cost it, not the referee's memory.
    """
    return _action_from(msg)


def _declaration(msg: pb.TrufDeclaration, where: str) -> Declare:
    codes = list(msg.cards)
    if not 1 <= len(codes) <= 2:
        raise ActionFormatError(
            f"cannot read Truf action: {where}.cards holds {len(codes)} cards "
            f"({', '.join(map(repr, codes)) or 'none'}); a declaration uses one or two (ruling T2)"
        )
    cards = [_card(code, f"{where}.cards") for code in codes]
    if len(cards) == 2 and cards[0] == cards[1]:
        raise ActionFormatError(
            f"cannot read Truf action: {where}.cards names {cards[0]} twice; "
            "the two cards of a declaration must differ (ruling T2)"
        )
    op = OP_FROM.get(msg.op)
    if op is None:
        raise ActionFormatError(
            f"cannot read Truf action: {where}.op is {_enum_name(pb.TrufDeclareOp, msg.op)}; "
            "expected TRUF_DECLARE_OP_SINGLE, _SUM, _SUBTRACT or _NOTRUF"
        )
    return declare(cards, op)


def _enum_name(enum: Any, number: int) -> str:
    try:
        return f"{enum.Name(number)} ({number})"
    except ValueError:
        return f"unknown value {number}"


def _bid_from(msg: pb.TrufBid) -> Bid | Declare:
    kind = msg.WhichOneof("bid")
    if kind == "card":
        return BIDS[_card(msg.card, "bids.card")]
    if kind == "declaration":
        return _declaration(msg.declaration, "bids.declaration")  # a ValueError too
    raise ValueError("a revealed bid in the view holds neither a card nor a declaration")


def _trick_from(msg: pb.TrufTrick) -> Trick:
    cards = tuple([(p.seat, _card(p.card, "tricks.cards")) for p in msg.cards])
    return Trick(msg.leader, cards, msg.winner)


def _played_from(msg: pb.TrufPlayedCard) -> PlayedCard:
    card = _card(msg.card, "trick.card") if msg.card else None
    return PlayedCard(msg.seat, card, msg.face_down)


def _enum(table: Mapping[int, Any], number: int, what: str) -> Any:
    try:
        return table[number]
    except KeyError:
        raise ValueError(f"unknown {what} {number} in a TrufView") from None


_bid_of_bytes = _bytes_memo(lambda data: _bid_from(pb.TrufBid.FromString(data)))
_trick_of_bytes = _bytes_memo(lambda data: _trick_from(pb.TrufTrick.FromString(data)))
_played_of_bytes = _bytes_memo(lambda data: _played_from(pb.TrufPlayedCard.FromString(data)))
_card_of_bytes = _bytes_memo(lambda data: _card(data.decode(errors="replace"), "hand"))


def _scalars(m: Any) -> dict[str, Any]:
    """The scalar fields of a SeatView, read from a TrufViewLite."""
    has = m.HasField
    trump = m.trump
    mode = m.mode
    return {
        "game": "truf",
        "variant": _enum(VARIANT_FROM, m.variant, "variant"),
        "match_id": m.match_id,
        "deal": m.deal,
        "deals": m.deals,
        "seat": m.seat,
        "dealer": m.dealer,
        "direction": _enum(DIRECTION_FROM, m.direction, "direction"),
        "phase": _enum(PHASE_FROM, m.phase, "phase"),
        "bid_total": m.bid_total if has("bid_total") else None,
        "high_bidder": m.high_bidder if has("high_bidder") else None,
        "trump": trump - 1 if trump else None,
        "no_truf": m.no_truf,
        "mode": _enum(MODE_FROM, mode, "mode") if mode else None,
        "trick_leader": m.trick_leader if has("trick_leader") else None,
        "trump_broken": m.trump_broken,
    }


def _collections(m: Any) -> dict[str, Any]:
    """The collection fields of a SeatView (hand, tricks, bids...), from a TrufViewLite."""
    bids = m.bids
    final_bids = m.final_bids
    return {
        "names": tuple(m.names),
        "order": tuple(m.order),
        "to_act": tuple(m.to_act),
        "hand": tuple([_card_of_bytes(c) for c in m.hand]),
        "bids": tuple([_bid_of_bytes(b) for b in bids]) if bids else None,
        "final_bids": tuple(final_bids) if final_bids else None,
        "tricks": tuple([_trick_of_bytes(t) for t in m.tricks]),
        "trick": tuple([_played_of_bytes(p) for p in m.trick]),
        "tricks_won": tuple(m.tricks_won),
        "totals": tuple(m.totals),
    }


# A WireView decodes its fields in these two groups, each when one of its fields is
# first read.
_SCALAR_FIELDS = (
    "game", "variant", "match_id", "deal", "deals", "seat", "dealer", "direction", "phase",
    "bid_total", "high_bidder", "trump", "no_truf", "mode", "trick_leader", "trump_broken",
)  # fmt: skip
_COLLECTION_FIELDS = (
    "names", "order", "to_act", "hand", "bids", "final_bids", "tricks", "trick",
    "tricks_won", "totals",
)  # fmt: skip
assert sorted(_SCALAR_FIELDS + _COLLECTION_FIELDS) == sorted(SeatView._fields)
_GROUP_OF: dict[str, Callable[[Any], dict[str, Any]]] = {
    **dict.fromkeys(_SCALAR_FIELDS, _scalars),
    **dict.fromkeys(_COLLECTION_FIELDS, _collections),
}


class WireView(LazyView):
    """A seat's view as the SDK hands it to a bot: a ``SeatView`` decoded from the wire
    as the bot reads it.

    It has every field, property and method of ``SeatView``, iterates, indexes,
    compares and hashes as the ``SeatView`` it decodes to (``materialize()`` returns
    that), so a bot plays the same in-process and over gRPC.

    The fields are decoded in two groups, each when one of its fields is first read:
    the scalars (seat, phase, trump, mode...), and the collections (the hand, the
    tricks, the bids...). A bot that reads only a scalar or two never pays for the
    collections; one that reads everything pays what a whole decode costs. A field
    that cannot be read raises ``ValueError`` when it is read.

    ``match_id`` and ``seat``, when both are given (the SDK takes them from the decision
    request), are known without parsing the view at all; decoding later checks that
    the view says the same, and raises ``ValueError`` if not.
    """

    # The fields: decoded into the instance on first read (see __getattr__).
    game: str
    variant: str
    match_id: str
    deal: int
    deals: int
    seat: int
    names: tuple[str, ...]
    dealer: int
    direction: str
    order: tuple[int, ...]
    phase: str
    to_act: tuple[int, ...]
    hand: tuple[Card, ...]
    bids: tuple[Bid | Declare, ...] | None
    bid_total: int | None
    high_bidder: int | None
    trump: int | None
    no_truf: bool
    mode: Mode | None
    final_bids: tuple[int, ...] | None
    tricks: tuple[Trick, ...]
    trick_leader: int | None
    trick: tuple[PlayedCard, ...]
    trump_broken: bool
    tricks_won: tuple[int, ...]
    totals: tuple[int, ...]

    def __init__(
        self, data: bytes, *, match_id: str | None = None, seat: int | None = None
    ) -> None:
        known = self.__dict__
        known["_data"] = data  # parsed when a field not given here is first read
        if match_id is not None and seat is not None:
            known["match_id"] = match_id
            known["seat"] = seat

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot set {name!r}: a view is read-only, as a SeatView is")

    def __getattr__(self, name: str) -> Any:
        # Only called for a field not read yet: decode its group onto the instance.
        group = _GROUP_OF.get(name)
        if group is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        known = self.__dict__
        lite = known.get("_lite")
        if lite is None:
            lite = _ViewLite.FromString(known["_data"])
            if "seat" in known and (lite.match_id, lite.seat) != (known["match_id"], known["seat"]):
                raise ValueError(
                    f"the view is of match {lite.match_id!r} seat {lite.seat}, the request of "
                    f"match {known['match_id']!r} seat {known['seat']}"
                )
            known["_lite"] = lite
        known.update(group(lite))
        return known[name]

    def materialize(self) -> SeatView:
        """The ``SeatView`` itself, every field decoded."""
        return SeatView._make([getattr(self, f) for f in self._fields])


def view_from_bytes(data: bytes) -> SeatView:
    """The ``SeatView`` of a serialized ``TrufView``, every field decoded."""
    return WireView(data).materialize()


def view_from_proto(msg: pb.TrufView) -> SeatView:
    """The ``SeatView`` of a ``TrufView`` message: exactly what the referee's engine built.

    Raises ``ValueError`` for a message that is not a view (an unknown card code, an
    unknown variant or phase...).
    """
    return view_from_bytes(msg.SerializeToString())


def wire_decision(
    data: bytes, *, match_id: str | None = None, seat: int | None = None
) -> tuple[WireView, tuple[Action, ...]]:
    """What the SDK gives ``Bot.act``: the view of a serialized ``TrufDecision`` as a
    ``WireView`` (decoded as it is read; ``match_id`` and ``seat``, from the request,
    known without decoding) and its legal actions."""
    lite = _DecisionLite.FromString(data)
    legal: tuple[Action, ...] = tuple([_action_of_bytes(a) for a in lite.legal_actions])
    return WireView(lite.view, match_id=match_id, seat=seat), legal


def decision_from_bytes(data: bytes) -> tuple[SeatView, tuple[Action, ...]]:
    """The ``SeatView`` and the legal actions of a serialized ``TrufDecision``, all
    decoded at once."""
    view, legal = wire_decision(data)
    return view.materialize(), legal


def decision_from_proto(msg: pb.TrufDecision) -> tuple[SeatView, tuple[Action, ...]]:
    """The ``SeatView`` and the legal actions of a ``TrufDecision``. Raises ``ValueError``
    (``ActionFormatError`` for a legal action) if unreadable."""
    return decision_from_bytes(msg.SerializeToString())


# ------------------------------------------------------------------ deal results


def _record_bid(data: Any) -> pb.TrufBid:
    if isinstance(data, str):
        return pb.TrufBid(card=CODES[_card(data, "record bids")])
    if isinstance(data, Mapping) and isinstance(data.get("cards"), list):
        op = OP_TO.get(str(data.get("op")))
        if op is None:
            raise ValueError(f"record bids: unknown declaration op {data.get('op')!r}")
        codes = [CODES[_card(c, "record bids")] for c in data["cards"]]
        return pb.TrufBid(declaration=pb.TrufDeclaration(cards=codes, op=op))
    raise ValueError(f"record bids: not a bid card or declaration: {data!r}")


def _record_bid_value(data: Any) -> int:
    if isinstance(data, str):
        return VALUES[_card(data, "record bids")]
    return declare([_card(c, "record bids") for c in data["cards"]], data["op"]).target


def fill_deal_result(msg: pb.TrufDealResult, record: Mapping[str, Any]) -> None:
    """Fill ``msg`` from a deal's replay record (``arena.games.truf.replay.deal_record``).

    Uses the public keys: dealer, direction, bids, high_bidder, trump, mode,
    final_bids, tricks, tricks_won, scores, totals; and variant, bid_total and
    mode_chosen when present. The hands are not sent: the 13 tricks show them.
    """
    try:
        msg.dealer = int(record["dealer"])
        msg.direction = DIRECTION_TO[record["direction"]]
        msg.bids.extend([_record_bid(b) for b in record["bids"]])
        msg.high_bidder = int(record["high_bidder"])
        trump = record["trump"]
        if trump is not None:
            msg.trump = SUIT_LETTER_TO[trump]
        msg.mode = MODE_TO[record["mode"]]
        msg.final_bids.extend(int(b) for b in record["final_bids"])
        for t in record["tricks"]:
            trick = msg.tricks.add(leader=int(t["leader"]), winner=int(t["winner"]))
            for seat, code in t["cards"]:
                trick.cards.add(seat=int(seat), card=CODES[_card(code, "record tricks")])
        msg.tricks_won.extend(int(n) for n in record["tricks_won"])
        msg.scores.extend(int(n) for n in record["scores"])
        msg.totals.extend(int(n) for n in record["totals"])
        if record.get("variant") is not None:
            msg.variant = VARIANT_TO[record["variant"]]
        total = record.get("bid_total")
        msg.bid_total = (
            int(total) if total is not None else sum(map(_record_bid_value, record["bids"]))
        )
        msg.mode_chosen = bool(record.get("mode_chosen", False))
    except KeyError as exc:
        raise ValueError(f"not a Truf deal record: no or unknown {exc}") from None


def deal_result_to_proto(record: Mapping[str, Any]) -> pb.TrufDealResult:
    """The ``TrufDealResult`` of a deal's replay record (see ``fill_deal_result``)."""
    msg = pb.TrufDealResult()
    fill_deal_result(msg, record)
    return msg


def deal_result_from_proto(msg: pb.TrufDealResult) -> dict[str, Any]:
    """The public part of the deal's replay record, in the replay log's own format
    (card codes, "ccw", "atas", "S" or None...), for a bot's ``deal_over`` hook."""

    def bid(b: pb.TrufBid) -> Any:
        if b.WhichOneof("bid") == "card":
            return b.card
        op = OP_FROM.get(b.declaration.op)
        return {"cards": list(b.declaration.cards), "op": op.value if op else None}

    out: dict[str, Any] = {
        "variant": VARIANT_FROM.get(msg.variant),
        "dealer": msg.dealer,
        "direction": DIRECTION_FROM.get(msg.direction),
        "bids": [bid(b) for b in msg.bids],
        "bid_total": msg.bid_total,
        "high_bidder": msg.high_bidder,
        "trump": "SHDC"[msg.trump - 1] if msg.trump else None,
        "mode": MODE_FROM[msg.mode].value if msg.mode in MODE_FROM else None,
        "mode_chosen": msg.mode_chosen,
        "final_bids": list(msg.final_bids),
        "tricks": [
            {
                "leader": t.leader,
                "cards": [[p.seat, p.card] for p in t.cards],
                "winner": t.winner,
            }
            for t in msg.tricks
        ],
        "tricks_won": list(msg.tricks_won),
        "scores": list(msg.scores),
        "totals": list(msg.totals),
    }
    return out


class TrufCodec:
    """Truf's ``GameCodec`` (``arena.wire.codecs``): the hand-built fast path above."""

    game = branch = "truf"
    field = 20

    def deal_of(self, view: Any) -> int:
        return int(view.deal)

    # The per-decision hot path: the hand-built encoder itself, no wrapper call.
    decision_bytes = staticmethod(decision_bytes)

    def action_from_answer(self, answer: arena_pb2.Answer) -> Any:
        return action_from_proto(answer.truf)

    def fill_answer(self, answer: arena_pb2.Answer, action: Any) -> None:
        answer.truf.CopyFrom(action_to_proto(action))

    def wire_decision(self, data: bytes, *, match_id: str, seat: int) -> tuple[Any, Any]:
        return wire_decision(data, match_id=match_id, seat=seat)

    def fill_deal_result(self, result: arena_pb2.DealResult, record: Mapping[str, Any]) -> None:
        fill_deal_result(result.truf, record)

    def deal_result_from(self, result: arena_pb2.DealResult) -> dict[str, Any]:
        return deal_result_from_proto(result.truf)


CODEC = TrufCodec()  # this game's codec, found through the registry
