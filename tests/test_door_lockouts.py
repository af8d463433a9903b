"""Two ways an entrant was kept out of its own seat, tested as an outsider would: raw gRPC
clients built from the proto's generated classes (no ``arena.sdk``) on loopback, each
step waiting for an event and bounded in time.

- F1: a non-entrant on the entrant's address (failed hellos, or silent streams closed by
  the waiting room) used up the address's failed-hello allowance, and the referee then
  refused every Play stream from it before reading its hello, the entrant's too. Now a
  hello with a credential the referee knows is always read and judged; the address's
  other hellos are still refused, with the same message, and charge nothing more.
- F2: a bot whose process hung after its Welcome kept its connection "connected", and its
  restarted copy was refused (ALREADY_EXISTS). Now the Welcome's reconnect_token takes
  the entrant over (the old stream ends, saying it was replaced; its open request is a
  disconnect, as on any reconnect), the organiser's token alone still does not, and the
  referee's HTTP/2 keepalive pings cut a peer that stopped answering.
"""

from __future__ import annotations

import asyncio
import select
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import grpc
import pytest
from test_attacks import RawBot
from test_grpc import Hosted, Stream, hello, refusal

from arena import sdk
from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena._proto.truf.arena.v1 import arena_pb2_grpc as pb_grpc
from arena.bot import BaseBot
from arena.games.registry import make_game
from arena.games.truf.rules import TrufRules
from arena.play.run import ConfigError
from arena.play.tournament import MatchContext, MatchOutcome
from arena.referee.edge import EdgeLimits, find_nginx, nginx_config
from arena.referee.host import wait_for_entrants
from arena.referee.limits import Limits, patient_with, server_options
from arena.referee.server import Entrant
from arena.referee.table import play_remote_match

TOKENS = {f"tok-{i}": f"bot{i}" for i in range(4)}
OVER = "too many failed hellos or cut-off bots from 127.0.0.1"
# Failed hellos: a burst of 4, then one in 1,000 s: the address stays over its limit for
# the whole test once four hellos have failed.
TIGHT = Limits(failed_hellos_burst=4, failed_hellos_per_second=0.001, refusal_delay=0.01)


def until(condition: Callable[[], bool], seconds: float = 20.0, what: str = "") -> None:
    """Wait for ``condition`` (an event on the referee or the wire), at most ``seconds``."""
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, f"not within {seconds:g} s: {what}"
        time.sleep(0.02)


def entrant(h: Hosted, name: str) -> Entrant:
    return next(e for e in h.referee.entrants if e.name == name)


def connected(h: Hosted, name: str) -> bool:
    return h.call(lambda: entrant(h, name).connected_now)


def welcome_of(h: Hosted, first: pb.PlayRequest) -> pb.Welcome:
    """Open a stream with ``first``; its Welcome (the stream is then closed)."""
    stream = Stream(h.address, first)
    try:
        msg = stream.recv()
    finally:
        stream.close()
    assert msg.HasField("welcome"), msg
    name = msg.welcome.entrant

    def state() -> str:  # what the referee holds, should the wait fail
        conn = entrant(h, name).conn
        seen = (conn.closed, conn.ended, conn.cut) if conn is not None else None
        gate = h.referee.gate
        return f"conn (closed, ended, cut) {seen}, waiting {gate.waiting if gate else None}"

    try:
        until(lambda: not connected(h, name), what="the closed stream to end")
    except AssertionError as exc:
        raise AssertionError(f"{exc}; the referee holds {h.call(state)}") from None
    return msg.welcome


def exhaust(
    h: Hosted,
    bad: pb.PlayRequest | None = None,
    code: grpc.StatusCode = grpc.StatusCode.UNAUTHENTICATED,
) -> None:
    """Fail hellos (by default with a token nobody has) from 127.0.0.1 until the front
    door refuses the address before judging its hello: bounded in count."""
    for _ in range(4 * TIGHT.failed_hellos_burst):
        err = refusal(h.address, bad or hello("not-a-token"))
        if err.code() is grpc.StatusCode.UNAVAILABLE:
            assert OVER in (err.details() or ""), err.details()
            return
        assert err.code() is code, err.details()
    raise AssertionError("the address never went over its failed-hello limit")


def debt(h: Hosted) -> float:
    gate = h.referee.gate
    assert gate is not None
    return h.call(lambda: gate.failed_hellos["127.0.0.1"].level())


