"""The gRPC referee: bots dial in, say hello, and answer decision requests.

One bidirectional stream per bot (``ArenaService.Play``). The referee owns the
protocol's edge: it turns wire messages into engine actions and faults into
``AnswerRejected`` messages and gRPC status codes; everything inside is
transport-free (``arena.referee.table``).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf.message import DecodeError
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from arena import __version__
from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena._proto.truf.arena.v1 import arena_pb2_grpc as pb_grpc
from arena.core.errors import ActionFormatError
from arena.games.codecs import BRANCHES, codec_for
from arena.play.botgames import hello_games_hint
from arena.play.faults import FaultKind
from arena.play.tournament import MatchContext, entrant_names
from arena.referee.limits import (
    MAX_MESSAGE_BYTES,
    Budget,
    Gate,
    Limits,
    Vouch,
    patient_with,
    server_options,
)
from arena.referee.table import BotFault
from arena.wire.codecs import GameCodec
from arena.wire.pbwire import LEN_TAG, len_field, str_field, uint_field, uv

PROTOCOL_VERSION = 1
HELLO_TIMEOUT = 10.0
# A bot that does not read its stream is cut off when the referee's next message for it
# finds one waiting to be written for STALL_LIMIT seconds, or OUTBOX_LIMIT waiting. (grpc
# holds a write only once the connection's buffers, a few MB, are full of unread data.)
STALL_LIMIT = 30.0
OUTBOX_LIMIT = 1024
NAME_LIMIT = 64  # characters in a Hello's bot_name or bot_version
REFUSALS_KEPT = 16  # refused hellos the referee remembers, to show (Referee.refusals)
SERVICE_NAME = pb.DESCRIPTOR.services_by_name["ArenaService"].full_name

REASON = {
    FaultKind.TIMEOUT: pb.AnswerRejected.REASON_LATE,
    FaultKind.ILLEGAL: pb.AnswerRejected.REASON_ILLEGAL_ACTION,
    FaultKind.UNPARSEABLE: pb.AnswerRejected.REASON_UNPARSEABLE,
    FaultKind.WRONG_REQUEST: pb.AnswerRejected.REASON_WRONG_REQUEST_ID,
    FaultKind.CRASH: pb.AnswerRejected.REASON_BOT_FAILED,
}
FAILURE_LIMIT = 200  # characters of a bot's Failure.reason kept in the log (arena.proto)


class HelloError(Exception):
    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def check_hello_text(field: str, text: str, *, required: bool) -> None:
    """A Hello's name or version: at most NAME_LIMIT printable characters (``isprintable``
    refuses control characters, bidi overrides and other invisible formatting), or
    HelloError(INVALID_ARGUMENT) saying which rule it broke."""
    if not text:
        if required:
            raise HelloError(grpc.StatusCode.INVALID_ARGUMENT, f"hello.{field} is empty")
        return
    if len(text) > NAME_LIMIT:
        raise HelloError(
            grpc.StatusCode.INVALID_ARGUMENT,
            f"hello.{field} is {len(text)} characters long; at most {NAME_LIMIT} are allowed",
        )
    if not text.isprintable() or text.strip() != text:
        bad = next((c for c in text if not c.isprintable()), None)
        why = f"character U+{ord(bad):04X}" if bad else "leading or trailing space"
        raise HelloError(
            grpc.StatusCode.INVALID_ARGUMENT,
            f"hello.{field} has a {why}: use printable characters only",
        )


def failure_detail(reason: str) -> str:
    """The fault detail of a bot's ``Failure``: its reason, cut to FAILURE_LIMIT
    characters, control and formatting characters replaced (it goes into the log and
    the terminal)."""
    shown = "".join(c if c.isprintable() else "?" for c in reason[:FAILURE_LIMIT]).strip()
    more = "..." if len(reason) > FAILURE_LIMIT else ""
    return f"the bot failed: {shown}{more}" if shown else "the bot failed (no reason given)"


class Outbox:
    """A stream's messages waiting to be written, in order: a deque and one waiter.

    ``asyncio.Queue`` does this with more bookkeeping per message (task counts, an
    event, waiter lists); this is on every request's path. One task reads it.
    """

    __slots__ = ("items", "waiter")

    def __init__(self) -> None:
        self.items: deque[pb.PlayResponse | bytes | None] = deque()
        self.waiter: asyncio.Future[None] | None = None

    def put(self, msg: pb.PlayResponse | bytes | None) -> None:
        self.items.append(msg)
        waiter = self.waiter
        if waiter is not None:
            self.waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def get(self) -> pb.PlayResponse | bytes | None:
        items = self.items
        while not items:
            self.waiter = waiter = asyncio.get_running_loop().create_future()
            await waiter
        return items.popleft()

    def qsize(self) -> int:
        return len(self.items)


@dataclass
class Connection:
    """One live stream to a bot."""

    entrant: Entrant
    capacity: int
    outbox: Outbox = field(default_factory=Outbox)
    pending: dict[int, asyncio.Future[Any]] = field(default_factory=dict)  # by request id
    closed: bool = False
    cut: str | None = None  # why the referee ended this stream, if it did
    cut_code: grpc.StatusCode = grpc.StatusCode.RESOURCE_EXHAUSTED  # and with what status
    # When the message being written now was handed to grpc (monotonic), 0.0 when none
    # is: grpc holds a write while the bot's HTTP/2 window is full, i.e. it does not read.
    writing_since: float = 0.0
    context: Any = None  # the stream's grpc.aio.ServicerContext
    status_sent: bool = False
    ended: bool = False  # Referee.stream_ended has run

    def send(self, msg: pb.PlayResponse | bytes) -> None:
        if self.closed:
            return
        since = self.writing_since
        if since and time.monotonic() - since > STALL_LIMIT:
            self.cut_off(f"the bot has not read its stream for {STALL_LIMIT:g} s")
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:  # bounded memory, however slow the writes
            self.cut_off(f"the bot has not read its last {OUTBOX_LIMIT} messages")
            return
        self.outbox.put(msg)

    def cut_off(self, why: str, code: grpc.StatusCode = grpc.StatusCode.RESOURCE_EXHAUSTED) -> None:
        """End this stream with ``code``: RESOURCE_EXHAUSTED (the bot may reconnect), or
        ALREADY_EXISTS when a new connection of the same entrant replaced it."""
        if not self.closed:
            self.cut, self.cut_code = why, code
            self.outbox.items.clear()  # nothing more is written to it: the end comes next
            self.close()
            if self.writing_since and self.context is not None:  # in a write grpc holds
                asyncio.ensure_future(self._end_stuck_stream())

    async def _end_stuck_stream(self) -> None:
        """A stream whose writer grpc holds (the bot does not read) cannot end itself:
        let its seat go now, and queue its status from here."""
        self.status_sent = True
        self.entrant.referee.stream_ended(self)  # now: the status waits on the bot to read
        # abort raises once the status is queued, and fails if the call is already over
        with contextlib.suppress(Exception):
            await self.context.abort(self.cut_code, self.cut)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            for future in self.pending.values():
                if not future.done():
                    future.set_exception(
                        BotFault(FaultKind.DISCONNECT, "the bot's connection dropped")
                    )
            self.pending.clear()
            self.outbox.put(None)


class Entrant:
    """A tournament entrant: a ``SeatLink`` that outlives any one connection."""

    def __init__(self, name: str, referee: Referee, token: str | None = None) -> None:
        self.name = name
        self.token = token  # the organiser's, or None in an open tournament
        # Welcome.reconnect_token: brings a bot back to this entrant, tokens or not.
        self.credential = secrets.token_hex(16)
        self.referee = referee
        self.last_request_id = 0  # the highest request id sent to this entrant
        self.conn: Connection | None = None
        self.connected = asyncio.Event()
        self.budget = Budget()  # what it may send: refilled by each request, kept across reconnects
        self.bot_name = ""
        self.bot_version = ""
        self.gone_since: float | None = None  # monotonic time its connection dropped
        self.forfeits = False  # stayed away past the grace period: forfeits what is left
        # The latest request per (match, seat): what an AnswerRejected refers to.
        self.last_request: dict[tuple[str, int], int] = {}
        # Seconds left in each (match, seat)'s time bank, once it has been drawn on.
        self.banks: dict[tuple[str, int], float] = {}

    @property
    def version(self) -> str:
        """The version the bot announced in its hello (for tournament.json)."""
        return self.bot_version or "unknown"

    @property
    def forfeited(self) -> bool:
        """Whether this entrant has forfeited its remaining matches: it was connected,
        then stayed away longer than the referee's grace period. Final once true."""
        gone = self.gone_since
        if not self.forfeits and gone is not None:
            self.forfeits = time.monotonic() - gone > self.referee.grace
        return self.forfeits

    @property
    def connected_now(self) -> bool:
        return self.conn is not None and not self.conn.closed

    @property
    def capacity(self) -> int:
        return self.conn.capacity if self.conn else 1

    async def decide(self, *, ctx: MatchContext, seat: int, view: Any, legal: Sequence[Any]) -> Any:
        conn = self.conn
        if conn is None or conn.closed:
            self.last_request.pop((ctx.match_id, seat), None)  # no request for this one
            raise BotFault(FaultKind.DISCONNECT, "the bot is not connected")
        referee = self.referee
        rid = next(referee.request_ids)
        self.last_request_id = rid
        key = (ctx.match_id, seat)
        self.last_request[key] = rid
        base = referee.decision_timeout
        # The optional per-match time bank: a decision may run over `base` by what is
        # left of it; the overrun is drawn from it. The request carries both.
        bank = self.banks.get(key, referee.time_bank) if referee.time_bank else 0.0
        timeout = base + bank
        # Built as bytes (see decision_request_bytes): the per-decision hot path.
        codec = referee.codec
        msg = decision_request_bytes(
            rid,
            ctx.match_id,
            codec.deal_of(view),
            seat,
            base,
            bank,
            time.time_ns(),
            codec.decision_bytes(view, legal),
            codec.field,
        )
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        conn.pending[rid] = future
        conn.send(msg)
        self.budget.grant()
        start = loop.time()
        referee.deadlines.add(start + timeout, rid, future, conn, timeout)
        try:
            answer = await future
            if bank:
                self.banks[key] = max(0.0, bank - max(0.0, loop.time() - start - base))
            return answer
        except BotFault as fault:
            if bank and fault.kind is FaultKind.TIMEOUT:
                self.banks[key] = 0.0
            raise
        finally:
            conn.pending.pop(rid, None)

    def request_id(self, ctx: MatchContext, seat: int) -> int | None:
        """The id of the request sent for the seat's decision now at hand (what its fault
        record names); None when none was sent (the bot was away)."""
        return self.last_request.get((ctx.match_id, seat))

    async def notify_deal(self, *, ctx: MatchContext, seat: int, record: dict[str, Any]) -> None:
        if self.conn is not None:
            self.conn.send(_deal_result_bytes(ctx.match_id, record, self.referee.codec))

    async def notify_match(self, *, ctx: MatchContext, seat: int, result: dict[str, Any]) -> None:
        self.last_request.pop((ctx.match_id, seat), None)
        self.banks.pop((ctx.match_id, seat), None)
        if self.conn is not None:
            msg = pb.PlayResponse()
            res = msg.match_result
            res.table_id = ctx.match_id
            res.match_id = ctx.match_id
            res.names.extend(result["seats"])
            res.seat = seat
            res.totals.extend(result["totals"])
            res.ranks.extend(result["ranks"])
            faults = result.get("faults", {})  # strikes per seat: timeouts and illegal answers
            res.faults.extend(
                t + i
                for t, i in zip(faults.get("timeout", ()), faults.get("illegal", ()), strict=True)
            )
            self.conn.send(msg)

    def rejected(self, *, ctx: MatchContext, seat: int, fault: BotFault, strikes: int) -> None:
        if self.conn is None or fault.kind is FaultKind.DISCONNECT:
            return
        msg = pb.PlayResponse()
        rej = msg.answer_rejected
        rej.request_id = self.last_request.get((ctx.match_id, seat), 0)
        if fault.wrong_kind:
            rej.reason = pb.AnswerRejected.REASON_WRONG_KIND
        else:
            rej.reason = REASON.get(fault.kind, pb.AnswerRejected.REASON_ILLEGAL_ACTION)
        rej.detail = f"{ctx.match_id} seat {seat}: {fault.detail}"
        rej.strikes = strikes
        rej.strikes_allowed = self.referee.strike_limit
        self.conn.send(msg)


