"""Floods, sent the way an outsider would (raw generated stubs, raw sockets): a bot that
sends junk between its legal answers is cut off by its budget and the match finishes;
health, reflection and bad-hello floods are refused while a match plays on; idle
HTTP/2 connections are closed. Every loop is bounded in count and time."""

from __future__ import annotations

import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
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
from test_hostile import Hostile
from test_rules_oracle import audit_outcomes

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena._proto.truf.arena.v1 import arena_pb2_grpc as pb_grpc
from arena.games.truf.replay import replay_match
from arena.games.truf.rules import TrufRules
from arena.referee.limits import (
    BYTE_RESERVE,
    MESSAGE_RESERVE,
    MESSAGES_PER_REQUEST,
    Budget,
    Limits,
    peer_address,
)
from arena.wire.pbwire import tag, uv

TOKENS = {f"tok-{i}": f"bot{i}" for i in range(4)}
# Quick refusals, so that a flooder that waits on its calls still sends many in a test.
QUICK = {"refusal_delay": 0.01}

# --------------------------------------------------------------- the budget


def test_an_honest_bot_with_many_tables_in_play_never_nears_its_budget() -> None:
    budget = Budget()
    lowest = MESSAGE_RESERVE
    for _ in range(1000):  # 16 tables: 16 requests open at once, then their 16 answers
        for _ in range(16):
            budget.grant()
        for _ in range(16):
            assert budget.spend(40) is None
        lowest = min(lowest, budget.messages)
    assert lowest >= MESSAGE_RESERVE - 16


def test_a_bot_that_sends_every_answer_twice_stays_within_its_budget() -> None:
    budget = Budget()
    for _ in range(10_000):
        budget.grant()
        assert budget.spend(40) is None and budget.spend(40) is None


def test_junk_between_answers_overdraws_the_budget_within_the_reserve() -> None:
    budget = Budget()
    for _ in range(MESSAGE_RESERVE):  # each request: one message more than it allows
        budget.grant()
        whys = [budget.spend(10) for _ in range(MESSAGES_PER_REQUEST + 1)]
        if any(whys):
            break
    else:
        pytest.fail(f"not cut off after {MESSAGE_RESERVE} requests")
    assert "flooding: more messages" in next(w for w in whys if w)