# ------------------------------------------------------------------------------ F1


def test_an_entrant_is_welcomed_from_an_address_over_its_failed_hello_limit(
    host: Callable[..., Hosted],
) -> None:
    h = host(tokens=TOKENS, limits=TIGHT)
    credential = welcome_of(h, hello("tok-0")).reconnect_token
    exhaust(h)
    level, refused = debt(h), h.call(lambda: h.referee.refused)
    assert level < 1.0
    # The entrant's hellos are read and welcomed: by its token, by its reconnect token.
    assert welcome_of(h, hello("tok-0")).entrant == "bot0"
    assert welcome_of(h, hello(reconnect_token=credential)).entrant == "bot0"
    assert welcome_of(h, hello("tok-1", name="other")).entrant == "bot1"
    # The address's other hellos are still refused, with the same message, before the
    # referee judges them (it notes no refusal) and charging the address nothing more.
    for first in (hello("not-a-token"), hello(reconnect_token="0" * 32), hello(version=99)):
        err = refusal(h.address, first)
        assert err.code() is grpc.StatusCode.UNAVAILABLE, err.details()
        assert OVER in (err.details() or ""), err.details()
    assert h.call(lambda: h.referee.refused) == refused
    assert debt(h) >= level  # it only refills (slowly): nothing was charged


def test_an_entrants_refused_hello_from_an_address_over_its_limit_says_why(
    host: Callable[..., Hosted],
) -> None:
    """A valid credential is judged on its merits: that includes being refused for a
    reason of its own (here a second copy of a connected bot), not for the address."""
    h = host(tokens=TOKENS, limits=TIGHT)
    first = Stream(h.address, hello("tok-0"))
    try:
        assert first.recv().HasField("welcome")
        exhaust(h)
        err = refusal(h.address, hello("tok-0"))
        assert err.code() is grpc.StatusCode.ALREADY_EXISTS, err.details()
        assert "entrant bot0 is already connected" in (err.details() or "")
    finally:
        first.close()


def test_silent_streams_closed_by_the_waiting_room_do_not_keep_an_entrant_out(
    host: Callable[..., Hosted],
) -> None:
    """The attacker's second form: streams that never say hello, closed to make room,
    each charged to the address; the entrant, dialling between them, gets in."""
    limits = Limits(
        failed_hellos_burst=2,
        failed_hellos_per_second=0.001,
        waiting_per_address=2,
        refusal_delay=0.01,
    )
    h = host(tokens=TOKENS, limits=limits)
    gate = h.referee.gate
    assert gate is not None
    credential = welcome_of(h, hello("tok-0")).reconnect_token
    silent = [Stream(h.address) for _ in range(6)]  # two places: four are closed for room
    try:
        until(lambda: h.call(lambda: gate.evictions) >= 4, what="four silent streams closed")
        until(lambda: debt(h) < 1.0, what="the closed streams charged to the address")
        assert welcome_of(h, hello(reconnect_token=credential)).entrant == "bot0"
        err = refusal(h.address, hello(name="nobody"))  # no token: refused, as before
        assert err.code() is grpc.StatusCode.UNAVAILABLE and OVER in (err.details() or "")
        # What the address may hold stays bounded: its places in the room, no more.
        assert h.call(lambda: gate.waiting_by_address.get("127.0.0.1", 0)) <= 2
    finally:
        for s in silent:
            s.close()


