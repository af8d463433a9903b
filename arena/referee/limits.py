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
  instead of spinning (on two shared cores its own CPU is most of the harm).
- ``Limits`` and ``server_options``: those sizes, and the HTTP/2 settings that close
  connections with no stream and bound the streams on one connection.
"""

from __future__ import annotations

import asyncio
import inspect
import ipaddress
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
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


def peer_address(peer: str) -> str:
    """The address a call comes from, as gRPC names it (``ipv4:127.0.0.1:5000``,
    ``ipv6:%5B::1%5D:5000``), without the port; an IPv6 address by its /64, which one
    host usually holds whole."""
    kind, _, rest = peer.partition(":")
    host = unquote(rest).rpartition(":")[0].strip("[]")
    if kind == "ipv4":
        return host
    if kind == "ipv6":
        try:
            return str(ipaddress.IPv6Network(f"{host}/64", strict=False))
        except ValueError:
            return host
    return kind  # a Unix socket: one local peer


@dataclass(frozen=True, kw_only=True)
class Limits:
    """The referee's limits on connections and on callers that have not been welcomed.
    The defaults suit an event; tests shrink the times."""

    idle_seconds: float = 10.0  # an HTTP/2 connection with no stream is closed after this
    handshake_seconds: float = 10.0  # a connection that has not finished its handshake
    streams_per_connection: int = 16  # a bot needs one
    # Health checks, reflection (each request on its stream) and unknown methods.
    calls_per_second: float = 10.0  # from one address
    calls_burst: int = 50
    all_calls_per_second: float = 50.0  # from everyone together
    all_calls_burst: int = 200
    open_streams: int = 64  # health watches and reflection streams open at once
    # Play streams until their hello is welcomed. A stream refused at its hello, or one
    # cut off for flooding, counts against its address; a welcomed one never does.
    waiting_streams: int = 256  # not yet welcomed, at once
    waiting_per_address: int = 32
    failed_hellos_per_second: float = 2.0  # from one address
    failed_hellos_burst: int = 32
    # Each refusal waits this long first (while fewer than `delayed` are waiting), so
    # that a client which waits for its calls slows down rather than spins.
    refusal_delay: float = 1.0
    delayed: int = 256


def server_options(limits: Limits) -> list[tuple[str, int]]:
    """The gRPC server's channel arguments for ``limits``."""
    return [
        ("grpc.max_connection_idle_ms", int(limits.idle_seconds * 1000)),
        ("grpc.server_handshake_timeout_ms", int(limits.handshake_seconds * 1000)),
        ("grpc.max_concurrent_streams", limits.streams_per_connection),
    ]


Behaviour = Callable[..., Any]


