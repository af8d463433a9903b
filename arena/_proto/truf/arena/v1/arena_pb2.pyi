# Stub made by protoc; header added by scripts/gen_proto.py (bare Mapping in __init__).
# mypy: disable-error-code="type-arg"
import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from arena._proto.truf.arena.v1 import ruff_pb2 as _ruff_pb2
from arena._proto.truf.arena.v1 import truco_pb2 as _truco_pb2
from arena._proto.truf.arena.v1 import truf_pb2 as _truf_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class PlayRequest(_message.Message):
    __slots__ = ("hello", "answer")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    hello: Hello
    answer: Answer
    def __init__(self, hello: _Optional[_Union[Hello, _Mapping]] = ..., answer: _Optional[_Union[Answer, _Mapping]] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("welcome", "decision_request", "deal_result", "match_result", "answer_rejected", "tournament_over")
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    DECISION_REQUEST_FIELD_NUMBER: _ClassVar[int]
    DEAL_RESULT_FIELD_NUMBER: _ClassVar[int]
    MATCH_RESULT_FIELD_NUMBER: _ClassVar[int]
    ANSWER_REJECTED_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_OVER_FIELD_NUMBER: _ClassVar[int]
    welcome: Welcome
    decision_request: DecisionRequest
    deal_result: DealResult
    match_result: MatchResult
    answer_rejected: AnswerRejected
    tournament_over: TournamentOver
    def __init__(self, welcome: _Optional[_Union[Welcome, _Mapping]] = ..., decision_request: _Optional[_Union[DecisionRequest, _Mapping]] = ..., deal_result: _Optional[_Union[DealResult, _Mapping]] = ..., match_result: _Optional[_Union[MatchResult, _Mapping]] = ..., answer_rejected: _Optional[_Union[AnswerRejected, _Mapping]] = ..., tournament_over: _Optional[_Union[TournamentOver, _Mapping]] = ...) -> None: ...

class Hello(_message.Message):
    __slots__ = ("protocol_version", "bot_name", "bot_version", "token", "capacity", "games", "reconnect_token")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_VERSION_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    CAPACITY_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    RECONNECT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    bot_name: str
    bot_version: str
    token: str
    capacity: int
    games: _containers.RepeatedScalarFieldContainer[str]
    reconnect_token: str
    def __init__(self, protocol_version: _Optional[int] = ..., bot_name: _Optional[str] = ..., bot_version: _Optional[str] = ..., token: _Optional[str] = ..., capacity: _Optional[int] = ..., games: _Optional[_Iterable[str]] = ..., reconnect_token: _Optional[str] = ...) -> None: ...

class Welcome(_message.Message):
    __slots__ = ("protocol_version", "entrant", "server_version", "decision_timeout_ms", "max_message_bytes", "reconnect_token", "time_bank_ms")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    ENTRANT_FIELD_NUMBER: _ClassVar[int]
    SERVER_VERSION_FIELD_NUMBER: _ClassVar[int]
    DECISION_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    MAX_MESSAGE_BYTES_FIELD_NUMBER: _ClassVar[int]
    RECONNECT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    entrant: str
    server_version: str
    decision_timeout_ms: int
    max_message_bytes: int
    reconnect_token: str
    time_bank_ms: int
    def __init__(self, protocol_version: _Optional[int] = ..., entrant: _Optional[str] = ..., server_version: _Optional[str] = ..., decision_timeout_ms: _Optional[int] = ..., max_message_bytes: _Optional[int] = ..., reconnect_token: _Optional[str] = ..., time_bank_ms: _Optional[int] = ...) -> None: ...

class DecisionRequest(_message.Message):
    __slots__ = ("request_id", "table_id", "match_id", "deal", "seat", "timeout_ms", "deadline", "truf", "truco", "ruff", "base_timeout_ms", "time_bank_ms")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    TRUF_FIELD_NUMBER: _ClassVar[int]
    TRUCO_FIELD_NUMBER: _ClassVar[int]
    RUFF_FIELD_NUMBER: _ClassVar[int]
    BASE_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    table_id: str
    match_id: str
    deal: int
    seat: int
    timeout_ms: int
    deadline: _timestamp_pb2.Timestamp
    truf: _truf_pb2.TrufDecision
    truco: _truco_pb2.TrucoDecision
    ruff: _ruff_pb2.RuffDecision
    base_timeout_ms: int
    time_bank_ms: int
    def __init__(self, request_id: _Optional[int] = ..., table_id: _Optional[str] = ..., match_id: _Optional[str] = ..., deal: _Optional[int] = ..., seat: _Optional[int] = ..., timeout_ms: _Optional[int] = ..., deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., truf: _Optional[_Union[_truf_pb2.TrufDecision, _Mapping]] = ..., truco: _Optional[_Union[_truco_pb2.TrucoDecision, _Mapping]] = ..., ruff: _Optional[_Union[_ruff_pb2.RuffDecision, _Mapping]] = ..., base_timeout_ms: _Optional[int] = ..., time_bank_ms: _Optional[int] = ...) -> None: ...

class Answer(_message.Message):
    __slots__ = ("request_id", "index", "truf", "truco", "ruff", "failure")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    TRUF_FIELD_NUMBER: _ClassVar[int]
    TRUCO_FIELD_NUMBER: _ClassVar[int]
    RUFF_FIELD_NUMBER: _ClassVar[int]
    FAILURE_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    index: int
    truf: _truf_pb2.TrufAction
    truco: _truco_pb2.TrucoAction
    ruff: _ruff_pb2.RuffAction
    failure: Failure
    def __init__(self, request_id: _Optional[int] = ..., index: _Optional[int] = ..., truf: _Optional[_Union[_truf_pb2.TrufAction, _Mapping]] = ..., truco: _Optional[_Union[_truco_pb2.TrucoAction, _Mapping]] = ..., ruff: _Optional[_Union[_ruff_pb2.RuffAction, _Mapping]] = ..., failure: _Optional[_Union[Failure, _Mapping]] = ...) -> None: ...

class Failure(_message.Message):
    __slots__ = ("reason",)
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: str
    def __init__(self, reason: _Optional[str] = ...) -> None: ...

class DealResult(_message.Message):
    __slots__ = ("table_id", "match_id", "deal", "truf", "truco", "ruff")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    TRUF_FIELD_NUMBER: _ClassVar[int]
    TRUCO_FIELD_NUMBER: _ClassVar[int]
    RUFF_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    match_id: str
    deal: int
    truf: _truf_pb2.TrufDealResult
    truco: _truco_pb2.TrucoHandResult
    ruff: _ruff_pb2.RuffDealResult
    def __init__(self, table_id: _Optional[str] = ..., match_id: _Optional[str] = ..., deal: _Optional[int] = ..., truf: _Optional[_Union[_truf_pb2.TrufDealResult, _Mapping]] = ..., truco: _Optional[_Union[_truco_pb2.TrucoHandResult, _Mapping]] = ..., ruff: _Optional[_Union[_ruff_pb2.RuffDealResult, _Mapping]] = ...) -> None: ...

class MatchResult(_message.Message):
    __slots__ = ("table_id", "match_id", "names", "seat", "totals", "ranks", "faults")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    FAULTS_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    match_id: str
    names: _containers.RepeatedScalarFieldContainer[str]
    seat: int
    totals: _containers.RepeatedScalarFieldContainer[int]
    ranks: _containers.RepeatedScalarFieldContainer[int]
    faults: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, table_id: _Optional[str] = ..., match_id: _Optional[str] = ..., names: _Optional[_Iterable[str]] = ..., seat: _Optional[int] = ..., totals: _Optional[_Iterable[int]] = ..., ranks: _Optional[_Iterable[int]] = ..., faults: _Optional[_Iterable[int]] = ...) -> None: ...

