"""A restarted bot takes its seat back at once: the Python SDK's and the Node bot's
``--reconnect-file`` (docs/protocol.md section 6), on loopback against a real referee.

A bot keeps each Welcome's reconnect token in an owner-only file; its restarted copy's
first hello carries it and takes the entrant over even while the old process, frozen,
still holds a connection the referee thinks alive (with the organiser's token alone it
would be refused ALREADY_EXISTS and wait for the keepalive). Each test waits for events
on the referee or the bots, bounded in time; the referee's keepalive is off where a
frozen process must keep its connection, so that only the takeover can end it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import signal
import stat
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from test_door_lockouts import TOKENS, FirstIndex, connected, entrant, until
from test_grpc import Hosted, Stream, hello

from arena import sdk
from arena.referee.limits import Limits

ROOT = Path(__file__).resolve().parents[1]
ARENA = str(Path(sys.executable).with_name("arena"))  # the CLI of this environment
NO_KEEPALIVE = Limits(keepalive_seconds=3600.0)  # a frozen process keeps its connection
REPLACED = "this connection was replaced by a new one that sent its reconnect_token"


def record(address: str, token: str, credential: str, **changes: Any) -> str:
    """A reconnect file's text, as docs/protocol.md section 6 describes it."""
    data = {
        "format": "truf-arena-reconnect",
        "version": 1,
        "referee": address,
        "token_sha256": hashlib.sha256(token.encode()).hexdigest(),
        "reconnect_token": credential,
        **changes,
    }
    return json.dumps(data) + "\n"


def stored(path: Path) -> str:
    return str(json.loads(path.read_text())["reconnect_token"])


def credential_of(h: Hosted, name: str) -> str:
    return h.call(lambda: entrant(h, name).credential)


def refusals(h: Hosted) -> list[str]:
    return h.call(lambda: list(h.referee.refusals))


class InThread:
    """``sdk.run`` on a thread; ``error`` is what it raised (None: it returned)."""

    def __init__(self, bot: Any, h: Hosted, keep: Path, token: str = "tok-0") -> None:
        self.done = threading.Event()
        self.error: BaseException | None = None

        def run() -> None:
            try:
                sdk.run(bot, h.address, token=token, retry_for=30, reconnect_file=keep)
            except BaseException as exc:  # reported by the test
                self.error = exc
            finally:
                self.done.set()

        threading.Thread(target=run, daemon=True).start()

    def result(self) -> BaseException | None:
        until(self.done.is_set, 30, "the SDK bot to stop")
        return self.error


