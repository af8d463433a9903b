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
115). ``tests/test_wire_truf.py`` checks both against the protobuf API, view by
view, over random matches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from arena._proto.truf.arena.v1 import truf_pb2 as pb
from arena.cards import CARDS, CODES, VALUES, Card, CardError
from arena.truf.actions import (
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
from arena.truf.errors import ActionFormatError
from arena.truf.state import Phase
from arena.truf.view import PlayedCard, SeatView, Trick
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
        raise CardError(f"{where}: {exc}") from None


def _memo(make: Callable[[Any], bytes], limit: int = 4096) -> Callable[[Any], bytes]:
    """``make`` cached by value (for small hashable things: a tuple of seats, a card)."""
    cache: dict[Any, bytes] = {}

    def get(key: Any) -> bytes:
        out = cache.get(key)
        if out is None:
            out = make(key)
            if len(cache) >= limit:
                cache.clear()
            cache[key] = out
        return out

    return get


class _IdMemo:
    """``make`` cached by identity, for the engine's objects that recur in many views
    (a closed trick, a deal's bids) but would cost more to hash than to look up. The
    object is kept beside its bytes, so a reused id never returns stale bytes."""

    __slots__ = ("entries", "limit", "make")

    def __init__(self, make: Callable[[Any], bytes], limit: int = 4096) -> None:
        self.make = make
        self.limit = limit
        self.entries: dict[int, tuple[object, bytes]] = {}

    def __call__(self, obj: Any) -> bytes:
        hit = self.entries.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        out = self.make(obj)
        if len(self.entries) >= self.limit:
            self.entries.clear()
        self.entries[id(obj)] = (obj, out)
        return out


def _packed_uints(field: int) -> Callable[[Sequence[int]], bytes]:
    return _memo(lambda values: _len(field, b"".join(map(_uv, values))) if values else b"")


def _packed_sints(field: int) -> Callable[[Sequence[int]], bytes]:
    return _memo(lambda values: _len(field, b"".join(map(_zigzag, values))) if values else b"")


def _played_card(field: int, seat: int, card: int | None, face_down: bool) -> bytes:
    """A TrufPlayedCard as field ``field``; no card (the empty string) when hidden (C11)."""
    body = _uint(1, seat)
    if card is not None:
        body += _str(2, CODES[card])
    if face_down:
        body += _uint(3, 1)
    return _len(field, body)


def _trick_body(trick: Trick) -> bytes:
    return (
        _uint(1, trick.leader)
        + b"".join([_closed_card(played) for played in trick.cards])
        + _uint(3, trick.winner)
    )


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


# The pieces of a TrufView, by field (numbers as in truf.proto).
_seat_field = _memo(lambda seat: _uint(5, seat))
_PHASE_FIELD = {phase: _uint(10, number) for phase, number in PHASE_TO.items()}
_to_act_field = _packed_uints(11)
_HAND_ITEM = tuple(_str(12, code) for code in CODES)
_bids_field = _IdMemo(lambda bids: b"".join([_len(13, _bid_body(b)) for b in bids]))
_bid_total_field = _memo(lambda total: _key(14, 0) + _varint(total))
_high_bidder_field = _memo(lambda seat: _uint(15, seat))
_TRUMP_FIELD = tuple(_uint(16, suit) for suit in SUIT_TO)
_NO_TRUF_FIELD = _uint(17, 1)
_MODE_FIELD = {mode: _uint(18, number) for mode, number in MODE_TO.items()}
_final_bids_field = _packed_sints(19)
_closed_card = _memo(lambda seat_card: _played_card(2, seat_card[0], seat_card[1], False))
_trick_field = _IdMemo(lambda trick: _len(20, _trick_body(trick)))
# The engine keeps a seat's hand and the deal's closed tricks as one tuple each until
# they change, so each view of them is one look-up by identity.
_hand_field = _IdMemo(lambda hand: b"".join([_HAND_ITEM[c] for c in hand]))
_tricks_field = _IdMemo(lambda tricks: b"".join([_trick_field(t) for t in tricks]))
_trick_leader_field = _memo(lambda seat: _uint(21, seat))
_open_card = _memo(lambda played: _played_card(22, *played))
_TRUMP_BROKEN_FIELD = _uint(23, 1)
_tricks_won_field = _packed_uints(24)
_totals_field = _packed_sints(25)

# Legal-list items (TrufDecision field 2) per action. The engine's actions are
# interned (52 plays, 52 bids, 2 modes, each valid declaration), so by identity.
_legal_item = _IdMemo(lambda action: _len(2, _action_body(action)), limit=16384)


def _make_head(key: tuple[Any, ...]) -> bytes:
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
            _len(9, b"".join(map(_uv, order))) if order else b"",
        )
    )


# Fields 1-4 and 6-9: the same in every view of one deal, whatever the seat.
_head = _memo(_make_head, limit=1024)


