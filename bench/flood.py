"""The honest bots' decision rate under floods, against the calm rate.

Each scenario is a small loopback tournament as ``arena tournament`` plays it: the
referee (``start_server``, its default limits) in this process, four entrants as
separate processes, all tables in play at once. Three entrants are bundled ``random``
bots through the SDK, and what the bench measures is the decisions those three answer
per second of the schedule. The fourth entrant, and the flood, differ:

* ``calm``: a fourth ``random`` bot; no flood. The machine's speed drifts from one
  minute to the next (other tenants), so each flood is measured right after a calm run
  and compared with it, ``--repeat`` times, and the median of those ratios is reported.
* ``junk``: the fourth entrant is a raw-stub bot that answers every request legally and
  then sends 63 junk messages of 60 KB (an empty second hello padded with an unknown
  field), the audit's attack. Each time it is cut off it dials again with its token and
  carries on.
* ``health``, ``reflection``, ``bad-hello``: a fourth ``random`` bot, and one flood
  client process calling ``Health/Check``, a reflection ``list_services`` stream, or
  ``Play`` with a hello of an unknown protocol version.

* ``ping``, ``settings``, ``rapid-reset``, ``unknown-frame``, ``continuation``: a fourth
  ``random`` bot, and one raw HTTP/2 attacker process (bench/h2raw.py: frames written by
  hand) with one connection from each of ``--sources`` (20) loopback addresses in 5 /24
  blocks, sending ``--frame-rate`` (20,000) frames a second in all, in writes of 100:
  PINGs; SETTINGS frames (each to be acknowledged); a call's HEADERS and its RST_STREAM
  at once, over and over (rapid reset); frames of an undefined type; or a call's HEADERS
  without END_HEADERS followed by CONTINUATION frames of 0.9 KB that never end them. A
  connection the server closes is dialled again at once (paced like a write).
* ``waiting-room``: 16 Play streams from each address that never say hello (320 for a
  room of 256), reopened as the referee closes them; ``stalled-calls``: 8 connections per
  address with 16 health checks each that send their headers and never their message
  (2,560 calls), reopened likewise; at most ``--rate`` new streams a second after the first.
* ``connections``: ``--connections`` (20,000) bare connections (the HTTP/2 preface and
  SETTINGS, then nothing) from the ``--sources`` addresses, held by processes of 10,000
  each (the audit's two attackers), each dialled again as the server closes it, at most
  ``--dial-rate`` (2,000) new connections a second; ``churn``: connections opened and
  dropped at once at that rate. In both, a newcomer from the honest bots' address dials a
  fresh connection for a health check once a second (``probe`` in the output): whether
  an entrant that must dial again while the flood is on still gets in.

The attackers run at ``--attacker-nice`` (19): on two shared cores an attacker's own CPU
would otherwise be taken from the bots, which a remote attacker's never is; they still
get every cycle the referee, the edge and the bots leave, and each prints the rate it
reached (``per_second``, ``frames_per_second``) so that a starved attacker shows.
``--attacker-nice 0`` runs them as the bots.

``--edge`` runs every scenario, calm included, through ``arena edge`` (nginx) with the
referee on a Unix socket behind it.

The machine has two cores shared by every process here (and by other tenants), so a
flooder's own CPU competes with the bots whatever the referee does. To compare like
with like, every flood comes from ONE process on one channel, at a fixed target rate
(``--rate``, 1,250 calls a second, the audit's health flood) with at most
``--in-flight`` (64) calls open at once: a call waits for a free slot, as a client that
reads its replies must. A refusal that the referee delays (``Limits.refusal_delay``)
therefore slows the flooder down, which is the point of the delay.

``--unlimited`` runs the same floods against a referee whose ``Gate`` limits are set out
of reach, for comparison (the per-bot budget cannot be switched off).

Each scenario also records the highest resident memory and open file descriptors of the
referee (and of nginx, behind the edge), and counts the CPU time of every process it ran
(referee, bots, flooder, start-up included) per honest decision: other tenants slow a
scenario down without adding to it, so its ratio to calm shows the work a flood adds
more steadily.

Run: ``python bench/flood.py [--rounds R] [--deals D] [--repeat K] [--unlimited] [--edge]
[--floods a,b]``. Prints each calm/flood pair: the honest decisions per second, the CPU
per honest decision, the referee's peak resident memory (and the edge's), the honest
bots' faults, their ratio (the goal: at least 0.8), and how the flooder's calls ended;
then per flood the median ratio, the highest peak memory and the faults in all. It
reports; it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import importlib.util
import json
import os
import queue
import resource
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena._proto.truf.arena.v1 import arena_pb2_grpc as pb_grpc
from arena.core.seeding import seeded_secret
from arena.play.run import RunConfig, make_plan, tune_gc
from arena.referee.edge import free_loopback_port, start_edge, wait_listening
from arena.referee.host import bot_command, run_schedule, wait_for_entrants
from arena.referee.limits import Limits
from arena.referee.server import Entrant, Referee, start_server
from arena.standings.results import ResultsWriter
from arena.wire.pbwire import tag, uv

ROOT = Path(__file__).resolve().parents[1]
# bench/h2raw.py, the raw HTTP/2 attacker, by its path (this folder is off sys.path).
_spec = importlib.util.spec_from_file_location("h2raw", Path(__file__).with_name("h2raw.py"))
assert _spec is not None and _spec.loader is not None
h2raw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(h2raw)
CLIENT_FLOODS = ("health", "reflection", "bad-hello")  # a flood client process (grpc)
# A raw HTTP/2 attacker process (bench/h2raw.py), from --sources loopback addresses.
FRAME_FLOODS = ("ping", "settings", "rapid-reset", "unknown-frame", "continuation")
ROOM_FLOODS = ("waiting-room", "stalled-calls")
# Bare connections (the HTTP/2 preface and SETTINGS, then nothing), held or dropped.
CONNECTION_FLOODS = ("connections", "churn")
FLOODS = ("junk", *CLIENT_FLOODS, *FRAME_FLOODS, *ROOM_FLOODS, *CONNECTION_FLOODS)
PER_ATTACKER = 10_000  # connections one attacker process holds (its file limit is 20,000)
HONEST = 3  # entrants 0-2: the bots whose decisions count
UNLIMITED = Limits(
    calls_per_second=1e9,
    calls_burst=10**9,
    all_calls_per_second=1e9,
    all_calls_burst=10**9,
    open_streams=10**9,
    waiting_streams=10**9,
    waiting_per_address=10**9,
    failed_hellos_per_second=1e9,
    failed_hellos_burst=10**9,
)


class Counted:
    """An entrant whose answered decisions are counted (what the table asks of it is
    passed through unchanged)."""

    def __init__(self, entrant: Entrant) -> None:
        self.entrant = entrant
        self.answered = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.entrant, name)

    async def decide(self, **kwargs: Any) -> Any:
        answer = await self.entrant.decide(**kwargs)
        self.answered += 1
        return answer


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return env


async def scenario(name: str, rounds: int, deals: int, args: argparse.Namespace) -> dict[str, Any]:
    config = RunConfig(rounds=rounds, bots=["random"] * 4, seed=1, deals=deals)
    plan = make_plan(config, secret=seeded_secret(1))
    cpu = _cpu()
    tokens = {f"token-{i}": entrant for i, entrant in enumerate(plan.entrants)}
    referee = Referee(tokens=tokens)
    limits = UNLIMITED if args.unlimited else Limits()
    run_dir = Path(tempfile.mkdtemp(prefix="flood-"))
    edge = None
    if args.edge:  # the referee on a Unix socket, nginx (arena edge) in front
        server, _ = await start_server(referee, f"unix:{run_dir / 'arena.sock'}", limits=limits)
        address = f"127.0.0.1:{free_loopback_port()}"
        edge = start_edge(address, f"unix:{run_dir / 'arena.sock'}", run_dir / "edge")
        await asyncio.to_thread(wait_listening, address)
    else:
        server, port = await start_server(referee, "127.0.0.1:0", limits=limits)
        address = f"127.0.0.1:{port}"
    procs: list[subprocess.Popen[bytes]] = []
    for i, token in enumerate(tokens):
        if name == "junk" and i == HONEST:
            cmd = [sys.executable, __file__, "--junk-bot", address, "--token", token]
        else:
            cmd = bot_command("random", address, token, f"1:{i}")
        procs.append(subprocess.Popen(cmd, env=_env(), stderr=subprocess.DEVNULL))
    flooders: list[subprocess.Popen[bytes]] = []
    memory = Memory(edge.pid if edge else None)
    faults = Counter[str]()
    try:
        await wait_for_entrants(referee, len(tokens), [], 60)
        for argv in _flooders(name, address, args):
            argv += ["--attacker-nice", str(args.attacker_nice)]
            flooders.append(subprocess.Popen(argv, env=_env(), stdout=subprocess.PIPE))
        if name in CONNECTION_FLOODS:  # a newcomer from the honest bots' address
            flooders.append(
                subprocess.Popen([sys.executable, __file__, "--probe", address],
                                 env=_env(), stdout=subprocess.PIPE)
            )  # fmt: skip
        for flooder in flooders:
            assert flooder.stdout is not None
            await asyncio.to_thread(flooder.stdout.readline)  # it is ready
        if flooders:
            await asyncio.sleep(0.5)  # and under way before the first table starts
        counted = {e.name: Counted(e) for e in referee.entrants}
        honest = [counted[name] for name in plan.entrants[:HONEST]]
        honest_names = set(plan.entrants[:HONEST])

        def on_match(outcome: Any, total: int) -> None:
            record = outcome.record
            for kind, per_seat in record["faults"].items():
                for seat, n in zip(record["seats"], per_seat, strict=True):
                    if seat in honest_names and n:
                        faults[kind] += n

        memory.start()
        with tempfile.TemporaryDirectory() as tmp, ResultsWriter(tmp, fsync=False) as writer:
            start = time.perf_counter()
            decisions = await run_schedule(
                plan,
                counted,  # type: ignore[arg-type]
                writer,
                skip=frozenset(),
                on_match=on_match,
            )
            seconds = time.perf_counter() - start
        await referee.goodbye()
        await referee.wait_all_gone(5)
    finally:
        memory.stop()
        codes: Counter[str] = Counter()
        errors: list[str] = []
        for flooder in flooders:
            flooder.send_signal(signal.SIGTERM)
        for flooder in flooders:
            try:
                out, _ = await asyncio.to_thread(flooder.communicate, timeout=30)
                if not out.strip():  # it failed (its error went to stderr)
                    raise ValueError(f"exit status {flooder.returncode}")
                report = json.loads(out.splitlines()[-1])
            except (subprocess.TimeoutExpired, ValueError) as exc:  # the edge is still stopped
                if flooder.poll() is None:
                    flooder.kill()
                    flooder.wait()
                report = {"error": f"the flooder did not report: {exc or type(exc).__name__}"}
            # Counts add up across the processes ("most open": each one's peak, so the
            # sum is an upper bound on the connections open at once).
            for key, value in report.items():
                if isinstance(value, int):
                    codes[key] += value
                else:
                    errors.append(value)
        for p in procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                await asyncio.to_thread(p.wait, 5)
            if p.poll() is None:
                p.kill()
                p.wait()
        if edge is not None:
            edge.send_signal(signal.SIGQUIT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                await asyncio.to_thread(edge.wait, 10)
            if edge.poll() is None:
                edge.kill()
                edge.wait()
        await server.stop(0.5)
    answered = sum(c.answered for c in honest)
    return {
        "honest_rate": answered / seconds,
        "rate": decisions / seconds,
        "seconds": seconds,
        "cpu_us": 1e6 * (_cpu() - cpu) / answered,
        "flood": {**codes, **({"error": "; ".join(errors)} if errors else {})},
        "faults": sum(faults.values()),
        "referee_mb": memory.referee_peak / 2**20,
        "edge_mb": memory.edge_peak / 2**20,
        "referee_fds": memory.referee_fds,
        "edge_fds": memory.edge_fds,
    }


def _flooders(name: str, address: str, args: argparse.Namespace) -> list[list[str]]:
    """The command lines of ``name``'s attacker processes (none for calm and junk)."""
    common = ["--rate", str(args.rate), "--frame-rate", str(args.frame_rate),
              "--in-flight", str(args.in_flight)]  # fmt: skip
    if name in CLIENT_FLOODS:
        return [[sys.executable, __file__, "--flood", name, address, *common]]
    if name in FRAME_FLOODS or name in ROOM_FLOODS:
        return [[sys.executable, __file__, "--attack", name, address, *common,
                 "--sources", str(args.sources)]]  # fmt: skip
    if name in CONNECTION_FLOODS:  # the sources split between processes of 10,000 each
        processes = max(1, -(-args.connections // PER_ATTACKER))
        share = -(-args.sources // processes)
        return [
            [
                sys.executable,
                __file__,
                "--attack",
                name,
                address,
                *common,
                "--sources",
                str(min(share, args.sources - first)),
                "--first-source",
                str(first),
                "--connections",
                str(min(PER_ATTACKER, args.connections - PER_ATTACKER * i)),
                "--dial-rate",
                str(args.dial_rate / processes),
            ]  # fmt: skip
            for i, first in enumerate(range(0, args.sources, share))
        ]
    return []


def _fds(pid: int | str) -> int:
    """How many file descriptors a process has open (0 once it is gone)."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def _rss(pid: int | str) -> int:
    """A process's resident memory in bytes (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class Memory(threading.Thread):
    """Samples the referee's resident memory and open file descriptors (this process)
    and the edge's (nginx's master and workers), ten times a second, keeping the peaks."""

    def __init__(self, edge: int | None) -> None:
        super().__init__(daemon=True)
        self.edge = edge
        self.referee_peak = self.edge_peak = 0
        self.referee_fds = self.edge_fds = 0  # the most file descriptors open at once
        self.done = threading.Event()

    def run(self) -> None:
        while True:  # a sample now, then every 0.1 s, and one when stopped
            self.sample()
            if self.done.wait(0.1):
                self.sample()
                return

    def sample(self) -> None:
        self.referee_peak = max(self.referee_peak, _rss("self"))
        self.referee_fds = max(self.referee_fds, _fds("self"))
        if self.edge is not None:
            pids = [self.edge]
            with (
                contextlib.suppress(OSError),
                open(f"/proc/{self.edge}/task/{self.edge}/children") as f,
            ):
                pids += [int(p) for p in f.read().split()]
            self.edge_peak = max(self.edge_peak, sum(_rss(p) for p in pids))
            self.edge_fds = max(self.edge_fds, sum(_fds(p) for p in pids))

    def stop(self) -> None:
        self.done.set()
        if self.is_alive():
            self.join(2)


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended (the bots and the
    flooder, once reaped): every process of a scenario, start-up and shut-down included."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


# ------------------------------------------------------------ the flood client


async def flood(kind: str, address: str, rate: float, in_flight: int) -> None:
    """Call ``kind`` at ``rate`` calls a second, at most ``in_flight`` open at once, until
    SIGTERM; then print how the calls ended, and how many a second were started, as JSON."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    codes: Counter[str] = Counter()
    slots = asyncio.Semaphore(in_flight)
    tasks: set[asyncio.Task[None]] = set()
    async with grpc.aio.insecure_channel(address) as channel:
        call = {"health": _health, "reflection": _reflection, "bad-hello": _bad_hello}[kind]

        async def one() -> None:
            try:
                await call(channel)
                codes["OK"] += 1
            except grpc.aio.AioRpcError as exc:
                codes[exc.code().name] += 1
            finally:
                slots.release()

        print("ready", flush=True)
        start = due = loop.time()
        started = 0
        while not stop.is_set():
            await slots.acquire()
            task = loop.create_task(one())
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            started += 1
            due = max(due + 1 / rate, loop.time() - 0.1)  # no catching up in a burst
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), due - loop.time())
        elapsed = loop.time() - start
        for task in list(tasks):
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps({"per_second": round(started / elapsed), **codes}), flush=True)


async def _health(channel: grpc.aio.Channel) -> None:
    await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())


async def _reflection(channel: grpc.aio.Channel) -> None:
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    async for _ in stub.ServerReflectionInfo(iter([request])):
        pass


async def _bad_hello(channel: grpc.aio.Channel) -> None:
    msg = pb.PlayRequest()
    msg.hello.protocol_version, msg.hello.bot_name = 99, "flood"
    async for _ in pb_grpc.ArenaServiceStub(channel).Play(iter([msg])):
        pass


# ------------------------------------------------------- the raw HTTP/2 attacker

BATCH = 100  # frames per write


def _frames(kind: str, conn: h2raw.Conn) -> bytes:
    """One write of ``kind``'s flood: BATCH frames."""
    f = h2raw.frame
    if kind == "ping":
        return f(h2raw.PING, 0, 0, b"12345678") * BATCH
    if kind == "settings":  # SETTINGS_INITIAL_WINDOW_SIZE, each to be acknowledged
        return f(h2raw.SETTINGS, 0, 0, b"\x00\x04\x00\x00\xff\xff") * BATCH
    if kind == "unknown-frame":
        return f(h2raw.UNKNOWN_TYPE, 0, 0, b"x" * 64) * BATCH
    if kind == "rapid-reset":  # a call opened and cancelled at once, over and over
        out = bytearray()
        for _ in range(BATCH // 2):
            sid = conn.new_stream()
            out += f(h2raw.HEADERS, h2raw.END_HEADERS, sid, HEALTH_HEADERS)
            out += f(h2raw.RST_STREAM, 0, sid, b"\x00\x00\x00\x08")  # CANCEL
        return bytes(out)
    if kind == "continuation":  # a call's headers that never end
        return f(h2raw.CONTINUATION, 0, 1, PAD_FIELDS) * BATCH
    raise ValueError(kind)


HEALTH_HEADERS = h2raw.grpc_headers(h2raw.HEALTH_CHECK)
PAD_FIELDS = h2raw.header_block([(f"x-pad-{i}", "p" * 200) for i in range(4)])  # ~0.9 KB


def attack(
    kind: str,
    address: str,
    rate: float,
    sources: int,
    calls: float,
    *,
    first_source: int = 0,
    connections: int = 0,
    dial_rate: float = 0.0,
) -> None:
    """``kind`` against ``address`` from ``sources`` loopback addresses (127.1.x.y, from
    the ``first_source``-th on), until SIGTERM; then print what it did as JSON. Frame
    floods: ``rate`` frames a second in all, in writes of BATCH; a connection the server
    closes is dialled again at once. waiting-room: 16 Play streams per address that never
    say hello; stalled-calls: 8 connections per address with 16 health checks each that
    never send their message; both reopen what the server closes, at most ``calls`` new
    streams a second in all (after the first: as the health flood's calls).
    connections: ``connections`` bare connections in all, split between the addresses,
    each dialled again when the server closes it; churn: connections opened and dropped
    at once; both at most ``dial_rate`` new connections a second."""
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    if kind in CONNECTION_FLOODS:
        addresses = h2raw.loopback_sources(first_source + sources, per_block=4)[first_source:]
        per_source = -(-connections // sources) if kind == "connections" else 1
        print("ready", flush=True)
        out = hold(address, addresses, per_source, dial_rate, kind == "churn", stop)
        print(json.dumps(out), flush=True)
        os._exit(0)
    stats: Counter[str] = Counter()
    lock = threading.Lock()

    def count(key: str, n: int = 1) -> None:
        with lock:
            stats[key] += n

    def flood(source: str) -> None:
        per_source = rate / sources
        due = time.monotonic()
        while not stop.is_set():
            # Dialling again is paced like a write: the rate bounds the attacker's own work.
            due = max(due + BATCH / per_source, time.monotonic() - 0.1)
            if stop.wait(max(0.0, due - time.monotonic())):
                break
            try:
                conn = h2raw.Conn(address, source, parse=False)
            except OSError:
                count("refused")
                stop.wait(0.01)
                continue
            count("connections")
            try:
                if kind == "continuation":
                    conn.send(h2raw.frame(h2raw.HEADERS, 0, conn.new_stream(), HEALTH_HEADERS))
                while not stop.is_set() and not conn.closed.is_set():
                    batch = _frames(kind, conn)
                    if not conn.send(batch):
                        break
                    count("frames", BATCH)
                    due = max(due + BATCH / per_source, time.monotonic() - 0.1)
                    stop.wait(max(0.0, due - time.monotonic()))
            finally:
                conn.close()

    def squat(source: str, path: str, conns: int) -> None:
        live: list[tuple[h2raw.Conn, set[int]]] = []
        per_tick = max(1, round(calls / sources / 20))  # new streams per 50 ms
        while not stop.is_set():
            budget = per_tick
            live = [(c, s) for c, s in live if not c.closed.is_set()]
            while len(live) < conns and not stop.is_set():
                try:
                    c = h2raw.Conn(address, source)
                except OSError:
                    count("refused")
                    break
                count("connections")
                live.append((c, set()))
            for c, streams in live:
                with c.lock:
                    gone = streams & c.ended_streams
                streams -= gone
                count("closed by the referee", len(gone))
                while len(streams) < 16 and budget > 0:
                    streams.add(c.open_call(path))
                    count("streams")
                    budget -= 1
            stop.wait(0.05)
        for c, _ in live:
            c.close()

    addresses = h2raw.loopback_sources(sources, per_block=4)
    if kind == "waiting-room":
        targets = [lambda a=a: squat(a, h2raw.PLAY, 1) for a in addresses]
    elif kind == "stalled-calls":
        targets = [lambda a=a: squat(a, h2raw.HEALTH_CHECK, 8) for a in addresses]
    else:
        targets = [lambda a=a: flood(a) for a in addresses]
    threads = [threading.Thread(target=t, daemon=True) for t in targets]
    start = time.monotonic()
    print("ready", flush=True)
    for t in threads:
        t.start()
    stop.wait()
    end = time.monotonic() + 5  # a thread stuck in a write is a daemon: left behind
    for t in threads:
        t.join(max(0.0, end - time.monotonic()))
    elapsed = time.monotonic() - start
    out = dict(stats)
    if "frames" in out:
        out["frames_per_second"] = round(out.pop("frames") / elapsed)
    print(json.dumps(out), flush=True)
    os._exit(0)  # threads left in a blocking write or dial must not hold the exit


def hold(
    address: str,
    sources: list[str],
    per_source: int,
    dial_rate: float,
    churn: bool,
    stop: threading.Event,
) -> dict[str, int]:
    """Dial bare HTTP/2 connections (the preface and an empty SETTINGS, then nothing)
    from ``sources`` to ``address``, at most ``dial_rate`` a second, until ``stop``:
    keeping ``per_source`` open from each address and dialling again as the server closes
    them, or (``churn``) closing each at once. One thread and non-blocking sockets, so
    that 10,000 connections cost the attacker a few file descriptors' worth of work each,
    not a thread each. Returns the counts: connections made, refused or reset, closed by
    the server, and the most that were open at once."""
    with contextlib.suppress(ValueError, OSError):  # as many sockets as the hard limit
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    host, port = address.rsplit(":", 1)
    h2raw.loopback_only(host, *sources)  # as every h2raw.Conn does
    target = (host, int(port))
    hello = h2raw.PREFACE + h2raw.frame(h2raw.SETTINGS, 0, 0)
    selector = selectors.DefaultSelector()
    live = Counter[str]()  # connections per source: dialling or open
    stats = Counter[str]()
    state: dict[socket.socket, str] = {}  # "dialling" or "open"
    turn = 0  # the next source to dial from, round robin

    def drop(sock: socket.socket, source: str, why: str | None) -> None:
        selector.unregister(sock)
        del state[sock]
        live[source] -= 1
        sock.close()
        if why:
            stats[why] += 1

    def dial() -> bool:
        nonlocal turn
        for _ in range(len(sources)):
            source = sources[turn]
            turn = (turn + 1) % len(sources)
            if live[source] < per_source:
                break
        else:
            return False  # every source holds its share
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((source, 0))
            code = sock.connect_ex(target)
        except OSError:
            sock.close()
            stats["refused"] += 1
            return True
        if code not in (0, errno.EINPROGRESS):
            sock.close()
            stats["refused"] += 1
            return True
        state[sock] = "dialling"
        live[source] += 1
        selector.register(sock, selectors.EVENT_WRITE, source)
        return True

    due = time.monotonic()
    while not stop.is_set():
        now = time.monotonic()
        due = max(due, now - 0.1)  # no catching up in a burst
        while due <= now and dial():
            due += 1.0 / dial_rate
        if due <= now:  # nothing to dial: every source is full
            due = now + 1.0 / dial_rate
        for key, _ in selector.select(timeout=max(0.0, min(0.05, due - time.monotonic()))):
            sock, source = key.fileobj, key.data
            assert isinstance(sock, socket.socket)
            if state[sock] == "dialling":
                if sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                    drop(sock, source, "refused")
                    continue
                try:
                    sock.send(hello)
                except OSError:
                    drop(sock, source, "closed by the server")
                    continue
                stats["connections"] += 1
                if churn:
                    drop(sock, source, None)
                    continue
                state[sock] = "open"
                selector.modify(sock, selectors.EVENT_READ, source)
                stats["most open"] = max(stats["most open"], sum(live.values()))
                continue
            try:
                chunk = sock.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                drop(sock, source, "closed by the server")
    for sock in list(state):
        sock.close()
    return dict(stats)


def probe(address: str) -> None:
    """A newcomer from the honest bots' address (127.0.0.1): a fresh connection and a
    health check, once a second, until SIGTERM; then how they ended as JSON. Whether an
    entrant that has to dial again while a flood is on still gets in."""
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    codes: Counter[str] = Counter()
    print("ready", flush=True)
    while not stop.wait(1.0):
        channel = grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
        try:
            health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=5)
            codes["probe OK"] += 1
        except grpc.RpcError as exc:
            codes[f"probe {exc.code().name}"] += 1
        finally:
            channel.close()
    print(json.dumps(codes), flush=True)


# ------------------------------------------------------------ the junk bot

# A PlayRequest that answers nothing: an empty second hello padded with 60 KB of an
# unknown field. Only the budget counts it (one with nothing set would fail an open
# request as unreadable, a strike, which is not what this flood measures).
JUNK = tag(1, 2) + uv(0) + tag(1000, 2) + uv(60_000) + b"j" * 60_000
JUNK_PER_ANSWER = 63


def junk_bot(address: str, token: str) -> None:
    """Answers every request with index 0, then sends 63 junk messages; dials again
    whenever the referee ends its stream, until the tournament is over."""
    while True:
        outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        hello = pb.PlayRequest()
        hello.hello.protocol_version, hello.hello.bot_name = 1, "junk"
        hello.hello.token, hello.hello.capacity = token, 16
        outbox.put(hello.SerializeToString())

        def requests(box: queue.SimpleQueue[bytes | None] = outbox) -> Iterator[bytes]:
            while (msg := box.get()) is not None:
                yield msg

        with grpc.insecure_channel(address) as channel:
            play = channel.stream_stream(
                "/truf.arena.v1.ArenaService/Play",
                request_serializer=lambda m: m,
                response_deserializer=pb.PlayResponse.FromString,
            )
            try:
                for msg in play(requests()):
                    if msg.HasField("tournament_over"):
                        return
                    if msg.HasField("decision_request"):
                        answer = pb.PlayRequest()
                        answer.answer.request_id = msg.decision_request.request_id
                        outbox.put(answer.SerializeToString())
                        for _ in range(JUNK_PER_ANSWER):
                            outbox.put(JUNK)
            except grpc.RpcError:
                pass  # cut off, or refused: dial again
            finally:
                outbox.put(None)
        time.sleep(0.1)


# ------------------------------------------------------------------- main


def describe(name: str, result: dict[str, Any]) -> str:
    flood = result["flood"]
    edge = (
        f" edge {result['edge_mb']:,.0f} MB {result['edge_fds']:,} fds" if result["edge_mb"] else ""
    )
    return (
        f"{name} {result['honest_rate']:,.0f}/s {result['cpu_us']:,.0f} us CPU "
        f"referee {result['referee_mb']:,.0f} MB {result['referee_fds']:,} fds{edge} "
        f"honest faults {result['faults']}" + (f" {flood}" if flood else "")
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=16, help="rounds per tournament")
    parser.add_argument("--deals", type=int, default=0, help="deals per match (0: 13)")
    parser.add_argument("--repeat", type=int, default=3, help="calm/flood pairs per flood")
    parser.add_argument("--rate", type=float, default=1250.0, help="flood calls a second")
    parser.add_argument("--in-flight", type=int, default=64, help="flood calls open at once")
    parser.add_argument("--unlimited", action="store_true", help="the Gate's limits out of reach")
    parser.add_argument("--edge", action="store_true", help="through `arena edge` (nginx)")
    parser.add_argument(
        "--frame-rate", type=float, default=20_000.0, help="HTTP/2 frames a second (frame floods)"
    )
    parser.add_argument("--sources", type=int, default=20, help="attacker loopback addresses")
    parser.add_argument(
        "--connections", type=int, default=20_000, help="connections held (connections flood)"
    )
    parser.add_argument(
        "--dial-rate",
        type=float,
        default=2_000.0,
        help="new connections a second (connections, churn)",
    )
    parser.add_argument(
        "--attacker-nice",
        type=int,
        default=19,
        help="the attackers' niceness (19: they use CPU the bots and referee leave, as a "
        "remote attacker's does not compete with them at all; 0: as the bots)",
    )
    parser.add_argument("--first-source", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--probe", metavar="ADDR", help=argparse.SUPPRESS)
    parser.add_argument("--floods", default=",".join(FLOODS), help="which floods, comma-separated")
    parser.add_argument("--flood", nargs=2, metavar=("KIND", "ADDR"), help=argparse.SUPPRESS)
    parser.add_argument("--attack", nargs=2, metavar=("KIND", "ADDR"), help=argparse.SUPPRESS)
    parser.add_argument("--junk-bot", metavar="ADDR", help=argparse.SUPPRESS)
    parser.add_argument("--token", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.flood or args.attack:  # an attacker process
        os.nice(args.attacker_nice)
    if args.flood:
        asyncio.run(flood(args.flood[0], args.flood[1], args.rate, args.in_flight))
        return
    if args.attack:
        attack(
            args.attack[0],
            args.attack[1],
            args.frame_rate,
            args.sources,
            args.rate,
            first_source=args.first_source,
            connections=args.connections,
            dial_rate=args.dial_rate,
        )
        return
    if args.probe:
        probe(args.probe)
        return
    if args.junk_bot:
        junk_bot(args.junk_bot, args.token)
        return
    floods = args.floods.split(",")
    if unknown := set(floods) - set(FLOODS):
        parser.error(f"unknown flood(s): {', '.join(sorted(unknown))}; known: {', '.join(FLOODS)}")
    tune_gc()  # as `arena tournament` runs its referee
    limits = "limits out of reach (--unlimited)" if args.unlimited else "default limits"
    front = "through arena edge (nginx)" if args.edge else "grpcio directly"
    print(
        f"4 entrants ({HONEST} honest random bots counted), {args.rounds} rounds, {limits}, "
        f"{front}; floods: one process, {args.rate:g} calls/s, at most {args.in_flight} in "
        f"flight; frame floods {args.frame_rate:g} frames/s from {args.sources} addresses; "
        f"{args.connections:,} connections, {args.dial_rate:g} dials/s; attackers at nice "
        f"{args.attacker_nice}"
    )
    ratios: dict[str, list[tuple[float, float, float, int, int]]] = {name: [] for name in floods}
    for n in range(1, args.repeat + 1):
        for name in floods:
            calm = asyncio.run(scenario("calm", args.rounds, args.deals, args))
            flooded = asyncio.run(scenario(name, args.rounds, args.deals, args))
            ratio = flooded["honest_rate"] / calm["honest_rate"]
            cpu = flooded["cpu_us"] / calm["cpu_us"]
            mb = flooded["referee_mb"] + flooded["edge_mb"]
            fds = flooded["referee_fds"] + flooded["edge_fds"]
            ratios[name].append((ratio, cpu, mb, flooded["faults"], fds))
            print(
                f"#{n} {describe('calm', calm)}  {describe(name, flooded)}  "
                f"ratio {ratio:.2f} (CPU {cpu:.2f})",
                flush=True,
            )
    print("honest decisions/s under each flood as a ratio to calm, median pair")
    print("(and CPU per honest decision, all processes, as a ratio to calm; the highest peak")
    print("memory and file descriptors of the referee and the edge together; the honest bots'")
    print("faults in all):")
    for name, values in ratios.items():
        ratio, cpu = sorted(values)[len(values) // 2][:2]
        peak = max(v[2] for v in values)
        faults = sum(v[3] for v in values)
        fds = max(v[4] for v in values)
        print(
            f"  {name:<13} {ratio:.2f} (CPU {cpu:.2f}) peak {peak:,.0f} MB {fds:,} fds, "
            f"faults {faults}"
        )


if __name__ == "__main__":
    main()
