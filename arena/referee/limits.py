"""How much a bot, or anyone else, may send the referee.

- ``Budget``: what one entrant may send on its stream. The protocol asks one answer per
  decision request, so the budget is refilled by the requests the referee sends, not by
  the clock: a faster machine or more tables in play never brings an honest bot nearer
  to it, and no bot can send faster than the referee asks. It replaces a rule that
  counted only unsolicited messages "in a row", which one legal answer reset.
- ``Gate``: a server interceptor for everything a caller can do before the referee knows
  who it is: health checks, reflection, unknown methods, and Play streams until their
  hello is welcomed. Rate limits per address and overall, caps on concurrent streams,
  and a short delay before each refusal, so that a flooder waiting on its calls idles
  instead of spinning (on two shared cores its own CPU is most of the harm). Every call
  has a deadline to make progress: its request message, or a Play stream's hello.
  The waiting room (Play streams before their hello) never turns a stream away for
  being full: it makes room by closing a waiting stream from the most crowded address
  block, so an entrant's hello, sent at once, always finds a place however many silent
  streams others keep open. Nor does an address's failed-hello limit keep an entrant
  out: every hello is read, and one with a credential the referee knows (an entrant's
  token, a reconnect token) is judged on its merits; only the others are refused.
- ``Limits`` and ``server_options``: those sizes, and the HTTP/2 settings (grpcio's
  options) that close connections with no stream, bound the streams on one connection,
  the connections in all, the metadata of a call and the pings a client may send.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import inspect
import ipaddress
import itertools
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, NoReturn
from urllib.parse import unquote

import grpc

MAX_MESSAGE_BYTES = 64 * 1024  # the largest message a bot may send; a Truf view is < 2 KiB

# A decision request allows its answer and one more message (a resend), and bytes for
# one message of the largest size: an honest answer is under 100 bytes. The reserve is
# what a bot may send beyond that at any time, and the most its unused allowance grows
# to: more than the requests a bot can have open at once (one per table in play).
MESSAGES_PER_REQUEST = 2
MESSAGE_RESERVE = 128
BYTES_PER_REQUEST = MAX_MESSAGE_BYTES
BYTE_RESERVE = 16 * MAX_MESSAGE_BYTES


class Budget:
    """What one entrant may still send: a token bucket of messages and one of bytes,
    refilled by each decision request sent to it, and capped at the reserve.

    It belongs to the entrant, not to one connection, so that reconnecting does not
    refill it. A bot that overdraws it is cut off; it comes back to a budget that its
    next requests refill.
    """

    __slots__ = ("bytes", "messages")

    def __init__(self) -> None:
        self.messages = MESSAGE_RESERVE
        self.bytes = BYTE_RESERVE

    def grant(self) -> None:
        """A decision request was sent: room for its answer."""
        m = self.messages + MESSAGES_PER_REQUEST
        self.messages = m if m < MESSAGE_RESERVE else MESSAGE_RESERVE
        b = self.bytes + BYTES_PER_REQUEST
        self.bytes = b if b < BYTE_RESERVE else BYTE_RESERVE

    def spend(self, size: int) -> str | None:
        """A message of ``size`` bytes came in. Returns why the bot is cut off if this
        message overdrew the budget, else None."""
        self.messages -= 1
        self.bytes -= size
        if self.messages >= 0 and self.bytes >= 0:
            return None
        if self.messages < 0:
            return (
                f"flooding: more messages than the decision requests sent to this bot allow "
                f"(at most {MESSAGES_PER_REQUEST} a request, plus {MESSAGE_RESERVE})"
            )
        return (
            f"flooding: more bytes than the decision requests sent to this bot allow "
            f"(at most {BYTES_PER_REQUEST // 1024} KiB a request, "
            f"plus {BYTE_RESERVE // 1024} KiB)"
        )


class TokenBucket:
    """``rate`` tokens a second, holding at most ``burst``; starts full."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def level(self) -> float:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens

    def take(self) -> bool:
        """Take a token if there is one."""
        if self.level() >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def charge(self) -> None:
        """Take a token whether or not there is one (the level may go below zero)."""
        self.level()
        self.tokens -= 1.0

    def full(self) -> bool:
        return self.level() >= self.burst