def view_bytes(v: SeatView) -> bytes:
    """The serialized ``TrufView`` of ``v`` (``TrufView.FromString`` reads it)."""
    parts = [
        _head((v.variant, v.match_id, v.deal, v.deals, v.names, v.dealer, v.direction, v.order)),
        _seat_field(v.seat),
        _PHASE_FIELD[v.phase],
        _to_act_field(v.to_act),
        _hand_field(v.hand),
        _tricks_won_field(v.tricks_won),
        _totals_field(v.totals),
    ]
    if v.bids is not None:
        parts.append(_bids_field(v.bids))
    if v.bid_total is not None:
        parts.append(_bid_total_field(v.bid_total))
    if v.high_bidder is not None:
        parts.append(_high_bidder_field(v.high_bidder))
    if v.trump is not None:
        parts.append(_TRUMP_FIELD[v.trump])
    if v.no_truf:
        parts.append(_NO_TRUF_FIELD)
    if v.mode is not None:
        parts.append(_MODE_FIELD[v.mode])
    if v.final_bids is not None:
        parts.append(_final_bids_field(v.final_bids))
    if v.tricks:
        parts.append(_tricks_field(v.tricks))
    if v.trick_leader is not None:
        parts.append(_trick_leader_field(v.trick_leader))
    if v.trick:
        parts.append(b"".join([_open_card(p) for p in v.trick]))
    if v.trump_broken:
        parts.append(_TRUMP_BROKEN_FIELD)
    return b"".join(parts)


def decision_bytes(view: SeatView, legal: Iterable[Action]) -> bytes:
    """The serialized ``TrufDecision``: the view (field 1) and the legal list (field 2)."""
    actions = b"".join([_legal_item(a) for a in legal])
    return _len(1, view_bytes(view)) + actions


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


_action_of_bytes = _bytes_memo(lambda data: _action_from(pb.TrufAction.FromString(data)), 16384)


def action_from_proto(msg: pb.TrufAction) -> Action:
    """The engine action of a ``TrufAction``, or ``ActionFormatError`` saying what is wrong.

    Only the form is checked here (a readable card, one or two distinct cards, a
    known op or mode); whether the action is legal is the engine's question. Card
    codes are read leniently ("td" and "10D" are "TD").
    """
    action: Action = _action_of_bytes(msg.SerializeToString())
    return action


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


def _view_from_lite(m: Any) -> SeatView:
    fields = _scalars(m)
    fields.update(_collections(m))
    return SeatView(**fields)


class WireView:
    """A seat's view as the SDK hands it to a bot: a ``SeatView`` decoded from the wire
    as the bot reads it.

    It has every field, property and method of ``SeatView``, iterates, indexes,
    compares and hashes as the ``SeatView`` it decodes to (``materialize()`` returns
    that), so a bot plays the same in-process and over gRPC. A scalar field is decoded
    The fields are decoded in two groups, each when one of its fields is first read:
    the scalars (seat, phase, trump, mode...), and the collections (the hand, the
    tricks, the bids...). A bot that reads only a scalar or two never pays for the
    collections; one that reads everything pays what a whole decode costs. A field
    that cannot be read raises ``ValueError`` when it is read.
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

    _fields = SeatView._fields
    led_suit = SeatView.led_suit
    next_seat = SeatView.next_seat

    def __init__(self, data: bytes) -> None:
        self._lite = _ViewLite.FromString(data)

    def __getattr__(self, name: str) -> Any:
        # Only called for a field not read yet: decode its group onto the instance.
        group = _GROUP_OF.get(name)
        if group is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        known = self.__dict__
        known.update(group(self._lite))
        return known[name]

    def materialize(self) -> SeatView:
        """The ``SeatView`` itself, every field decoded."""
        return SeatView._make([getattr(self, f) for f in self._fields])

    def __iter__(self) -> Iterator[Any]:
        return iter(self.materialize())

    def __len__(self) -> int:
        return len(self._fields)

    def __getitem__(self, index: Any) -> Any:
        return self.materialize()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, WireView):
            other = other.materialize()
        return self.materialize() == other

    def __hash__(self) -> int:
        return hash(self.materialize())

    def __repr__(self) -> str:
        return repr(self.materialize())

    def _replace(self, **changes: Any) -> SeatView:
        return self.materialize()._replace(**changes)

    def _asdict(self) -> dict[str, Any]:
        return self.materialize()._asdict()


def view_from_bytes(data: bytes) -> SeatView:
    """The ``SeatView`` of a serialized ``TrufView``."""
    return _view_from_lite(_ViewLite.FromString(data))


def view_from_proto(msg: pb.TrufView) -> SeatView:
    """The ``SeatView`` of a ``TrufView`` message: exactly what the referee's engine built.

    Raises ``ValueError`` for a message that is not a view (an unknown card code, an
    unknown variant or phase...).
    """
    return _view_from_lite(_ViewLite.FromString(msg.SerializeToString()))


def decision_from_bytes(data: bytes) -> tuple[SeatView, tuple[Action, ...]]:
    """The view and the legal actions of a serialized ``TrufDecision``."""
    lite = _DecisionLite.FromString(data)
    legal: tuple[Action, ...] = tuple([_action_of_bytes(a) for a in lite.legal_actions])
    return view_from_bytes(lite.view), legal


def wire_decision(data: bytes) -> tuple[WireView, tuple[Action, ...]]:
    """What the SDK gives ``Bot.act``: the view of a serialized ``TrufDecision`` as a
    ``WireView`` (decoded as it is read) and its legal actions."""
    lite = _DecisionLite.FromString(data)
    legal: tuple[Action, ...] = tuple([_action_of_bytes(a) for a in lite.legal_actions])
    return WireView(lite.view), legal


def decision_from_proto(msg: pb.TrufDecision) -> tuple[SeatView, tuple[Action, ...]]:
    """The view and the legal actions of a ``TrufDecision`` (what ``Bot.act`` is given).
    Raises ``ValueError`` (``ActionFormatError`` for a legal action) if unreadable."""
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
    """Fill ``msg`` from a deal's replay record (``arena.truf.replay.deal_record``).

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