def test_in_an_open_tournament_a_new_bot_gets_a_seat_from_an_address_over_its_limit(
    host: Callable[..., Hosted],
) -> None:
    """No tokens, not started: any bot that says hello is seated, so every hello is
    judged on its merits, even from an address whose failed hellos used up its
    allowance (a flooder behind the new bot's NAT cannot keep it out): a good one is
    welcomed, a bad one gets its own reason after the address's delay, and neither
    charges the address more. Once the seats are gone, the address's hellos are refused
    at the door again."""
    h = host(open_seats=2, limits=TIGHT)
    for _ in range(TIGHT.failed_hellos_burst):
        err = refusal(h.address, hello(version=99))
        assert err.code() is grpc.StatusCode.FAILED_PRECONDITION, err.details()
    # each is charged as its stream closes, just after the client hears the refusal
    until(lambda: debt(h) < 1.0, what="four failed hellos charged to the address")
    level = debt(h)
    newcomer = Stream(h.address, hello(name="late"))
    try:
        assert newcomer.recv().welcome.entrant == "late"
        err = refusal(h.address, hello(version=99))  # judged: its own reason
        assert err.code() is grpc.StatusCode.FAILED_PRECONDITION, err.details()
        assert debt(h) >= level
        last = Stream(h.address, hello(name="last"))  # the last seat
        try:
            assert last.recv().welcome.entrant == "last"
            refused = h.call(lambda: h.referee.refused)
            for first in (hello(name="third"), hello(version=99)):
                err = refusal(h.address, first)
                assert err.code() is grpc.StatusCode.UNAVAILABLE, err.details()
                assert OVER in (err.details() or ""), err.details()
            assert h.call(lambda: h.referee.refused) == refused  # refused at the door
            assert debt(h) >= level  # nothing charged since the address went over
        finally:
            last.close()
    finally:
        newcomer.close()


def test_a_new_bots_hello_from_an_address_over_its_limit_waits_the_delay_before_judging(
    host: Callable[..., Hosted],
) -> None:
    """Anyone can send an open tournament's new-bot hello, so from an address over its
    limit it is judged only after the address's delay (a refusal sent at once, and the
    delay after it, would let a flooder behind the NAT fail hellos as fast as it likes)."""
    slow = Limits(failed_hellos_burst=1, failed_hellos_per_second=0.001, refusal_delay=600)
    h = host(open_seats=2, limits=slow)
    gate = h.referee.gate
    assert gate is not None
    err = refusal(h.address, hello(version=99))  # under the limit: judged at once
    assert err.code() is grpc.StatusCode.FAILED_PRECONDITION, err.details()
    until(lambda: debt(h) < 1.0, what="the failed hello charged to the address")
    refused = h.call(lambda: h.referee.refused)
    held = Stream(h.address, hello(version=99))
    try:
        until(lambda: h.call(lambda: gate.delayed) == 1, what="the hello held in the delay")
        assert h.call(lambda: h.referee.refused) == refused  # not judged yet
    finally:
        held.close()
    until(lambda: h.call(lambda: gate.delayed) == 0, what="the delay's place given back")


def test_in_an_open_tournament_a_seated_bot_comes_back_and_a_newcomer_waits(
    host: Callable[..., Hosted],
) -> None:
    """Started: a seated bot's reconnect token is a credential; a new bot's first hello
    carries none, and there is no seat for it, so from an address over its limit it is
    refused like any other."""
    h = host(open_seats=4, limits=TIGHT)
    seated = Stream(h.address, hello(name="early"))
    try:
        credential = seated.recv().welcome.reconnect_token
        h.call(h.referee.start)
    finally:
        seated.close()
    until(lambda: not connected(h, "early"), what="the seated bot to leave")
    exhaust(h, hello(version=99), grpc.StatusCode.FAILED_PRECONDITION)
    assert welcome_of(h, hello(name="early", reconnect_token=credential)).entrant == "early"
    err = refusal(h.address, hello(name="late"))
    assert err.code() is grpc.StatusCode.UNAVAILABLE and OVER in (err.details() or "")


# ------------------------------------------------------------------------------ F2


def start_match(h: Hosted, deals: int) -> Future[MatchOutcome]:
    async def play() -> MatchOutcome:
        await wait_for_entrants(h.referee, len(h.referee.entrants), [], 30)
        h.referee.start()
        outcome = await play_remote_match(
            make_game(rules=TrufRules(deals=deals)),
            h.referee.entrants,
            ctx=MatchContext("m1", seed="7:m1"),
            strike_limit=3,
        )
        await h.referee.goodbye()
        return outcome

    return asyncio.run_coroutine_threadsafe(play(), h.loop)


