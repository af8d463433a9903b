"""The Python bot SDK: write one class, call ``run(address)``.

    from arena.bot import BaseBot
    from arena.sdk import run

    class MyBot(BaseBot):
        name = "mybot"
        version = "1.0"

        def act(self, view, legal):
            return legal[0]          # or an index: return 0

    run(MyBot(), "127.0.0.1:50051", token="...")

The SDK does the handshake, keeps the stream, reconnects when the connection drops,
and turns each decision request into the action objects the in-process arena uses and
a view equal to its ``SeatView`` (a ``WireView``: the same fields, methods and equality,
each decoded when the bot first reads it), so one class plays both ways. From a shell,
any bot class runs as ``python -m arena.sdk module:Class --connect HOST:PORT``.

With ``--reconnect-file PATH`` (``run(..., reconnect_file=PATH)``) the SDK keeps the
reconnect token of each ``Welcome`` in that file (owner-only, ``ReconnectFile``), so that
a restarted bot takes its seat back at once, even from a hung predecessor whose old
connection still looks alive (docs/protocol.md section 6).
"""

from __future__ import annotations

import argparse
import errno
import hashlib
import json
import os
import queue
import secrets
import socket
import stat
import sys
import threading
import time
import traceback
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena.bot import Bot, call_hook, has_hook
from arena.core.files import write_secret
from arena.games.codecs import BRANCHES, CODECS
from arena.play.botgames import declared_games
from arena.wire.codecs import NOT_AN_ACTION
from arena.wire.pbwire import lite_class

PROTOCOL_VERSION = 1
UNAUTHENTICATED = grpc.StatusCode.UNAUTHENTICATED
FATAL = {
    grpc.StatusCode.UNAUTHENTICATED,
    grpc.StatusCode.ALREADY_EXISTS,
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.PERMISSION_DENIED,
}


class BotRejected(RuntimeError):
    """The referee refused this bot (bad token, already connected, wrong protocol...)."""


def _log(message: str) -> None:
    print(f"[bot] {message}", file=sys.stderr, flush=True)


# The stream as the SDK reads it: twins of the envelope and of the decision request
# whose nested messages stay bytes (``lite_class``), so that a request is parsed once,
# and its view only as far as the bot reads it (Truf's ``WireView``).
_ResponseLite = lite_class(pb.PlayResponse, "PlayResponseLite")
RequestLite = lite_class(pb.DecisionRequest, "DecisionRequestLite")
PLAY_METHOD = f"/{pb.DESCRIPTOR.services_by_name['ArenaService'].full_name}/Play"


def play_stream(channel: grpc.Channel) -> Any:
    """``ArenaService.Play`` on ``channel``, its responses parsed as twins whose message
    is bytes (``WhichOneof`` tells which; parse that one as you need it)."""
    return channel.stream_stream(
        PLAY_METHOD,
        request_serializer=pb.PlayRequest.SerializeToString,
        response_deserializer=_ResponseLite.FromString,
    )


FAILURE_LIMIT = 200  # characters of Failure.reason the referee keeps (arena.proto)
MAX_INDEX = 2**32 - 1  # Answer.index is a uint32


def failed(msg: pb.PlayRequest, reason: str) -> pb.PlayRequest:
    """``msg``'s answer, set to say the bot failed (``Answer.failure``)."""
    msg.answer.failure.reason = reason[:FAILURE_LIMIT]
    return msg