class PeerBuckets:
    """A token bucket per address, in a table of bounded size."""

    MAX_PEERS = 4096

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.buckets: dict[str, TokenBucket] = {}

    def __getitem__(self, peer: str) -> TokenBucket:
        bucket = self.buckets.get(peer)
        if bucket is None:
            if len(self.buckets) >= self.MAX_PEERS:  # forget the peers that are quiet now
                self.buckets = {p: b for p, b in self.buckets.items() if not b.full()}
                if len(self.buckets) >= self.MAX_PEERS:
                    self.buckets.clear()
            bucket = self.buckets[peer] = TokenBucket(self.rate, self.burst)
        return bucket


# The header the edge proxy (``arena edge``) names the client's address in. The referee
# believes it only on calls that come through a Unix socket: only a local process
# allowed to open that socket (the edge, started by the organiser) can make those.
CLIENT_HEADER = "x-arena-client"


def peer_address(peer: str, forwarded: str | None = None) -> str:
    """The address a call comes from, as gRPC names it (``ipv4:127.0.0.1:5000``,
    ``ipv6:%5B::1%5D:5000``), without the port; an IPv6 address by its /64, which one
    host usually holds whole. A call through a Unix socket comes from the edge proxy,
    which names the client in ``forwarded`` (the ``x-arena-client`` header); without
    one it is a single local peer, ``unix``."""
    kind, _, rest = peer.partition(":")
    if kind == "unix":
        if forwarded:
            return _address_of(forwarded.strip(), forwarded=True)
        return kind
    host = unquote(rest).rpartition(":")[0].strip("[]")
    if kind in ("ipv4", "ipv6"):
        return _address_of(host)
    return kind


def _address_of(host: str, *, forwarded: bool = False) -> str:
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return "forwarded" if forwarded else host
    if ip.version == 6:
        mapped = ip.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)


def address_block(address: str) -> str:
    """The block an address belongs to, which one holder often has whole: an IPv4
    address's /24, an IPv6 /64's /48 (a home or small site gets a /48 or /56)."""
    try:
        if "/" in address:
            net = ipaddress.IPv6Network(address, strict=False)
            return str(net.supernet(new_prefix=48))
        return str(ipaddress.IPv4Network(f"{address}/24", strict=False))
    except ValueError:
        return address


@dataclass(frozen=True, kw_only=True)
class Limits:
    """The referee's limits on connections and on callers that have not been welcomed.
    The defaults suit an event; tests shrink the times."""

    idle_seconds: float = 10.0  # an HTTP/2 connection with no stream is closed after this
    handshake_seconds: float = 10.0  # a connection that has not finished its handshake
    streams_per_connection: int = 16  # a bot needs one
    connections: int = 4096  # HTTP/2 connections at once, from everyone (file descriptors)
    metadata_bytes: int = 8192  # the headers of one call (a bot's hello is a message)
    # A client may ping this often without a stream carrying data, and this many times
    # more often before its connection is closed (GOAWAY too_many_pings). Bot authors
    # are told to ping no more often than every 10 s: half that here leaves room for a
    # ping that a busy network or host brings early, so a well-behaved client is never
    # struck.
    ping_interval_seconds: float = 5.0
    ping_strikes: int = 2
    # The referee's own pings (HTTP/2 keepalive): after keepalive_seconds in which a
    # connection brought nothing, the referee pings it, and closes it if the answer does
    # not come within keepalive_timeout_seconds. A bot whose process hangs (stopped,
    # deadlocked in its own I/O) stops answering pings although its host's kernel keeps
    # the TCP connection open: it is cut within their sum, well inside the grace period
    # (30 s by default), so that its seats are recorded as disconnects rather than
    # timeouts, and its restarted copy is not kept waiting on a dead connection.
    keepalive_seconds: float = 5.0
    keepalive_timeout_seconds: float = 5.0
    # Progress: a call's request message (a health check, each reflection request) must
    # come within call_seconds of the call, or of the stream's previous request; a Play
    # stream's hello within hello_seconds.
    call_seconds: float = 5.0
    hello_seconds: float = 10.0
    # Health checks, reflection (each request on its stream) and unknown methods.
    calls_per_second: float = 10.0  # from one address
    calls_burst: int = 50
    all_calls_per_second: float = 50.0  # from everyone together
    all_calls_burst: int = 200
    open_streams: int = 64  # health watches and reflection streams open at once
    open_streams_per_address: int = 8
    # Play streams until their hello is welcomed. A stream refused at its hello, closed
    # to make room, or cut off for flooding counts against its address; a welcomed one
    # never does. An address over its failed-hello limit still has its hellos read: one
    # with a credential the referee knows is judged as any other, the rest are refused
    # (after the delay) and charge it nothing more. The waiting room never refuses a
    # stream for being full: a new stream beyond these closes the oldest waiting
    # stream of the most crowded block (then address) among those over the limit that
    # it hit.
    waiting_streams: int = 256  # not yet welcomed, at once
    waiting_per_address: int = 32
    waiting_per_block: int = 64  # per IPv4 /24, IPv6 /48
    failed_hellos_per_second: float = 2.0  # from one address
    failed_hellos_burst: int = 32
    # Each refusal waits this long first (while fewer than `delayed` are waiting), so
    # that a client which waits for its calls slows down rather than spins.
    refusal_delay: float = 1.0
    delayed: int = 256