def test_a_reconnect_token_takes_over_from_a_connection_that_stopped_reading(
    host: Callable[..., Hosted],
) -> None:
    """bot0's first connection reads its Welcome, then nothing: its process hangs. While
    a decision request waits on it, a hello with the token alone is refused (two running
    copies must not flap), and one with the Welcome's reconnect_token takes bot0 over:
    the old stream ends with ALREADY_EXISTS saying it was replaced, the open request is a
    disconnect (no strike), and the match finishes with the new connection playing."""
    h = host(tokens=TOKENS, decision_timeout=60.0)  # no timeout can come first
    hung = Stream(h.address, hello("tok-0"))
    others = [RawBot(h.address, hello(token)) for token in list(TOKENS)[1:]]
    taker: RawBot | None = None
    try:
        credential = hung.recv().welcome.reconnect_token
        for bot in others:
            bot.start()
        match = start_match(h, deals=1)
        bot0 = entrant(h, "bot0")
        until(lambda: h.call(lambda: bool(bot0.conn and bot0.conn.pending)), 30,
              "a decision request open on the hung connection")  # fmt: skip
        err = refusal(h.address, hello("tok-0", name="copy"))
        assert err.code() is grpc.StatusCode.ALREADY_EXISTS, err.details()
        assert "already connected" in (err.details() or "")
        assert "reconnect_token" in (err.details() or "")  # it says how to take over
        taker = RawBot(h.address, hello("tok-0", name="copy", reconnect_token=credential))
        taker.start()
        outcome = match.result(60)
        assert taker.received and taker.welcome.entrant == "bot0"
        # The hung stream, read now: what was queued for it, then the end and why.
        with pytest.raises(grpc.RpcError) as ended:
            while True:
                hung.recv()
        assert ended.value.code() is grpc.StatusCode.ALREADY_EXISTS
        assert "replaced by a new one that sent its reconnect_token" in (
            ended.value.details() or ""
        )
    finally:
        hung.close()
        for bot in [*others, *([taker] if taker else [])]:
            bot.join(30)
    faults = outcome.record["faults"]
    assert faults["disconnect"][0] == 1, faults  # the request open on the hung connection
    assert all(faults[kind] == [0] * 4 for kind in faults if kind != "disconnect"), faults
    assert faults["disconnect"][1:] == [0, 0, 0]
    assert not outcome.record["forfeit"][0] and not outcome.record["disqualified"][0]


# ---------------------------------------------------------------- keepalive pings

PING, GOAWAY, ACK = 6, 7, 1
PREFACE = 24  # bytes of the client's connection preface, before its first frame


class Relay:
    """A TCP relay between one HTTP/2 client and the referee that counts the PING frames
    each way and can freeze: it then stops reading both sides, as a stopped process does
    (its host's kernel keeps the TCP connection open, so only pings tell)."""

    def __init__(self, target: str) -> None:
        host, port = target.rsplit(":", 1)
        self.target = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self.listener.getsockname()[1]}"
        self.frozen = threading.Event()
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.counts = {"server pings": 0, "client acks": 0, "client pings": 0, "goaways": 0}
        self.sockets: list[socket.socket] = [self.listener]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def count(self, what: str) -> int:
        with self.lock:
            return self.counts[what]

    def _serve(self) -> None:
        self.listener.settimeout(0.2)
        while not self.stop.is_set():
            try:
                client, _ = self.listener.accept()
            except TimeoutError:
                continue
            server = socket.create_connection(self.target)
            self.sockets += [client, server]
            for a, b, from_client in ((client, server, True), (server, client, False)):
                threading.Thread(target=self._pump, args=(a, b, from_client), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, from_client: bool) -> None:
        pending = b""
        skip = PREFACE if from_client else 0
        while not self.stop.is_set():
            if self.frozen.is_set():
                self.stop.wait(0.05)
                continue
            ready, _, _ = select.select([src], [], [], 0.05)
            if not ready:
                continue
            try:
                data = src.recv(65536)
                if not data:
                    return
                dst.sendall(data)
            except OSError:
                return
            pending += data
            if skip:
                cut = min(skip, len(pending))
                pending, skip = pending[cut:], skip - cut
            while len(pending) >= 9:
                length = int.from_bytes(pending[:3], "big")
                if len(pending) < 9 + length:
                    break
                kind, flags = pending[3], pending[4]
                pending = pending[9 + length :]
                self._saw(kind, flags, from_client)

    def _saw(self, kind: int, flags: int, from_client: bool) -> None:
        with self.lock:
            if kind == PING and from_client:
                self.counts["client acks" if flags & ACK else "client pings"] += 1
            elif kind == PING and not flags & ACK:
                self.counts["server pings"] += 1
            elif kind == GOAWAY and not from_client:
                self.counts["goaways"] += 1

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        for s in self.sockets:
            s.close()