@contextmanager
def process(command: list[str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A bot program, its output in ``log``; killed (after SIGCONT) if still running."""
    with open(log, "wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGCONT)
            proc.kill()
            proc.wait(timeout=10)


def welcomed_with_file(proc: subprocess.Popen[bytes], keep: Path, log: Path) -> None:
    """Wait for the bot's file (written after its Welcome), or its end, which fails."""
    until(lambda: keep.exists() or proc.poll() is not None, 60, "the bot's Welcome")
    assert keep.exists(), f"the bot stopped ({proc.returncode}): {log.read_text()}"


def sdk_bot(h: Hosted, keep: Path, program: str, bot: str = "random") -> list[str]:
    """``python -m arena.sdk BOT`` or ``arena bot BOT`` (which calls ``sdk.run``)."""
    start = [sys.executable, "-m", "arena.sdk"] if program == "sdk" else [ARENA, "bot"]
    return [*start, bot, "--connect", h.address, "--token", "tok-0",
            "--reconnect-file", str(keep)]  # fmt: skip


def node_bot(h: Hosted, keep: Path, name: str, token: str = "tok-0") -> list[str]:
    return ["node", str(ROOT / "bots" / "js" / "bot.js"), "--connect", h.address,
            "--token", token, "--name", name, "--reconnect-file", str(keep)]  # fmt: skip


def writer(path: Path) -> str:
    return str(json.loads(path.read_text())["writer"])


def assert_kept(h: Hosted, keep: Path) -> None:
    """The file is the owner's alone and holds bot0's reconnect token, for this referee
    and token, and its writer's random name, as the SDK reads it (whichever language
    wrote it)."""
    assert stat.S_IMODE(keep.stat().st_mode) == 0o600
    credential = credential_of(h, "bot0")
    kept = json.loads(keep.read_text())
    assert re.fullmatch("[0-9a-f]{32}", kept.pop("writer"))
    assert kept == json.loads(record(h.address, "tok-0", credential))
    assert sdk.ReconnectFile(keep, h.address, "tok-0").load() == credential


# ------------------------------------------------------------------ the takeover


@pytest.mark.parametrize("program", ["sdk", "arena bot"])
def test_a_restarted_sdk_bot_takes_its_frozen_predecessors_seat_at_its_first_hello(
    host: Callable[..., Hosted], tmp_path: Path, program: str
) -> None:
    h = host(tokens=TOKENS, limits=NO_KEEPALIVE)
    keep = tmp_path / "bot0.reconnect"
    with process(sdk_bot(h, keep, program), tmp_path / "old.log") as old:
        welcomed_with_file(old, keep, tmp_path / "old.log")
        assert h.call(lambda: entrant(h, "bot0").bot_name) == "random"
        assert_kept(h, keep)
        old.send_signal(signal.SIGSTOP)  # hung: its connection still looks alive
        before = refusals(h)
        new = InThread(FirstIndex(), h, keep)
        until(lambda: h.call(lambda: entrant(h, "bot0").bot_name) == "restarted",
              what="the restarted bot welcomed")  # fmt: skip
        # At its first hello: the referee refused nothing meanwhile (no ALREADY_EXISTS).
        assert refusals(h) == before
        old.send_signal(signal.SIGCONT)
        assert old.wait(timeout=30) == 1
    said = (tmp_path / "old.log").read_text()
    assert REPLACED in said and "Traceback" not in said, said
    # The old copy stopped for good: the seat stays the new one's.
    assert connected(h, "bot0") and h.call(lambda: entrant(h, "bot0").bot_name) == "restarted"
    assert stored(keep) == credential_of(h, "bot0")
    h.run(h.referee.goodbye())
    assert new.result() is None
    assert not keep.exists()  # the tournament ended normally: its secret is gone


def test_two_running_sdk_bots_sharing_a_file_do_not_take_turns(
    host: Callable[..., Hosted], tmp_path: Path
) -> None:
    """The copy that was replaced is told so after its Welcome (ALREADY_EXISTS), which
    is final: it stops instead of taking the seat back with the same token."""
    h = host(tokens=TOKENS, limits=NO_KEEPALIVE)
    keep = tmp_path / "bot0.reconnect"

    class Second(FirstIndex):
        name = "second"

    first = InThread(FirstIndex(), h, keep)
    until(keep.exists, what="the first copy welcomed")
    second = InThread(Second(), h, keep)
    error = first.result()
    assert isinstance(error, sdk.BotRejected) and REPLACED in str(error), error
    assert "ALREADY_EXISTS" in str(error)
    assert h.call(lambda: entrant(h, "bot0").bot_name) == "second" and connected(h, "bot0")
    assert not refusals(h)  # nobody was refused: the second took over, the first stopped
    h.run(h.referee.goodbye())
    assert second.result() is None
    assert not keep.exists()


def test_a_restarted_node_bot_takes_its_frozen_predecessors_seat_at_its_first_hello(
    host: Callable[..., Hosted], js_node_modules: Path, tmp_path: Path
) -> None:
    """The restart goes through ``arena bot js``, which hands the option on."""
    h = host(tokens=TOKENS, limits=NO_KEEPALIVE)
    keep = tmp_path / "bot0.reconnect"
    restart = [ARENA, "bot", "js", "--connect", h.address, "--token", "tok-0",
               "--reconnect-file", str(keep)]  # fmt: skip
    with process(node_bot(h, keep, "js-old"), tmp_path / "old.log") as old:
        welcomed_with_file(old, keep, tmp_path / "old.log")
        assert_kept(h, keep)  # the format the Python SDK reads
        old.send_signal(signal.SIGSTOP)
        before = refusals(h)
        with process(restart, tmp_path / "new.log") as new:
            until(lambda: h.call(lambda: entrant(h, "bot0").bot_name) == "js", 60,
                  "the restarted Node bot welcomed")  # fmt: skip
            assert refusals(h) == before  # at its first hello
            old.send_signal(signal.SIGCONT)
            assert old.wait(timeout=30) == 1
            assert connected(h, "bot0") and h.call(lambda: entrant(h, "bot0").bot_name) == "js"
            h.run(h.referee.goodbye())
            assert new.wait(timeout=30) == 0, (tmp_path / "new.log").read_text()
    assert REPLACED in (tmp_path / "old.log").read_text()
    assert not keep.exists()


@pytest.mark.parametrize("language", ["python", "node"])
def test_a_copy_cut_off_while_frozen_does_not_take_the_seat_back_from_its_restart(
    host: Callable[..., Hosted], request: pytest.FixtureRequest, tmp_path: Path, language: str
) -> None:
    """The frozen bot's connection was cut (here by the referee, as its keepalive does)
    before its restarted copy came; the restart is welcomed and rewrites the file. The
    old copy, resumed, sees only a drop and would take the seat back with the same token:
    the rewritten file, which names another writer, tells it that another copy holds the
    seat, and it stops. Even when the restart's file has the old one's inode, as it often
    has on ext4, which reuses a freed inode number at once: made certain here."""
    h = host(tokens=TOKENS, limits=NO_KEEPALIVE)
    keep = tmp_path / "bot0.reconnect"
    if language == "node":
        request.getfixturevalue("js_node_modules")
        commands = [node_bot(h, keep, "js-old"), node_bot(h, keep, "js-new")]
        new_name = "js-new"
    else:
        commands = [sdk_bot(h, keep, "sdk"), sdk_bot(h, keep, "sdk", bot="greedy")]
        new_name = "greedy"

    def bot0() -> tuple[str, bool]:
        return h.call(lambda: entrant(h, "bot0").bot_name), connected(h, "bot0")

    def cut() -> None:
        conn = entrant(h, "bot0").conn
        assert conn is not None
        conn.cut_off("cut off, as the keepalive would")

    with process(commands[0], tmp_path / "old.log") as old:
        welcomed_with_file(old, keep, tmp_path / "old.log")
        held = tmp_path / "held"
        os.link(keep, held)  # the old file's inode stays in use, to be given back below
        old.send_signal(signal.SIGSTOP)
        h.call(cut)
        until(lambda: not connected(h, "bot0"), what="the frozen bot cut off")
        with process(commands[1], tmp_path / "new.log") as new:
            until(lambda: bot0() == (new_name, True), 60, "the restarted bot welcomed")
            until(lambda: keep.stat().st_ino != held.stat().st_ino, what="its file written")
            # The restart's file on the old one's inode: what ext4 often does by itself.
            held.write_bytes(keep.read_bytes())
            os.replace(held, keep)
            old.send_signal(signal.SIGCONT)
            assert old.wait(timeout=30) == 1
            assert bot0() == (new_name, True) and not refusals(h)
            h.run(h.referee.goodbye())
            assert new.wait(timeout=30) == 0, (tmp_path / "new.log").read_text()
    said = (tmp_path / "old.log").read_text()
    assert "another copy of this bot has taken its seat over" in said, said
    assert not keep.exists()


# ------------------------------------------------------- files not to use


def other_referee(h: Hosted, credential: str) -> str:
    return record("127.0.0.1:1", "tok-0", credential)


def other_token(h: Hosted, credential: str) -> str:
    return record(h.address, "tok-1", credential)


CASES: dict[str, tuple[Callable[[Hosted, str], str], str]] = {
    "another referee": (other_referee, 'is for the referee at "127.0.0.1:1";'),
    "another token": (other_token, "is for another token"),
    "not JSON": (lambda h, c: f"reconnect_token={c}\n", "is not JSON"),
    "a list": (lambda h, c: json.dumps([c]), "is not a JSON object"),
    "a newer version": (
        lambda h, c: record(h.address, "tok-0", c, version=2),
        "is not a truf-arena-reconnect file of version 1",
    ),
    "no token": (lambda h, c: record(h.address, "tok-0", ""), "holds no reconnect_token"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_reconnect_file_for_elsewhere_or_malformed_is_not_used_and_says_so(
    host: Callable[..., Hosted], tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    """The file names bot0's real reconnect token, which would take the seat over from
    the connection holding it; not used, the SDK's hello carries the token alone and is
    refused ALREADY_EXISTS (it then waits, and is welcomed once that connection ends)."""
    h = host(tokens=TOKENS)
    make, line = CASES[case]
    held = Stream(h.address, hello("tok-0"))
    keep = tmp_path / "bot0.reconnect"
    try:
        assert held.recv().HasField("welcome")
        keep.write_text(make(h, credential_of(h, "bot0")))
        bot = InThread(FirstIndex(), h, keep)
        until(lambda: any("ALREADY_EXISTS" in r for r in refusals(h)),
              what="the hello without the file's token refused")  # fmt: skip
    finally:
        held.close()
    until(lambda: h.call(lambda: entrant(h, "bot0").bot_name) == "restarted",
          what="welcomed once the old connection ended")  # fmt: skip
    until(lambda: keep.exists() and sdk.ReconnectFile(keep, h.address, "tok-0").load() != "",
          what="the file rewritten for this referee")  # fmt: skip
    assert stored(keep) == credential_of(h, "bot0")
    h.run(h.referee.goodbye())
    assert bot.result() is None
    said = [ln for ln in capsys.readouterr().err.splitlines() if "reconnect file" in ln]
    assert len(said) == 1 and line in said[0] and "not using it" in said[0], said


@pytest.mark.parametrize("case", ["another referee", "a list", "a newer version"])
def test_the_node_bot_does_not_use_a_reconnect_file_for_elsewhere_or_malformed(
    host: Callable[..., Hosted], js_node_modules: Path, tmp_path: Path, case: str
) -> None:
    """As the SDK above: not used (refused ALREADY_EXISTS while the entrant's connection
    is open, then welcomed), said in one line, and rewritten after the Welcome."""
    h = host(tokens=TOKENS)
    held = Stream(h.address, hello("tok-0"))
    keep = tmp_path / "bot0.reconnect"
    log = tmp_path / "js.log"
    try:
        assert held.recv().HasField("welcome")
        keep.write_text(CASES[case][0](h, credential_of(h, "bot0")))
        with process(node_bot(h, keep, "js"), log) as proc:
            try:
                until(lambda: any("ALREADY_EXISTS" in r for r in refusals(h)),
                      what="the hello without the file's token refused")  # fmt: skip
            finally:
                held.close()
            until(lambda: h.call(lambda: entrant(h, "bot0").bot_name) == "js",
                  what="welcomed once the old connection ended")  # fmt: skip
            until(lambda: sdk.ReconnectFile(keep, h.address, "tok-0").load() != "",
                  what="the file rewritten for this referee")  # fmt: skip
            h.run(h.referee.goodbye())
            assert proc.wait(timeout=30) == 0, log.read_text()
    finally:
        held.close()
    said = [ln for ln in log.read_text().splitlines() if "reconnect file" in ln]
    assert len(said) == 1 and CASES[case][1] in said[0] and "not using it" in said[0], said


def test_the_node_bot_drops_a_stale_token_with_its_file(
    host: Callable[..., Hosted], js_node_modules: Path, tmp_path: Path
) -> None:
    h = host(open_seats=1)
    seated = Stream(h.address, hello(name="early"))
    keep = tmp_path / "bot.reconnect"
    log = tmp_path / "js.log"
    try:
        assert seated.recv().HasField("welcome")
        h.call(h.referee.start)
        keep.write_text(record(h.address, "", "0" * 32))
        with process(node_bot(h, keep, "js", token=""), log) as proc:
            assert proc.wait(timeout=60) == 1, log.read_text()
    finally:
        seated.close()
    assert not keep.exists()
    assert [r.split(": ")[1] for r in refusals(h)] == ["UNAUTHENTICATED", "RESOURCE_EXHAUSTED"]
    said = log.read_text()
    assert said.count("does not know the reconnect token") == 1, said
    assert "the tournament is full" in said, said


ADDRESS = "127.0.0.1:50051"
NOT_V1 = "is not a truf-arena-reconnect file of version 1"


def fifo(path: Path) -> None:
    os.mkfifo(path)  # opening it to read waits for a writer, unless O_NONBLOCK


def text(content: str | bytes) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        path.write_bytes(content if isinstance(content, bytes) else content.encode())

    return make


def file_text(**changes: Any) -> Callable[[Path], None]:
    return text(record(ADDRESS, "tok-0", "secret", **changes))


NO_REFEREE = json.dumps(
    {"format": "truf-arena-reconnect", "version": 1, "token_sha256": "", "reconnect_token": "x"}
)

# Each file the Python SDK and the Node bot both refuse in one line, the same words after
# "the reconnect file PATH" ("is not JSON (" then the parser's own words), and one both use.
FILES: dict[str, tuple[Callable[[Path], None], str]] = {
    "a FIFO": (fifo, "is not a regular file"),  # another local user can plant one in /tmp
    "a directory": (Path.mkdir, "is not a regular file"),
    "under a file": (lambda p: None, "cannot be read (ENOTDIR)"),  # the test makes it
    "too large": (text(" " * (64 * 1024 + 1)), "is too large (over 65536 bytes)"),
    "200,000 [": (text("[" * 200_000), "is too large (over 65536 bytes)"),
    "60,000 [": (text("[" * 60_000), "is not JSON ("),  # Python's json: RecursionError
    "a 5,000-digit version": (
        text(record(ADDRESS, "tok-0", "x").replace('"version": 1', '"version": ' + "1" * 5000)),
        NOT_V1,  # a double in JavaScript; Python's int() refuses it (ValueError)
    ),
    "NaN": (text('{"version": NaN}'), "is not JSON ("),
    "not UTF-8": (text(b'{"format": "\xff"}'), "is not JSON ("),
    "a BOM": (text("\ufeff" + record(ADDRESS, "tok-0", "x")), "is not JSON ("),
    "a list": (text("[1]"), "is not a JSON object"),
    "no referee": (
        text(NO_REFEREE),
        "lacks one of format, version, referee, token_sha256, reconnect_token",
    ),
    "version true": (file_text(version=True), NOT_V1),
    "version 2": (file_text(version=2), NOT_V1),
    "a number for referee": (file_text(referee=5), NOT_V1),
    "no token": (file_text(reconnect_token=""), "holds no reconnect_token"),
    "a referee with a newline": (
        file_text(referee="127.0.0.1:1\n[bot] connected"),
        'is for the referee at "127.0.0.1:1\\n[bot] connected"',  # one line
    ),
    "another token": (text(record(ADDRESS, "tok-1", "secret")), "is for another token"),
    "version 1.0": (file_text(version=1.0), ""),  # the same number as 1, in both
    "an unknown field": (file_text(writer="0" * 32, later="?"), ""),
}

NODE_LOAD = """
const bot = require(process.argv[1]);
const got = bot.loadReconnect(process.argv[2], { connect: process.argv[3], token: "tok-0" });
process.stdout.write(JSON.stringify(got));
"""


@pytest.mark.parametrize("case", list(FILES))
def test_both_clients_refuse_a_hostile_or_foreign_file_in_the_same_line_or_use_it(
    js_node_modules: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    """Read with O_NONBLOCK, only a regular file of at most 64 KiB; every number a double
    (1.0 is 1); deep nesting or a 5,000-digit number is no traceback; fields checked
    before what they say. Neither client waits, raises, or says it differently."""
    make, why = FILES[case]
    if case == "under a file":  # a path whose directory is a file: open fails
        (tmp_path / "a file").write_text("")
        keep = tmp_path / "a file" / "bot.reconnect"
    else:
        keep = tmp_path / "bot.reconnect"
    make(keep)
    loaded: list[str] = []
    worker = threading.Thread(
        target=lambda: loaded.append(sdk.ReconnectFile(keep, ADDRESS, "tok-0").load()),
        daemon=True,
    )
    worker.start()
    try:
        until(lambda: not worker.is_alive(), 30, "the SDK to read the file")
    finally:  # a reader stuck opening a FIFO gets a writer, then its end
        if case == "a FIFO":
            with contextlib.suppress(OSError):
                os.close(os.open(keep, os.O_WRONLY | os.O_NONBLOCK))
    node = subprocess.run(
        ["node", "-e", NODE_LOAD, str(ROOT / "bots" / "js" / "bot.js"), str(keep), ADDRESS],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert node.returncode == 0, node.stderr
    used = "" if why else "secret"
    assert loaded == [used] and json.loads(node.stdout) == used
    python_said = capsys.readouterr().err.splitlines()
    node_said = node.stderr.splitlines()
    if not why:
        assert python_said == node_said == []
        return
    assert len(python_said) == len(node_said) == 1, (python_said, node_said)
    start = f"the reconnect file {keep} {why}"
    for said, tag in ((python_said[0], "[bot] "), (node_said[0], "[js] ")):
        assert said.startswith(tag + start) and said.endswith("; not using it"), said
    if not why.endswith("("):  # all but the parser's own words: the same line in both
        assert python_said[0] == f"[bot] {start}; not using it"
        assert node_said[0] == f"[js] {start}; not using it"


def restarts_file_on_the_same_inode(keep: Path, save: Callable[[], None]) -> None:
    """``save()`` writes the restart's file (a new one renamed over ``keep``); then it is
    put on the inode of the file it replaced, as ext4 often does by itself (a freed inode
    number is given to the next new file)."""
    held = keep.with_name("held")
    os.link(keep, held)
    inode = keep.stat().st_ino
    save()
    assert keep.stat().st_ino != inode
    held.write_bytes(keep.read_bytes())
    os.replace(held, keep)
    assert keep.stat().st_ino == inode


def test_the_sdk_sees_its_file_rewritten_by_another_copy_even_on_its_inode(
    tmp_path: Path,
) -> None:
    keep = tmp_path / "bot0.reconnect"
    old = sdk.ReconnectFile(keep, ADDRESS, "tok-0")
    assert not old.rewritten_by_another()  # it wrote nothing yet
    old.save("A")
    assert not old.rewritten_by_another()
    restart = sdk.ReconnectFile(keep, ADDRESS, "tok-0")
    restarts_file_on_the_same_inode(keep, lambda: restart.save("A"))
    assert old.rewritten_by_another() and not restart.rewritten_by_another()
    keep.write_text("not JSON")  # not a restart's doing: no sign of one
    assert not old.rewritten_by_another()
    restart.forget()
    assert not old.rewritten_by_another() and not keep.exists()


NODE_REWRITTEN = """
const fs = require("node:fs");
const bot = require(process.argv[1]);
const [file, opts] = [process.argv[2], { connect: process.argv[3], token: "tok-0" }];
const seen = [bot.rewrittenByAnother(file, opts)];
bot.saveReconnect(file, opts, "A");
seen.push(bot.rewrittenByAnother(file, opts));
process.stdout.write(JSON.stringify(seen) + "\\n");
process.stdin.once("data", () => {  // the restart wrote: ours again on stdin's word
  process.stdout.write(JSON.stringify(bot.rewrittenByAnother(file, opts)) + "\\n");
  process.exit(0);
});
"""


def test_the_node_bot_sees_its_file_rewritten_by_another_copy_even_on_its_inode(
    js_node_modules: Path, tmp_path: Path
) -> None:
    keep = tmp_path / "bot0.reconnect"
    bot = str(ROOT / "bots" / "js" / "bot.js")
    with subprocess.Popen(
        ["node", "-e", NODE_REWRITTEN, bot, str(keep), ADDRESS],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    ) as node:  # fmt: skip
        assert node.stdout is not None and node.stdin is not None
        try:
            assert json.loads(node.stdout.readline()) == [False, False]
            assert re.fullmatch("[0-9a-f]{32}", writer(keep))
            restart = sdk.ReconnectFile(keep, ADDRESS, "tok-0")
            restarts_file_on_the_same_inode(keep, lambda: restart.save("A"))
            node.stdin.write("go\n")
            node.stdin.flush()
            assert json.loads(node.stdout.readline()) is True
            assert node.wait(timeout=30) == 0
        finally:
            node.kill()


# ------------------------------------------------------------ stale tokens


def test_a_stale_token_in_an_open_tournament_that_started_is_dropped_with_its_file(
    host: Callable[..., Hosted], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A new event at the same address: the referee does not know the stored token and,
    with no organiser's token to decide, says so (UNAUTHENTICATED). The SDK removes the
    file, says so in one line, and says hello without it (here: refused, the one seat
    is taken)."""
    h = host(open_seats=1)
    seated = Stream(h.address, hello(name="early"))
    keep = tmp_path / "bot.reconnect"
    try:
        assert seated.recv().HasField("welcome")
        h.call(h.referee.start)
        keep.write_text(record(h.address, "", "0" * 32))
        with pytest.raises(sdk.BotRejected, match="RESOURCE_EXHAUSTED: the tournament is full"):
            sdk.run(FirstIndex(), h.address, retry_for=5, reconnect_file=keep)
    finally:
        seated.close()
    assert not keep.exists()
    codes = [r.split(": ")[1] for r in refusals(h)]
    assert codes == ["UNAUTHENTICATED", "RESOURCE_EXHAUSTED"], refusals(h)
    said = [ln for ln in capsys.readouterr().err.splitlines() if "reconnect token" in ln]
    assert len(said) == 1 and "does not know the reconnect token" in said[0], said
    assert "removed it" in said[0]


@pytest.mark.parametrize("tokens", [True, False], ids=["tokens", "open, not started"])
def test_a_stale_token_the_referee_passes_over_is_replaced_by_the_welcomes(
    host: Callable[..., Hosted], tmp_path: Path, tokens: bool
) -> None:
    """Where the organiser's token decides, or an open tournament has not started, the
    referee welcomes a hello whose reconnect token it does not know as if it had none;
    the file then holds the new Welcome's token."""
    h = host(tokens=TOKENS) if tokens else host(open_seats=4)
    token = "tok-0" if tokens else ""
    keep = tmp_path / "bot.reconnect"
    keep.write_text(record(h.address, token, "0" * 32))
    bot = InThread(FirstIndex(), h, keep, token=token)
    name = "bot0" if tokens else "restarted"
    until(lambda: h.call(lambda: any(e.name == name for e in h.referee.entrants))
          and connected(h, name), what="welcomed")  # fmt: skip
    until(lambda: keep.exists() and stored(keep) == credential_of(h, name),
          what="the file holds the Welcome's token")  # fmt: skip
    assert not refusals(h)
    h.run(h.referee.goodbye())
    assert bot.result() is None
    assert not keep.exists()


def test_a_stale_token_sent_with_a_wrong_organisers_token_is_dropped_then_refused(
    host: Callable[..., Hosted], tmp_path: Path
) -> None:
    """With a token the referee does not know either, the stored token is refused first
    (the file is dropped, once), then the organiser's token, finally."""
    h = host(tokens=TOKENS)
    keep = tmp_path / "bot.reconnect"
    keep.write_text(record(h.address, "nope", "0" * 32))
    with pytest.raises(sdk.BotRejected, match="UNAUTHENTICATED: hello.token is missing"):
        sdk.run(FirstIndex(), h.address, token="nope", retry_for=5, reconnect_file=keep)
    assert not keep.exists()
    assert [r.split(": ")[1] for r in refusals(h)] == ["UNAUTHENTICATED", "UNAUTHENTICATED"]


def test_the_protocol_docs_example_is_the_format_the_sdk_writes(tmp_path: Path) -> None:
    """docs/protocol.md's example, for authors in other languages, has the SDK's fields."""
    doc = (ROOT / "docs" / "protocol.md").read_text()
    section = doc.split("### The reconnect file", 1)[1]
    example = json.loads(section.split("```json", 1)[1].split("```", 1)[0])
    keep = tmp_path / "bot.reconnect"
    sdk.ReconnectFile(keep, "127.0.0.1:50051", "tok-0").save("abc")
    written = json.loads(keep.read_text())
    assert list(example) == list(written)
    assert {k: example[k] for k in ("format", "version", "referee")} == {
        k: written[k] for k in ("format", "version", "referee")
    }
    assert written["token_sha256"] == hashlib.sha256(b"tok-0").hexdigest()