class AnswerRejected(_message.Message):
    __slots__ = ("request_id", "reason", "detail", "strikes", "strikes_allowed")
    class Reason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        REASON_UNSPECIFIED: _ClassVar[AnswerRejected.Reason]
        REASON_WRONG_REQUEST_ID: _ClassVar[AnswerRejected.Reason]
        REASON_ILLEGAL_ACTION: _ClassVar[AnswerRejected.Reason]
        REASON_WRONG_KIND: _ClassVar[AnswerRejected.Reason]
        REASON_UNPARSEABLE: _ClassVar[AnswerRejected.Reason]
        REASON_LATE: _ClassVar[AnswerRejected.Reason]
        REASON_BOT_FAILED: _ClassVar[AnswerRejected.Reason]
    REASON_UNSPECIFIED: AnswerRejected.Reason
    REASON_WRONG_REQUEST_ID: AnswerRejected.Reason
    REASON_ILLEGAL_ACTION: AnswerRejected.Reason
    REASON_WRONG_KIND: AnswerRejected.Reason
    REASON_UNPARSEABLE: AnswerRejected.Reason
    REASON_LATE: AnswerRejected.Reason
    REASON_BOT_FAILED: AnswerRejected.Reason
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    STRIKES_FIELD_NUMBER: _ClassVar[int]
    STRIKES_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    reason: AnswerRejected.Reason
    detail: str
    strikes: int
    strikes_allowed: int
    def __init__(self, request_id: _Optional[int] = ..., reason: _Optional[_Union[AnswerRejected.Reason, str]] = ..., detail: _Optional[str] = ..., strikes: _Optional[int] = ..., strikes_allowed: _Optional[int] = ...) -> None: ...

class TournamentOver(_message.Message):
    __slots__ = ("message",)
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...
