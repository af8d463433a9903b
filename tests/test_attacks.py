"""The referee against outsiders (issue 12, items 2, 3 and 5; issue 13, items 13-15): raw
gRPC clients written from the proto try to stall an open tournament, take seats back
without the right credential, grow the referee's memory with padded answers, stop
reading, send empty or stale answers; and the bundled bots take what the referee gives
them (issued tokens, reconnect tokens)."""

from __future__ import annotations

import asyncio
import gc
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest
from test_grpc import (
    ByIndex,
    Hosted,
    Recorder,
    SdkThread,
    Stream,
    child_env,
    hello,
    join_all,
    play_hosted_match,
    refusal,
)
from test_hostile import Sleeper
from test_rules_oracle import audit_outcomes

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena.games.registry import make_game
from arena.games.truf import wire as truf_wire
from arena.games.truf.replay import replay_match
from arena.games.truf.rules import TrufRules
from arena.games.truf.view import SeatView
from arena.play.faults import FaultKind
from arena.play.run import issue_tokens
from arena.play.tournament import MatchContext
from arena.referee import server as referee_server
from arena.referee.host import wait_for_entrants
from arena.referee.server import Entrant
from arena.referee.table import BotFault
from arena.wire.pbwire import uv

ROOT = Path(__file__).resolve().parents[1]
PLAY = "/truf.arena.v1.ArenaService/Play"


def unknown_field(number: int, body: bytes) -> bytes:
    """A length-delimited field with a number no message here defines."""
    return uv(number << 3 | 2) + uv(len(body)) + body


class RawStream(Stream):
    """A ``Stream`` whose messages go out as given: raw bytes too, not only messages."""

    def open(self) -> Any:
        play = self.channel.stream_stream(
            PLAY,
            request_serializer=lambda m: m if isinstance(m, bytes) else m.SerializeToString(),
            response_deserializer=pb.PlayResponse.FromString,
        )
        return play(self._requests(), timeout=60)


class RawBot(threading.Thread):
    """A raw-stream bot: ``respond`` answers each decision request (index 0 here)."""

    def __init__(self, address: str, first: pb.PlayRequest) -> None:
        super().__init__(daemon=True)
        self.stream = RawStream(address, first)
        self.received: list[pb.PlayResponse] = []
        self.decisions = 0
        self.sent_bytes = 0
        self.status: grpc.StatusCode | None = None

    def run(self) -> None:
        try:
            for msg in self.stream.call:
                self.received.append(msg)
                if msg.HasField("decision_request"):
                    self.decisions += 1
                    self.respond(msg.decision_request)
                elif msg.HasField("tournament_over"):
                    break
        except grpc.RpcError as exc:
            self.status = exc.code()
        finally:
            self.stream.close()

    def answer(self, request_id: int, index: int = 0) -> None:
        msg = pb.PlayRequest()
        msg.answer.request_id, msg.answer.index = request_id, index
        self.stream.send(msg)

    def respond(self, req: pb.DecisionRequest) -> None:
        self.answer(req.request_id)

    @property
    def welcome(self) -> pb.Welcome:
        return self.received[0].welcome

    def rejections(self) -> list[pb.AnswerRejected]:
        return [m.answer_rejected for m in self.received if m.HasField("answer_rejected")]


B = TypeVar("B", bound=RawBot)


def table_of_four(
    host: Callable[..., Hosted],  # noqa: F811
    raw: Callable[[str], B],
    **options: Any,
) -> tuple[Hosted, list[SdkThread], B]:
    """A referee with tokens tok-0..tok-3, three honest SDK bots on the first three and
    the raw bot ``raw(address)`` (which must say hello with tok-3), all started."""
    h = host(tokens={f"tok-{i}": f"bot{i}" for i in range(4)}, **options)
    threads = [SdkThread(ByIndex(), h.address, f"tok-{i}") for i in range(3)]
    bot = raw(h.address)
    for t in [*threads, bot]:
        t.start()
    return h, threads, bot


def until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)


def entrant_named(h: Hosted, bot_name: str) -> Entrant:
    (e,) = h.call(lambda: [e for e in h.referee.entrants if e.bot_name == bot_name])
    return e


# ------------------------------------------------- 12.2: open mode cannot be stalled


