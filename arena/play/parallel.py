"""In-process tournaments on every core: matches played in worker processes.

Matches are independent, and each is a function of its match key and the bots (whose
choices depend on their seed and the match, never on the order tables are served, as
over gRPC), so N workers give the results of one: ``ProcessRunner`` yields outcomes in
schedule order, whatever order they finish in, and the results files are
byte-identical to ``--workers 1``.

Each worker gets the game and a pickled copy of every bot once, at its start (a bot
that cannot be pickled is named before the run starts), then plays the matches it is
sent with its own instances. Workers ignore SIGINT: Ctrl-C and SIGTERM stop the arena,
which stops them. A worker that dies mid-match (a bot that ends the interpreter) is
replaced and the match played again from its key; twice for one match is an error that
names it, as it would have stopped a one-process run.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import sys
import threading
import time
import traceback
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from arena.bot import Bot
from arena.play.scheduler import Table
from arena.play.tournament import (
    MatchContext,
    MatchOutcome,
    OnBotError,
    SerialRunner,
    TournamentPlan,
    play_match,
    play_table,
)
from arena.standings.results import DealLines

# Matches sent ahead to each worker, so that it never waits for the arena between two.
AHEAD = 2
# How far past the oldest unfinished match the workers may run: bounds the outcomes held
# back waiting for a slow match, and what a stop between rounds throws away.
WINDOW_PER_WORKER = 4
# A run whose remaining matches would take less than this many seconds in one process is
# played in one process (ProcessRunner).
SERIAL_BELOW = 1.0
DEATHS_PER_MATCH = 2  # a match whose worker dies this often is not tried again
STOP_GRACE = 2.0  # seconds a worker has to exit once told, before it is killed


class WorkerError(RuntimeError):
    """A worker process that could not play: one line naming the bot or the match."""


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def pickled_bots(bots: Mapping[str, Bot], specs: Mapping[str, str]) -> dict[str, bytes]:
    """Every bot pickled, to be sent to workers; a ``WorkerError`` names the first that
    cannot be (``specs``: entrant -> the bot as given, for the message)."""
    out = {}
    for entrant, bot in bots.items():
        spec = specs.get(entrant, entrant)
        try:
            blob = pickle.dumps(bot, protocol=pickle.HIGHEST_PROTOCOL)
            pickle.loads(blob)
        except Exception as exc:
            raise WorkerError(
                f"bot {spec!r} ({entrant}) cannot be sent to a worker process: "
                f"{type(exc).__name__}: {exc}; play it with --workers 1"
            ) from None
        out[entrant] = blob
    return out


@dataclass(frozen=True)
class Setup:
    """What a worker needs before its first match: where the arena's process imports from
    and runs (so a pickled bot finds its module), the game and the bots."""

    sys_path: list[str] | None  # None: the worker's own (a Ray worker's runtime env)
    cwd: str | None
    plan_game: Any
    strike_limit: int
    bots: dict[str, bytes]


@dataclass(frozen=True)
class Job:
    index: int  # in the sequence being played
    ctx: MatchContext
    names: list[str]


def job_for(plan: TournamentPlan, index: int, table: Table) -> Job:
    return Job(index, plan.context(table), [plan.entrants[i] for i in table.seats])


class BotErrors:
    """A worker's collector of bot exceptions: each kept as the text the arena shows
    (``arena.play.loading.bot_error_text``), once per bot and kind, as the arena shows them."""

    def __init__(self) -> None:
        self.seen: set[tuple[str, str]] = set()
        self.new: list[tuple[str, str, str]] = []

    def __call__(self, entrant: str, exc: Exception) -> None:
        from arena.play.loading import bot_error_text

        key = (entrant, type(exc).__name__)
        if key in self.seen:
            return
        text = bot_error_text(exc)
        if text is not None:
            self.seen.add(key)
            self.new.append((entrant, key[1], text))

    def take(self) -> list[tuple[str, str, str]]:
        out, self.new = self.new, []
        return out


def load_setup(setup: Setup) -> dict[str, Bot]:
    """In a worker: take the arena's import path and folder, and unpickle the bots."""
    if setup.sys_path is not None:
        sys.path[:] = setup.sys_path
    if setup.cwd is not None:
        os.chdir(setup.cwd)
    bots = {}
    for entrant, blob in setup.bots.items():
        try:
            bots[entrant] = pickle.loads(blob)
        except Exception as exc:
            raise WorkerError(
                f"bot {entrant} cannot be loaded in a worker process: {type(exc).__name__}: "
                f"{exc}; play it with --workers 1"
            ) from None
    return bots


def play_job(setup: Setup, bots: Mapping[str, Bot], job: Job, errors: BotErrors) -> MatchOutcome:
    """Play a job's match; its replay lines are encoded here, in the worker (``DealLines``),
    and the same bytes are written as one process writes."""
    outcome = play_match(
        setup.plan_game,
        [bots[n] for n in job.names],
        ctx=job.ctx,
        names=job.names,
        strike_limit=setup.strike_limit,
        on_bot_error=errors,
    )
    outcome.deals = DealLines.encode(outcome.deals)  # type: ignore[assignment]
    return outcome