# Fields 2-6, 8 and 9 of a DecisionRequest (table and match ids, deal, seat, the
# timeouts): the same for every request to one seat in one deal while its bank is
# untouched. A table plays one match at a time, so its table id is the match id.
_fixed_memo: dict[tuple[str, int, int, int, int], bytes] = {}


def decision_request_bytes(
    request_id: int,
    match_id: str,
    deal: int,
    seat: int,
    base: float,
    bank: float,
    now_ns: int,
    game_decision: bytes,
    game_field: int = 20,
) -> bytes:
    """A serialized ``PlayResponse`` holding a ``DecisionRequest``, encoded directly:
    field numbers as in arena.proto (``game_field`` is the game's branch of the
    ``game`` oneof, ``GameCodec.field``: 20 for ``truf``). ``base``: the decision
    timeout, ``bank``: what is left of the seat's time bank, in seconds; ``timeout_ms``
    is their sum. Equal, once parsed, to filling the generated message
    (tests/test_wire_truf.py checks it)."""
    base_ms, bank_ms = int(base * 1000), int(bank * 1000)
    timeout_ms = base_ms + bank_ms  # never more than the real budget: each rounds down
    key = (match_id, deal, seat, base_ms, bank_ms)
    fixed = _fixed_memo.get(key)
    if fixed is None:
        if len(_fixed_memo) >= 4096:
            _fixed_memo.clear()
        fixed = _fixed_memo[key] = b"".join(
            (
                str_field(2, match_id),
                str_field(3, match_id),
                uint_field(4, deal),
                uint_field(5, seat),
                uint_field(6, timeout_ms),
                uint_field(8, base_ms),
                uint_field(9, bank_ms) if bank_ms else b"",
            )
        )
    # The deadline to the millisecond, rounded down: never later than the real one.
    secs, ms = divmod((now_ns + timeout_ms * 1_000_000) // 1_000_000, 1000)
    if _secs_memo[0] != secs:
        _secs_memo[:] = [secs, uint_field(1, secs)]
    deadline = len_field(7, _secs_memo[1] + _NANOS_OF_MS[ms])
    head = b"".join(
        (uint_field(1, request_id), fixed, deadline, LEN_TAG[game_field], uv(len(game_decision)))
    )
    # PlayResponse.decision_request; the decision is copied once, into the result.
    return b"".join((LEN_TAG[2], uv(len(head) + len(game_decision)), head, game_decision))


_NANOS_OF_MS = tuple(uint_field(2, ms * 1_000_000) if ms else b"" for ms in range(1000))
_secs_memo: list[Any] = [-1, b""]  # the last whole second's Timestamp.seconds field


_last_deal: list[Any] = [None, b""]  # (record, bytes): every seat gets the same result


def _deal_result_bytes(match_id: str, record: dict[str, Any], codec: GameCodec) -> bytes:
    """The serialized ``PlayResponse.deal_result`` of a deal, built once for all seats."""
    if _last_deal[0] is not record:
        msg = pb.PlayResponse()
        res = msg.deal_result
        res.table_id = match_id
        res.match_id = match_id
        res.deal = int(record["deal"])
        codec.fill_deal_result(res, record)
        _last_deal[:] = [record, msg.SerializeToString()]
    data: bytes = _last_deal[1]
    return data


def _parse(data: bytes) -> pb.PlayRequest | bytes:
    """A bot's message; bytes that do not parse are passed on as they are, so that the
    referee can say so (a strike) rather than grpc ending the stream."""
    try:
        return pb.PlayRequest.FromString(data)
    except DecodeError:
        return data


def _serialize(msg: pb.PlayResponse | bytes) -> bytes:
    if isinstance(msg, bytes):
        return msg
    return msg.SerializeToString()


class Deadlines:
    """Every open request's deadline, under one event-loop timer.

    A timer per request (``call_later`` and ``cancel``) costs a handle, and leaves
    the loop a heap of cancelled timers to sift; here a request costs a heap push,
    answered requests are dropped from the front as new ones come, and the one timer
    is always set for the earliest deadline still open. An open request fails with a
    TIMEOUT at its deadline exactly as with its own timer.
    """

    def __init__(self) -> None:
        self.heap: list[tuple[float, int, asyncio.Future[Any], Connection, float]] = []
        self.timer: asyncio.TimerHandle | None = None
        self.timer_at = float("inf")

    def add(
        self, when: float, rid: int, future: asyncio.Future[Any], conn: Connection, timeout: float
    ) -> None:
        heap = self.heap
        while heap and heap[0][2].done():  # answered: nothing left to time
            heapq.heappop(heap)
        heapq.heappush(heap, (when, rid, future, conn, timeout))
        if when < self.timer_at:
            self._arm(when)

    def _arm(self, when: float) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.timer_at = when
        self.timer = asyncio.get_running_loop().call_at(when, self._fire)

    def _fire(self) -> None:
        self.timer, self.timer_at = None, float("inf")
        heap = self.heap
        now = asyncio.get_running_loop().time()
        while heap and (heap[0][2].done() or heap[0][0] <= now):
            _, rid, future, conn, timeout = heapq.heappop(heap)
            if not future.done():  # a late answer to it is discarded (Referee._on_answer)
                future.set_exception(
                    BotFault(FaultKind.TIMEOUT, f"no answer to request {rid} within {timeout:g} s")
                )
        if heap:
            self._arm(heap[0][0])


class Referee(pb_grpc.ArenaServiceServicer):  # type: ignore[misc]
    """The servicer: admits bots and routes their answers to pending requests."""

    def __init__(
        self,
        *,
        decision_timeout: float = 1.0,
        time_bank: float = 0.0,
        grace: float = 30.0,
        strike_limit: int = 3,
        tokens: dict[str, str] | None = None,
        open_seats: int = 0,
        game: str = "truf",
    ) -> None:
        self.game = game  # the tournament's: a bot whose Hello.games lacks it is refused
        self.codec = codec_for(game)
        self.decision_timeout = decision_timeout
        self.time_bank = time_bank  # seconds per seat per match, on top of each decision's
        self.grace = grace  # seconds a dropped bot has to come back before it forfeits
        self.strike_limit = strike_limit
        self.request_ids = itertools.count(1)
        self.deadlines = Deadlines()
        self.entrants: list[Entrant] = []
        self.by_token: dict[str, Entrant] = {}
        for token, name in (tokens or {}).items():
            e = Entrant(name, self, token)
            self.entrants.append(e)
            self.by_token[token] = e
        self.by_credential = {e.credential: e for e in self.entrants}
        self.open_seats = open_seats  # entrants admitted by name when no tokens are used
        self.started = False  # see start()
        self.changed = asyncio.Event()
        self.gate: Gate | None = None  # its front door, once start_server serves it
        # The last hellos refused, as "NAME: CODE: why" (the bot's name shown safely), for
        # whoever waits on the bots to show (arena check, arena serve); bounded, so that a
        # client refused over and over grows nothing. ``refused`` counts them all.
        self.refusals: deque[str] = deque(maxlen=REFUSALS_KEPT)
        self.refused = 0

    def start(self) -> None:
        """The tournament starts: the entrants are final. Until now a bot that left gave
        its seat up (in an open tournament); from now on it has ``grace`` seconds to
        come back, counted from its drop (or from now, if it is away), before it forfeits."""
        self.started = True
        self._name_open_seats()
        now = time.monotonic()
        for e in self.entrants:  # nobody waited on a bot before the start
            if not e.connected_now:
                e.gone_since = now

    def _name_open_seats(self) -> None:
        """The open seats' final names, by the rule in-process play and ``arena tournament``
        use (``arena.play.tournament.entrant_names``): two bots named ``x`` play as ``x#1`` and
        ``x#2`` in the order they came. Until the start a seat is named as it comes
        (``x``, then ``x#2``), since nobody knows whether another ``x`` will follow; its
        Welcome carried that provisional name. Names a bot chose to look like these
        (``x#1``) keep the provisional ones: no two entrants ever share a name."""
        seats = [e for e in self.entrants if e.token is None]
        final = entrant_names([e.bot_name or e.name for e in seats])
        kept = {e.name for e in self.entrants if e.token is not None}
        if len(set(final) | kept) == len(self.entrants):
            for entrant, name in zip(seats, final, strict=True):
                entrant.name = name

    # -------------------------------------------------------------- admission

    def _note_refusal(self, bot_name: str, exc: HelloError) -> None:
        name = bot_name[:NAME_LIMIT]
        shown = name if name.isprintable() and name else repr(name)
        self.refusals.append(f"{shown}: {exc.code.name}: {exc.message}")
        self.refused += 1
        self.changed.set()

    def _admit(self, hello: pb.Hello) -> Entrant:
        if hello.protocol_version != PROTOCOL_VERSION:
            raise HelloError(
                grpc.StatusCode.FAILED_PRECONDITION,
                f"protocol version {hello.protocol_version} is not supported; "
                f"this referee speaks version {PROTOCOL_VERSION}",
            )
        check_hello_text("bot_name", hello.bot_name, required=True)
        check_hello_text("bot_version", hello.bot_version, required=False)
        games = list(hello.games) or ["truf"]  # arena.proto: empty means ["truf"]
        if self.game not in games:
            # The bot's own strings, shown safely: a few, short, printable (else repr).
            shown = ", ".join(
                g[:NAME_LIMIT] if g.isprintable() else repr(g[:NAME_LIMIT]) for g in games[:8]
            ) + (", ..." if len(games) > 8 else "")
            raise HelloError(
                grpc.StatusCode.FAILED_PRECONDITION,
                f"this referee plays {self.game}; your Hello.games is [{shown}]"
                + hello_games_hint(self.game),
            )
        entrant = returning = self._returning(hello)
        if entrant is None and self.by_token:
            entrant = self.by_token.get(hello.token)
            if entrant is None:
                raise HelloError(
                    grpc.StatusCode.UNAUTHENTICATED,
                    "hello.token is missing or unknown: ask the organiser for your token",
                )
        if entrant is None:
            entrant = self._open_seat(hello.bot_name)
        if entrant.connected_now and entrant is not returning:
            # Two running copies of a bot must not take the seat from each other in turn:
            # only the holder of the Welcome's reconnect_token replaces a connection.
            raise HelloError(
                grpc.StatusCode.ALREADY_EXISTS,
                f"entrant {entrant.name} is already connected with this token; a bot "
                "whose old connection hangs takes it over by sending the reconnect_token "
                "of its Welcome",
            )
        if self.started and entrant.forfeited:
            raise HelloError(
                grpc.StatusCode.PERMISSION_DENIED,
                f"entrant {entrant.name} stayed away longer than the grace period "
                f"({self.grace:g} s) and has forfeited its remaining matches",
            )
        if entrant not in self.entrants:  # a new seat: only now, once nothing refused it
            self.entrants.append(entrant)
            self.by_credential[entrant.credential] = entrant
        entrant.bot_name, entrant.bot_version = hello.bot_name, hello.bot_version
        return entrant

    def vouches(self, first: pb.PlayRequest | bytes) -> Vouch:
        """Whether a stream's first message is a hello this referee would seat on its
        own word, for the front door (``Gate``) when the stream's address is over its
        failed-hello limit: one with a credential it knows (an entrant's token, or a
        reconnect token it issued) is judged at once; any hello while an open tournament
        that has not started has a seat left (a new bot needs no credential there) is
        judged after the address's delay, which its refusal would have waited; any other
        is refused after that delay. So a flooder on the same address (behind the same
        NAT, say) keeps neither an entrant out nor a bot that would become one, and
        gains nothing: its own hellos wait the delay as before. (Not whether a hello
        will be welcomed: ``_admit`` decides that.)"""
        if isinstance(first, bytes) or first.WhichOneof("message") != "hello":
            return Vouch.NONE
        hello = first.hello
        if hello.reconnect_token and hello.reconnect_token in self.by_credential:
            return Vouch.ENTRANT
        if hello.token and hello.token in self.by_token:
            return Vouch.ENTRANT
        if not (self.by_token or self.started) and len(self.entrants) < self.open_seats:
            return Vouch.NEWCOMER  # open, before the start: any bot
        return Vouch.NONE

    def _returning(self, hello: pb.Hello) -> Entrant | None:
        """The entrant a Hello's reconnect_token names; None without one, or with one
        this referee does not know when the organiser's token decides (a referee resumed
        after a crash has new reconnect tokens) or, in an open tournament before the
        start, when its seat was given up meanwhile (it takes a new one)."""
        credential = hello.reconnect_token
        if not credential:
            return None
        entrant = self.by_credential.get(credential)
        if entrant is None:
            if hello.token in self.by_token or not (self.by_token or self.started):
                return None
            raise HelloError(
                grpc.StatusCode.UNAUTHENTICATED,
                "hello.reconnect_token is unknown: send the one from this referee's Welcome",
            )
        if hello.token and entrant is not self.by_token.get(hello.token, entrant):
            raise HelloError(
                grpc.StatusCode.UNAUTHENTICATED,
                "hello.token and hello.reconnect_token belong to different entrants",
            )
        return entrant

    def _open_seat(self, bot_name: str) -> Entrant:
        """A new entrant in an open tournament, named after its bot (``random#2``...)."""
        if len(self.entrants) >= self.open_seats:
            raise HelloError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"the tournament is full ({self.open_seats} entrants); a bot that was "
                "seated comes back with the reconnect_token of its Welcome",
            )
        taken = {e.name for e in self.entrants}
        name = bot_name
        n = 1
        while name in taken:
            n += 1
            name = f"{bot_name}#{n}"
        return Entrant(name, self)

    def _left(self, entrant: Entrant) -> None:
        """``entrant``'s bot is gone. Before the start of an open tournament its seat (and
        name) is free again; otherwise the grace period starts."""
        if not self.started and entrant.token is None:
            self.entrants.remove(entrant)
            del self.by_credential[entrant.credential]
        else:
            entrant.gone_since = time.monotonic()

    async def Play(  # noqa: N802 (gRPC method name)
        self,
        request_iterator: AsyncIterator[pb.PlayRequest | bytes],
        context: grpc.aio.ServicerContext[pb.PlayRequest, pb.PlayResponse | bytes],
    ) -> AsyncIterator[pb.PlayResponse | bytes]:
        try:
            first = await asyncio.wait_for(anext(request_iterator), HELLO_TIMEOUT)
        except (TimeoutError, StopAsyncIteration):
            await context.abort(
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"no hello within {HELLO_TIMEOUT:g} s: the first message must be a Hello",
            )
            return
        if isinstance(first, bytes):
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"the first message ({len(first)} bytes) is not a PlayRequest holding a Hello",
            )
            return
        if first.WhichOneof("message") != "hello":
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT, "the first message must be a Hello"
            )
            return
        try:
            entrant = self._admit(first.hello)
        except HelloError as exc:
            self._note_refusal(first.hello.bot_name, exc)
            await context.abort(exc.code, exc.message)
            return
        conn = Connection(entrant, max(1, first.hello.capacity))
        stale = entrant.conn if entrant.connected_now else None
        entrant.gone_since = None
        entrant.conn = conn
        if stale is not None:
            # The hello named this entrant by its reconnect_token (``_admit``): the old
            # connection is over, as if it had dropped just now: its open requests fail
            # as disconnects (no strike; the fallback plays them), and the new one gets
            # the next requests. Only its status differs: it says why, and is final.
            stale.cut_off(
                f"entrant {entrant.name}: this connection was replaced by a new one that "
                "sent its reconnect_token",
                grpc.StatusCode.ALREADY_EXISTS,
            )
        entrant.connected.set()
        self.changed.set()
        welcome = pb.PlayResponse()
        w = welcome.welcome
        w.protocol_version = PROTOCOL_VERSION
        w.entrant = entrant.name
        w.server_version = __version__
        w.decision_timeout_ms = int(self.decision_timeout * 1000)
        w.max_message_bytes = MAX_MESSAGE_BYTES
        w.reconnect_token = entrant.credential
        w.time_bank_ms = int(self.time_bank * 1000)
        yield welcome
        reader = asyncio.create_task(self._read(conn, request_iterator))
        conn.context = context
        try:
            while True:
                msg = await conn.outbox.get()
                if msg is None:
                    break
                conn.writing_since = time.monotonic()
                yield msg
                conn.writing_since = 0.0
        finally:
            reader.cancel()
            self.stream_ended(conn)
        if conn.cut is not None and not conn.status_sent:
            await context.abort(conn.cut_code, conn.cut)

    def stream_ended(self, conn: Connection) -> None:
        """``conn``'s stream is over (or as good as over: see Connection.cut_off)."""
        if conn.ended:
            return
        conn.ended = True
        conn.close()
        entrant = conn.entrant
        if entrant.conn is conn:
            entrant.connected.clear()
            self._left(entrant)
        self.changed.set()

    async def _read(
        self, conn: Connection, requests: AsyncIterator[pb.PlayRequest | bytes]
    ) -> None:
        budget = conn.entrant.budget
        try:
            async for msg in requests:
                if conn.closed:
                    break
                why = budget.spend(len(msg) if isinstance(msg, bytes) else msg.ByteSize())
                if why is not None:
                    conn.cut_off(why)
                    break
                if isinstance(msg, bytes):  # bytes that do not parse: the oldest request fails
                    detail = f"{len(msg)} bytes that are not a PlayRequest"
                    self._fail_oldest(conn, FaultKind.UNPARSEABLE, detail)
                    continue
                what = msg.WhichOneof("message")
                if what == "answer":
                    self._on_answer(conn, msg.answer)
                elif what is None:  # empty (0 bytes, or only unknown fields): unreadable now
                    detail = "a message with neither a hello nor an answer set"
                    self._fail_oldest(conn, FaultKind.UNPARSEABLE, detail)
                # A second hello answers nothing: only the budget counts it.
        except (grpc.aio.AioRpcError, asyncio.CancelledError):
            pass
        finally:
            conn.close()

    @staticmethod
    def _fail_oldest(conn: Connection, kind: FaultKind, detail: str) -> bool:
        """A message that answers nothing usable: the oldest open request fails with it.
        Returns whether there was one to fail."""
        oldest = conn.pending[min(conn.pending)] if conn.pending else None
        if oldest is None or oldest.done():
            return False
        oldest.set_exception(BotFault(kind, detail))
        return True

    def _on_answer(self, conn: Connection, answer: pb.Answer) -> None:
        rid = answer.request_id
        pending = conn.pending.get(rid)  # the request's future
        if pending is None or pending.done():
            if 0 < rid <= conn.entrant.last_request_id:
                # Sent, and no longer open (answered, late, or asked on a connection that
                # dropped): discarded, and charged to nothing but the budget. One rule,
                # arena.proto "Faults".
                return
            # An id never sent to this bot: it answers the oldest open request, which fails.
            detail = f"answer names request {rid}, which the referee never sent to this bot"
            self._fail_oldest(conn, FaultKind.WRONG_REQUEST, detail)
            return
        choice = answer.WhichOneof("choice")
        if choice == "failure":  # the bot's own crash, said instead of a guess (arena.proto)
            pending.set_exception(BotFault(FaultKind.CRASH, failure_detail(answer.failure.reason)))
            return
        try:
            if choice == "index":
                pending.set_result(int(answer.index))
            elif choice == self.codec.branch:
                pending.set_result(self.codec.action_from_answer(answer))
            elif choice in BRANCHES:
                raise ActionFormatError(
                    f"the answer holds a {choice} action; this table plays {self.game}"
                )
            else:
                raise ActionFormatError("the answer holds neither an index nor an action")
        except ActionFormatError as exc:
            pending.set_exception(BotFault(FaultKind.UNPARSEABLE, str(exc)))

    async def wait_all_gone(self, timeout: float) -> None:
        """Wait, up to ``timeout`` seconds, until every bot's stream has ended."""

        async def wait() -> None:
            while any(e.connected.is_set() for e in self.entrants):
                self.changed.clear()
                await self.changed.wait()

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wait(), timeout)

    async def goodbye(self, message: str = "the tournament is over") -> None:
        for e in self.entrants:
            if e.conn is not None:
                msg = pb.PlayResponse()
                msg.tournament_over.message = message
                e.conn.send(msg)
                e.conn.close()