def answer_for(bot: Bot, request: Any) -> pb.PlayRequest:
    """Ask the bot and build the answer message (by index when the action is in the list).
    ``request``: a ``DecisionRequest``, generated or its twin with the game's branch as
    bytes; the branch (``truf``, ``truco``, ``ruff``) picks the game's codec
    (``arena.wire.codecs``). When ``act()`` raises, the answer says the bot failed
    (``Answer.failure``): the referee records the crash, with a strike, and plays the
    game's documented fallback, as it does in-process; the SDK never chooses for it."""
    msg = pb.PlayRequest()
    ans = msg.answer
    ans.request_id = request.request_id
    branch = request.WhichOneof("game")
    codec = BRANCHES.get(branch or "")
    if codec is None:  # a game this SDK does not know: say so, the referee plays the fallback
        _log(f"request {request.request_id} is for a game this SDK does not play ({branch})")
        return failed(msg, f"this SDK does not play the request's game ({branch})")
    data = getattr(request, branch)
    view, legal = codec.wire_decision(
        data if isinstance(data, bytes) else data.SerializeToString(),
        match_id=request.match_id,
        seat=request.seat,
    )
    try:
        # A WireView has the game's view's fields, methods and equality (not its class).
        choice = bot.act(view, legal)
    except Exception as exc:  # the author's bug: show it, and say so to the referee
        _log(f"act() raised on request {request.request_id}; telling the referee it failed:")
        traceback.print_exc()
        return failed(msg, f"{type(exc).__name__}: {exc}")
    if type(choice) is int:  # as in-process: True is no index (arena.play.tournament.fault_kind)
        # Outside the uint32 range (a negative index): the referee refuses it as outside
        # the legal list, as in-process.
        ans.index = choice if 0 <= choice <= MAX_INDEX else MAX_INDEX
        return msg
    try:
        ans.index = legal.index(choice)  # a sequence: Ruff's discards are built lazily
    except ValueError:
        try:
            codec.fill_answer(ans, choice)  # not in the list: the referee will say why
        except NOT_AN_ACTION as exc:
            # Not an action at all: sent without a choice, which the referee refuses
            # (unparseable, a strike) and explains; the seat stays alive.
            ans.ClearField("choice")
            _log(f"act() returned {choice!r}, which is not an action ({exc})")
    return msg


RECONNECT_FORMAT = "truf-arena-reconnect"
RECONNECT_VERSION = 1
RECONNECT_FIELDS = ("format", "version", "referee", "token_sha256", "reconnect_token")
# A reconnect file is some 300 bytes: a bigger one is not ours, and is not read whole.
RECONNECT_MAX_BYTES = 64 * 1024


