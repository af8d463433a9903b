"""Hosting a tournament over gRPC: start the referee, seat the bots, run the schedule.

``run_hosted_tournament`` launches the bundled bots as separate processes that
connect over loopback (the default ``arena tournament``); ``serve`` waits for
external bots (``arena serve``). Both play tables concurrently as far as the
schedule and each bot's declared capacity allow, and write each match's results
as it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import grpc

from arena.core.files import PRIVATE_FILE, private_dir
from arena.core.seeding import bot_seed
from arena.play.run import (
    RunConfig,
    base_name,
    finished_matches,
    make_plan,
    save_secret,
    split_listen,
    tournament_json,
)
from arena.play.signals import run_async, uninterrupted
from arena.play.tournament import MatchOutcome, TournamentPlan
from arena.referee.server import REFUSALS_KEPT, Entrant, Referee, start_server
from arena.referee.table import play_remote_match
from arena.sdk import PARENT_ENV
from arena.standings.results import ResultsWriter

# The capacity the bundled bots declare. A table waits on one bot at a time, so more
# tables keep both cores busy: with four random bots on two cores, 16 tables play 7% more
# decisions a second than 8 (three interleaved pairs), and 32 fewer than 16 (bench/grpc_speed.py).
BOT_CAPACITY = 16
# How many tables the referee plays at once is what the connected entrants' declared
# capacities can fill (``tables_at_once``), but never more than this safety limit, so that
# bots declaring huge capacities cannot grow the referee without bound (issue 31). A table
# in play costs the referee little beyond the decisions it asks for (docs/scaling.md: +5%
# per decision from 16 to 256 tables); 1,024 is a round of 4,096 entrants at four seats.
TABLES_LIMIT = 1024
CONNECT_TIMEOUT = 60.0
BOT_EXIT_TIMEOUT = 5.0  # after the goodbye, before the server stops


class HostError(RuntimeError):
    """The tournament could not be hosted (a bot failed to start, a port is taken...)."""


class Display(Protocol):
    """Told of each finished match: the live display, or under --quiet the run's ratings
    (``RunRatings.update``)."""

    def update(self, record: dict[str, Any], decisions: int) -> None: ...


@dataclass
class Launched:
    entrant: str
    process: subprocess.Popen[bytes]
    log: Path


def bot_command(
    spec: str,
    address: str,
    token: str,
    seed: str,
    tls_ca: str | None = None,
    capacity: int = BOT_CAPACITY,
    game: str = "truf",
) -> list[str]:
    """The command that runs one bot as its own program: a bundled bot in another language
    (``bots.EXTERNAL``, e.g. ``js``), a ``module:Class``, or a bundled Python bot of
    ``game`` (``bots.bundled_module``: in a Truco tournament ``basic`` is
    ``bots.truco.basic``)."""
    from bots import EXTERNAL, bundled_module

    args = ["--connect", address, "--token", token, "--seed", seed, "--capacity", str(capacity)]
    if tls_ca:  # the referee's own certificate is the root the bot trusts
        args += ["--tls-ca", tls_ca]
    if spec in EXTERNAL:
        return EXTERNAL[spec].command(args)
    if ":" in spec:  # module:Class, or a bot with options (pimc:budget=0.5)
        return [sys.executable, "-m", "arena.sdk", spec, "--game", game, *args]
    return [sys.executable, "-m", bundled_module(spec, game) or f"bots.{spec}", *args]


def check_launchable(entrants: list[str]) -> None:
    """Before anything starts: every bundled bot in another language can run here (its
    interpreter is on PATH, its dependencies are installed), or a HostError says what to do."""
    from bots import EXTERNAL

    for spec in dict.fromkeys(base_name(e) for e in entrants):
        problem = EXTERNAL[spec].problem() if spec in EXTERNAL else None
        if problem:
            raise HostError(problem)


def launch_bots(
    plan: TournamentPlan,
    tokens: dict[str, str],
    address: str,
    logdir: Path,
    tls_ca: str | None = None,
    spec_of: Callable[[str], str] = base_name,
) -> list[Launched]:
    """Start a program for each entrant; ``spec_of`` gives the bot an entrant runs."""
    out = []
    private_dir(logdir)  # a bot's log may hold what it was dealt (docs/results.md)
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])  # so `bots` imports from a checkout too
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    env[PARENT_ENV] = str(os.getpid())  # the bots exit when this process is gone
    taken: set[str] = set()
    for token, name in tokens.items():
        log = logdir / log_file_name(name, taken)
        # A seed of the bot's own, derived from the run secret: it tells the bot nothing of it.
        seed = bot_seed(plan.secret, name)
        cmd = bot_command(spec_of(name), address, token, seed, tls_ca, game=plan.game.name)
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE)
        with os.fdopen(fd, "wb") as f:
            proc = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, env=env)
        out.append(Launched(name, proc, log))
    return out


def log_file_name(entrant: str, taken: set[str]) -> str:
    """A file name for an entrant's log, whatever characters its name holds (a bot spec's
    options may hold ``/`` or ``:``: ``mybots:Faulty:log=/tmp/x``): letters, digits, ``.``,
    ``_`` and ``-`` are kept, anything else becomes ``-``; a name already ``taken`` gets
    a number. Adds the name to ``taken``."""
    stem = "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "-" for c in entrant)
    stem = stem.strip(".") or "bot"
    name, n = f"{stem}.log", 1
    while name in taken:
        n += 1
        name = f"{stem}-{n}.log"
    taken.add(name)
    return name


async def wait_for_entrants(
    referee: Referee,
    count: int,
    launched: list[Launched],
    timeout: float,
    *,
    say: Callable[[str], None] | None = None,
    stop_on_refusal: bool = False,
) -> None:
    """Wait until ``count`` entrants are connected. ``say``: told who joins (and leaves)
    and each hello the referee refuses meanwhile; ``stop_on_refusal``: a refused hello
    ends the wait with a HostError that says why (``arena check`` waits for one bot)."""
    deadline = time.monotonic() + timeout
    joined: set[str] = set()
    refused = referee.refused
    while True:
        connected = [e for e in referee.entrants if e.conn and not e.conn.closed]
        if say is not None:
            now = {e.name for e in connected}
            # counted one by one: bots that came between two looks each get their own number
            seen = len(now & joined)
            for e in connected:
                if e.name not in joined:
                    seen += 1
                    who = f"{e.bot_name} {e.bot_version}".strip()
                    say(f"joined: {e.name} ({who}) · {seen} of {count}")
            for name in sorted(joined - now):
                say(f"left: {name} · {len(connected)} of {count}")
            joined = now
        if referee.refused > refused:
            news = list(referee.refusals)[-min(referee.refused - refused, REFUSALS_KEPT) :]
            many = referee.refused - refused
            refused = referee.refused
            if stop_on_refusal:
                raise HostError(f"the referee refused the bot's hello: {news[-1]}")
            if say is not None:
                say(f"refused {many} hellos; the last: {news[-1]}" if many > 1 else
                    f"refused: {news[-1]}")  # fmt: skip
        if len(connected) >= count:
            return
        for bot in launched:
            if bot.process.poll() is not None:
                tail = bot.log.read_text(errors="replace")[-2000:] if bot.log.exists() else ""
                raise HostError(
                    f"bot {bot.entrant} exited with code {bot.process.returncode} before "
                    f"connecting; its output ({bot.log}):\n{tail}"
                )
        left = deadline - time.monotonic()
        if left <= 0:
            if not connected and count == 1:
                raise HostError(f"no bot connected within {timeout:g} s")
            missing = [e.name for e in referee.entrants if not e.conn]
            raise HostError(
                f"only {len(connected)} of {count} bots connected within {timeout:g} s"
                + (f"; missing: {', '.join(missing)}" if missing else "")
            )
        referee.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(referee.changed.wait(), min(left, 0.5))


def tables_at_once(capacities: list[int], seats: int, limit: int | None = None) -> int:
    """The most tables of ``seats`` distinct entrants that entrants with these declared
    ``capacities`` can fill at the same time, at least 1 and at most ``limit``. T tables
    fit when sum(min(c, T)) >= seats * T (an entrant sits at most once at a table, so at
    most T of its capacity counts); that holds for every T up to the largest, so the
    largest is found by bisection. ``limit``: by default ``TABLES_LIMIT``."""
    limit = TABLES_LIMIT if limit is None else limit
    clamped = [min(max(1, c), limit) for c in capacities]

    def fits(t: int) -> bool:
        return sum(min(c, t) for c in clamped) >= seats * t

    low, high = 1, limit  # fits(low) or nothing fits: one table is then the answer
    while low < high:
        mid = (low + high + 1) // 2
        if fits(mid):
            low = mid
        else:
            high = mid - 1
    return low


async def run_schedule(
    plan: TournamentPlan,
    entrants: dict[str, Entrant],
    writer: ResultsWriter,
    *,
    skip: frozenset[str],
    on_match: Callable[[MatchOutcome, int], None],
    max_tables: int | None = None,
    on_start: Callable[[int], None] | None = None,
) -> int:
    """Play every table not in ``skip``, several at once where capacities allow: at most
    ``max_tables`` (by default what the entrants' declared capacities can fill at once,
    ``tables_at_once``). ``on_start`` is told the number of tables in play each time one
    starts."""
    queue = deque(t for t in plan.tables() if t.match_id not in skip)
    if max_tables is None:
        seats = max((len(t.seats) for t in queue), default=1)
        max_tables = tables_at_once([e.capacity for e in entrants.values()], seats)
    busy = dict.fromkeys(entrants, 0)
    running: dict[asyncio.Task[MatchOutcome], list[str]] = {}
    decisions = 0
    while queue or running:
        for table in list(queue):
            if len(running) >= max_tables:
                break
            if plan.stop is not None:  # --until-settled: a new round waits for the last
                if not plan.stop.complete_before(table.round):
                    break
                if plan.stop.stop_before(table.round):
                    queue.clear()
                    break
            names = [plan.entrants[i] for i in table.seats]
            if all(busy[n] < entrants[n].capacity for n in names):
                queue.remove(table)
                for n in names:
                    busy[n] += 1
                task = asyncio.create_task(
                    play_remote_match(
                        plan.game,
                        [entrants[n] for n in names],
                        ctx=plan.context(table),
                        strike_limit=plan.strike_limit,
                    )
                )
                running[task] = names
                if on_start is not None:
                    on_start(len(running))
        if not running and not queue:  # --until-settled stopped the run
            break
        if not running:  # nothing fits: should not happen, capacities are >= 1
            raise HostError("no table can start: every entrant is busy")
        try:
            done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:  # interrupted: unfinished matches are not recorded
            for task in running:
                task.cancel()
            await asyncio.gather(*running, return_exceptions=True)
            raise
        for task in done:
            for n in running.pop(task):
                busy[n] -= 1
            outcome = task.result()
            writer.write_match(outcome.record, outcome.deals)
            if plan.stop is not None:
                plan.stop.add(outcome.record)
            decisions += outcome.decisions
            on_match(outcome, decisions)
    return decisions


async def _host(
    config: RunConfig,
    plan: TournamentPlan,
    writer: ResultsWriter,
    skip: frozenset[str],
    display: Display | None,
) -> tuple[int, float]:
    host, _ = split_listen(config.listen)
    check_launchable(plan.entrants)
    tokens = {secrets.token_hex(16): name for name in plan.entrants}
    referee = Referee(
        decision_timeout=config.decision_timeout,
        time_bank=config.time_bank,
        grace=config.grace,
        strike_limit=config.strikes,
        tokens=tokens,
        game=plan.game.name,
    )
    server, port = await start_server(referee, config.listen, config.tls())
    address = f"{host}:{port}"
    tls_ca = str(Path(config.tls_cert).resolve()) if config.tls_cert else None
    launched = launch_bots(plan, tokens, address, writer.dir / "bots", tls_ca, config.spec_of)
    try:
        await wait_for_entrants(referee, len(tokens), launched, CONNECT_TIMEOUT)
        referee.start()
        entrants = {e.name: e for e in referee.entrants}
        # Now the bots have said who they are: record the versions they announced.
        writer.write_config(tournament_json(config, plan, entrants))
        start = time.perf_counter()
        notice = CrashNotice({bot.entrant: bot.log for bot in launched})

        def on_match(outcome: MatchOutcome, decisions: int) -> None:
            notice.check(outcome)
            if display:
                display.update(outcome.record, decisions)

        decisions = await run_schedule(plan, entrants, writer, skip=skip, on_match=on_match)
        elapsed = time.perf_counter() - start
        await referee.goodbye()
        return decisions, elapsed
    finally:
        await uninterrupted(_shut_down(referee, server, launched))


class CrashNotice:
    """Says once per bot, on stderr (above the live display), where its log is when the
    bot's own code failed: a ``crash`` fault, whose traceback the SDK wrote there."""

    def __init__(self, logs: dict[str, Path], stream: Any = None) -> None:
        self.logs = logs
        self.stream = stream
        self.told: set[str] = set()

    def check(self, outcome: MatchOutcome) -> None:
        seats = outcome.record["seats"]
        for deal in outcome.deals:
            for fault in deal.get("faults") or ():
                name = seats[fault["seat"]]
                if fault["kind"] == "crash" and name not in self.told and name in self.logs:
                    self.told.add(name)
                    log = self.logs[name]
                    held = log.exists() and "Traceback" in log.read_text(errors="replace")
                    where = "its tracebacks are in" if held else "its output is in"
                    stream = self.stream or sys.stderr  # looked up now: the display redirects it
                    stream.write(
                        f"[bot {name}] its own code failed ({fault['detail']}); the referee "
                        f"played the fallback; {where} {log} (said once per bot)\n"
                    )
                    stream.flush()