def test_a_bot_that_leaves_before_the_start_gives_its_seat_back(
    host: Callable[..., Hosted],  # noqa: F811
) -> None:
    h = host(open_seats=4)
    quitter = RawStream(h.address, hello(name="bot0"))
    assert quitter.recv().welcome.entrant == "bot0"
    quitter.close()
    until(lambda: h.call(lambda: len(h.referee.entrants)) == 0)
    streams = [RawStream(h.address, hello(name=f"bot{i}")) for i in range(4)]
    try:
        # Four real bots get the four seats (bot0's name too): the referee can start.
        assert [s.recv().welcome.entrant for s in streams] == ["bot0", "bot1", "bot2", "bot3"]
        h.run(wait_for_entrants(h.referee, 4, [], 10))
        err = refusal(h.address, hello(name="bot0"))
        assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    finally:
        for s in streams:
            s.close()


def test_an_open_entrant_comes_back_with_its_reconnect_token_and_only_with_it(
    host: Callable[..., Hosted],  # noqa: F811
) -> None:
    h = host(open_seats=2)
    a = RawStream(h.address, hello(name="echo"))
    wa = a.recv().welcome  # before b dials: the second of a name is the one called echo#2
    b = RawStream(h.address, hello(name="echo"))
    try:
        wb = b.recv().welcome
        assert (wa.entrant, wb.entrant) == ("echo", "echo#2")
        assert len(wa.reconnect_token) == 32 and wa.reconnect_token != wb.reconnect_token
        h.call(h.referee.start)  # the names are final: echo#1 and echo#2, as in-process
        a.close()
        until(lambda: not h.call(lambda: h.referee.entrants[0].connected_now))
        cases = [
            (hello(name="echo"), grpc.StatusCode.RESOURCE_EXHAUSTED, "reconnect_token"),
            (hello(name="echo", reconnect_token="0" * 32), grpc.StatusCode.UNAUTHENTICATED,
             "hello.reconnect_token is unknown"),
        ]  # fmt: skip
        for first, code, words in cases:
            err = refusal(h.address, first)
            assert err.code() == code and words in (err.details() or ""), err.details()
        # echo#2's reconnect token, while echo#2 is connected: the new stream takes the
        # entrant over (a hung bot's restarted copy), and the old one is told, finally.
        b2 = RawStream(h.address, hello(name="echo", reconnect_token=wb.reconnect_token))
        try:
            assert b2.recv().welcome.entrant == "echo#2"
            with pytest.raises(grpc.RpcError) as replaced:
                b.recv()
            assert replaced.value.code() == grpc.StatusCode.ALREADY_EXISTS
            assert "replaced by a new one" in (replaced.value.details() or "")
        finally:
            b2.close()
        again = RawStream(h.address, hello(name="echo", reconnect_token=wa.reconnect_token))
        back = again.recv().welcome
        again.close()
        assert (back.entrant, back.reconnect_token) == ("echo#1", wa.reconnect_token)
        assert h.call(lambda: [e.name for e in h.referee.entrants]) == ["echo#1", "echo#2"]
    finally:
        a.close()
        b.close()


def test_with_tokens_the_reconnect_token_names_the_entrant_and_a_stale_one_defers_to_the_token(
    host: Callable[..., Hosted],  # noqa: F811
) -> None:
    h = host(tokens={"tok-alice": "alice", "tok-bob": "bob"})

    def welcomed(first: pb.PlayRequest) -> pb.Welcome:
        until(lambda: not h.call(lambda: h.referee.entrants[0].connected_now))
        stream = RawStream(h.address, first)
        try:
            return stream.recv().welcome
        finally:
            stream.close()

    credential = welcomed(hello("tok-alice")).reconnect_token
    assert welcomed(hello(reconnect_token=credential)).entrant == "alice"  # no token needed
    # A referee resumed after a crash has new reconnect tokens: the token still decides.
    assert welcomed(hello("tok-alice", reconnect_token="f" * 32)).entrant == "alice"
    cases = [
        (hello(reconnect_token="f" * 32), "hello.reconnect_token is unknown"),
        (hello("tok-bob", reconnect_token=credential), "belong to different entrants"),
    ]
    for first, words in cases:
        err = refusal(h.address, first)
        assert err.code() == grpc.StatusCode.UNAUTHENTICATED, err.details()
        assert words in (err.details() or ""), err.details()


