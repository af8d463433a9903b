"""The referee's front door, attacked as an outsider would: raw HTTP/2 frames written by
hand (bench/h2raw.py) from many loopback source addresses in several /24 blocks (all in
127.0.0.0/8), each attack bounded in connections, streams and seconds. What is asserted
is the outcome: an entrant's hello is welcomed, honest bots finish with no strike,
stalled calls and streams are closed, the referee's counts stay bounded."""

from __future__ import annotations

import importlib.util
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
import pytest
from test_grpc import (
    SLACK,
    ByIndex,
    Hosted,
    SdkThread,
    Stream,
    hello,
    join_all,
    play_hosted_match,
)

from arena.referee.limits import Gate, Limits, address_block, peer_address

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("h2raw", ROOT / "bench" / "h2raw.py")
assert _spec is not None and _spec.loader is not None
h2raw = importlib.util.module_from_spec(_spec)
sys.modules["h2raw"] = h2raw
_spec.loader.exec_module(h2raw)

TOKENS = {f"tok-{i}": f"bot{i}" for i in range(4)}
QUICK = {"refusal_delay": 0.01}


def gate_of(h: Hosted) -> Gate:
    assert h.referee.gate is not None
    return h.referee.gate


def gone(h: Hosted, name: str) -> None:
    """Wait (up to 10 s) until the referee has seen entrant ``name``'s stream end."""
    entrant = next(e for e in h.referee.entrants if e.name == name)
    end = time.monotonic() + 10
    while h.call(lambda: entrant.connected_now):
        assert time.monotonic() < end, f"{name} still connected"
        time.sleep(0.02)


class Squatters:
    """Play streams that never say hello, from ``sources`` (each its own connections,
    ``per_source`` streams apiece), reopened as the referee closes them, until ``stop``:
    at most ``seconds`` long and ``reopen`` new streams per source."""

    def __init__(self, address: str, sources: list[str], per_source: int) -> None:
        self.conns = [h2raw.Conn(address, source) for source in sources]
        self.per_source = per_source
        self.streams: list[set[int]] = [set() for _ in self.conns]
        for conn, streams in zip(self.conns, self.streams, strict=True):
            for _ in range(per_source):
                streams.add(conn.open_call(h2raw.PLAY))
        self.stop = threading.Event()
        self.reopened = 0
        self.thread = threading.Thread(target=self._keep_full, daemon=True)

    def _keep_full(self, seconds: float = 60.0, reopen: int = 400) -> None:
        end = time.monotonic() + seconds
        while not self.stop.is_set() and time.monotonic() < end:
            for conn, streams in zip(self.conns, self.streams, strict=True):
                with conn.lock:
                    gone = streams & conn.ended_streams
                streams -= gone
                for _ in gone:
                    if self.reopened < reopen * len(self.conns) and not conn.closed.is_set():
                        streams.add(conn.open_call(h2raw.PLAY))
                        self.reopened += 1
            self.stop.wait(0.05)

    def close(self) -> None:
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join(10)
        for conn in self.conns:
            conn.close()


def test_silent_streams_from_many_addresses_never_keep_an_entrant_out(
    host: Callable[..., Hosted],
) -> None:
    """The audit's attack, scaled down: 20 addresses in 5 blocks, each at its own limit,
    more silent streams than the room holds, reopened as they are closed; entrants'
    hellos (tokens, then reconnect tokens) are welcomed every time and a match plays
    with no fault at all."""
    limits = Limits(waiting_streams=48, waiting_per_address=4, waiting_per_block=16, **QUICK)
    h = host(tokens=TOKENS, limits=limits, decision_timeout=SLACK)
    sources = h2raw.loopback_sources(20, per_block=4)
    squatters = Squatters(h.address, sources, per_source=4)  # 80 streams for 48 places
    try:
        gate = gate_of(h)
        squatters.thread.start()
        # Each probe is a fresh stream, hello at once: welcomed, then it leaves.
        credentials = {}
        for token in TOKENS:
            stream = Stream(h.address, hello(token))
            try:
                welcome = stream.recv().welcome
            finally:
                stream.close()
            credentials[token] = welcome.reconnect_token
            gone(h, welcome.entrant)
        for credential in credentials.values():
            stream = Stream(h.address, hello(reconnect_token=credential))
            try:
                welcome = stream.recv().welcome
                assert welcome.entrant
            finally:
                stream.close()
            gone(h, welcome.entrant)
        bots = [ByIndex() for _ in range(4)]
        threads = [SdkThread(b, h.address, token) for b, token in zip(bots, TOKENS, strict=True)]
        for t in threads:
            t.start()
        outcome = play_hosted_match(h, deals=1, strike_limit=3)
        join_all(threads)
        assert outcome.record["faults"] == {k: [0] * 4 for k in outcome.record["faults"]}
        assert h.call(lambda: gate.waiting) <= limits.waiting_streams
        assert h.call(lambda: gate.evictions) > 0
    finally:
        squatters.close()