def patient_with(limits: Limits, longest_decision: float) -> Limits:
    """``limits`` with a keepalive timeout of at least ``longest_decision`` seconds (the
    decision timeout plus the time bank): a bot whose only thread decides (a Node bot
    blocks its event loop) answers no ping until it has answered its request, and one
    that answers in time must never be cut for that."""
    if limits.keepalive_timeout_seconds >= longest_decision:
        return limits
    return replace(limits, keepalive_timeout_seconds=longest_decision)


def server_options(limits: Limits) -> list[tuple[str, int]]:
    """The gRPC server's channel arguments for ``limits``.

    There is no ``grpc.max_connection_age_ms`` on purpose: a bot's Play stream lives as
    long as its tournament, and an age limit would end it (GOAWAY, then a reset after the
    grace), a disconnect an honest bot did nothing to earn. What a non-entrant can hold is
    bounded instead by the idle limit, the progress deadlines and the connection cap."""
    ping_ms = int(limits.ping_interval_seconds * 1000)
    return [
        # The referee pings a quiet connection and closes it when the answer is late,
        # with no cap on its pings between data frames (grpcio's default, 2, would stop
        # them on a stream that is quiet between matches).
        ("grpc.keepalive_time_ms", int(limits.keepalive_seconds * 1000)),
        ("grpc.keepalive_timeout_ms", int(limits.keepalive_timeout_seconds * 1000)),
        # grpcio times a ping's answer by this one (a minute by default); the keepalive
        # timeout alone only applies while it waits for the peer's data: both, or a
        # frozen peer holds its connection for a minute.
        ("grpc.http2.ping_timeout_ms", int(limits.keepalive_timeout_seconds * 1000)),
        ("grpc.http2.max_pings_without_data", 0),
        # A client may ping every ping_interval_seconds even while it has no stream (say
        # between a dropped stream and its redial): without this grpcio allows such a
        # ping once in two hours and closes the connection of a client whose keepalive
        # is set to, say, 10 s. Connections with no stream are closed after idle_seconds.
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.max_connection_idle_ms", int(limits.idle_seconds * 1000)),
        ("grpc.server_handshake_timeout_ms", int(limits.handshake_seconds * 1000)),
        ("grpc.max_concurrent_streams", limits.streams_per_connection),
        ("grpc.max_allowed_incoming_connections", limits.connections),
        ("grpc.max_metadata_size", limits.metadata_bytes),
        ("grpc.absolute_max_metadata_size", limits.metadata_bytes),
        ("grpc.http2.min_ping_interval_without_data_ms", ping_ms),
        ("grpc.http2.max_ping_strikes", limits.ping_strikes),
    ]


Behaviour = Callable[..., Any]


def client_address(context: grpc.aio.ServicerContext[Any, Any]) -> str:
    """The address a call comes from (see ``peer_address``)."""
    peer = context.peer()
    forwarded = None
    if peer.startswith("unix:"):  # through the edge proxy, which names the client
        for key, value in context.invocation_metadata() or ():
            if key == CLIENT_HEADER and isinstance(value, str):
                forwarded = value
                break
    return peer_address(peer, forwarded)


@dataclass(eq=False)
class Waiter:
    """A Play stream in the waiting room: not yet welcomed."""

    address: str
    block: str
    number: int  # arrival order: the oldest goes first when room is made
    evicted: asyncio.Future[str] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class Vouch(enum.Enum):
    """What the referee says of a Play stream's first message (``Referee.vouches``),
    for an address over its failed-hello limit."""

    NONE = "none"  # refused at the door, after the address's delay
    ENTRANT = "entrant"  # an entrant's credential: judged at once
    NEWCOMER = "newcomer"  # an open tournament's new bot: judged after the address's delay