class Gate(grpc.aio.ServerInterceptor):
    """Admits unauthenticated calls within ``limits``; ``play`` names the bots' stream
    method, whose streams are limited until the referee welcomes them.

    Per call, not per message: a welcomed stream's messages pass as they would without
    it (the wrapper writes what the referee yields, as gRPC itself does)."""

    def __init__(self, limits: Limits, play: str) -> None:
        self.limits = limits
        self.play = play
        self.calls = PeerBuckets(limits.calls_per_second, limits.calls_burst)
        self.all_calls = TokenBucket(limits.all_calls_per_second, limits.all_calls_burst)
        self.failed_hellos = PeerBuckets(
            limits.failed_hellos_per_second, limits.failed_hellos_burst
        )
        self.open_streams = 0
        self.waiting = 0
        self.waiting_by_address: dict[str, int] = {}
        self.delayed = 0
        self.wrapped: dict[str, tuple[Any, grpc.RpcMethodHandler[Any, Any]]] = {}
        self.unknown: grpc.RpcMethodHandler[Any, Any] = grpc.stream_stream_rpc_method_handler(
            self._unknown
        )

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
            wrapped = _rewrap(handler, self._call_wrapper(handler))
        self.wrapped[method] = (handler, wrapped)  # one per method the server has
        return wrapped

    # ------------------------------------------------------------ refusals

    async def refuse(
        self, context: grpc.aio.ServicerContext[Any, Any], code: Any, why: str
    ) -> NoReturn:
        if self.delayed < self.limits.delayed:
            self.delayed += 1
            try:
                await asyncio.sleep(self.limits.refusal_delay)
            finally:
                self.delayed -= 1
        await context.abort(code, why)

    # ------------------------------------------------- health, reflection, ...

    async def _admit_call(self, context: grpc.aio.ServicerContext[Any, Any]) -> None:
        address = peer_address(context.peer())
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

    async def _unknown(
        self, requests: AsyncIterator[Any], context: grpc.aio.ServicerContext[Any, Any]
    ) -> None:
        await self._admit_call(context)
        await context.abort(grpc.StatusCode.UNIMPLEMENTED, "no such method on this referee")

    def _call_wrapper(self, handler: grpc.RpcMethodHandler[Any, Any]) -> Behaviour:
        inner: Behaviour = _behaviour(handler)
        if not handler.response_streaming:

            async def unary(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
                await self._admit_call(context)
                return await inner(request, context)

            return unary

        streams_in = handler.request_streaming
        generator = inspect.isasyncgenfunction(inner)  # else it writes to the context itself

        async def streaming(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> None:
            await self._admit_call(context)
            if self.open_streams >= self.limits.open_streams:
                await self.refuse(
                    context,
                    grpc.StatusCode.RESOURCE_EXHAUSTED,
                    f"{self.open_streams} health or reflection streams are open; try again later",
                )
            self.open_streams += 1
            try:
                if streams_in:  # reflection: every request on the stream is a call
                    request = self._metered(request, context)
                if generator:
                    async for msg in inner(request, context):
                        await context.write(msg)
                else:
                    await inner(request, context)
            finally:
                self.open_streams -= 1

        return streaming

    async def _metered(
        self, requests: AsyncIterator[Any], context: grpc.aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[Any]:
        first = True
        async for request in requests:
            if not first:  # the call itself paid for the first
                await self._admit_call(context)
            first = False
            yield request

    # ------------------------------------------------------------ Play

    def _play_wrapper(self, play: Behaviour) -> Behaviour:
        async def gated(requests: Any, context: grpc.aio.ServicerContext[Any, Any]) -> None:
            address = peer_address(context.peer())
            await self._admit_stream(address, context)
            self.waiting += 1
            self.waiting_by_address[address] = self.waiting_by_address.get(address, 0) + 1
            welcomed = False
            responses = play(requests, context)
            try:
                first = await anext(responses, None)  # the Welcome, or the hello refused
                if first is None:
                    return
                welcomed = True
                self._stop_waiting(address)
                await context.write(first)
                async for msg in responses:
                    await context.write(msg)
            finally:
                if not welcomed:
                    self._stop_waiting(address)
                if not welcomed or context.code() is grpc.StatusCode.RESOURCE_EXHAUSTED:
                    self.failed_hellos[address].charge()
                await responses.aclose()

        return gated

    async def _admit_stream(
        self, address: str, context: grpc.aio.ServicerContext[Any, Any]
    ) -> None:
        limits = self.limits
        if self.waiting >= limits.waiting_streams:
            why = f"{self.waiting} connections are waiting to say hello"
        elif self.waiting_by_address.get(address, 0) >= limits.waiting_per_address:
            why = f"{limits.waiting_per_address} connections from {address} are waiting"
        elif self.failed_hellos[address].level() < 1.0:
            why = f"too many failed hellos or cut-off bots from {address}"
        else:
            return
        await self.refuse(context, grpc.StatusCode.UNAVAILABLE, f"{why}; try again shortly")

    def _stop_waiting(self, address: str) -> None:
        self.waiting -= 1
        left = self.waiting_by_address[address] - 1
        if left:
            self.waiting_by_address[address] = left
        else:
            del self.waiting_by_address[address]


def _behaviour(handler: grpc.RpcMethodHandler[Any, Any]) -> Behaviour:
    kind = (
        ("stream" if handler.request_streaming else "unary")
        + "_"
        + ("stream" if handler.response_streaming else "unary")
    )
    behaviour: Behaviour = getattr(handler, kind)
    return behaviour


def _rewrap(handler: grpc.RpcMethodHandler[Any, Any], behaviour: Behaviour) -> Any:
    """A handler of the same kind and serializers as ``handler`` running ``behaviour``."""
    make = {
        (False, False): grpc.unary_unary_rpc_method_handler,
        (False, True): grpc.unary_stream_rpc_method_handler,
        (True, False): grpc.stream_unary_rpc_method_handler,
        (True, True): grpc.stream_stream_rpc_method_handler,
    }[(handler.request_streaming, handler.response_streaming)]
    return make(
        behaviour,
        request_deserializer=handler.request_deserializer,
        response_serializer=handler.response_serializer,
    )