def _worker(conn: Connection, setup: Setup) -> None:
    """A worker process: play each job sent, answer with its outcome, until told to stop
    (None) or the arena goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the arena stops its workers itself
    from arena.play.run import tune_gc

    try:
        bots = load_setup(setup)
    except WorkerError as exc:
        conn.send(("failed", None, str(exc)))
        return
    tune_gc()
    errors = BotErrors()
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            outcome = play_job(setup, bots, job, errors)
        except Exception:
            conn.send(("failed", job.index, traceback.format_exc()))
            return
        conn.send(("done", job.index, (outcome, errors.take())))


def _context(modules: Sequence[str] = ()) -> multiprocessing.context.BaseContext:
    """Forkserver where there is one: workers fork from a small clean process (no threads
    of the arena's, such as the live display's), and cost one fork each after the first.
    ``modules`` are imported there too (the bots'), if it is not running yet."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["arena.play.tournament", "arena.play.run", *modules])
        return ctx
    return multiprocessing.get_context("spawn")


class InOrder:
    """Outcomes that finish in any order, handed on in the order of their jobs, each with
    the bot errors its worker saw (shown then, as one process would have shown them)."""

    def __init__(self, on_bot_error: OnBotError | None) -> None:
        self.on_bot_error = on_bot_error
        self.next = 0  # the index of the job whose outcome is handed on next
        self.finished: dict[int, tuple[MatchOutcome, list[tuple[str, str, str]]]] = {}

    def add(self, index: int, answer: tuple[MatchOutcome, list[tuple[str, str, str]]]) -> None:
        self.finished[index] = answer

    def ready(self) -> Generator[MatchOutcome, None, None]:
        from arena.play.loading import RemoteBotError

        while self.next in self.finished:
            outcome, errors = self.finished.pop(self.next)
            if self.on_bot_error is not None:
                for entrant, kind, text in errors:
                    self.on_bot_error(entrant, RemoteBotError(kind, text))
            yield outcome
            self.next += 1


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    jobs: list[Job]  # sent and not yet answered, oldest first


class ProcessRunner:
    """Plays matches in ``workers`` processes (a ``MatchRunner``). The bots are pickled
    at construction, so a bot that cannot be sent is an error before anything is played.

    The first match is played here, and timed: if the rest would take less than
    ``serial_below`` seconds here too, they are (starting workers would cost more than it
    saves, and a short run stays as cheap as it was); otherwise workers play the rest."""

    def __init__(
        self,
        bots: Mapping[str, Bot],
        workers: int,
        specs: Mapping[str, str] | None = None,
        *,
        serial_below: float = SERIAL_BELOW,
    ) -> None:
        if workers < 1:
            raise ValueError(f"--workers must be at least 1, got {workers}")
        self.bots = bots
        self.workers = workers
        self.serial_below = serial_below
        self.blobs = pickled_bots(bots, specs or {}) if workers > 1 else {}
        # imported once in the forkserver rather than in each worker
        self.modules = sorted({type(bot).__module__ for bot in bots.values()})

    def play(
        self, plan: TournamentPlan, tables: Sequence[Table], on_bot_error: OnBotError | None
    ) -> Generator[MatchOutcome, None, None]:
        serial = SerialRunner(self.bots)
        rest = tables
        timed = self.workers > 1 and self.serial_below > 0 and bool(tables)
        if timed:
            start = time.perf_counter()
            first = play_table(plan, self.bots, tables[0], on_bot_error)
            took = time.perf_counter() - start
            yield first
            rest = tables[1:]
            if took * len(rest) < self.serial_below:  # a short run: no process to start
                yield from serial.play(plan, rest, on_bot_error)
                return
        count = min(self.workers, len(rest))
        if count <= 1:  # nothing to share
            yield from serial.play(plan, rest, on_bot_error)
            return
        setup = Setup(list(sys.path), os.getcwd(), plan.game, plan.strike_limit, self.blobs)
        starting = _Starting(_context(self.modules), setup, count)
        pool: _Pool | None = None
        try:
            played = 0
            if timed:
                # Starting the workers (the forkserver's interpreter and its imports, then a
                # fork each) takes a few tenths of a second, which a 120-round run felt as
                # idle time (issue 29: --workers 2 gave 1.69x): play on here meanwhile.
                # Which matches are played here changes no byte of the results.
                while played < len(rest) - 1 and not starting.done.is_set():
                    yield play_table(plan, self.bots, rest[played], on_bot_error)
                    played += 1
            pool = starting.pool()
            assert pool is not None  # pool() raised otherwise
            left = rest[played:]
            jobs = [job_for(plan, i, t) for i, t in enumerate(left)]
            yield from pool.play(jobs, on_bot_error)
        finally:
            if pool is None:
                pool = starting.pool(raise_error=False)
            if pool is not None:
                pool.stop()


def _start_server(ctx: multiprocessing.context.BaseContext) -> None:
    """Start the forkserver, if that is the start method, with SIGINT ignored, which it
    inherits: it ignores SIGINT itself only once its modules are imported, and a Ctrl-C
    before that printed its traceback. SIGINT is blocked meanwhile, so a Ctrl-C in those
    few milliseconds stays pending (Linux keeps a blocked signal even while it is
    ignored) and reaches this process when its handler and mask are back."""
    if (
        ctx.get_start_method() != "forkserver"
        or threading.current_thread() is not threading.main_thread()
    ):
        return
    from multiprocessing import forkserver

    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


class _Starting:
    """A ``_Pool`` being started on a thread of its own (``Process.start`` waits for the
    forkserver), so that this process can play meanwhile; ``done`` is set when it is up."""

    def __init__(self, ctx: multiprocessing.context.BaseContext, setup: Setup, count: int) -> None:
        _start_server(ctx)
        self.done = threading.Event()
        self._pool: _Pool | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(
            target=self._start, args=(ctx, setup, count), name="arena-workers-start", daemon=True
        )
        self._thread.start()

    def _start(self, ctx: multiprocessing.context.BaseContext, setup: Setup, count: int) -> None:
        try:
            self._pool = _Pool(ctx, setup, count)
        except BaseException as exc:  # handed to the playing thread by ``pool``
            self._error = exc
        finally:
            self.done.set()

    def pool(self, *, raise_error: bool = True) -> _Pool | None:
        """The started pool, once it is (waits); its start's error is raised here."""
        self._thread.join()
        if self._error is not None and raise_error:
            raise self._error
        return self._pool


class _Pool:
    def __init__(self, ctx: multiprocessing.context.BaseContext, setup: Setup, count: int) -> None:
        self.ctx = ctx
        self.setup = setup
        self.workers = [self._start() for _ in range(count)]

    def _start(self) -> _Worker:
        mine, theirs = multiprocessing.Pipe()
        process = self.ctx.Process(  # type: ignore[attr-defined]
            target=_worker, args=(theirs, self.setup), daemon=True, name="arena-worker"
        )
        process.start()
        theirs.close()
        return _Worker(process, mine, [])

    def play(
        self, jobs: list[Job], on_bot_error: OnBotError | None
    ) -> Generator[MatchOutcome, None, None]:
        queue = list(reversed(jobs))  # popped from the end: in order
        done = InOrder(on_bot_error)
        deaths: dict[int, int] = {}
        window = WINDOW_PER_WORKER * len(self.workers)
        while done.next < len(jobs):
            for worker in self.workers:
                while queue and len(worker.jobs) < AHEAD and queue[-1].index < done.next + window:
                    job = queue.pop()
                    worker.conn.send(job)
                    worker.jobs.append(job)
            busy = [w for w in self.workers if w.jobs]
            waitables: list[Any] = [w.conn for w in busy] + [w.process.sentinel for w in busy]
            ready = multiprocessing.connection.wait(waitables)
            for worker in busy:
                answered = worker.conn in ready and self._receive(worker, done)
                if not answered and (worker.conn in ready or worker.process.sentinel in ready):
                    queue.extend(self._replace(worker, deaths))
                    queue.sort(key=lambda j: -j.index)
            yield from done.ready()

    def _receive(self, worker: _Worker, done: InOrder) -> bool:
        """Take a worker's answer; False if there is none because it has died."""
        try:
            status, index, payload = worker.conn.recv()
        except (EOFError, OSError):
            return False
        if status == "failed":
            if index is None:
                raise WorkerError(payload)
            job = worker.jobs[0]
            raise WorkerError(
                f"match {job.ctx.match_id} ({', '.join(job.names)}) failed in a worker "
                f"process:\n{payload.rstrip()}"
            )
        worker.jobs.pop(0)
        done.add(index, payload)
        return True

    def _replace(self, worker: _Worker, deaths: dict[int, int]) -> list[Job]:
        """A worker died: start another in its place; returns the jobs it held."""
        lost = worker.jobs
        worker.process.join()
        code = worker.process.exitcode
        worker.conn.close()
        if lost:
            job = lost[0]
            deaths[job.index] = deaths.get(job.index, 0) + 1
            if deaths[job.index] >= DEATHS_PER_MATCH:
                raise WorkerError(
                    f"match {job.ctx.match_id} ({', '.join(job.names)}) ended its worker "
                    f"process {deaths[job.index]} times (exit code {code}): one of its bots "
                    "stops or crashes the interpreter; it is played again on --resume"
                )
        fresh = self._start()
        worker.process, worker.conn, worker.jobs = fresh.process, fresh.conn, []
        return lost

    def stop(self) -> None:
        """Tell every worker to stop; kill those that have not within ``STOP_GRACE``."""
        for worker in self.workers:
            with contextlib.suppress(OSError):
                worker.conn.send(None)
        for worker in self.workers:
            if worker.jobs:  # mid-match (an interrupted run): no need to let it finish
                worker.process.terminate()
            worker.process.join(STOP_GRACE)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()