class Gate(grpc.aio.ServerInterceptor):
    """Admits unauthenticated calls within ``limits``; ``play`` names the bots' stream
    method, whose streams are limited until the referee welcomes them.

    Per call, not per message: a welcomed stream's messages pass as they would without
    it (the wrapper writes what the referee yields, as gRPC itself does). Calls whose
    method takes one request message are served as client-streaming calls (the same on
    the wire), so that the Gate sees them from their headers on and can close one whose
    message does not come: gRPC runs a unary handler only once its message is in."""

    def __init__(
        self, limits: Limits, play: str, vouched: Callable[[Any], Vouch] | None = None
    ) -> None:
        self.limits = limits
        self.play = play
        # Whether the referee would seat a Play stream's first message on its own word
        # (an entrant's token, a reconnect token it issued; any hello while an open
        # tournament has seats before its start): such a hello is judged on its merits
        # even from an address that is over its failed-hello limit.
        self.vouched: Callable[[Any], Vouch] = vouched or (lambda first: Vouch.NONE)
        self.calls = PeerBuckets(limits.calls_per_second, limits.calls_burst)
        self.all_calls = TokenBucket(limits.all_calls_per_second, limits.all_calls_burst)
        self.failed_hellos = PeerBuckets(
            limits.failed_hellos_per_second, limits.failed_hellos_burst
        )
        self.open_streams = 0
        self.open_by_address: dict[str, int] = {}
        # The waiting room, oldest first, and how many wait per address and per block.
        self.waiters: dict[int, Waiter] = {}
        self.waiting_by_address: dict[str, int] = {}
        self.waiting_by_block: dict[str, int] = {}
        self.numbers = itertools.count()
        self.evictions = 0  # streams closed to make room (for benches and tests)
        self.delayed = 0
        self.wrapped: dict[str, tuple[Any, grpc.RpcMethodHandler[Any, Any]]] = {}
        self.unknown: grpc.RpcMethodHandler[Any, Any] = grpc.stream_stream_rpc_method_handler(
            self._unknown
        )

    @property
    def waiting(self) -> int:
        """Play streams waiting for their hello to be welcomed."""
        return len(self.waiters)

    async def intercept_service(
        self,
        continuation: Callable[
            [grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler[Any, Any] | None]
        ],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        method = handler_call_details.method
        handler = await continuation(handler_call_details)
        if handler is None:
            return self.unknown
        cached = self.wrapped.get(method)
        if cached is not None and cached[0] is handler:
            return cached[1]
        wrapped: grpc.RpcMethodHandler[Any, Any]
        if method == self.play:
            wrapped = grpc.stream_stream_rpc_method_handler(
                self._play_wrapper(_behaviour(handler)),
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        else:
            wrapped = _as_client_streaming(handler, self._call_wrapper(handler))
        self.wrapped[method] = (handler, wrapped)  # one per method the server has
        return wrapped

    # ------------------------------------------------------------ refusals

    async def refuse(
        self, context: grpc.aio.ServicerContext[Any, Any], code: Any, why: str
    ) -> NoReturn:
        await self.pause()
        await context.abort(code, why)

    async def pause(self) -> None:
        """The delay before a refusal, while fewer than ``limits.delayed`` wait in it."""
        if self.delayed < self.limits.delayed:
            self.delayed += 1
            try:
                await asyncio.sleep(self.limits.refusal_delay)
            finally:
                self.delayed -= 1

    async def _request(
        self, requests: AsyncIterator[Any], context: grpc.aio.ServicerContext[Any, Any]
    ) -> Any:
        """A call's next request message, which must come within ``call_seconds``."""
        seconds = self.limits.call_seconds
        try:
            return await asyncio.wait_for(anext(requests), seconds)
        except TimeoutError:
            await context.abort(
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"no request message within {seconds:g} s: send it with the call",
            )
        except StopAsyncIteration:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT, "the call ended without its request message"
            )

    # ------------------------------------------------- health, reflection, ...

    async def _admit_call(self, context: grpc.aio.ServicerContext[Any, Any]) -> str:
        """Charges a call to its address and to everyone; returns the address."""
        address = client_address(context)
        if not self.calls[address].take():
            await self.refuse(
                context,
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"too many calls from {address}: at most {self.limits.calls_per_second:g} "
                "a second before a bot is welcomed; slow down",
            )
        if not self.all_calls.take():
            await self.refuse(
                context,
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "too many health or reflection calls at once; try again later",
            )
        return address

    async def _unknown(
        self, requests: AsyncIterator[Any], context: grpc.aio.ServicerContext[Any, Any]
    ) -> None:
        await self._admit_call(context)
        await context.abort(grpc.StatusCode.UNIMPLEMENTED, "no such method on this referee")

    def _call_wrapper(self, handler: grpc.RpcMethodHandler[Any, Any]) -> Behaviour:
        inner: Behaviour = _behaviour(handler)
        streams_in = handler.request_streaming
        if not handler.response_streaming:

            async def unary(
                requests: AsyncIterator[Any], context: grpc.aio.ServicerContext[Any, Any]
            ) -> Any:
                await self._admit_call(context)
                if streams_in:
                    return await inner(self._metered(requests, context), context)
                return await inner(await self._request(requests, context), context)

            return unary

        generator = inspect.isasyncgenfunction(inner)  # else it writes to the context itself

        async def streaming(
            requests: AsyncIterator[Any], context: grpc.aio.ServicerContext[Any, Any]
        ) -> None:
            address = await self._admit_call(context)
            limits = self.limits
            if self.open_streams >= limits.open_streams:
                await self.refuse(
                    context,
                    grpc.StatusCode.RESOURCE_EXHAUSTED,
                    f"{self.open_streams} health or reflection streams are open; try again later",
                )
            if self.open_by_address.get(address, 0) >= limits.open_streams_per_address:
                await self.refuse(
                    context,
                    grpc.StatusCode.RESOURCE_EXHAUSTED,
                    f"{limits.open_streams_per_address} health or reflection streams from "
                    f"{address} are open; close one first",
                )
            self.open_streams += 1
            self.open_by_address[address] = self.open_by_address.get(address, 0) + 1
            try:
                if streams_in:  # reflection: every request on the stream is a call
                    request = self._metered(requests, context)
                else:  # a health watch: its one request, in time
                    request = await self._request(requests, context)
                if generator:
                    async for msg in inner(request, context):
                        await context.write(msg)
                else:
                    await inner(request, context)
            finally:
                self.open_streams -= 1
                left = self.open_by_address[address] - 1
                if left:
                    self.open_by_address[address] = left
                else:
                    del self.open_by_address[address]

        return streaming

    async def _metered(
        self, requests: AsyncIterator[Any], context: grpc.aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[Any]:
        """A stream's requests, each within ``call_seconds`` of the one before (or of the
        call) and each after the first charged as a call; the call paid for the first."""
        first = True
        seconds = self.limits.call_seconds
        while True:
            try:
                request = await asyncio.wait_for(anext(requests), seconds)
            except StopAsyncIteration:
                return
            except TimeoutError:
                await context.abort(
                    grpc.StatusCode.DEADLINE_EXCEEDED,
                    f"no request within {seconds:g} s on this stream: it is closed",
                )
            if not first:
                await self._admit_call(context)
            first = False
            yield request

    # ------------------------------------------------------------ Play

    def _play_wrapper(self, play: Behaviour) -> Behaviour:
        async def gated(requests: Any, context: grpc.aio.ServicerContext[Any, Any]) -> None:
            address = client_address(context)
            # An address over its failed-hello limit is not refused before its hello:
            # one of its hellos may be an entrant's, redialling (a bot behind the same
            # NAT as a flooder, say), or a new bot's in an open tournament. It waits in
            # the waiting room like any stream. Then (``Referee.vouches``) an entrant's
            # hello is judged at once; a new bot's, which anyone can send, after the
            # address's delay, as its refusal would be; any other is refused after that
            # delay. Nothing it does is charged to the address (its debt stays as it was).
            over = self.failed_hellos[address].level() < 1.0
            waiter = self._enter(address)
            welcomed = False
            responses = None
            try:
                hello = await self._hello(requests, waiter, context)
                self._leave(waiter)
                vouch = self.vouched(hello) if over else Vouch.ENTRANT
                if vouch is Vouch.NONE:
                    await self.refuse(
                        context,
                        grpc.StatusCode.UNAVAILABLE,
                        f"too many failed hellos or cut-off bots from {address}; try again shortly",
                    )
                if vouch is Vouch.NEWCOMER:
                    await self.pause()
                responses = play(_Prefixed(hello, requests), context)
                first = await anext(responses, None)  # the Welcome, or a refusal (AbortError)
                if first is None:
                    return
                welcomed = True
                await context.write(first)
                async for msg in responses:
                    await context.write(msg)
            finally:
                self._leave(waiter)
                if not over and (
                    not welcomed or context.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
                ):
                    self.failed_hellos[address].charge()
                if responses is not None:
                    await responses.aclose()

        return gated

    async def _hello(
        self,
        requests: AsyncIterator[Any],
        waiter: Waiter,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> Any:
        """The stream's first message, unless the stream is closed first: for room, or
        because it did not come within ``hello_seconds``, or the stream ended."""
        step = asyncio.ensure_future(anext(requests))
        try:
            await asyncio.wait(
                (step, waiter.evicted),
                timeout=self.limits.hello_seconds,
                return_when=asyncio.FIRST_COMPLETED,
            )
        finally:
            if not step.done():
                step.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await step
        if not step.cancelled():
            try:
                return step.result()
            except StopAsyncIteration:
                await context.abort(
                    grpc.StatusCode.INVALID_ARGUMENT, "the stream ended before its hello"
                )
        if waiter.evicted.done():
            await self.refuse(
                context,
                grpc.StatusCode.UNAVAILABLE,
                f"the waiting room made room for a new stream: {waiter.evicted.result()} "
                "and this one had not said hello; send the hello as soon as the stream opens",
            )
        seconds = self.limits.hello_seconds
        await context.abort(
            grpc.StatusCode.DEADLINE_EXCEEDED,
            f"no hello within {seconds:g} s: the first message must be a Hello",
        )

    def _enter(self, address: str) -> Waiter:
        """A new Play stream joins the waiting room, which first makes room for it."""
        block = address_block(address)
        limits = self.limits
        if self.waiting_by_address.get(address, 0) >= limits.waiting_per_address:
            self._evict(
                lambda w: w.address == address,
                f"{limits.waiting_per_address} streams from {address} were waiting",
            )
        elif self.waiting_by_block.get(block, 0) >= limits.waiting_per_block:
            self._evict(
                lambda w: w.block == block,
                f"{limits.waiting_per_block} streams from {block} were waiting",
            )
        if len(self.waiters) >= limits.waiting_streams:
            self._evict(lambda w: True, f"{len(self.waiters)} streams were waiting")
        waiter = Waiter(address, block, next(self.numbers))
        self.waiters[waiter.number] = waiter
        self.waiting_by_address[address] = self.waiting_by_address.get(address, 0) + 1
        self.waiting_by_block[block] = self.waiting_by_block.get(block, 0) + 1
        return waiter

    def _evict(self, among: Callable[[Waiter], bool], why: str) -> None:
        """Close one waiting stream among ``among``: from the most crowded block, then
        the most crowded address in it, the oldest. An entrant's stream waits only for
        the moment its hello takes to arrive, so it is neither crowded nor old."""
        by_block, by_address = self.waiting_by_block, self.waiting_by_address
        victim = max(
            (w for w in self.waiters.values() if among(w)),
            key=lambda w: (by_block[w.block], by_address[w.address], -w.number),
            default=None,
        )
        if victim is not None:
            self._leave(victim)
            self.evictions += 1
            victim.evicted.set_result(why)

    def _leave(self, waiter: Waiter) -> None:
        """``waiter`` is no longer waiting (welcomed, refused, closed or gone)."""
        if self.waiters.pop(waiter.number, None) is None:
            return
        for counts, key in ((self.waiting_by_address, waiter.address),
                            (self.waiting_by_block, waiter.block)):  # fmt: skip
            left = counts[key] - 1
            if left:
                counts[key] = left
            else:
                del counts[key]


class _Prefixed:
    """A stream's requests with its first, already read, put back in front."""

    __slots__ = ("first", "rest")

    def __init__(self, first: Any, rest: AsyncIterator[Any]) -> None:
        self.first: Any = first
        self.rest = rest

    def __aiter__(self) -> _Prefixed:
        return self

    async def __anext__(self) -> Any:
        first = self.first
        if first is not None:
            self.first = None
            return first
        return await anext(self.rest)


def _behaviour(handler: grpc.RpcMethodHandler[Any, Any]) -> Behaviour:
    kind = (
        ("stream" if handler.request_streaming else "unary")
        + "_"
        + ("stream" if handler.response_streaming else "unary")
    )
    behaviour: Behaviour = getattr(handler, kind)
    return behaviour


def _as_client_streaming(handler: grpc.RpcMethodHandler[Any, Any], behaviour: Behaviour) -> Any:
    """A handler with ``handler``'s serializers and response kind running ``behaviour``,
    which reads its request(s) from a stream: one request is the same on the wire."""
    make = (
        grpc.stream_stream_rpc_method_handler
        if handler.response_streaming
        else grpc.stream_unary_rpc_method_handler
    )
    return make(
        behaviour,
        request_deserializer=handler.request_deserializer,
        response_serializer=handler.response_serializer,
    )
