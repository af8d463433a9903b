# Stub made by protoc; header added by scripts/gen_proto.py (bare Mapping in __init__).
# mypy: disable-error-code="type-arg"
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RuffForm(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RUFF_FORM_UNSPECIFIED: _ClassVar[RuffForm]
    RUFF_FORM_DOUBLE: _ClassVar[RuffForm]
    RUFF_FORM_SINGLE: _ClassVar[RuffForm]

class RuffPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RUFF_PHASE_UNSPECIFIED: _ClassVar[RuffPhase]
    RUFF_PHASE_ANNOUNCE: _ClassVar[RuffPhase]
    RUFF_PHASE_RUB: _ClassVar[RuffPhase]
    RUFF_PHASE_PLAY: _ClassVar[RuffPhase]
    RUFF_PHASE_OVER: _ClassVar[RuffPhase]

class RuffEnded(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RUFF_ENDED_UNSPECIFIED: _ClassVar[RuffEnded]
    RUFF_ENDED_PLAYED: _ClassVar[RuffEnded]
    RUFF_ENDED_RUFF: _ClassVar[RuffEnded]
RUFF_FORM_UNSPECIFIED: RuffForm
RUFF_FORM_DOUBLE: RuffForm
RUFF_FORM_SINGLE: RuffForm
RUFF_PHASE_UNSPECIFIED: RuffPhase
RUFF_PHASE_ANNOUNCE: RuffPhase
RUFF_PHASE_RUB: RuffPhase
RUFF_PHASE_PLAY: RuffPhase
RUFF_PHASE_OVER: RuffPhase
RUFF_ENDED_UNSPECIFIED: RuffEnded
RUFF_ENDED_PLAYED: RuffEnded
RUFF_ENDED_RUFF: RuffEnded

class RuffDiscard(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class RuffAction(_message.Message):
    __slots__ = ("announce", "discard", "play")
    ANNOUNCE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    announce: int
    discard: RuffDiscard
    play: str
    def __init__(self, announce: _Optional[int] = ..., discard: _Optional[_Union[RuffDiscard, _Mapping]] = ..., play: _Optional[str] = ...) -> None: ...

class RuffAnnouncement(_message.Message):
    __slots__ = ("seat", "ruff")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RUFF_FIELD_NUMBER: _ClassVar[int]
    seat: int
    ruff: int
    def __init__(self, seat: _Optional[int] = ..., ruff: _Optional[int] = ...) -> None: ...

class RuffShown(_message.Message):
    __slots__ = ("seat", "suit", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SUIT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    suit: str
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., suit: _Optional[str] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class RuffPlayedCard(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class RuffTrick(_message.Message):
    __slots__ = ("leader", "cards", "winner")
    LEADER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    leader: int
    cards: _containers.RepeatedCompositeFieldContainer[RuffPlayedCard]
    winner: int
    def __init__(self, leader: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[RuffPlayedCard, _Mapping]]] = ..., winner: _Optional[int] = ...) -> None: ...

class RuffSide(_message.Message):
    __slots__ = ("seats",)
    SEATS_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seats: _Optional[_Iterable[int]] = ...) -> None: ...

class RuffView(_message.Message):
    __slots__ = ("match_id", "deal", "seat", "names", "form", "sides", "cards_per_seat", "set_points", "scores", "dealer", "eldest", "turned", "trump", "to_act", "phase", "hand", "dealt", "announcements", "ruff_winner", "rubber", "taken", "discards", "shown", "tricks", "trick", "cards_won")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    FORM_FIELD_NUMBER: _ClassVar[int]
    SIDES_FIELD_NUMBER: _ClassVar[int]
    CARDS_PER_SEAT_FIELD_NUMBER: _ClassVar[int]
    SET_POINTS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    ELDEST_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    DEALT_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCEMENTS_FIELD_NUMBER: _ClassVar[int]
    RUFF_WINNER_FIELD_NUMBER: _ClassVar[int]
    RUBBER_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    SHOWN_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    CARDS_WON_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    deal: int
    seat: int
    names: _containers.RepeatedScalarFieldContainer[str]
    form: RuffForm
    sides: _containers.RepeatedCompositeFieldContainer[RuffSide]
    cards_per_seat: int
    set_points: int
    scores: _containers.RepeatedScalarFieldContainer[int]
    dealer: int
    eldest: int
    turned: str
    trump: str
    to_act: _containers.RepeatedScalarFieldContainer[int]
    phase: RuffPhase
    hand: _containers.RepeatedScalarFieldContainer[str]
    dealt: _containers.RepeatedScalarFieldContainer[str]
    announcements: _containers.RepeatedCompositeFieldContainer[RuffAnnouncement]
    ruff_winner: int
    rubber: int
    taken: _containers.RepeatedScalarFieldContainer[str]
    discards: _containers.RepeatedScalarFieldContainer[str]
    shown: RuffShown
    tricks: _containers.RepeatedCompositeFieldContainer[RuffTrick]
    trick: _containers.RepeatedCompositeFieldContainer[RuffPlayedCard]
    cards_won: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, match_id: _Optional[str] = ..., deal: _Optional[int] = ..., seat: _Optional[int] = ..., names: _Optional[_Iterable[str]] = ..., form: _Optional[_Union[RuffForm, str]] = ..., sides: _Optional[_Iterable[_Union[RuffSide, _Mapping]]] = ..., cards_per_seat: _Optional[int] = ..., set_points: _Optional[int] = ..., scores: _Optional[_Iterable[int]] = ..., dealer: _Optional[int] = ..., eldest: _Optional[int] = ..., turned: _Optional[str] = ..., trump: _Optional[str] = ..., to_act: _Optional[_Iterable[int]] = ..., phase: _Optional[_Union[RuffPhase, str]] = ..., hand: _Optional[_Iterable[str]] = ..., dealt: _Optional[_Iterable[str]] = ..., announcements: _Optional[_Iterable[_Union[RuffAnnouncement, _Mapping]]] = ..., ruff_winner: _Optional[int] = ..., rubber: _Optional[int] = ..., taken: _Optional[_Iterable[str]] = ..., discards: _Optional[_Iterable[str]] = ..., shown: _Optional[_Union[RuffShown, _Mapping]] = ..., tricks: _Optional[_Iterable[_Union[RuffTrick, _Mapping]]] = ..., trick: _Optional[_Iterable[_Union[RuffPlayedCard, _Mapping]]] = ..., cards_won: _Optional[_Iterable[int]] = ...) -> None: ...

class RuffDiscardChoice(_message.Message):
    __slots__ = ("count",)
    COUNT_FIELD_NUMBER: _ClassVar[int]
    count: int
    def __init__(self, count: _Optional[int] = ...) -> None: ...

class RuffDecision(_message.Message):
    __slots__ = ("view", "legal_actions", "discard")
    VIEW_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    view: RuffView
    legal_actions: _containers.RepeatedCompositeFieldContainer[RuffAction]
    discard: RuffDiscardChoice
    def __init__(self, view: _Optional[_Union[RuffView, _Mapping]] = ..., legal_actions: _Optional[_Iterable[_Union[RuffAction, _Mapping]]] = ..., discard: _Optional[_Union[RuffDiscardChoice, _Mapping]] = ...) -> None: ...

class RuffDealResult(_message.Message):
    __slots__ = ("dealer", "eldest", "turned", "ended", "announcements", "ruff_winner", "rubber", "shown", "tricks", "cards_won", "ruff_points", "card_points", "points", "scores_before", "scores", "totals")
    DEALER_FIELD_NUMBER: _ClassVar[int]
    ELDEST_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCEMENTS_FIELD_NUMBER: _ClassVar[int]
    RUFF_WINNER_FIELD_NUMBER: _ClassVar[int]
    RUBBER_FIELD_NUMBER: _ClassVar[int]
    SHOWN_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    CARDS_WON_FIELD_NUMBER: _ClassVar[int]
    RUFF_POINTS_FIELD_NUMBER: _ClassVar[int]
    CARD_POINTS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    SCORES_BEFORE_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    dealer: int
    eldest: int
    turned: str
    ended: RuffEnded
    announcements: _containers.RepeatedCompositeFieldContainer[RuffAnnouncement]
    ruff_winner: int
    rubber: int
    shown: RuffShown
    tricks: _containers.RepeatedCompositeFieldContainer[RuffTrick]
    cards_won: _containers.RepeatedScalarFieldContainer[int]
    ruff_points: _containers.RepeatedScalarFieldContainer[int]
    card_points: _containers.RepeatedScalarFieldContainer[int]
    points: _containers.RepeatedScalarFieldContainer[int]
    scores_before: _containers.RepeatedScalarFieldContainer[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, dealer: _Optional[int] = ..., eldest: _Optional[int] = ..., turned: _Optional[str] = ..., ended: _Optional[_Union[RuffEnded, str]] = ..., announcements: _Optional[_Iterable[_Union[RuffAnnouncement, _Mapping]]] = ..., ruff_winner: _Optional[int] = ..., rubber: _Optional[int] = ..., shown: _Optional[_Union[RuffShown, _Mapping]] = ..., tricks: _Optional[_Iterable[_Union[RuffTrick, _Mapping]]] = ..., cards_won: _Optional[_Iterable[int]] = ..., ruff_points: _Optional[_Iterable[int]] = ..., card_points: _Optional[_Iterable[int]] = ..., points: _Optional[_Iterable[int]] = ..., scores_before: _Optional[_Iterable[int]] = ..., scores: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...
