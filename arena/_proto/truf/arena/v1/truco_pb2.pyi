# Stub made by protoc; header added by scripts/gen_proto.py (bare Mapping in __init__).
# mypy: disable-error-code="type-arg"
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TrucoCall(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRUCO_CALL_UNSPECIFIED: _ClassVar[TrucoCall]
    TRUCO_CALL_TRUCO: _ClassVar[TrucoCall]
    TRUCO_CALL_RETRUCO: _ClassVar[TrucoCall]
    TRUCO_CALL_VALE_CUATRO: _ClassVar[TrucoCall]
    TRUCO_CALL_ENVIDO: _ClassVar[TrucoCall]
    TRUCO_CALL_REAL_ENVIDO: _ClassVar[TrucoCall]
    TRUCO_CALL_FALTA_ENVIDO: _ClassVar[TrucoCall]

class TrucoAnswer(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRUCO_ANSWER_UNSPECIFIED: _ClassVar[TrucoAnswer]
    TRUCO_ANSWER_QUIERO: _ClassVar[TrucoAnswer]
    TRUCO_ANSWER_NO_QUIERO: _ClassVar[TrucoAnswer]

class TrucoAsked(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRUCO_ASKED_UNSPECIFIED: _ClassVar[TrucoAsked]
    TRUCO_ASKED_PLAY: _ClassVar[TrucoAsked]
    TRUCO_ASKED_ANSWER_TRUCO: _ClassVar[TrucoAsked]
    TRUCO_ASKED_ANSWER_ENVIDO: _ClassVar[TrucoAsked]
    TRUCO_ASKED_DECLARE: _ClassVar[TrucoAsked]
    TRUCO_ASKED_OVER: _ClassVar[TrucoAsked]

class TrucoHandKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRUCO_HAND_KIND_UNSPECIFIED: _ClassVar[TrucoHandKind]
    TRUCO_HAND_KIND_TEAM: _ClassVar[TrucoHandKind]
    TRUCO_HAND_KIND_DUELS: _ClassVar[TrucoHandKind]

class TrucoEnvidoState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRUCO_ENVIDO_STATE_UNSPECIFIED: _ClassVar[TrucoEnvidoState]
    TRUCO_ENVIDO_STATE_NONE: _ClassVar[TrucoEnvidoState]
    TRUCO_ENVIDO_STATE_CALLED: _ClassVar[TrucoEnvidoState]
    TRUCO_ENVIDO_STATE_DECLARING: _ClassVar[TrucoEnvidoState]
    TRUCO_ENVIDO_STATE_REFUSED: _ClassVar[TrucoEnvidoState]
    TRUCO_ENVIDO_STATE_SETTLED: _ClassVar[TrucoEnvidoState]

class TrucoEnvidoCount(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRUCO_ENVIDO_COUNT_UNSPECIFIED: _ClassVar[TrucoEnvidoCount]
    TRUCO_ENVIDO_COUNT_SEED: _ClassVar[TrucoEnvidoCount]
    TRUCO_ENVIDO_COUNT_TRADITIONAL: _ClassVar[TrucoEnvidoCount]

class TrucoEnded(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRUCO_ENDED_UNSPECIFIED: _ClassVar[TrucoEnded]
    TRUCO_ENDED_TRICKS: _ClassVar[TrucoEnded]
    TRUCO_ENDED_NO_QUIERO: _ClassVar[TrucoEnded]
    TRUCO_ENDED_MAZO: _ClassVar[TrucoEnded]
TRUCO_CALL_UNSPECIFIED: TrucoCall
TRUCO_CALL_TRUCO: TrucoCall
TRUCO_CALL_RETRUCO: TrucoCall
TRUCO_CALL_VALE_CUATRO: TrucoCall
TRUCO_CALL_ENVIDO: TrucoCall
TRUCO_CALL_REAL_ENVIDO: TrucoCall
TRUCO_CALL_FALTA_ENVIDO: TrucoCall
TRUCO_ANSWER_UNSPECIFIED: TrucoAnswer
TRUCO_ANSWER_QUIERO: TrucoAnswer
TRUCO_ANSWER_NO_QUIERO: TrucoAnswer
TRUCO_ASKED_UNSPECIFIED: TrucoAsked
TRUCO_ASKED_PLAY: TrucoAsked
TRUCO_ASKED_ANSWER_TRUCO: TrucoAsked
TRUCO_ASKED_ANSWER_ENVIDO: TrucoAsked
TRUCO_ASKED_DECLARE: TrucoAsked
TRUCO_ASKED_OVER: TrucoAsked
TRUCO_HAND_KIND_UNSPECIFIED: TrucoHandKind
TRUCO_HAND_KIND_TEAM: TrucoHandKind
TRUCO_HAND_KIND_DUELS: TrucoHandKind
TRUCO_ENVIDO_STATE_UNSPECIFIED: TrucoEnvidoState
TRUCO_ENVIDO_STATE_NONE: TrucoEnvidoState
TRUCO_ENVIDO_STATE_CALLED: TrucoEnvidoState
TRUCO_ENVIDO_STATE_DECLARING: TrucoEnvidoState
TRUCO_ENVIDO_STATE_REFUSED: TrucoEnvidoState
TRUCO_ENVIDO_STATE_SETTLED: TrucoEnvidoState
TRUCO_ENVIDO_COUNT_UNSPECIFIED: TrucoEnvidoCount
TRUCO_ENVIDO_COUNT_SEED: TrucoEnvidoCount
TRUCO_ENVIDO_COUNT_TRADITIONAL: TrucoEnvidoCount
TRUCO_ENDED_UNSPECIFIED: TrucoEnded
TRUCO_ENDED_TRICKS: TrucoEnded
TRUCO_ENDED_NO_QUIERO: TrucoEnded
TRUCO_ENDED_MAZO: TrucoEnded

class TrucoSonBuenas(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TrucoMazo(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TrucoAction(_message.Message):
    __slots__ = ("play", "call", "answer", "declare", "son_buenas", "mazo")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    DECLARE_FIELD_NUMBER: _ClassVar[int]
    SON_BUENAS_FIELD_NUMBER: _ClassVar[int]
    MAZO_FIELD_NUMBER: _ClassVar[int]
    play: str
    call: TrucoCall
    answer: TrucoAnswer
    declare: int
    son_buenas: TrucoSonBuenas
    mazo: TrucoMazo
    def __init__(self, play: _Optional[str] = ..., call: _Optional[_Union[TrucoCall, str]] = ..., answer: _Optional[_Union[TrucoAnswer, str]] = ..., declare: _Optional[int] = ..., son_buenas: _Optional[_Union[TrucoSonBuenas, _Mapping]] = ..., mazo: _Optional[_Union[TrucoMazo, _Mapping]] = ...) -> None: ...

class TrucoLoggedAction(_message.Message):
    __slots__ = ("seat", "action")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: TrucoAction
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[_Union[TrucoAction, _Mapping]] = ...) -> None: ...

class TrucoPlayedCard(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class TrucoTrick(_message.Message):
    __slots__ = ("leader", "cards", "winner")
    LEADER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    leader: int
    cards: _containers.RepeatedCompositeFieldContainer[TrucoPlayedCard]
    winner: int
    def __init__(self, leader: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[TrucoPlayedCard, _Mapping]]] = ..., winner: _Optional[int] = ...) -> None: ...

class TrucoDeclaration(_message.Message):
    __slots__ = ("seat", "points")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    points: int
    def __init__(self, seat: _Optional[int] = ..., points: _Optional[int] = ...) -> None: ...

class TrucoShown(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class TrucoPlay(_message.Message):
    __slots__ = ("seats", "mano", "log", "tricks", "trick", "stake", "truco_call", "raise_team", "envido_calls", "envido_state", "declarations", "folded", "points", "shown")
    SEATS_FIELD_NUMBER: _ClassVar[int]
    MANO_FIELD_NUMBER: _ClassVar[int]
    LOG_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    STAKE_FIELD_NUMBER: _ClassVar[int]
    TRUCO_CALL_FIELD_NUMBER: _ClassVar[int]
    RAISE_TEAM_FIELD_NUMBER: _ClassVar[int]
    ENVIDO_CALLS_FIELD_NUMBER: _ClassVar[int]
    ENVIDO_STATE_FIELD_NUMBER: _ClassVar[int]
    DECLARATIONS_FIELD_NUMBER: _ClassVar[int]
    FOLDED_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    SHOWN_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedScalarFieldContainer[int]
    mano: int
    log: _containers.RepeatedCompositeFieldContainer[TrucoLoggedAction]
    tricks: _containers.RepeatedCompositeFieldContainer[TrucoTrick]
    trick: _containers.RepeatedCompositeFieldContainer[TrucoPlayedCard]
    stake: int
    truco_call: TrucoCall
    raise_team: int
    envido_calls: _containers.RepeatedScalarFieldContainer[TrucoCall]
    envido_state: TrucoEnvidoState
    declarations: _containers.RepeatedCompositeFieldContainer[TrucoDeclaration]
    folded: _containers.RepeatedScalarFieldContainer[int]
    points: _containers.RepeatedScalarFieldContainer[int]
    shown: TrucoShown
    def __init__(self, seats: _Optional[_Iterable[int]] = ..., mano: _Optional[int] = ..., log: _Optional[_Iterable[_Union[TrucoLoggedAction, _Mapping]]] = ..., tricks: _Optional[_Iterable[_Union[TrucoTrick, _Mapping]]] = ..., trick: _Optional[_Iterable[_Union[TrucoPlayedCard, _Mapping]]] = ..., stake: _Optional[int] = ..., truco_call: _Optional[_Union[TrucoCall, str]] = ..., raise_team: _Optional[int] = ..., envido_calls: _Optional[_Iterable[_Union[TrucoCall, str]]] = ..., envido_state: _Optional[_Union[TrucoEnvidoState, str]] = ..., declarations: _Optional[_Iterable[_Union[TrucoDeclaration, _Mapping]]] = ..., folded: _Optional[_Iterable[int]] = ..., points: _Optional[_Iterable[int]] = ..., shown: _Optional[_Union[TrucoShown, _Mapping]] = ...) -> None: ...

class TrucoView(_message.Message):
    __slots__ = ("match_id", "hand", "seat", "names", "teams", "target", "envido_count", "scores", "dealer", "kind", "to_act", "asked", "cards", "dealt", "plays")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    TEAMS_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    ENVIDO_COUNT_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    ASKED_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    DEALT_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    hand: int
    seat: int
    names: _containers.RepeatedScalarFieldContainer[str]
    teams: _containers.RepeatedCompositeFieldContainer[TrucoTeam]
    target: int
    envido_count: TrucoEnvidoCount
    scores: _containers.RepeatedScalarFieldContainer[int]
    dealer: int
    kind: TrucoHandKind
    to_act: _containers.RepeatedScalarFieldContainer[int]
    asked: TrucoAsked
    cards: _containers.RepeatedScalarFieldContainer[str]
    dealt: _containers.RepeatedScalarFieldContainer[str]
    plays: _containers.RepeatedCompositeFieldContainer[TrucoPlay]
    def __init__(self, match_id: _Optional[str] = ..., hand: _Optional[int] = ..., seat: _Optional[int] = ..., names: _Optional[_Iterable[str]] = ..., teams: _Optional[_Iterable[_Union[TrucoTeam, _Mapping]]] = ..., target: _Optional[int] = ..., envido_count: _Optional[_Union[TrucoEnvidoCount, str]] = ..., scores: _Optional[_Iterable[int]] = ..., dealer: _Optional[int] = ..., kind: _Optional[_Union[TrucoHandKind, str]] = ..., to_act: _Optional[_Iterable[int]] = ..., asked: _Optional[_Union[TrucoAsked, str]] = ..., cards: _Optional[_Iterable[str]] = ..., dealt: _Optional[_Iterable[str]] = ..., plays: _Optional[_Iterable[_Union[TrucoPlay, _Mapping]]] = ...) -> None: ...

class TrucoTeam(_message.Message):
    __slots__ = ("seats",)
    SEATS_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seats: _Optional[_Iterable[int]] = ...) -> None: ...

class TrucoDecision(_message.Message):
    __slots__ = ("view", "legal_actions")
    VIEW_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    view: TrucoView
    legal_actions: _containers.RepeatedCompositeFieldContainer[TrucoAction]
    def __init__(self, view: _Optional[_Union[TrucoView, _Mapping]] = ..., legal_actions: _Optional[_Iterable[_Union[TrucoAction, _Mapping]]] = ...) -> None: ...

class TrucoScored(_message.Message):
    __slots__ = ("team", "points")
    TEAM_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    team: int
    points: int
    def __init__(self, team: _Optional[int] = ..., points: _Optional[int] = ...) -> None: ...

class TrucoEnvidoResult(_message.Message):
    __slots__ = ("calls", "result", "declarations", "scored", "shown")
    CALLS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    DECLARATIONS_FIELD_NUMBER: _ClassVar[int]
    SCORED_FIELD_NUMBER: _ClassVar[int]
    SHOWN_FIELD_NUMBER: _ClassVar[int]
    calls: _containers.RepeatedScalarFieldContainer[TrucoCall]
    result: TrucoEnvidoState
    declarations: _containers.RepeatedCompositeFieldContainer[TrucoDeclaration]
    scored: TrucoScored
    shown: TrucoShown
    def __init__(self, calls: _Optional[_Iterable[_Union[TrucoCall, str]]] = ..., result: _Optional[_Union[TrucoEnvidoState, str]] = ..., declarations: _Optional[_Iterable[_Union[TrucoDeclaration, _Mapping]]] = ..., scored: _Optional[_Union[TrucoScored, _Mapping]] = ..., shown: _Optional[_Union[TrucoShown, _Mapping]] = ...) -> None: ...

class TrucoPlayResult(_message.Message):
    __slots__ = ("seats", "mano", "actions", "tricks", "ended", "trick_winner", "stake", "truco", "envido", "folded", "points")
    SEATS_FIELD_NUMBER: _ClassVar[int]
    MANO_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    TRICK_WINNER_FIELD_NUMBER: _ClassVar[int]
    STAKE_FIELD_NUMBER: _ClassVar[int]
    TRUCO_FIELD_NUMBER: _ClassVar[int]
    ENVIDO_FIELD_NUMBER: _ClassVar[int]
    FOLDED_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedScalarFieldContainer[int]
    mano: int
    actions: _containers.RepeatedCompositeFieldContainer[TrucoLoggedAction]
    tricks: _containers.RepeatedCompositeFieldContainer[TrucoTrick]
    ended: TrucoEnded
    trick_winner: int
    stake: int
    truco: TrucoScored
    envido: TrucoEnvidoResult
    folded: _containers.RepeatedScalarFieldContainer[int]
    points: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seats: _Optional[_Iterable[int]] = ..., mano: _Optional[int] = ..., actions: _Optional[_Iterable[_Union[TrucoLoggedAction, _Mapping]]] = ..., tricks: _Optional[_Iterable[_Union[TrucoTrick, _Mapping]]] = ..., ended: _Optional[_Union[TrucoEnded, str]] = ..., trick_winner: _Optional[int] = ..., stake: _Optional[int] = ..., truco: _Optional[_Union[TrucoScored, _Mapping]] = ..., envido: _Optional[_Union[TrucoEnvidoResult, _Mapping]] = ..., folded: _Optional[_Iterable[int]] = ..., points: _Optional[_Iterable[int]] = ...) -> None: ...

class TrucoHandResult(_message.Message):
    __slots__ = ("dealer", "mano", "kind", "scores_before", "plays", "points", "scores", "totals")
    DEALER_FIELD_NUMBER: _ClassVar[int]
    MANO_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SCORES_BEFORE_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    dealer: int
    mano: int
    kind: TrucoHandKind
    scores_before: _containers.RepeatedScalarFieldContainer[int]
    plays: _containers.RepeatedCompositeFieldContainer[TrucoPlayResult]
    points: _containers.RepeatedScalarFieldContainer[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, dealer: _Optional[int] = ..., mano: _Optional[int] = ..., kind: _Optional[_Union[TrucoHandKind, str]] = ..., scores_before: _Optional[_Iterable[int]] = ..., plays: _Optional[_Iterable[_Union[TrucoPlayResult, _Mapping]]] = ..., points: _Optional[_Iterable[int]] = ..., scores: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...