def test_large_junk_overdraws_the_byte_budget_at_the_first_request() -> None:
    budget = Budget()
    budget.grant()
    whys = [budget.spend(60_000) for _ in range(BYTE_RESERVE // 60_000 + 2)]
    assert whys[0] is None and "flooding: more bytes" in (whys[-1] or "")


# ---------------------------------------------------- junk over the wire


def junk(size: int) -> pb.PlayRequest:
    """A PlayRequest that answers nothing: a second (empty) hello padded with an unknown
    field of ``size`` bytes (proto3 parsers keep it, and keep it when they serialize the
    message again). Only the budget counts it; a message with nothing at all set would
    instead fail an open request as unreadable (tests/test_attacks.py)."""
    padding = tag(1000, 2) + uv(size) + b"j" * size  # field 1000
    return pb.PlayRequest.FromString(tag(1, 2) + uv(0) + padding)  # hello = 1, empty


def answer_then(extra: int, size: int) -> Callable[[Stream, int], None]:
    """An attack: a legal answer (index 0) to every request, then ``extra`` junk messages."""

    def attack(stream: Stream, request_id: int) -> None:
        msg = pb.PlayRequest()
        msg.answer.request_id = request_id
        msg.answer.index = 0
        stream.send(msg)
        for _ in range(extra):
            stream.send(junk(size))

    return attack


@pytest.mark.parametrize(("extra", "size"), [(16, 8), (8, 60_000)], ids=["small-junk", "60KB-junk"])
def test_a_bot_sending_junk_between_legal_answers_is_cut_off_and_the_match_finishes(
    host: Callable[..., Hosted],  # noqa: F811
    extra: int,
    size: int,
    tmp_path: Path,
) -> None:
    h = host(tokens=TOKENS, decision_timeout=SLACK)
    honest = [ByIndex() for _ in range(3)]
    threads = [SdkThread(b, h.address, f"tok-{i}") for i, b in enumerate(honest)]
    for t in threads:
        t.start()
    hostile = Hostile(h.address, "tok-3", answer_then(extra, size))
    hostile.start()
    outcome = play_hosted_match(h, deals=2, strike_limit=3)
    join_all(threads)
    hostile.join(30)
    assert hostile.status is grpc.StatusCode.RESOURCE_EXHAUSTED, hostile.details
    assert "flooding" in hostile.details, hostile.details
    assert len(outcome.deals) == 2 and replay_match(outcome.deals) == 2
    # Its legal answers counted until it was cut off; then its seat played the fallback
    # as a disconnect, which is not a strike. The honest seats have no fault at all.
    faults = outcome.record["faults"]
    assert faults["disconnect"][3] > 0 and not outcome.record["disqualified"][3]
    assert {f["seat"] for d in outcome.deals for f in d["faults"]} == {3}
    assert all(bot.decisions >= 2 * 14 for bot in honest)
    assert audit_outcomes(tmp_path, TrufRules(deals=2), [outcome]) == ""


# ------------------------------------------------- unauthenticated floods


class Flooder(threading.Thread):
    """Calls ``call`` over and over, counting the status of each, until ``until`` of them
    were refused with ``refused``: at most ``count`` calls, ``seconds`` long."""

    def __init__(
        self, call: Callable[[], None], refused: str, until: int = 5, count: int = 500
    ) -> None:
        super().__init__(daemon=True)
        self.call, self.refused, self.until, self.count = call, refused, until, count
        self.codes: Counter[str] = Counter()

    def run(self) -> None:
        end = time.monotonic() + 20
        for _ in range(self.count):
            if self.codes[self.refused] >= self.until or time.monotonic() > end:
                break
            try:
                self.call()
                self.codes["OK"] += 1
            except grpc.RpcError as exc:
                self.codes[exc.code().name] += 1


def health_check(channel: grpc.Channel) -> None:
    health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10)


def reflection_list(channel: grpc.Channel) -> None:
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    for _ in stub.ServerReflectionInfo(iter([request]), timeout=10):
        pass


def bad_hello(channel: grpc.Channel) -> None:
    responses = pb_grpc.ArenaServiceStub(channel).Play(iter([hello(version=99)]), timeout=10)
    for _ in responses:
        pass


@pytest.mark.parametrize(
    ("attack", "refused"),
    [
        (health_check, "RESOURCE_EXHAUSTED"),
        (reflection_list, "RESOURCE_EXHAUSTED"),
        (bad_hello, "UNAVAILABLE"),
    ],
    ids=["health", "reflection", "bad-hello"],
)
def test_an_unauthenticated_flood_is_refused_while_the_match_plays_on(
    host: Callable[..., Hosted],  # noqa: F811
    attack: Callable[[grpc.Channel], None],
    refused: str,
    tmp_path: Path,
) -> None:
    limits = Limits(calls_burst=20, failed_hellos_burst=10, **QUICK)
    h = host(tokens=TOKENS, limits=limits, decision_timeout=SLACK)
    bots = [ByIndex() for _ in range(4)]
    threads = [SdkThread(b, h.address, token) for b, token in zip(bots, TOKENS, strict=True)]
    for t in threads:
        t.start()
    with grpc.insecure_channel(h.address) as channel:
        flooder = Flooder(lambda: attack(channel), refused)
        flooder.start()
        outcome = play_hosted_match(h, deals=1, strike_limit=3)
        flooder.join(30)
    join_all(threads)
    assert flooder.codes[refused] > 0, flooder.codes
    # The first calls, within the burst, were served (or, for bad hellos, answered with
    # the reason the hello is refused); the rest were refused.
    served = "FAILED_PRECONDITION" if attack is bad_hello else "OK"
    assert flooder.codes[served] > 0, flooder.codes
    assert len(outcome.deals) == 1 and replay_match(outcome.deals) == 1
    assert outcome.record["faults"] == {k: [0] * 4 for k in outcome.record["faults"]}
    assert audit_outcomes(tmp_path, TrufRules(deals=1), [outcome]) == ""


def test_streams_that_never_say_hello_are_capped_per_address_and_an_entrant_still_gets_in(
    host: Callable[..., Hosted],  # noqa: F811
) -> None:
    h = host(tokens=TOKENS, limits=Limits(waiting_per_address=4, **QUICK))
    gate = h.referee.gate
    assert gate is not None
    silent: list[Stream] = []
    try:
        # Open four that say nothing, one at a time: each waits until the referee holds it
        # in the waiting room (an event, not a guess at how long that takes under load), so
        # the room's order is the order opened and silent[0] is the oldest.
        for _ in range(4):
            silent.append(Stream(h.address))
            end = time.monotonic() + 30
            while h.call(lambda: gate.waiting) < len(silent):
                assert time.monotonic() < end, "a silent stream never reached the room"
                time.sleep(0.01)
        # A fifth from the same address is let in; the oldest silent one makes room.
        late = Stream(h.address)
        with pytest.raises(grpc.RpcError) as info:
            silent[0].recv()
        assert info.value.code() is grpc.StatusCode.UNAVAILABLE
        assert "waiting room made room" in (info.value.details() or "")
        # With four still waiting, an entrant's hello from the same address is welcomed.
        stream = Stream(h.address, hello("tok-0"))
        try:
            assert stream.recv().HasField("welcome")
        finally:
            stream.close()
        late.close()
    finally:
        for s in silent:
            s.close()


# --------------------------------------------------------- idle connections

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
EMPTY_SETTINGS = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
GOAWAY = 7


def frames_until_closed(sock: socket.socket, limit: float) -> Iterator[int]:
    """The types of the HTTP/2 frames the server sends until it closes the connection."""
    sock.settimeout(limit)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    while len(data) >= 9:
        length = int.from_bytes(data[:3], "big")
        yield data[3]
        data = data[9 + length :]


@pytest.mark.parametrize("preface", [True, False], ids=["http2-no-stream", "silent-tcp"])
def test_a_connection_without_a_stream_is_closed_after_the_idle_time(
    host: Callable[..., Hosted],  # noqa: F811
    preface: bool,
) -> None:
    h = host(tokens=TOKENS, limits=Limits(idle_seconds=0.5, handshake_seconds=0.5))
    hostname, port = h.address.rsplit(":", 1)
    with socket.create_connection((hostname, int(port))) as sock:
        start = time.monotonic()
        if preface:
            sock.sendall(PREFACE + EMPTY_SETTINGS)
        kinds = list(frames_until_closed(sock, limit=10))  # a timeout fails the test
        assert time.monotonic() - start < 5
    assert GOAWAY in kinds, kinds


def test_a_channel_whose_idle_connection_was_closed_dials_again(
    host: Callable[..., Hosted],  # noqa: F811
) -> None:
    h = host(tokens=TOKENS, limits=Limits(idle_seconds=0.3))
    with grpc.insecure_channel(h.address) as channel:
        ready, dropped = threading.Event(), threading.Event()

        def watch(state: grpc.ChannelConnectivity) -> None:
            if state is grpc.ChannelConnectivity.READY:
                ready.set()
            elif ready.is_set() and state is not grpc.ChannelConnectivity.READY:
                dropped.set()  # the server closed the idle connection (GOAWAY)

        channel.subscribe(watch)
        health_check(channel)
        assert dropped.wait(30), "the idle connection was not closed"
        health_check(channel)  # the channel dials again
        stream = pb_grpc.ArenaServiceStub(channel).Play(iter([hello("tok-0")]), timeout=10)
        assert next(stream).HasField("welcome")
        stream.cancel()


def test_peer_addresses_drop_the_port_and_group_ipv6_by_64() -> None:
    assert peer_address("ipv4:127.0.0.1:5000") == "127.0.0.1"
    assert peer_address("ipv6:%5B::1%5D:5000") == "::/64"
    assert peer_address("ipv6:[2001:db8:1:2:3::4]:443") == "2001:db8:1:2::/64"
    assert peer_address("unix:/tmp/sock") == "unix"


def test_many_requests_on_one_reflection_stream_are_limited_like_calls(
    host: Callable[..., Hosted],  # noqa: F811
) -> None:
    h = host(tokens=TOKENS, limits=Limits(calls_burst=10, calls_per_second=0.1, **QUICK))
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    with grpc.insecure_channel(h.address) as channel:
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        answered = 0
        with pytest.raises(grpc.RpcError) as info:
            for _ in stub.ServerReflectionInfo(iter([request] * 200), timeout=10):
                answered += 1
    assert info.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
    assert 5 <= answered <= 20  # about the burst of 10 (and what refilled): not 200


def test_calls_to_unknown_methods_are_limited_like_health_checks(
    host: Callable[..., Hosted],  # noqa: F811
) -> None:
    h = host(tokens=TOKENS, limits=Limits(calls_burst=10, calls_per_second=0.1, **QUICK))
    codes: Counter[str] = Counter()
    with grpc.insecure_channel(h.address) as channel:
        call = channel.unary_unary("/no.such.Service/Method")
        for _ in range(30):
            try:
                call(b"", timeout=10)
            except grpc.RpcError as exc:
                codes[exc.code().name] += 1
    assert codes["UNIMPLEMENTED"] >= 5 and codes["RESOURCE_EXHAUSTED"] >= 15, codes
