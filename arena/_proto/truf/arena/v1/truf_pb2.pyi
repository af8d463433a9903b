# Stub made by protoc; header added by scripts/gen_proto.py (bare Mapping in __init__).
# mypy: disable-error-code="type-arg"
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TrufVariant(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRUF_VARIANT_UNSPECIFIED: _ClassVar[TrufVariant]
    TRUF_VARIANT_CLASSIC: _ClassVar[TrufVariant]
    TRUF_VARIANT_TARGET: _ClassVar[TrufVariant]

class Direction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DIRECTION_UNSPECIFIED: _ClassVar[Direction]
    DIRECTION_CCW: _ClassVar[Direction]
    DIRECTION_CW: _ClassVar[Direction]

class TrufPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRUF_PHASE_UNSPECIFIED: _ClassVar[TrufPhase]
    TRUF_PHASE_BID: _ClassVar[TrufPhase]
    TRUF_PHASE_DECLARE: _ClassVar[TrufPhase]
    TRUF_PHASE_MODE: _ClassVar[TrufPhase]
    TRUF_PHASE_PLAY: _ClassVar[TrufPhase]
    TRUF_PHASE_OVER: _ClassVar[TrufPhase]

class Suit(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SUIT_UNSPECIFIED: _ClassVar[Suit]
    SUIT_SPADES: _ClassVar[Suit]
    SUIT_HEARTS: _ClassVar[Suit]
    SUIT_DIAMONDS: _ClassVar[Suit]
    SUIT_CLUBS: _ClassVar[Suit]

class TrufMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRUF_MODE_UNSPECIFIED: _ClassVar[TrufMode]
    TRUF_MODE_ATAS: _ClassVar[TrufMode]
    TRUF_MODE_BAWAH: _ClassVar[TrufMode]

class TrufDeclareOp(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRUF_DECLARE_OP_UNSPECIFIED: _ClassVar[TrufDeclareOp]
    TRUF_DECLARE_OP_SINGLE: _ClassVar[TrufDeclareOp]
    TRUF_DECLARE_OP_SUM: _ClassVar[TrufDeclareOp]
    TRUF_DECLARE_OP_SUBTRACT: _ClassVar[TrufDeclareOp]
    TRUF_DECLARE_OP_NOTRUF: _ClassVar[TrufDeclareOp]
TRUF_VARIANT_UNSPECIFIED: TrufVariant
TRUF_VARIANT_CLASSIC: TrufVariant
TRUF_VARIANT_TARGET: TrufVariant
DIRECTION_UNSPECIFIED: Direction
DIRECTION_CCW: Direction
DIRECTION_CW: Direction
TRUF_PHASE_UNSPECIFIED: TrufPhase
TRUF_PHASE_BID: TrufPhase
TRUF_PHASE_DECLARE: TrufPhase
TRUF_PHASE_MODE: TrufPhase
TRUF_PHASE_PLAY: TrufPhase
TRUF_PHASE_OVER: TrufPhase
SUIT_UNSPECIFIED: Suit
SUIT_SPADES: Suit
SUIT_HEARTS: Suit
SUIT_DIAMONDS: Suit
SUIT_CLUBS: Suit
TRUF_MODE_UNSPECIFIED: TrufMode
TRUF_MODE_ATAS: TrufMode
TRUF_MODE_BAWAH: TrufMode
TRUF_DECLARE_OP_UNSPECIFIED: TrufDeclareOp
TRUF_DECLARE_OP_SINGLE: TrufDeclareOp
TRUF_DECLARE_OP_SUM: TrufDeclareOp
TRUF_DECLARE_OP_SUBTRACT: TrufDeclareOp
TRUF_DECLARE_OP_NOTRUF: TrufDeclareOp

class TrufDeclaration(_message.Message):
    __slots__ = ("cards", "op")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    OP_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    op: TrufDeclareOp
    def __init__(self, cards: _Optional[_Iterable[str]] = ..., op: _Optional[_Union[TrufDeclareOp, str]] = ...) -> None: ...

class TrufBid(_message.Message):
    __slots__ = ("card", "declaration")
    CARD_FIELD_NUMBER: _ClassVar[int]
    DECLARATION_FIELD_NUMBER: _ClassVar[int]
    card: str
    declaration: TrufDeclaration
    def __init__(self, card: _Optional[str] = ..., declaration: _Optional[_Union[TrufDeclaration, _Mapping]] = ...) -> None: ...

class TrufPlayedCard(_message.Message):
    __slots__ = ("seat", "card", "face_down")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    face_down: bool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., face_down: _Optional[bool] = ...) -> None: ...

class TrufTrick(_message.Message):
    __slots__ = ("leader", "cards", "winner")
    LEADER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    leader: int
    cards: _containers.RepeatedCompositeFieldContainer[TrufPlayedCard]
    winner: int
    def __init__(self, leader: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[TrufPlayedCard, _Mapping]]] = ..., winner: _Optional[int] = ...) -> None: ...