class Slow(ByIndex):
    def choose(self, view: SeatView, legal: Any) -> Any:
        time.sleep(0.02)  # so that the rest of the deal outlasts a reconnect
        return super().choose(view, legal)


class Dropper(Slow):
    """Its stream is cut (by the referee's side) while it thinks about its second decision."""

    def __init__(self, cut: Callable[[], None]) -> None:
        super().__init__()
        self.name, self.cut = "dropper", cut

    def choose(self, view: SeatView, legal: Any) -> Any:
        if self.decisions == 2:
            self.cut()
        return super().choose(view, legal)


def test_an_open_entrant_back_within_the_grace_period_has_disconnects_not_a_forfeit(
    host: Callable[..., Hosted],  # noqa: F811
) -> None:
    h = host(open_seats=4, grace=30)

    def cut() -> None:
        dropper = entrant_named(h, "dropper")
        h.call(lambda: dropper.conn.close())  # type: ignore[union-attr]

    bots: list[Recorder] = [Slow(), Slow(), Dropper(cut), Slow()]
    for i, bot in enumerate(bots):
        if i != 2:
            bot.name = f"slow{i}"  # type: ignore[misc]
    threads = [SdkThread(b, h.address, "") for b in bots]  # no tokens: an open tournament
    for t in threads:
        t.start()
    h.run(wait_for_entrants(h.referee, 4, [], 30))
    outcome = play_hosted_match(h, deals=2, strike_limit=3, match_id="open")
    join_all(threads)  # the SDK came back with its reconnect token, never refused as full
    seat = outcome.record["seats"].index("dropper")
    first, second = outcome.deals
    dropped = [f for f in first["faults"] if f["seat"] == seat]
    assert dropped and {(f["kind"], f["strikes"]) for f in dropped} == {("disconnect", 0)}
    assert outcome.record["faults"]["disconnect"][seat] == len(dropped)
    assert outcome.record["forfeit"] == [False] * 4  # back within --grace: no forfeit
    assert second["faults"] == []
    assert len(h.referee.entrants) == 4


def test_an_open_entrant_away_past_the_grace_period_forfeits_and_may_not_come_back(
    host: Callable[..., Hosted],  # noqa: F811
    tmp_path: Path,
) -> None:
    h = host(open_seats=4, decision_timeout=0.5, grace=0.3)
    honest = [Sleeper(slow=10_000, pause=0.005) for _ in range(3)]  # a match lasts ~1 s
    threads = [SdkThread(b, h.address, "") for b in honest]
    for t in threads:
        t.start()
    until(lambda: h.call(lambda: len(h.referee.entrants)) == 3)
    leaver = RawBot(h.address, hello(name="leaver"))
    leaver.respond = lambda req: leaver.stream.close()  # type: ignore[method-assign]
    leaver.start()
    h.run(wait_for_entrants(h.referee, 4, [], 30))
    outcome = play_hosted_match(h, deals=2, strike_limit=3, match_id="m1", goodbye=False)
    leaver.join(10)
    err = refusal(h.address, hello(name="leaver", reconnect_token=leaver.welcome.reconnect_token))
    assert err.code() == grpc.StatusCode.PERMISSION_DENIED
    assert "entrant leaver stayed away longer than the grace period" in (err.details() or "")
    h.run(h.referee.goodbye())
    join_all(threads)
    seat = outcome.record["seats"].index("leaver")
    # The match the grace period ran out in is a forfeit; what was asked before, disconnects.
    assert outcome.record["forfeit"] == [s == seat for s in range(4)]
    assert outcome.record["faults"]["disconnect"][seat] > 0
    assert outcome.record["disqualified"] == [False] * 4
    assert replay_match(outcome.deals) == 2
    assert audit_outcomes(tmp_path, TrufRules(deals=2), [outcome]) == ""