def test_a_new_stream_from_a_crowded_address_closes_that_addresses_oldest_silent_one(
    host: Callable[..., Hosted],
) -> None:
    h = host(tokens=TOKENS, limits=Limits(waiting_per_address=4, **QUICK))
    conn = h2raw.Conn(h.address, "127.3.0.2")
    try:
        first = [conn.open_call(h2raw.PLAY) for _ in range(4)]
        assert not conn.wait_ended(set(first), 0.5)  # four may wait
        fifth = conn.open_call(h2raw.PLAY)
        assert conn.wait_ended({first[0]}, 10)  # the oldest made room
        with conn.lock:
            assert fifth not in conn.ended_streams and first[1] not in conn.ended_streams
    finally:
        conn.close()


@pytest.mark.parametrize("path", [h2raw.HEALTH_CHECK, h2raw.PLAY], ids=["health-check", "play"])
def test_a_call_that_never_sends_its_message_is_closed_within_seconds(
    host: Callable[..., Hosted], path: str
) -> None:
    """Headers and no message: 4 connections from 4 addresses, 16 streams each (the most
    one connection carries); every stream is ended by the referee within its deadline
    (the test waits for that, up to 10 s), and its connection then closes as idle."""
    limits = Limits(call_seconds=0.5, hello_seconds=0.5, idle_seconds=1.0, **QUICK)
    h = host(tokens=TOKENS, limits=limits)
    conns = [h2raw.Conn(h.address, source) for source in h2raw.loopback_sources(4, 2)]
    try:
        streams = [{c.open_call(path) for _ in range(16)} for c in conns]
        start = time.monotonic()
        for conn, mine in zip(conns, streams, strict=True):
            assert conn.wait_ended(mine, 10), "a stalled call stayed open"
            with conn.lock:
                assert mine <= conn.ended_streams
        assert time.monotonic() - start < 10
        for conn in conns:
            assert conn.closed.wait(10), "an idle connection stayed open"
    finally:
        for conn in conns:
            conn.close()


def test_a_call_without_its_message_is_refused_with_a_reason(
    host: Callable[..., Hosted],
) -> None:
    """Through the generated stub: a health check whose request never comes (the
    request stream never yields) ends DEADLINE_EXCEEDED saying why."""
    h = host(tokens=TOKENS, limits=Limits(call_seconds=0.3, **QUICK))
    never = threading.Event()

    def nothing():  # type: ignore[no-untyped-def]
        never.wait(10)
        return
        yield

    with grpc.insecure_channel(h.address) as channel:
        check = channel.stream_unary("/grpc.health.v1.Health/Check")
        with pytest.raises(grpc.RpcError) as info:
            check(nothing(), timeout=10)
        never.set()
    assert info.value.code() is grpc.StatusCode.DEADLINE_EXCEEDED
    assert "no request message within 0.3 s" in (info.value.details() or "")


class Flood(threading.Thread):
    """``frames`` (one write) sent over and over from ``source`` through new connections
    as the edge closes them: at most ``writes`` writes and ``seconds`` long."""

    def __init__(
        self, address: str, source: str, make: Callable[[Any], bytes], writes: int, seconds: float
    ) -> None:
        super().__init__(daemon=True)
        self.address, self.source, self.make = address, source, make
        self.writes, self.seconds = writes, seconds
        self.sent = 0
        self.connections = 0
        self.closed_by_edge = 0
        self.stop = threading.Event()

    def run(self) -> None:
        end = time.monotonic() + self.seconds
        while self.sent < self.writes and time.monotonic() < end and not self.stop.is_set():
            conn = h2raw.Conn(self.address, self.source, timeout=2.0, parse=False)
            self.connections += 1
            try:
                while self.sent < self.writes and time.monotonic() < end:
                    if conn.closed.is_set() or not conn.send(self.make(conn)):
                        self.closed_by_edge += 1
                        break
                    self.sent += 1
                    time.sleep(0.001)
            finally:
                conn.close()