async def _shut_down(referee: Referee, server: grpc.aio.Server, launched: list[Launched]) -> None:
    """Say goodbye (a no-op for streams already told), let the bots close their streams
    and exit while the server still runs, then stop it and reap what is left. A stream
    the server's stop has to cancel makes grpc print a (harmless) traceback."""
    await referee.goodbye("the tournament was stopped by the organiser")
    await referee.wait_all_gone(BOT_EXIT_TIMEOUT)
    await asyncio.to_thread(_wait_all, launched, BOT_EXIT_TIMEOUT)
    await server.stop(grace=1.0)
    for bot in launched:
        if bot.process.poll() is None:
            bot.process.kill()
            await asyncio.to_thread(bot.process.wait)


def _wait_all(launched: list[Launched], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    for bot in launched:
        with contextlib.suppress(subprocess.TimeoutExpired):  # killed once the server stops
            bot.process.wait(timeout=max(0.0, deadline - time.monotonic()))


def run_hosted_tournament(
    config: RunConfig,
    plan: TournamentPlan,
    writer: ResultsWriter,
    *,
    skip: frozenset[str] = frozenset(),
    display: Display | None = None,
) -> tuple[int, float]:
    """Returns the decisions taken and the seconds the schedule took to play."""
    return run_async(_host(config, plan, writer, skip, display))


async def _serve(
    config: RunConfig,
    count: int,
    directory: Path,
    console: Any,
    quiet: bool,
    tokens: dict[str, str] | None,
    secret: str,
    resuming: bool,
) -> list[str]:
    from arena.report.live import LiveDisplay

    host, _ = split_listen(config.listen)
    referee = Referee(
        decision_timeout=config.decision_timeout,
        time_bank=config.time_bank,
        grace=config.grace,
        strike_limit=config.strikes,
        tokens=tokens,
        open_seats=0 if tokens else count,
        game=config.game,
    )
    server, port = await start_server(referee, config.listen, config.tls())
    where = host if host.startswith("unix:") else f"{host}:{port}"  # behind `arena edge`
    # Under --issue-tokens or --tokens only a bot with a token is admitted: the hint says so.
    token = " --token TOKEN, with an entrant's token" if tokens else ""
    console.print(
        f"referee listening on [bold]{where}[/]; waiting for {count} bots "
        f"(try: python -m bots.random --connect {where}{token})",
        highlight=False,
    )
    try:
        await wait_for_entrants(
            referee,
            count,
            [],
            timeout=float("inf"),
            say=lambda text: console.print(text, markup=False, highlight=False),
        )
        came_as = [e.name for e in referee.entrants]
        referee.start()  # the same step: no bot can leave (and free its seat) in between
        names = [e.name for e in referee.entrants]
        if resuming and sorted(names) != sorted(config.bots) == sorted(came_as):
            # A run an older arena served named duplicates x, x#2: it keeps those names.
            for entrant, name in zip(referee.entrants, came_as, strict=True):
                entrant.name = name
            names = came_as
        if not resuming:
            config.bots = names
        elif sorted(names) != sorted(config.bots):  # 13.11: the run's own entrants only
            raise HostError(
                f"this run's entrants are {', '.join(config.bots)}, but the bots that "
                f"connected are {', '.join(names)}; nothing was played"
            )
        plan = make_plan(config, secret=secret)
        entrants = {e.name: e for e in referee.entrants}
        done = finished_matches(directory) if resuming else []
        skip = frozenset(str(r["match"]) for r in done)
        with ResultsWriter(directory) as writer:
            if not resuming:
                save_secret(config, directory, secret)
            writer.write_config(tournament_json(config, plan, entrants))
            display = LiveDisplay(console, len(plan.tables()), plan.entrants, done=len(skip))
            for record in done:
                display.run.add(record)
            if quiet:
                await run_schedule(plan, entrants, writer, skip=skip, on_match=lambda o, d: None)
            else:
                with display:
                    await run_schedule(
                        plan,
                        entrants,
                        writer,
                        skip=skip,
                        on_match=lambda o, d: display.update(o.record, d),
                    )
        await referee.goodbye()
        return plan.entrants
    finally:
        await uninterrupted(_shut_down(referee, server, []))


def serve_tournament(
    config: RunConfig,
    count: int,
    directory: Path,
    *,
    console: Any,
    secret: str,
    quiet: bool = False,
    tokens: dict[str, str] | None = None,
    resuming: bool = False,
) -> list[str]:
    """Wait for ``count`` external bots (with ``tokens``: one per token, refusing any
    other), run the tournament, return the entrant names. ``resuming``: the run in
    ``directory`` stopped; wait for its own entrants and play the matches it lacks."""
    return run_async(_serve(config, count, directory, console, quiet, tokens, secret, resuming))