class _Unusable(Exception):
    """A reconnect file not to use; its message says why, after "the reconnect file PATH"."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")  # Python reads NaN and Infinity; JSON has none


class ReconnectFile:
    """Where a bot keeps the reconnect token of its last ``Welcome``, for a restarted copy
    of itself (docs/protocol.md section 6 documents the format, for other languages).

    One JSON object: ``format`` ("truf-arena-reconnect"), ``version`` (1), ``referee``
    (the address as given to ``--connect``), ``token_sha256`` (the hex SHA-256 of the
    organiser's token, "" included: never the token itself), ``reconnect_token`` and
    ``writer`` (a random name of the process that wrote it). A file for another referee
    or another token is not used, so its secret never goes anywhere else. Written whole
    and owner-only (0600); removed when the tournament ends.
    """

    def __init__(self, path: str | os.PathLike[str], address: str, token: str) -> None:
        self.path = Path(path)
        self.address = address
        self.token_sha256 = hashlib.sha256(token.encode()).hexdigest()
        self.unwritable = ""  # the last failure to write it, said once
        # Ours alone, in every file we write: a file naming another writer was written by
        # another process (see rewritten_by_another). Not the inode: a freed inode number
        # is reused at once (ext4), so another process's file can have our last one's.
        self.writer = secrets.token_hex(16)
        self.wrote = False

    def _read(self) -> Any:
        """The file's JSON value. Raises FileNotFoundError (no file), another OSError (it
        cannot be read) or _Unusable (it is not a small regular file of UTF-8 JSON)."""
        # O_NONBLOCK: opening a FIFO planted at the path (in /tmp another local user can)
        # would wait for a writer forever; fstat then refuses all but a regular file.
        fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):  # a directory too, as in Node
                raise _Unusable("is not a regular file")
            with os.fdopen(os.dup(fd), "rb") as f:
                raw = f.read(RECONNECT_MAX_BYTES + 1)
        finally:
            os.close(fd)
        if len(raw) > RECONNECT_MAX_BYTES:
            raise _Unusable(f"is too large (over {RECONNECT_MAX_BYTES} bytes)")
        try:
            # Every number a double, as in JavaScript (bots/js/bot.js reads the same file
            # the same way): 1.0 is 1, and a 5,000-digit integer is no ValueError.
            return json.loads(raw.decode("utf-8"), parse_int=float, parse_constant=_no_constant)
        except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
            raise _Unusable(f"is not JSON ({exc})") from None

    def _problem(self, data: Any) -> str:
        """Why a parsed file is not to be used by this run, or "" if it is."""
        if not isinstance(data, dict):
            return "is not a JSON object"
        if not all(k in data for k in RECONNECT_FIELDS):
            return f"lacks one of {', '.join(RECONNECT_FIELDS)}"
        version = data["version"]  # a float (see _read); True == 1, but it is no number here
        one = isinstance(version, float) and version == RECONNECT_VERSION
        strings = all(isinstance(data[k], str) for k in ("format", "referee", "token_sha256"))
        if data["format"] != RECONNECT_FORMAT or not one or not strings:
            return f"is not a {RECONNECT_FORMAT} file of version {RECONNECT_VERSION}"
        credential = data["reconnect_token"]
        if not isinstance(credential, str) or not credential:
            return "holds no reconnect_token"
        if data["referee"] != self.address:  # quoted: what a file holds stays on one line
            return f"is for the referee at {json.dumps(data['referee'], ensure_ascii=False)}"
        if data["token_sha256"] != self.token_sha256:
            return "is for another token"
        return ""

    def load(self) -> str:
        """The stored reconnect token, or "" (no file yet, or one not to use: said why,
        in one line, for anything but a missing file)."""
        try:
            data = self._read()
            why = self._problem(data)
        except FileNotFoundError:
            return ""
        except OSError as exc:
            code = errno.errorcode.get(exc.errno or 0, str(exc.strerror))
            why = f"cannot be read ({code})"
        except _Unusable as exc:
            why = str(exc)
        if why:
            _log(f"the reconnect file {self.path} {why}; not using it")
            return ""
        return str(data["reconnect_token"])

    def save(self, credential: str) -> None:
        """Keep ``credential`` (a Welcome's reconnect token). A failure is said, once, and
        play goes on: the file only spares a restarted bot a wait."""
        record = {
            "format": RECONNECT_FORMAT,
            "version": RECONNECT_VERSION,
            "referee": self.address,
            "token_sha256": self.token_sha256,
            "reconnect_token": credential,
            "writer": self.writer,
        }
        try:
            write_secret(self.path, json.dumps(record) + "\n")
            self.unwritable = ""
            self.wrote = True
        except OSError as exc:
            why = f"cannot write the reconnect file {self.path}: {exc.strerror}"
            if why != self.unwritable:
                _log(f"{why}; a restarted bot will wait for its old connection to end")
            self.unwritable = why

    def rewritten_by_another(self) -> bool:
        """Whether another process wrote the file since we last did: a restarted copy of
        this bot, which holds the entrant now (its file names another ``writer``). Then
        this one, whose connection dropped while it hung, must not take the seat back
        with the same token (the two would take turns). A file gone, unreadable or not
        JSON is no sign of that: a restart writes a whole file."""
        if not self.wrote:
            return False
        try:
            data = self._read()
        except (OSError, _Unusable):
            return False
        return isinstance(data, dict) and data.get("writer") != self.writer

    def forget(self) -> None:
        """Remove the file: the tournament is over, or the referee does not know it."""
        self.wrote = False
        try:
            self.path.unlink(missing_ok=True)
        except OSError as exc:
            _log(f"cannot remove the reconnect file {self.path}: {exc.strerror}")


class Session:
    """One connection: hello, then answer requests until the tournament ends."""

    def __init__(
        self,
        bot: Bot,
        address: str,
        token: str,
        capacity: int,
        tls_ca: bytes | None = None,
        reconnect_token: str = "",
        keep: ReconnectFile | None = None,
    ) -> None:
        self.bot = bot
        self.keep = keep
        self.tls_ca = tls_ca
        self.address = address
        self.token = token
        self.capacity = capacity
        self.outbox: queue.SimpleQueue[pb.PlayRequest | None] = queue.SimpleQueue()
        # Each table's request is answered on a worker of its own, up to the capacity the
        # bot declared: a slow decision at one table never delays another's (docs/protocol.md).
        self.workers = ThreadPoolExecutor(max(1, capacity), thread_name_prefix="decision")
        self.entrant = ""
        # From the last Welcome: sent in the next Hello to get the same entrant back.
        self.reconnect_token = reconnect_token

    def _requests(self) -> Iterator[pb.PlayRequest]:
        hello = pb.PlayRequest()
        h = hello.hello
        h.protocol_version = PROTOCOL_VERSION
        h.bot_name = getattr(self.bot, "name", type(self.bot).__name__)
        h.bot_version = str(getattr(self.bot, "version", "0"))
        h.token = self.token
        h.reconnect_token = self.reconnect_token
        h.capacity = self.capacity
        h.games.extend(bot_games(self.bot))
        yield hello
        while True:
            msg = self.outbox.get()
            if msg is None:
                return
            yield msg

    def run(self) -> bool:
        """Returns True when the referee said the tournament is over."""
        if self.tls_ca is None:
            channel = grpc.insecure_channel(self.address)
        else:
            credentials = grpc.ssl_channel_credentials(root_certificates=self.tls_ca)
            channel = grpc.secure_channel(self.address, credentials)
        with channel:
            try:
                for msg in play_stream(channel)(self._requests()):
                    kind = msg.WhichOneof("message")
                    if kind == "decision_request":
                        request = RequestLite.FromString(msg.decision_request)
                        self.workers.submit(self._answer, request)
                    elif kind == "welcome":
                        welcome = pb.Welcome.FromString(msg.welcome)
                        self.entrant = welcome.entrant
                        self.reconnect_token = welcome.reconnect_token
                        _log(f"connected to {self.address} as {self.entrant}")
                        if self.keep is not None:  # before any request: a restart may follow
                            self.keep.save(self.reconnect_token)
                    elif kind == "deal_result":
                        if has_hook(self.bot, "deal_over"):
                            result = pb.DealResult.FromString(msg.deal_result)
                            game = BRANCHES.get(result.WhichOneof("game") or "")
                            if game is not None:
                                call_hook(self.bot, "deal_over", game.deal_result_from(result))
                    elif kind == "match_result":
                        if has_hook(self.bot, "match_over"):
                            res = pb.MatchResult.FromString(msg.match_result)
                            call_hook(self.bot, "match_over", match_result_dict(res))
                    elif kind == "answer_rejected":
                        r = pb.AnswerRejected.FromString(msg.answer_rejected)
                        _log(
                            f"answer to request {r.request_id} rejected "
                            f"({pb.AnswerRejected.Reason.Name(r.reason)}): {r.detail} "
                            f"[strikes {r.strikes}/{r.strikes_allowed}]"
                        )
                    elif kind == "tournament_over":
                        bye = pb.TournamentOver.FromString(msg.tournament_over)
                        _log(f"tournament over: {bye.message}")
                        return True
            finally:
                self.outbox.put(None)
                # Answers still being decided are for a stream that is gone: not waited for.
                self.workers.shutdown(wait=False, cancel_futures=True)
        return False

    def _answer(self, request: Any) -> None:
        """On a worker: decide one request and queue its answer."""
        try:
            self.outbox.put(answer_for(self.bot, request))
        except Exception:  # the SDK's own failure: the request times out, the bot lives on
            _log(f"cannot answer request {request.request_id}:")
            traceback.print_exc()


def bot_games(bot: object) -> list[str]:
    """The games a bot plays (its ``games`` attribute, ``("truf",)`` by default): what
    the SDK says in ``Hello.games``."""
    return list(declared_games(bot))


def match_result_dict(res: pb.MatchResult) -> dict[str, Any]:
    """What ``Bot.match_over`` gets: the fields of the match's line in matches.jsonl
    that concern every seat, plus this bot's seat."""
    return {
        "match": res.match_id,
        "seats": list(res.names),
        "totals": list(res.totals),
        "ranks": list(res.ranks),
        "seat": res.seat,
    }


def run(
    bot: Bot,
    address: str,
    *,
    token: str = "",
    capacity: int = 1,
    retry_for: float = 30.0,
    tls_ca: bytes | None = None,
    reconnect_file: str | os.PathLike[str] | None = None,
) -> None:
    """Connect and play until the referee ends the tournament. Reconnects (with the same
    token, and the reconnect token of the last Welcome) when the connection drops, or
    the referee cuts it off, for up to ``retry_for`` seconds at a time. With ``tls_ca``
    (PEM root certificates), the connection uses TLS.

    With ``reconnect_file``, each Welcome's reconnect token is kept in that file (0600,
    with the referee's address and a hash of ``token``: ``ReconnectFile``), and the first
    hello sends the one found there: a restarted bot takes its entrant over at once,
    even while its hung predecessor's connection still looks alive (that one's stream
    ends, "replaced", and it stops), instead of waiting up to ``retry_for`` for the
    referee to drop it. A token the referee does not know (a new event at the same
    address) is dropped and the file removed; so is the file when the tournament ends.

    Raises ``BotRejected`` when the referee refuses the bot, ``ConnectionError`` when it
    cannot be reached; a script that lets either end it (the README's template) shows
    one clear line, as ``arena bot`` does, not a traceback (``_one_line_if_uncaught``)."""
    try:
        _run(
            bot,
            address,
            token=token,
            capacity=capacity,
            retry_for=retry_for,
            tls_ca=tls_ca,
            reconnect_file=reconnect_file,
        )
    except (BotRejected, ConnectionError) as exc:
        _one_line_if_uncaught(exc)
        raise


def _one_line_if_uncaught(exc: BaseException) -> None:
    """Should ``exc`` end the program uncaught, print ``[bot] error: ...`` instead of its
    traceback (the exit code stays 1); a caller that catches it sees no difference."""
    previous = sys.excepthook

    def hook(kind: type[BaseException], value: BaseException, tb: Any) -> None:
        if value is exc:
            _log(f"error: {value}")
        else:
            previous(kind, value, tb)

    sys.excepthook = hook


def _run(
    bot: Bot,
    address: str,
    *,
    token: str,
    capacity: int,
    retry_for: float,
    tls_ca: bytes | None,
    reconnect_file: str | os.PathLike[str] | None = None,
) -> None:
    check_address(address)
    delay = 0.1
    give_up = time.monotonic() + retry_for
    keep = ReconnectFile(reconnect_file, address, token) if reconnect_file else None
    reconnect_token = keep.load() if keep else ""
    from_file = bool(reconnect_token)  # until a Welcome or a refusal says what it is worth
    said = ""  # the last retry line: the same failure again is not said again
    held = ""  # the referee's ALREADY_EXISTS, while waiting for the entrant's old connection
    while True:
        if keep and keep.rewritten_by_another():
            raise BotRejected(
                f"another copy of this bot has taken its seat over (it rewrote {keep.path}); "
                "stopping"
            )
        session = Session(bot, address, token, capacity, tls_ca, reconnect_token, keep)
        try:
            if session.run():
                if keep:  # a finished event's secret does not linger
                    keep.forget()
                return
            _log("the referee closed the stream; reconnecting")
        except grpc.RpcError as exc:
            code = exc.code() if hasattr(exc, "code") else None
            if keep and from_file and not session.entrant and code is UNAUTHENTICATED:
                # The stored token is unknown here (a new event at the same address, or a
                # referee resumed with new tokens): forget it and say hello without it.
                _log(
                    f"the referee does not know the reconnect token in {keep.path} "
                    f"({exc.details()}); removed it, connecting without it"
                )
                keep.forget()
                reconnect_token, from_file = "", False
                continue
            # RESOURCE_EXHAUSTED refuses a hello (the tournament is full) but, after a
            # Welcome, cuts a stream off: then this bot may come back (arena.proto).
            cut = bool(session.entrant) and code is grpc.StatusCode.RESOURCE_EXHAUSTED
            # ALREADY_EXISTS to a hello: the entrant's connection is still open. It may be
            # this bot's own predecessor, hung, which the referee's keepalive pings cut
            # within seconds: wait for that, up to retry_for, then give up (a second copy
            # that is really running never gets in). After a Welcome it means another
            # connection took this entrant over: final.
            held = f"{code.name}: {exc.details()}" if code is grpc.StatusCode.ALREADY_EXISTS else ""
            waiting = bool(held) and not session.entrant
            if code in FATAL and not cut and not waiting:
                raise BotRejected(f"{code.name}: {exc.details()}") from None
            line = (
                f"the referee says this entrant is already connected; waiting up to "
                f"{retry_for:g} s for that connection to end"
                if waiting
                else f"connection to {address} failed ({code.name if code else exc}); "
                f"retrying for up to {retry_for:g} s"
            )
            if line != said:
                _log(line)
                said = line
        reconnect_token = session.reconnect_token
        if session.entrant:  # it was welcomed: the retry window starts from this drop
            from_file = False
            give_up = time.monotonic() + retry_for
            delay = 0.1
            said = ""
        if time.monotonic() > give_up:
            if held:
                raise BotRejected(held)
            raise ConnectionError(f"cannot reach the referee at {address} for {retry_for:g} s")
        time.sleep(delay)
        delay = min(delay * 2, 2.0)


def check_address(address: str) -> None:
    """Fail at once, in one line, on a referee address that cannot work: not HOST:PORT,
    or a host name that does not resolve (retrying would not help). A gRPC target URI
    (``dns:///...``, ``unix:...``, ``ipv4:...``) is left to gRPC."""
    if "://" in address or address.startswith(("unix:", "unix-abstract:", "ipv4:", "ipv6:")):
        return
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ConnectionError(f"the referee's address must be HOST:PORT, got {address!r}")
    try:
        socket.getaddrinfo(host.strip("[]"), int(port), type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        why = getattr(exc, "strerror", None) or str(exc)
        raise ConnectionError(
            f"cannot find the referee's host {host!r} ({address}): {why}"
        ) from None


def read_ca(path: str | os.PathLike[str] | None) -> bytes | None:
    """The PEM root certificates for ``--tls-ca``, or None; a clear error if unreadable."""
    if not path:
        return None
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise BotRejected(f"cannot read the TLS certificate {path}: {exc.strerror}") from None


PARENT_ENV = "ARENA_PARENT_PID"
"""Set by the arena in the environment of each bot it launches: the arena's pid."""


def stop_with_parent(poll: float = 0.5) -> None:
    """A bot the arena launched (``ARENA_PARENT_PID`` set) exits as soon as the arena is
    gone, even after a ``kill -9`` that gave it no chance to stop its bots: a daemon
    thread watches the parent pid (portable, unlike Linux's PR_SET_PDEATHSIG)."""
    expected = os.environ.get(PARENT_ENV, "")
    if not expected.isdigit():
        return  # started by hand: its life is its owner's business

    def watch() -> None:
        while os.getppid() == int(expected):
            time.sleep(poll)
        _log(f"the arena (pid {expected}) is gone; stopping")
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def main(bot_class: type[Any] | None = None, argv: Sequence[str] | None = None) -> None:
    """Command line for a bot program: ``--connect HOST:PORT [--token T] [--seed S]``."""
    if bot_class is None:
        about = "Run a bot of any game (truf, truco, ruff: --game) against an arena referee."
    else:
        name = getattr(bot_class, "name", bot_class.__name__)
        plays = ", ".join(declared_games(bot_class))
        about = f"Run the {name} bot (it plays {plays}) against an arena referee."
    parser = argparse.ArgumentParser(description=about)
    if bot_class is None:
        parser.add_argument(
            "bot", help="the bot: a bundled name or module:Class, then any :NAME=VALUE options"
        )
    parser.add_argument("--connect", required=True, metavar="HOST:PORT", help="referee address")
    parser.add_argument("--token", default="", help="entrant token from the organiser")
    parser.add_argument("--seed", default="0", help="seed for a bot that uses randomness")
    parser.add_argument("--capacity", type=int, default=1, help="tables to play at once")
    parser.add_argument("--tls-ca", metavar="CERT", help="connect with TLS, trusting this PEM")
    parser.add_argument(
        "--reconnect-file",
        metavar="PATH",
        help="keep the reconnect token here (owner-only), so that a restarted bot takes "
        "its seat back at once",
    )
    if bot_class is None:
        parser.add_argument(
            "--game",
            help=f"the game to play ({', '.join(CODECS)}): BOT names its bundled bot, and a "
            "module:Class must list it in its games (default: a bundled truf bot)",
        )
    args = parser.parse_args(argv)
    from arena.play.botgames import check_plays
    from arena.play.loading import BotLoadError, instantiate, load_class, split_options

    try:
        spec = (
            args.bot if bot_class is None else str(getattr(bot_class, "name", bot_class.__name__))
        )
        options: dict[str, str] = {}
        if bot_class is None:
            from bots import bundled_module, bundled_names, games_with_bot

            base, options = split_options(spec)
            game = args.game or "truf"
            module = base if ":" in base else bundled_module(base, game)
            if module is None:
                others = [g for g in games_with_bot(base) if g != game]
                hint = f" ({base} is a bundled bot of --game {others[0]})" if others else ""
                raise BotLoadError(
                    f"unknown {game} bot {spec!r}; bundled bots: "
                    f"{', '.join(bundled_names(game))}, or give a Python class as "
                    f"module:Class{hint}"
                )
            bot_class = load_class(module if ":" in module else f"{module}:Bot")
        bot = instantiate(bot_class, args.seed, spec, options)
        if getattr(args, "game", None):  # as in-process play checks it (arena.play.botgames)
            check_plays(bot, args.game, spec)
    except BotLoadError as exc:
        _log(f"error: {exc}")
        raise SystemExit(1) from None
    stop_with_parent()
    try:
        tls_ca = read_ca(args.tls_ca)
        run(
            bot,
            args.connect,
            token=args.token,
            capacity=max(1, args.capacity),
            tls_ca=tls_ca,
            reconnect_file=args.reconnect_file,
        )
    except (BotRejected, ConnectionError) as exc:
        _log(f"error: {exc}")
        raise SystemExit(1) from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()