def test_hello_names_and_versions_are_checked_and_refused_with_a_reason(
    host: Callable[..., Hosted],  # noqa: F811
) -> None:
    h = host(open_seats=8)
    bad = grpc.StatusCode.INVALID_ARGUMENT
    cases = [
        (hello(name="a" * 65), "hello.bot_name is 65 characters long; at most 64"),
        (hello(name="bot\x1b[31m"), "hello.bot_name has a character U+001B"),
        (hello(name="evil\u202egnp"), "hello.bot_name has a character U+202E"),
        (hello(name="two\nlines"), "hello.bot_name has a character U+000A"),
        (hello(name=" spaced"), "hello.bot_name has a leading or trailing space"),
        (hello(name="ok", bot_version="1.0\r"), "hello.bot_version has a character U+000D"),
        (hello(name="ok", bot_version="v" * 65), "hello.bot_version is 65 characters long"),
    ]
    for first, words in cases:
        err = refusal(h.address, first)
        assert err.code() == bad and words in (err.details() or ""), err.details()
    assert h.call(lambda: h.referee.entrants) == []  # a refused hello takes no seat
    # Printable text of any script, brackets included, is a name (shown as plain text).
    streams = [RawStream(h.address, hello(name=n)) for n in ("[/]", "Ünïcødé bot 名")]
    try:
        assert [s.recv().welcome.entrant for s in streams] == ["[/]", "Ünïcødé bot 名"]
    finally:
        for s in streams:
            s.close()


# ------------------------------------------------------------ 12.3: bounded memory


PADDING = 60_000  # bytes an answer carries besides its action (messages are capped at 64 KiB)


class Padder(RawBot):
    """Answers every request with its first legal action, spelled out (Answer.truf) and
    padded: with unknown fields, or with spaces around the card code. Every answer's
    bytes differ, as an attacker's would."""

    def __init__(self, address: str, token: str, how: str) -> None:
        super().__init__(address, hello(token, name="padder"))
        self.how = how

    def respond(self, req: pb.DecisionRequest) -> None:
        _, legal = truf_wire.decision_from_proto(req.truf)
        msg = pb.PlayRequest()
        msg.answer.request_id = req.request_id
        action = msg.answer.truf
        action.CopyFrom(truf_wire.action_to_proto(legal[0]))
        pad = PADDING - self.decisions  # a new length each time
        branch = action.WhichOneof("action")
        if self.how == "spaces" and branch in ("bid", "play"):
            card = getattr(action, branch)
            card.card = " " * pad + card.card + " "
        else:  # proto3: a field the reader does not know is skipped, and must not hurt it
            action.MergeFromString(unknown_field(99, bytes([self.decisions % 256]) * pad))
        data = msg.SerializeToString()
        self.sent_bytes += len(data)
        self.stream.send(data)


@pytest.mark.parametrize("how", ["unknown-fields", "spaces"])
def test_padded_legal_answers_do_not_grow_the_referees_memory(
    host: Callable[..., Hosted],  # noqa: F811
    how: str,
) -> None:
    h, threads, padder = table_of_four(host, lambda address: Padder(address, "tok-3", how))
    h.run(wait_for_entrants(h.referee, 4, [], 30))
    tracemalloc.start()
    try:
        gc.collect()
        before = tracemalloc.take_snapshot()
        outcome = play_hosted_match(h, deals=4, strike_limit=3)
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    join_all([*threads, padder])
    # Every padded answer was legal and accepted: no fault at all.
    assert padder.decisions >= 4 * 14 and padder.sent_bytes > 3_000_000
    assert outcome.record["faults"] == {k: [0] * 4 for k in ("timeout", "illegal", "disconnect")}
    # What the referee's own code still holds afterwards (the match's records included)
    # is a small fraction of what the bot sent: nothing was kept by the bytes it chose.
    ours = [tracemalloc.Filter(True, str(ROOT / "arena" / "*"))]
    grown = sum(
        s.size_diff
        for s in after.filter_traces(ours).compare_to(before.filter_traces(ours), "filename")
    )
    assert grown < 500_000, (grown, padder.sent_bytes)


# ------------------------------------------------------------ 12.5: smaller promises