def test_the_referee_pings_a_quiet_bot_and_cuts_it_off_once_it_stops_answering(
    host: Callable[..., Hosted],
) -> None:
    """The referee pings a connection that brought nothing for keepalive_seconds. A bot
    whose stream is quiet (it waits between matches) answers and stays; frozen, it is cut
    within keepalive_seconds + keepalive_timeout_seconds, its seat disconnected (the
    grace period starts) rather than timing out decision after decision."""
    limits = Limits(keepalive_seconds=0.5, keepalive_timeout_seconds=1.0)
    h = host(tokens=TOKENS, limits=limits)
    relay = Relay(h.address)
    stream = Stream(relay.address, hello("tok-0"))
    try:
        assert stream.recv().welcome.entrant == "bot0"
        until(lambda: relay.count("client acks") >= 3, what="three pings answered")
        assert connected(h, "bot0") and relay.count("goaways") == 0
        relay.frozen.set()
        # Pinged within 0.5 s of its last sign of life, cut 1 s after an unanswered
        # ping: the event waited for, with a bound only against a hang (inside the
        # 30 s grace even so).
        until(lambda: not connected(h, "bot0"), 20, "the frozen bot to be cut off")
        assert h.call(lambda: entrant(h, "bot0").gone_since is not None)  # grace runs
    finally:
        stream.close()
        relay.close()


def test_a_client_that_pings_every_10_s_as_advised_is_never_struck(
    host: Callable[..., Hosted],
) -> None:
    """The ping policy, scaled down 10 times: a client's keepalive pings at the interval
    bot authors are told (twice what the referee allows) on a quiet stream, 6 of them,
    with no GOAWAY and the bot still connected."""
    limits = Limits(ping_interval_seconds=0.5, keepalive_seconds=3600.0)
    h = host(tokens=TOKENS, limits=limits)
    relay = Relay(h.address)
    options = [
        ("grpc.keepalive_time_ms", 1000),  # 10 s at the real scale
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.max_pings_without_data", 0),
    ]
    channel = grpc.insecure_channel(relay.address, options=options)
    requests: list[pb.PlayRequest] = [hello("tok-0")]
    gate = threading.Event()

    def outgoing() -> Any:
        yield from requests
        gate.wait(60)  # then the stream stays open, quiet

    try:
        call = pb_grpc.ArenaServiceStub(channel).Play(outgoing(), timeout=60)
        assert next(call).welcome.entrant == "bot0"
        until(lambda: relay.count("client pings") >= 6, 30, "six client pings")
        assert relay.count("goaways") == 0
        assert connected(h, "bot0")
    finally:
        gate.set()
        channel.close()
        relay.close()


def test_the_server_options_hold_the_keepalive_and_the_ping_policy() -> None:
    options = dict(server_options(Limits()))
    assert options["grpc.keepalive_time_ms"] == 5000
    assert options["grpc.keepalive_timeout_ms"] == 5000
    assert options["grpc.http2.max_pings_without_data"] == 0  # pings on quiet streams too
    assert options["grpc.keepalive_permit_without_calls"] == 1
    # Clients are advised to ping no more often than every 10 s; the referee allows 5.
    assert options["grpc.http2.min_ping_interval_without_data_ms"] == 5000
    assert options["grpc.http2.max_ping_strikes"] == 2
    # A frozen bot is cut well inside the default grace period (30 s).
    assert (options["grpc.keepalive_time_ms"] + options["grpc.keepalive_timeout_ms"]) / 1000 < 15
    assert options["grpc.http2.ping_timeout_ms"] == options["grpc.keepalive_timeout_ms"]


def test_a_bot_deciding_within_its_time_is_never_cut_for_a_late_ping_answer() -> None:
    """A single-threaded bot answers no ping while it decides: the referee waits for a
    ping's answer at least as long as a decision may take (timeout plus time bank)."""
    assert patient_with(Limits(), 1.0) == Limits()
    slow = dict(server_options(patient_with(Limits(), 1.0 + 20.0)))
    assert slow["grpc.keepalive_timeout_ms"] == slow["grpc.http2.ping_timeout_ms"] == 21000