class TrufView(_message.Message):
    __slots__ = ("variant", "match_id", "deal", "deals", "seat", "names", "dealer", "direction", "order", "phase", "to_act", "hand", "bids", "bid_total", "high_bidder", "trump", "no_truf", "mode", "final_bids", "tricks", "trick_leader", "trick", "trump_broken", "tricks_won", "totals")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    BIDS_FIELD_NUMBER: _ClassVar[int]
    BID_TOTAL_FIELD_NUMBER: _ClassVar[int]
    HIGH_BIDDER_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    NO_TRUF_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    FINAL_BIDS_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    TRICK_LEADER_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    TRUMP_BROKEN_FIELD_NUMBER: _ClassVar[int]
    TRICKS_WON_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    variant: TrufVariant
    match_id: str
    deal: int
    deals: int
    seat: int
    names: _containers.RepeatedScalarFieldContainer[str]
    dealer: int
    direction: Direction
    order: _containers.RepeatedScalarFieldContainer[int]
    phase: TrufPhase
    to_act: _containers.RepeatedScalarFieldContainer[int]
    hand: _containers.RepeatedScalarFieldContainer[str]
    bids: _containers.RepeatedCompositeFieldContainer[TrufBid]
    bid_total: int
    high_bidder: int
    trump: Suit
    no_truf: bool
    mode: TrufMode
    final_bids: _containers.RepeatedScalarFieldContainer[int]
    tricks: _containers.RepeatedCompositeFieldContainer[TrufTrick]
    trick_leader: int
    trick: _containers.RepeatedCompositeFieldContainer[TrufPlayedCard]
    trump_broken: bool
    tricks_won: _containers.RepeatedScalarFieldContainer[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, variant: _Optional[_Union[TrufVariant, str]] = ..., match_id: _Optional[str] = ..., deal: _Optional[int] = ..., deals: _Optional[int] = ..., seat: _Optional[int] = ..., names: _Optional[_Iterable[str]] = ..., dealer: _Optional[int] = ..., direction: _Optional[_Union[Direction, str]] = ..., order: _Optional[_Iterable[int]] = ..., phase: _Optional[_Union[TrufPhase, str]] = ..., to_act: _Optional[_Iterable[int]] = ..., hand: _Optional[_Iterable[str]] = ..., bids: _Optional[_Iterable[_Union[TrufBid, _Mapping]]] = ..., bid_total: _Optional[int] = ..., high_bidder: _Optional[int] = ..., trump: _Optional[_Union[Suit, str]] = ..., no_truf: _Optional[bool] = ..., mode: _Optional[_Union[TrufMode, str]] = ..., final_bids: _Optional[_Iterable[int]] = ..., tricks: _Optional[_Iterable[_Union[TrufTrick, _Mapping]]] = ..., trick_leader: _Optional[int] = ..., trick: _Optional[_Iterable[_Union[TrufPlayedCard, _Mapping]]] = ..., trump_broken: _Optional[bool] = ..., tricks_won: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...

class TrufBidAction(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class TrufModeAction(_message.Message):
    __slots__ = ("mode",)
    MODE_FIELD_NUMBER: _ClassVar[int]
    mode: TrufMode
    def __init__(self, mode: _Optional[_Union[TrufMode, str]] = ...) -> None: ...

class TrufPlayAction(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class TrufAction(_message.Message):
    __slots__ = ("bid", "declare", "mode", "play")
    BID_FIELD_NUMBER: _ClassVar[int]
    DECLARE_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    bid: TrufBidAction
    declare: TrufDeclaration
    mode: TrufModeAction
    play: TrufPlayAction
    def __init__(self, bid: _Optional[_Union[TrufBidAction, _Mapping]] = ..., declare: _Optional[_Union[TrufDeclaration, _Mapping]] = ..., mode: _Optional[_Union[TrufModeAction, _Mapping]] = ..., play: _Optional[_Union[TrufPlayAction, _Mapping]] = ...) -> None: ...

class TrufDecision(_message.Message):
    __slots__ = ("view", "legal_actions")
    VIEW_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    view: TrufView
    legal_actions: _containers.RepeatedCompositeFieldContainer[TrufAction]
    def __init__(self, view: _Optional[_Union[TrufView, _Mapping]] = ..., legal_actions: _Optional[_Iterable[_Union[TrufAction, _Mapping]]] = ...) -> None: ...

class TrufDealResult(_message.Message):
    __slots__ = ("dealer", "direction", "bids", "high_bidder", "trump", "mode", "final_bids", "tricks", "tricks_won", "scores", "totals", "variant", "bid_total", "mode_chosen")
    DEALER_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    BIDS_FIELD_NUMBER: _ClassVar[int]
    HIGH_BIDDER_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    FINAL_BIDS_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    TRICKS_WON_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    BID_TOTAL_FIELD_NUMBER: _ClassVar[int]
    MODE_CHOSEN_FIELD_NUMBER: _ClassVar[int]
    dealer: int
    direction: Direction
    bids: _containers.RepeatedCompositeFieldContainer[TrufBid]
    high_bidder: int
    trump: Suit
    mode: TrufMode
    final_bids: _containers.RepeatedScalarFieldContainer[int]
    tricks: _containers.RepeatedCompositeFieldContainer[TrufTrick]
    tricks_won: _containers.RepeatedScalarFieldContainer[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    variant: TrufVariant
    bid_total: int
    mode_chosen: bool
    def __init__(self, dealer: _Optional[int] = ..., direction: _Optional[_Union[Direction, str]] = ..., bids: _Optional[_Iterable[_Union[TrufBid, _Mapping]]] = ..., high_bidder: _Optional[int] = ..., trump: _Optional[_Union[Suit, str]] = ..., mode: _Optional[_Union[TrufMode, str]] = ..., final_bids: _Optional[_Iterable[int]] = ..., tricks: _Optional[_Iterable[_Union[TrufTrick, _Mapping]]] = ..., tricks_won: _Optional[_Iterable[int]] = ..., scores: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ..., variant: _Optional[_Union[TrufVariant, str]] = ..., bid_total: _Optional[int] = ..., mode_chosen: _Optional[bool] = ...) -> None: ...