def test_a_bot_that_stops_reading_is_cut_off_and_may_come_back(
    host: Callable[..., Hosted],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(referee_server, "STALL_LIMIT", 0.3)
    h = host(open_seats=1)
    deaf = RawStream(h.address, hello(name="deaf"))
    welcome = deaf.recv().welcome  # and then it reads nothing more
    h.call(h.referee.start)
    (entrant,) = h.referee.entrants
    conn = entrant.conn
    assert conn is not None
    result = pb.PlayResponse()
    result.deal_result.table_id = result.deal_result.match_id = "r0001-t01"
    result.deal_result.truf.scores.extend([13] * 500)  # ~2 KB, as a long deal's might be
    data = result.SerializeToString()

    async def keep_sending() -> int:  # what the referee sends a seat over many matches
        for sent in range(1, 100_000):
            conn.send(data)
            if conn.closed:
                return sent
            if sent % 50 == 0:
                await asyncio.sleep(0.05)
        return 0

    sent = h.run(keep_sending(), timeout=120)
    assert sent, "never cut off"
    # Cut off when a message had waited 0.3 s to be written, or by the count waiting.
    assert conn.cut in (
        "the bot has not read its stream for 0.3 s",
        f"the bot has not read its last {referee_server.OUTBOX_LIMIT} messages",
    )
    until(lambda: h.call(lambda: not entrant.connected.is_set()))  # its seat is free of it
    assert h.call(lambda: len(conn.outbox.items)) <= 1  # and nothing is kept for it
    # When it reads again, the status says why; it may come back.
    with pytest.raises(grpc.RpcError) as info:
        for _ in deaf.call:
            pass
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "the bot has not read its" in (info.value.details() or "")
    deaf.close()
    again = RawStream(h.address, hello(name="deaf", reconnect_token=welcome.reconnect_token))
    try:
        assert again.recv().welcome.entrant == "deaf"
    finally:
        again.close()


def ask_one(h: Hosted, match_id: str = "m1") -> Any:
    """Ask the referee's first entrant for the first decision of a fresh match (on the
    referee's loop); returns the concurrent future of the answer."""
    game = make_game(rules=TrufRules(deals=1))
    match = game.new_match(match_id=match_id, seed="attacks", names=["a", "b", "c", "d"])
    seat = match.to_act()[0]
    entrant = h.referee.entrants[0]

    async def ask() -> Any:
        return await asyncio.wait_for(
            entrant.decide(
                ctx=MatchContext(match_id, seed="attacks"),
                seat=seat,
                view=match.view(seat),
                legal=match.legal_actions(seat),
            ),
            10,
        )

    return asyncio.run_coroutine_threadsafe(ask(), h.loop)


@pytest.mark.parametrize(
    "empty", [b"", unknown_field(100, b"x")], ids=["zero-bytes", "only-unknown-fields"]
)
def test_an_empty_answer_fails_its_request_at_once_as_unreadable(
    host: Callable[..., Hosted],  # noqa: F811
    empty: bytes,
) -> None:
    h = host(tokens={"tok": "bot"}, decision_timeout=30)
    raw = RawStream(h.address, hello("tok"))
    try:
        raw.recv()  # welcome
        answer = ask_one(h)
        assert raw.recv().HasField("decision_request")
        raw.send(empty)
        with pytest.raises(BotFault) as info:  # not after 30 s: at once (10 s at most here)
            answer.result(15)
        assert info.value.kind is FaultKind.UNPARSEABLE
        assert "neither a hello nor an answer" in info.value.detail
    finally:
        raw.close()


class Echoer(RawBot):
    """An honest but clumsy bot: it sends each answer again before answering the next
    request, and answers its third request after the deadline."""

    def __init__(self, address: str, token: str) -> None:
        super().__init__(address, hello(token, name="echoer"))
        self.previous = 0
        self.late: int | None = None

    def respond(self, req: pb.DecisionRequest) -> None:
        if self.previous:
            self.answer(self.previous)  # stale: that request is answered, or timed out
        if self.decisions == 3:
            self.late = req.request_id
            time.sleep(req.timeout_ms / 1000 + 0.3)
        self.answer(req.request_id)
        self.previous = req.request_id


def test_a_stale_answer_is_discarded_and_never_charged_to_the_next_request(
    host: Callable[..., Hosted],  # noqa: F811
) -> None:
    h, threads, echoer = table_of_four(
        host, lambda address: Echoer(address, "tok-3"), decision_timeout=1.0, strike_limit=5
    )
    outcome = play_hosted_match(h, deals=1, strike_limit=5)
    join_all([*threads, echoer])
    assert echoer.decisions == 14
    # One fault: the late request, at its deadline. Stale answers (the duplicates, and
    # the late answer itself) were discarded: no strike, and no second AnswerRejected.
    assert outcome.record["faults"] == {
        "timeout": [0, 0, 0, 1], "illegal": [0, 0, 0, 0], "disconnect": [0, 0, 0, 0],
    }  # fmt: skip
    (rejected,) = echoer.rejections()
    assert (rejected.request_id, rejected.reason) == (echoer.late, pb.AnswerRejected.REASON_LATE)
    assert (rejected.strikes, rejected.strikes_allowed) == (1, 5)


def test_a_request_tells_the_decision_timeout_and_the_bank_left_apart(
    host: Callable[..., Hosted],  # noqa: F811
) -> None:
    h = host(tokens={"tok": "bot"}, decision_timeout=0.25, time_bank=1.0)
    raw = RawStream(h.address, hello("tok"))
    try:
        welcome = raw.recv().welcome
        assert (welcome.decision_timeout_ms, welcome.time_bank_ms) == (250, 1000)
        timings = []
        for _ in range(2):  # two decisions of one seat in one match
            answer = ask_one(h)
            req = raw.recv().decision_request
            timings.append((req.timeout_ms, req.base_timeout_ms, req.time_bank_ms))
            time.sleep(0.45)  # 0.2 s over the decision timeout: drawn from the bank
            msg = pb.PlayRequest()
            msg.answer.request_id, msg.answer.index = req.request_id, 0
            raw.send(msg)
            answer.result(10)
        assert timings[0] == (1250, 250, 1000)
        total, base, bank = timings[1]
        # At least the 0.2 s overrun was drawn (more, by the time the messages took).
        assert base == 250 and 0 < bank <= 800 and total == base + bank, timings
    finally:
        raw.close()


# ------------------------------------------- the bundled bots and what they are given


def test_issued_tokens_are_safe_on_a_command_line() -> None:
    for _ in range(500):
        for token in issue_tokens(4):
            assert token[0] != "-" and token.isalnum() and len(token) == 32, token


def bot_program(request: pytest.FixtureRequest, kind: str, address: str, *args: str) -> list[str]:
    if kind == "node":
        # node_modules installed if missing (conftest): the same outcome in any test order.
        request.getfixturevalue("js_node_modules")
        return ["node", str(ROOT / "bots" / "js" / "bot.js"), "--connect", address, *args]
    return [sys.executable, "-m", "bots.random", "--connect", address, *args]


def launch(cmd: list[str], log: Path) -> subprocess.Popen[bytes]:
    with open(log, "wb") as out:
        return subprocess.Popen(cmd, cwd=ROOT, env=child_env(), stdout=out, stderr=out)


def finish(h: Hosted, proc: subprocess.Popen[bytes], log: Path) -> str:
    h.run(h.referee.goodbye())
    try:
        assert proc.wait(timeout=30) == 0, log.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return log.read_text()


@pytest.mark.parametrize("kind", ["python", "node"])
def test_a_bundled_bot_takes_an_issued_token(
    host: Callable[..., Hosted],  # noqa: F811
    kind: str,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:
    tokens = issue_tokens(1)
    h = host(tokens=tokens)
    (token,) = tokens
    proc = launch(bot_program(request, kind, h.address, "--token", token), tmp_path / "bot.log")
    h.run(wait_for_entrants(h.referee, 1, [], 30))
    assert "connected" in finish(h, proc, tmp_path / "bot.log")


@pytest.mark.parametrize("kind", ["python", "node"])
def test_a_bundled_bot_comes_back_to_an_open_tournament_with_its_reconnect_token(
    host: Callable[..., Hosted],  # noqa: F811
    kind: str,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:
    h = host(open_seats=1)
    proc = launch(bot_program(request, kind, h.address), tmp_path / "bot.log")
    h.run(wait_for_entrants(h.referee, 1, [], 30))
    h.call(h.referee.start)
    (entrant,) = h.referee.entrants
    first = entrant.conn
    h.call(lambda: first.close())  # type: ignore[union-attr]
    until(lambda: h.call(lambda: entrant.conn is not first and entrant.connected_now), 20)
    assert h.call(lambda: len(h.referee.entrants)) == 1  # the same entrant, not refused as full
    text = finish(h, proc, tmp_path / "bot.log")
    assert "refused" not in text and "error" not in text, text