async def start_server(
    referee: Referee,
    listen: str,
    tls: tuple[bytes, bytes] | None = None,
    limits: Limits | None = None,
) -> tuple[grpc.aio.Server, int]:
    """Start the referee with health and reflection; returns the server and bound port.
    ``tls``: (certificate chain, private key), PEM; without it, plain HTTP/2. ``limits``:
    on idle connections and on callers not yet welcomed (``Limits()`` by default)."""
    limits = patient_with(limits or Limits(), referee.decision_timeout + referee.time_bank)
    referee.gate = Gate(limits, f"/{SERVICE_NAME}/Play", referee.vouches)
    server = grpc.aio.server(
        interceptors=[referee.gate],
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", 4 * MAX_MESSAGE_BYTES),
            *server_options(limits),
        ],
    )
    # As the generated add_ArenaServiceServicer_to_server, but responses may also be
    # pre-serialized bytes (decision requests are built that way).
    handlers = {
        "Play": grpc.stream_stream_rpc_method_handler(
            referee.Play,
            request_deserializer=_parse,
            response_serializer=_serialize,
        )
    }
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),))
    server.add_registered_method_handlers(SERVICE_NAME, handlers)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (
            SERVICE_NAME,
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
            reflection.SERVICE_NAME,
        ),
        server,
    )
    if tls is None:
        port = server.add_insecure_port(listen)
    else:
        cert, key = tls
        port = server.add_secure_port(listen, grpc.ssl_server_credentials([(key, cert)]))
    if port == 0:
        raise OSError(f"cannot listen on {listen}")
    await server.start()
    await health_servicer.set(SERVICE_NAME, health_pb2.HealthCheckResponse.SERVING)
    await health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    return server, port