def test_the_edge_listens_with_tcp_keepalive_inside_the_grace_period(tmp_path: Path) -> None:
    """Behind ``arena edge`` the referee's pings reach nginx, which answers them itself:
    the edge's listener keeps TCP keepalive instead, whose probes (on a connection with
    nothing in flight) take less than the grace period; nginx accepts the configuration.
    (Dropping a client host needs root: not done here.)"""
    limits = EdgeLimits()
    conf = nginx_config("127.0.0.1:50051", "unix:/run/arena.sock", tmp_path, limits=limits)
    assert "listen 127.0.0.1:50051 so_keepalive=5s:5s:2;" in conf
    lim = limits
    assert lim.keepalive_idle_seconds + lim.keepalive_interval_seconds * lim.keepalive_probes < 30
    try:
        nginx = find_nginx()
    except ConfigError:
        pytest.skip("nginx with its stream module is not installed")
    (tmp_path / "nginx.conf").write_text(conf)
    checked = subprocess.run(
        [nginx, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-t", "-q"],
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
    )
    assert checked.returncode == 0, checked.stderr


# ------------------------------------------------- the Python SDK, restarted


class FirstIndex(BaseBot):
    name = "restarted"

    def act(self, view: Any, legal: Any) -> int:
        return 0


def test_the_sdk_refused_as_already_connected_waits_for_the_old_connection_to_end(
    host: Callable[..., Hosted],
) -> None:
    """A restarted SDK bot has only its token: while its hung predecessor's connection
    is open it is refused (ALREADY_EXISTS), and it waits for that connection to end (the
    referee's keepalive ends a hung one) instead of quitting; then it is welcomed."""
    h = host(tokens=TOKENS)
    old = Stream(h.address, hello("tok-0"))
    outcome: dict[str, BaseException | None] = {}

    def run() -> None:
        try:
            sdk.run(FirstIndex(), h.address, token="tok-0", retry_for=30)
            outcome["error"] = None
        except BaseException as exc:  # reported below
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    try:
        assert old.recv().HasField("welcome")
        thread.start()
        until(lambda: any("ALREADY_EXISTS" in r for r in h.call(lambda: list(h.referee.refusals))),
              what="the restarted bot refused while the old connection is open")  # fmt: skip
    finally:
        old.close()  # as the keepalive would end it
    until(lambda: h.call(lambda: entrant(h, "bot0").bot_name) == "restarted",
          what="the restarted bot welcomed")  # fmt: skip
    h.run(h.referee.goodbye())
    thread.join(30)
    assert outcome == {"error": None}


def test_the_node_bot_refused_as_already_connected_waits_for_the_old_connection_to_end(
    host: Callable[..., Hosted], js_node_modules: Path, tmp_path: Path
) -> None:
    """The reference Node bot (bots/js/bot.js) as the SDK above: restarted with only its
    token while its predecessor's connection is open, it waits, then is welcomed."""
    h = host(tokens=TOKENS)
    old = Stream(h.address, hello("tok-0"))
    log = tmp_path / "js.log"
    assert old.recv().HasField("welcome")
    bot = Path(__file__).resolve().parents[1] / "bots" / "js" / "bot.js"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            ["node", str(bot), "--connect", h.address, "--token", "tok-0", "--name", "js"],
            stdout=out,
            stderr=subprocess.STDOUT,
        )

    def refused() -> bool:
        return any("ALREADY_EXISTS" in r for r in h.call(lambda: list(h.referee.refusals)))

    try:
        try:
            until(refused, what="the restarted bot refused while the old connection is open")
        finally:
            old.close()  # as the keepalive would end it
        until(lambda: h.call(lambda: entrant(h, "bot0").bot_name) == "js",
              what="the restarted bot welcomed")  # fmt: skip
        h.run(h.referee.goodbye())
        assert proc.wait(timeout=30) == 0, log.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    assert "waiting for that connection to end" in log.read_text(), log.read_text()


def test_a_second_running_copy_of_an_sdk_bot_gives_up_saying_why(
    host: Callable[..., Hosted],
) -> None:
    h = host(tokens=TOKENS)
    first = Stream(h.address, hello("tok-0"))
    try:
        assert first.recv().HasField("welcome")
        with pytest.raises(sdk.BotRejected, match="ALREADY_EXISTS: entrant bot0 is already"):
            sdk.run(FirstIndex(), h.address, token="tok-0", retry_for=1)
        assert h.call(lambda: entrant(h, "bot0").bot_name) == "raw"  # the first kept it
    finally:
        first.close()