def frame_flood(kind: str) -> Callable[[Any], bytes]:
    """One write of a frame flood of ``kind``: 100 frames."""
    health = h2raw.grpc_headers(h2raw.HEALTH_CHECK)

    def frames(conn: Any) -> bytes:
        f = h2raw.frame
        if kind == "ping":
            return f(h2raw.PING, 0, 0, b"12345678") * 100
        if kind == "settings":
            return f(h2raw.SETTINGS, 0, 0, b"\x00\x04\x00\x00\xff\xff") * 100
        if kind == "unknown-frame":
            return f(h2raw.UNKNOWN_TYPE, 0, 0, b"x" * 64) * 100
        out = b""
        for _ in range(50):  # rapid reset: a call, cancelled at once
            sid = conn.new_stream()
            out += f(h2raw.HEADERS, h2raw.END_HEADERS, sid, health)
            out += f(h2raw.RST_STREAM, 0, sid, b"\x00\x00\x00\x08")
        return out

    return frames


def _rss() -> int:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))


@pytest.mark.parametrize("kind", ["ping", "rapid-reset", "settings", "unknown-frame"])
def test_a_frame_flood_at_grpcio_itself_costs_the_bots_nothing(
    host: Callable[..., Hosted], kind: str
) -> None:
    """grpcio's own options hold these (ping policy, streams per connection): 4
    addresses, 400 writes of 100 frames each at most, while a match plays; no fault,
    and the referee (this process) grows by less than 100 MB."""
    h = host(tokens=TOKENS, decision_timeout=SLACK)
    before = _rss()
    floods = [
        Flood(h.address, source, frame_flood(kind), writes=400, seconds=20)
        for source in h2raw.loopback_sources(4, per_block=2)
    ]
    for f in floods:
        f.start()
    try:
        bots = [ByIndex() for _ in range(4)]
        threads = [SdkThread(b, h.address, t) for b, t in zip(bots, TOKENS, strict=True)]
        for t in threads:
            t.start()
        outcome = play_hosted_match(h, deals=1, strike_limit=3)
        join_all(threads)
    finally:
        for f in floods:
            f.stop.set()
            f.join(30)
    assert outcome.record["faults"] == {k: [0] * 4 for k in outcome.record["faults"]}
    assert sum(f.sent for f in floods) > 0
    assert _rss() - before < 100 * 2**20


def test_addresses_and_blocks() -> None:
    assert address_block("127.1.0.2") == "127.1.0.0/24"
    assert address_block(peer_address("ipv6:[2001:db8:1:2:3::4]:443")) == "2001:db8:1::/48"
    # Through the edge (a Unix socket): the client it names, never the socket itself.
    assert peer_address("unix:/run/arena.sock", "203.0.113.9") == "203.0.113.9"
    assert peer_address("unix:/run/arena.sock", "2001:db8::1") == "2001:db8::/64"
    assert peer_address("unix:/run/arena.sock", "::ffff:198.51.100.2") == "198.51.100.2"
    assert peer_address("unix:/run/arena.sock", "nonsense") == "forwarded"
    # Off the Unix socket the header is not believed: the peer is who it is.
    assert peer_address("ipv4:127.0.0.5:4000", "203.0.113.9") == "127.0.0.5"


def _settled(conn: Any) -> bool:
    """Wait (up to 10 s) until the server has either greeted ``conn`` (its SETTINGS came)
    or closed it; whether it greeted it and it is still open."""
    with conn.lock:
        conn.changed.wait_for(lambda: conn.received > 0 or conn.closed.is_set(), 10)
    return conn.received > 0 and not conn.closed.is_set()


def test_connections_beyond_the_cap_are_closed_at_once_and_room_comes_back(
    host: Callable[..., Hosted],
) -> None:
    """grpcio's connection cap (``Limits.connections``, the option
    ``grpc.max_allowed_incoming_connections``) bounds the referee's file descriptors
    whoever dials: with a cap of 8, eight bare connections from two addresses are greeted
    and stay open, a ninth is closed before a byte is sent to it, and once one of the
    eight goes a new one is greeted again."""
    h = host(tokens=TOKENS, limits=Limits(connections=8, idle_seconds=60.0, **QUICK))
    sources = h2raw.loopback_sources(2, per_block=1)
    held = [h2raw.Conn(h.address, sources[i % 2]) for i in range(8)]
    extra: list[Any] = []
    try:
        assert all(_settled(c) for c in held), "a connection within the cap was not greeted"
        extra.append(h2raw.Conn(h.address, sources[0]))
        assert extra[-1].closed.wait(10), "a connection beyond the cap stayed open"
        assert extra[-1].received == 0
        assert not any(c.closed.is_set() for c in held)
        held.pop().close()
        # The referee notices the closed connection on its own time: dial until greeted.
        end = time.monotonic() + 10
        while True:
            extra.append(h2raw.Conn(h.address, sources[1]))
            if _settled(extra[-1]):
                break
            assert time.monotonic() < end, "no room came back after a connection closed"
    finally:
        for c in held + extra:
            c.close()
