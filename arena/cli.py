"""``arena``: run tournaments, host external bots, run one bot, show leaderboards.

Every command catches the errors a user can cause (a bad option, a broken deal
file, a results directory that does not fit, a bot module that does not load) and
prints what and where in one line, without a traceback, ending with exit code 1;
typer's own usage errors are given the same form (``_OneLineErrors``).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import math
import os
import sys
from collections.abc import Callable, Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from typer import Abort
from typer._click.exceptions import ClickException, NoArgsIsHelpError
from typer.core import TyperGroup

from arena import __version__
from arena.cli_games import GameCommand, bots_help, with_game_options
from arena.games.registry import REGISTRY, game_entry, option_values
from arena.play.run import (
    ConfigError,
    RunConfig,
    check_bot_names,
    check_fresh,
    check_listen,
    check_writable,
    default_results_dir,
    entrant_names_for,
    finished_matches,
    issue_tokens,
    load_bots,
    load_config,
    load_tokens,
    make_plan,
    parse_bots,
    run_secret,
    save_secret,
    saved_randomness,
    tournament_json,
    tune_gc,
    uniform_entrants,
    write_tokens,
)
from arena.play.signals import stop_on_sigterm
from arena.standings.results import SECRET, TOURNAMENT, ResultsWriter, repair
from arena.standings.settle import MARGIN, SETTLE_CAP

if TYPE_CHECKING:
    from arena.play.runners import PlayOptions

USER_ERROR = 1  # every mistake of the user's: one line on stderr, this exit code
INTERRUPTED = 130


class _OneLineErrors(TyperGroup):
    """Typer's own usage errors (a bad number, an unknown option) as the commands' own
    errors are: one line on stderr, exit code 1; no usage box."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except NoArgsIsHelpError as exc:
            sys.stdout.write(exc.format_message() + "\n")
            sys.exit(0)
        except ClickException as exc:
            ctx = getattr(exc, "ctx", None)
            hint = f" (see: {ctx.command_path} -h)" if ctx is not None else ""
            err.print(f"[bold red]error:[/] {escape(exc.format_message())}{hint}", highlight=False)
            sys.exit(USER_ERROR)
        except Abort:
            sys.exit(INTERRUPTED)
        sys.exit(code or 0)


app = typer.Typer(
    name="arena",
    cls=_OneLineErrors,
    help="Truf Arena: a tournament engine and bot-vs-bot arena for trick-taking card games: "
    "Truf, Truco, and Ruff and Trump (--game truf|truco|ruff).\n\n"
    "Exit codes: 0 done; 1 a mistake (a bad option, file or bot), said in one line on "
    "stderr; 130 interrupted (Ctrl-C or SIGTERM).",
    rich_markup_mode=None,  # plain help: no <bool> for flags, no boxes
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
# Piped or captured output gets a wide console (the leaderboard should not wrap at 80),
# unless COLUMNS says how wide: rich reads it then, as on a terminal.
_COLUMNS_SET = os.environ.get("COLUMNS", "").strip().isdigit()
out = Console(width=None if sys.stdout.isatty() or _COLUMNS_SET else 160)
err = Console(stderr=True, soft_wrap=True)  # messages are never cut into lines


class Format(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"
    markdown = "markdown"


def fail(message: str, code: int = 1) -> typer.Exit:
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    return typer.Exit(code)


def version_callback(value: bool) -> None:
    if value:
        out.print(f"arena {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=version_callback,
            is_eager=True,
            metavar=FLAG,
            help="Show the version.",
        ),
    ] = False,
) -> None:
    """Truf Arena."""


def _finite(option: str, *, least: float = 0.0, positive: bool = False) -> Callable[[Any], Any]:
    """A parse-time check for a float option: a finite number, not below ``least`` (or
    above 0 with ``positive``), so ``nan`` or ``inf`` never reach a run."""

    def check(value: float | None) -> float | None:
        if value is None:
            return value
        if not math.isfinite(value):
            raise typer.BadParameter(f"must be a finite number of seconds, got {value}")
        if positive and value <= 0:
            raise typer.BadParameter(f"must be more than 0, got {value:g}")
        if value < least:
            raise typer.BadParameter(f"must be {least:g} or more, got {value:g}")
        return value

    check.__name__ = f"check_{option}"
    return check


FLAG = ""  # metavar of an on/off flag: it takes no value

RoundsOpt = Annotated[
    int | None,
    typer.Option(
        "--rounds",
        "-r",
        min=1,
        metavar="N",
        show_default=False,
        help="Rounds (default 100; with --until-settled the cap, default "
        f"{SETTLE_CAP}). Each round seats every entrant at one match, except that when the "
        "field is not a multiple of the table size the remainder sit out, in turn.",
    ),
]
DuplicateOpt = Annotated[
    bool,
    typer.Option(
        "--duplicate",
        metavar=FLAG,
        help="Duplicate deals: each round of the schedule becomes a block of as many rounds as "
        "a table has seats, at the same tables, playing fresh deals once from every seat (the "
        "hands rotate), so the luck of the cards cancels. For bots you trust: a bot that "
        "remembers a deal knows every hand on its later rotations, and the tables of a round play "
        "the same deals at once, so entrants that share what they see learn each other's hands.",
    ),
]
UntilSettledOpt = Annotated[
    bool,
    typer.Option(
        "--until-settled",
        metavar=FLAG,
        help="Stop once every entrant is above the next one down, or level with it within "
        "--margin, by a sequential test (checked after each round, each block with "
        "--duplicate; the entrants of one bot, shrewd#1 and shrewd#2, are tested as one "
        f"bot); --rounds is the cap, {SETTLE_CAP} unless given (a close pair can need over "
        "300 rounds: docs/results.md).",
    ),
]
CorrectRandomOpt = Annotated[
    bool,
    typer.Option(
        "--correct-random",
        metavar=FLAG,
        help="Take the bundled random bot's luck out of the points the leaderboard rates: "
        "each of its choices is valued against the others it could have made, by playouts "
        "(AIVAT), which keeps every expected score. Truf classic: close pairs need about "
        "40% fewer deals, for about 4 ms of CPU a deal; target: under 10% fewer, for about "
        "25 ms (bench/aivat.py).",
    ),
]
MarginOpt = Annotated[
    float,
    typer.Option(
        "--margin",
        min=0.01,
        max=2.0,
        metavar="M",
        help="--until-settled: neighbours whose skills differ by less than M spreads of "
        "their points difference in one deal may be found level (smaller: finer, longer).",
    ),
]
BotsOpt = Annotated[
    list[str] | None,
    typer.Option("--bots", "-b", metavar="NAMES", help=bots_help()),
]


def _known_game(value: str) -> str:
    if value not in REGISTRY:
        raise typer.BadParameter(f"{value!r} is not one of: {', '.join(REGISTRY)}")
    return value


GameO = Annotated[
    str,
    typer.Option(
        "--game",
        "-g",
        metavar="GAME",
        callback=_known_game,
        help=f"The game: {' or '.join(REGISTRY)}.",
    ),
]
DealsFileO = Annotated[
    Path | None,
    typer.Option(
        "--deals-file",
        metavar="FILE",
        help="Play these deals first (Truf and Ruff and Trump: deals; Truco: hands), one "
        "JSON object per line: see docs/results.md.",
    ),
]
SeedO = Annotated[
    int | None,
    typer.Option(
        "--seed",
        metavar="N",
        help="Derive the schedule, the deals and the bots' seeds from this number, to repeat "
        "a run while developing bots. Bots that know the number can see every hand, so leave "
        "it out for an event: without it every run deals from a fresh secret.",
        show_default="a fresh secret",
    ),
]
ResultsO = Annotated[
    Path | None,
    typer.Option(
        "--results", metavar="DIR", help="Write the run's files directly into this directory."
    ),
]
TimeoutO = Annotated[
    float,
    typer.Option(
        "--decision-timeout",
        metavar="SECONDS",
        callback=_finite("decision_timeout", positive=True),
        help="Seconds a bot has per decision.",
    ),
]
TimeBankO = Annotated[
    float,
    typer.Option(
        "--time-bank",
        metavar="SECONDS",
        callback=_finite("time_bank"),
        help="Extra seconds per bot per match that slow decisions may draw on (0: none).",
    ),
]
TlsCertO = Annotated[
    Path | None,
    typer.Option("--tls-cert", metavar="FILE", help="Serve over TLS with this PEM certificate."),
]
TlsKeyO = Annotated[
    Path | None, typer.Option("--tls-key", metavar="FILE", help="The certificate's PEM key.")
]
GraceO = Annotated[
    float,
    typer.Option(
        "--grace",
        metavar="SECONDS",
        callback=_finite("grace"),
        help="Seconds a bot whose connection dropped has to come back; after that it "
        "forfeits its remaining matches (played on by the fallback).",
    ),
]
StrikesO = Annotated[
    int,
    typer.Option(
        "--strikes",
        min=1,
        metavar="N",
        help="Faults in one match before a bot is disqualified from it.",
    ),
]
ListenO = Annotated[
    str,
    typer.Option(
        "--listen", metavar="HOST:PORT", help="Address of the referee (port 0: any free port)."
    ),
]


def _game(game: str, given: dict[str, Any]) -> dict[str, Any]:
    """The RunConfig fields of the game and its options (``given``: those on the command
    line), checked in one place (``option_values``): another game's option, a value the
    game does not take, or values its rules refuse together are refused before anything
    is written."""
    return option_values(game, given)


def _rounds(rounds: int | None, until_settled: bool) -> int:
    """--rounds, or its default: 100, or with --until-settled the cap ``SETTLE_CAP`` (an
    honest sequential test of close bots needs more than 100 rounds, issue 29)."""
    if rounds is not None:
        return rounds
    return SETTLE_CAP if until_settled else 100


def _common(
    rounds: int,
    deals_file: Path | None,
    seed: int | None,
    listen: str,
    decision_timeout: float,
    time_bank: float,
    grace: float,
    strikes: int,
    tls_cert: Path | None,
    tls_key: Path | None,
) -> dict[str, Any]:
    """The RunConfig fields that `tournament` and `serve` share, from their options."""
    return {
        "rounds": rounds,
        "deals_file": str(deals_file) if deals_file else None,
        "seed": seed,
        "listen": listen,
        "decision_timeout": decision_timeout,
        "time_bank": time_bank,
        "grace": grace,
        "tls_cert": str(tls_cert) if tls_cert else None,
        "tls_key": str(tls_key) if tls_key else None,
        "strikes": strikes,
    }


@app.command(cls=GameCommand)
@with_game_options
def tournament(
    ctx: typer.Context,
    *,
    rounds: RoundsOpt = None,
    bots: BotsOpt = None,
    game: GameO = "truf",
    deals_file: DealsFileO = None,
    seed: SeedO = None,
    results: ResultsO = None,
    in_process: Annotated[
        bool,
        typer.Option(
            "--in-process",
            metavar=FLAG,
            help="Play without a network: bots run inside this process.",
        ),
    ] = False,
    listen: ListenO = "127.0.0.1:0",
    decision_timeout: TimeoutO = 1.0,
    time_bank: TimeBankO = 0.0,
    grace: GraceO = 30.0,
    tls_cert: TlsCertO = None,
    tls_key: TlsKeyO = None,
    strikes: StrikesO = 3,
    duplicate: DuplicateOpt = False,
    until_settled: UntilSettledOpt = False,
    margin: MarginOpt = MARGIN,
    correct_random: CorrectRandomOpt = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", metavar=FLAG, help="No live display.")
    ] = False,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            metavar="N",
            help="--in-process: play matches in N processes (default: one per core; 1: all "
            "in this process). The results are the same for any N.",
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="auto|local|ADDRESS",
            help="Play the in-process bots' matches on a Ray cluster (pip install "
            "'truf-arena[ray]'): auto finds a running one, local starts one here.",
        ),
    ] = None,
    ray_working_dir: Annotated[
        Path | None,
        typer.Option(
            "--ray-working-dir",
            metavar="DIR",
            help="With --ray: the folder sent to the cluster with the bots' code "
            "(default: the current folder).",
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            metavar="DIR",
            help="Continue the stopped or crashed run in DIR, with the options it was "
            "started with (saved in DIR/tournament.json); only --quiet, --workers and "
            "--ray may be added.",
        ),
    ] = None,
    game_options: dict[str, Any],
) -> None:
    """Run a round-robin tournament of the bundled (or given) bots and print the leaderboard."""
    from arena.play.runners import PlayOptions

    directory = resume or results or default_results_dir()
    play = PlayOptions(workers, ray, str(ray_working_dir) if ray_working_dir else None)
    in_process = in_process or ray is not None  # the bots of a Ray run are Python classes
    try:
        play.check()
        if resume is not None:
            _refuse_with_resume(ctx)
            config = load_config(resume)
            secret = run_secret(config, resume, resuming=True)
            dropped = repair(resume)
            note = f"; dropped {dropped} line(s) of unfinished matches" if dropped else ""
            done = len(finished_matches(resume))
            err.print(f"resuming {resume}: {done} finished matches kept{note}", markup=False)
            if _show_if_finished(config, resume, secret):  # no bot is started, none awaited
                return
            if config.external:
                _resume_served(config, resume, secret, quiet=quiet)
                return
        else:
            if in_process:
                _refuse_network_options(
                    listen, decision_timeout, time_bank, grace, tls_cert, tls_key
                )
            chosen = _game(game, game_options)
            specs = parse_bots(bots) if bots else list(game_entry(game).default_entrants(chosen))
            config = RunConfig(
                bots=specs,
                names=entrant_names_for(specs),
                transport="in-process" if in_process else "grpc",
                duplicate=duplicate,
                until_settled=until_settled,
            settle_margin=margin,
                correct_random=correct_random,
                **chosen,
                **_common(_rounds(rounds, until_settled), deals_file, seed, listen,
                          decision_timeout, time_bank, grace, strikes, tls_cert, tls_key),
            )  # fmt: skip
            check_fresh(directory)
            secret = run_secret(config, directory)
        run_tournament(
            config, directory, secret=secret, fresh=resume is None, quiet=quiet, play=play
        )
    except KeyboardInterrupt:
        raise interrupted(directory) from None
    except (ValueError, RuntimeError) as exc:  # RuntimeError: HostError (a bot failed to start)
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": ")) from None


# What --resume may be given with: how the rest is played and shown, never what is played.
RESUMABLE = ("resume", "quiet", "workers", "ray", "ray_working_dir")


def _refuse_with_resume(ctx: typer.Context) -> None:
    """A resumed run keeps the options it was started with (tournament.json): any other
    option given with --resume is refused, not silently ignored (issue 13.9)."""
    given = []
    for param in ctx.command.params:
        source = ctx.get_parameter_source(param.name or "")
        if param.name not in RESUMABLE and source and source.name == "COMMANDLINE":
            given.append(max(param.opts, key=len))  # --rounds, not -r
    if given:
        raise ConfigError(
            f"{', '.join(given)} cannot be changed when resuming: --resume DIR continues "
            "with the options saved in DIR/tournament.json (only --quiet, --workers and "
            "--ray may be added)"
        )


def _resume_served(config: RunConfig, directory: Path, secret: str, *, quiet: bool) -> None:
    """Continue an ``arena serve`` run: its bots are external, so wait for the same
    entrants to connect again (with their tokens, if the run used tokens); never start
    a bundled bot in their place (issue 13.11)."""
    from arena.referee.host import serve_tournament

    tokens = load_tokens(directory / config.tokens_file) if config.tokens_file else None
    check_listen(config.listen)
    tune_gc()
    err.print(
        f"waiting for this run's {len(config.bots)} entrants to connect again: "
        f"{', '.join(config.bots)}",
        highlight=False,
    )
    names = serve_tournament(
        config, len(config.bots), directory, console=out, secret=secret, quiet=quiet,
        tokens=tokens, resuming=True,
    )  # fmt: skip
    show_leaderboard(directory, names)
    _say_why_served_ended(config, directory, secret, names)


def _seed_warning(config: RunConfig) -> None:
    if config.duplicate:  # rules.md, house choice on duplicate deals
        err.print(
            "[yellow]warning[/]: --duplicate: each deal is played again with the hands "
            "rotated; a bot that remembers a deal knows every hand on its later rotations, "
            "and entrants that share what they see across a round's tables (which play the "
            "same deals at once) learn each other's hands (use it for bots you trust)",
            highlight=False,
        )
    if config.seed is not None:
        err.print(
            f"[yellow]warning[/]: --seed {config.seed}: every deal follows from this number; "
            "a bot that knows it can see every hand (use it to repeat runs, never in an event)",
            highlight=False,
        )


def _refuse_network_options(
    listen: str,
    decision_timeout: float,
    time_bank: float,
    grace: float,
    tls_cert: Path | None,
    tls_key: Path | None,
) -> None:
    """In-process bots have no connection and no clock: an option that would change how
    the referee listens or times bots cannot be honoured, so it is refused, not ignored."""
    base = RunConfig()
    given = [
        option
        for option, value, default in (
            ("--listen", listen, base.listen),
            ("--decision-timeout", decision_timeout, base.decision_timeout),
            ("--time-bank", time_bank, base.time_bank),
            ("--grace", grace, base.grace),
            ("--tls-cert", tls_cert, None),
            ("--tls-key", tls_key, None),
        )
        if value != default
    ]
    if given:
        raise ConfigError(
            f"{', '.join(given)} only appl{'ies' if len(given) == 1 else 'y'} over gRPC: "
            "in-process bots have no connection "
            "and no time limit; drop --in-process, or the option"
        )


def interrupted(directory: Path) -> typer.Exit:
    """Ctrl-C or SIGTERM: every finished match is already on disk; say so."""
    if not (directory / TOURNAMENT).exists():  # stopped before the tournament started
        err.print("[yellow]interrupted[/] before the tournament started: nothing to resume")
        return typer.Exit(130)
    done = len(finished_matches(directory))
    err.print(
        f"[yellow]interrupted[/]: {done} finished matches are saved in {escape(str(directory))}/; "
        f"continue with: arena tournament --resume {escape(str(directory))}"
    )
    return typer.Exit(130)


def run_tournament(
    config: RunConfig,
    directory: Path,
    *,
    secret: str,
    fresh: bool,
    quiet: bool,
    play: PlayOptions | None = None,
) -> None:
    """Play the run (``fresh``: a new one, else a resumed one) and show its leaderboard
    (``play``: where an in-process run plays its matches; None: one process per core)."""
    from arena.play.runners import PlayOptions

    play = play or PlayOptions()
    plan = make_plan(config, secret=secret)
    bots: dict[str, Any] = load_bots(config, secret) if config.transport == "in-process" else {}
    if config.transport == "in-process":
        runner = play.runner(bots, {e: config.spec_of(e) for e in plan.entrants})
    elif play != PlayOptions():
        raise ConfigError("--workers and --ray apply to --in-process play (gRPC bots run apart)")
    if config.transport == "grpc":  # a bot or an address that cannot work: say so before any file
        from arena.referee.host import check_launchable

        check_bot_names(config.bots, config.game)
        check_launchable(list(config.bots))
        check_listen(config.listen)
    if fresh:
        _seed_warning(config)
    done = finished_matches(directory)
    skip = frozenset(str(r["match"]) for r in done)
    if plan.stop is not None:
        for record in done:
            plan.stop.add(record)
    tune_gc()
    with ResultsWriter(directory) as writer:
        if fresh:
            save_secret(config, directory, secret)
        writer.write_config(tournament_json(config, plan, bots))
        total = len(plan.tables())
        dealt = "secret deals" if config.seed is None else f"seed {config.seed} (deals not secret)"
        out.print(
            f"[bold]Truf Arena[/] {_headline(config, plan)} · "
            f"{len(plan.entrants)} entrants · {config.rounds} rounds · {total} matches · "
            f"{dealt} · results in {escape(str(directory))}",
            highlight=False,
        )
        from arena.report.live import LiveDisplay

        run = run_ratings(plan)
        for record in done:
            run.add(record)
        display = LiveDisplay(out, total, plan.entrants, done=len(skip), run=run)
        if config.transport == "in-process":
            from arena.play.loading import BotErrorReport
            from arena.play.tournament import run_in_process

            with display if not quiet else _Null():
                run_in_process(
                    plan,
                    bots,
                    writer,
                    skip=skip,
                    on_match=lambda p: display.update(
                        p.outcome.record, p.decisions, show=not quiet
                    ),
                    on_bot_error=BotErrorReport(),
                    runner=runner,
                )
        else:
            from arena.referee.host import run_hosted_tournament

            with display if not quiet else _Null():
                run_hosted_tournament(
                    config, plan, writer, skip=skip, display=display if not quiet else run
                )
    show_leaderboard(directory, plan.entrants, run=run)
    if plan.stop is not None:
        _say_why_it_ended(plan.stop, directory)


def _show_if_finished(config: RunConfig, directory: Path, secret: str) -> bool:
    """A resumed run with nothing left to play shows its results, as at its end."""
    plan = make_plan(config, secret=secret)
    if not _finished(plan, directory):
        return False
    err.print(f"the run in {directory} is finished; its results:", markup=False)
    show_leaderboard(directory, plan.entrants)
    if plan.stop is not None:
        _say_why_it_ended(plan.stop, directory, replay=True)
    return True


def _finished(plan: Any, directory: Path) -> bool:
    """Whether a resumed run has nothing left to play: every match of its schedule is on
    disk, or (--until-settled) the order settled after its last finished round and only
    later rounds are left. ``plan.stop`` is left as a fresh one (``_say_why_it_ended``)."""
    done = finished_matches(directory)
    skip = {str(r["match"]) for r in done}
    left = [t for t in plan.tables() if t.match_id not in skip]
    if not left:
        return True
    if plan.stop is None or not done:
        return False
    probe = copy.deepcopy(plan.stop)  # stop_before rates rounds: keep the plan's own unused
    for record in done:
        probe.add(record)
    played = max(int(r["round"]) for r in done)
    return probe.stop_before(played + 1) and all(t.round > played for t in left)


def _say_why_it_ended(stop: Any, directory: Path, *, replay: bool = False) -> None:
    """With --until-settled: whether the order settled or the cap (--rounds) was reached.
    ``replay``: ``stop`` has seen no match yet, so give it every finished one first."""
    done = finished_matches(directory)
    if replay:
        for record in done:
            stop.add(record)
    played = max((int(r["round"]) for r in done), default=0)
    out.print(stop.verdict(played), markup=False, highlight=False)


def _headline(config: RunConfig, plan: Any) -> str:
    """What the header line says of the game: Truf's variant ("classic"), else the game's
    name and its rules ("truco 4 seats · to 30 points")."""
    entry = game_entry(config.game)
    rules = entry.headline(plan.game)
    return rules if entry.name == "truf" else f"{entry.name} {rules}"


class _Null:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def run_ratings(plan: Any) -> Any:
    """The run's one rating (``arena.standings.runratings.RunRatings``), shared by the live display,
    --until-settled, the leaderboard and the report: --until-settled's own when it has one."""
    from arena.standings.runratings import RunRatings

    if plan.stop is not None:
        return plan.stop.run
    return RunRatings((t.round, t.table, t.match_id) for t in plan.tables())


def show_leaderboard(
    directory: Path, entrants: list[str] | None = None, *, run: Any = None
) -> None:
    """Write and show the leaderboard (and the report) of the run in ``directory``;
    ``run``: the run's ``RunRatings``, so that no match is rated twice (None: rate the
    results file)."""
    from arena.report.console import leaderboard_table
    from arena.standings.leaderboard import build_leaderboard, write_csv, write_json

    records = finished_matches(directory)
    ratings = run.finish(records) if run is not None else None
    if ratings is not None and run.matches() != {str(r["match"]) for r in records}:
        ratings = None  # it rated a match the file does not hold: rate the file's
    rows = build_leaderboard(records, entrants, game=load_config(directory).game, ratings=ratings)
    write_csv(rows, directory / "leaderboard.csv")
    write_json(rows, directory / "leaderboard.json", {"matches": len(records)})
    out.print(leaderboard_table(rows, title=f"Leaderboard · {len(records)} matches"))
    out.print(f"saved in {directory}/", markup=False, highlight=False)
    _write_report(directory, run)


def _write_report(directory: Path, run: Any = None) -> None:
    """The run's HTML report; the run's results stand without it, so a failure warns.
    ``run``: the run's finished ``RunRatings``, whose rating history the report shows."""
    from arena.report.html import write_report

    try:
        path = write_report(directory, run=run)
        out.print(f"report: {path}", markup=False, highlight=False)
    except (ValueError, OSError) as exc:
        err.print(f"[yellow]warning[/]: no report: {escape(str(exc))}", highlight=False)


@app.command(cls=GameCommand)
@with_game_options
def serve(
    ctx: typer.Context,
    *,
    entrants: Annotated[
        int,
        typer.Option(
            "--entrants",
            "-n",
            min=0,
            metavar="N",
            help="Wait for this many bots, then run the tournament (with --tokens: one per token).",
        ),
    ] = 0,
    tokens_file: Annotated[
        Path | None,
        typer.Option(
            "--tokens",
            metavar="FILE",
            help="Admit only these entrants: one 'NAME TOKEN' per line.",
        ),
    ] = None,
    issue: Annotated[
        bool,
        typer.Option(
            "--issue-tokens",
            metavar=FLAG,
            help="Make a token per entrant (entrant1, ...), save them in the results "
            "directory's tokens.txt and admit only those.",
        ),
    ] = False,
    rounds: RoundsOpt = None,
    game: GameO = "truf",
    deals_file: DealsFileO = None,
    seed: SeedO = None,
    results: ResultsO = None,
    listen: ListenO = "127.0.0.1:50051",
    decision_timeout: TimeoutO = 1.0,
    time_bank: TimeBankO = 0.0,
    grace: GraceO = 30.0,
    tls_cert: TlsCertO = None,
    tls_key: TlsKeyO = None,
    strikes: StrikesO = 3,
    duplicate: DuplicateOpt = False,
    until_settled: UntilSettledOpt = False,
    margin: MarginOpt = MARGIN,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", metavar=FLAG, help="No live display.")
    ] = False,
    game_options: dict[str, Any],
) -> None:
    """Host a referee for external bots: wait for N to connect, then run the tournament."""
    from arena.referee.host import serve_tournament

    directory = results or default_results_dir()
    try:
        config = RunConfig(
            bots=[],  # the bots that connect
            transport="grpc",
            external=True,
            duplicate=duplicate,
            until_settled=until_settled,
            settle_margin=margin,
            **_game(game, game_options),
            **_common(_rounds(rounds, until_settled), deals_file, seed, listen,
                      decision_timeout, time_bank, grace, strikes, tls_cert, tls_key),
        )  # fmt: skip
        tokens = None
        if tokens_file is not None and issue:
            raise ValueError("give --tokens FILE or --issue-tokens, not both")
        if tokens_file is not None:
            tokens = load_tokens(tokens_file)
            config.tokens_file = str(tokens_file.resolve())  # a resumed run reads it again
        elif issue:
            tokens = issue_tokens(entrants)
            config.tokens_file = "tokens.txt"  # in the results directory, wherever it moves
        if tokens is not None:
            if entrants and entrants != len(tokens):
                raise ValueError(f"--entrants {entrants}, but there are {len(tokens)} tokens")
            entrants = len(tokens)
        if not entrants:
            raise ValueError("say how many bots to wait for: --entrants N (or --tokens FILE)")
        # Check every option now, not after the bots have come.
        names_now = (
            list(tokens.values()) if tokens else [f"entrant{i + 1}" for i in range(entrants)]
        )
        secret = run_secret(config, directory)
        make_plan(
            dataclasses.replace(config, bots=names_now), secret=secret, entrants_option="--entrants"
        )
        check_fresh(directory)
        check_writable(directory)
        check_listen(config.listen)
        _seed_warning(config)
        if issue and tokens:
            write_tokens(directory / "tokens.txt", tokens)
            out.print(
                f"tokens for {entrants} entrants (also in {directory / 'tokens.txt'}):",
                markup=False,
            )
            for token, name in tokens.items():
                out.print(f"  {name} {token}", markup=False, highlight=False)
        tune_gc()
        names = serve_tournament(
            config, entrants, directory, console=out, secret=secret, quiet=quiet, tokens=tokens
        )
    except KeyboardInterrupt:
        raise interrupted(directory) from None
    except ValueError as exc:
        raise fail(str(exc)) from None
    except (OSError, RuntimeError) as exc:
        raise fail(str(exc)) from None
    show_leaderboard(directory, names)
    _say_why_served_ended(config, directory, secret, names)


def _say_why_served_ended(
    config: RunConfig, directory: Path, secret: str, names: list[str]
) -> None:
    """``_say_why_it_ended`` for a served run, whose plan lives in the referee."""
    if config.until_settled:
        plan = make_plan(dataclasses.replace(config, bots=names), secret=secret)
        _say_why_it_ended(plan.stop, directory, replay=True)


@app.command()
def bot(
    ctx: typer.Context,
    name: Annotated[
        str,
        typer.Argument(
            metavar="BOT",
            help="A bundled bot of the game (Truf: random, greedy, planner, tracker, pimc, js; "
            "Truco: random, basic, shrewd; Ruff: random, steady, sharp) or module:Class.",
        ),
    ],
    *,
    game: GameO = "truf",
    connect: Annotated[
        str, typer.Option("--connect", metavar="HOST:PORT", help="The referee's address.")
    ],
    token: Annotated[
        str,
        typer.Option(
            "--token", metavar="TOKEN", help="Your entrant token, if the organiser gave one."
        ),
    ] = "",
    seed: Annotated[
        str, typer.Option("--seed", metavar="SEED", help="Seed for a bot that uses randomness.")
    ] = "0",
    capacity: Annotated[
        int, typer.Option("--capacity", min=1, metavar="N", help="Tables to play at once.")
    ] = 1,
    tls_ca: Annotated[
        Path | None,
        typer.Option("--tls-ca", metavar="CERT", help="Connect with TLS, trusting this PEM."),
    ] = None,
    reconnect_file: Annotated[
        Path | None,
        typer.Option(
            "--reconnect-file",
            metavar="PATH",
            help="Keep the reconnect token here (owner-only): a restarted bot takes its "
            "seat back at once.",
        ),
    ] = None,
) -> None:
    """Run one bot against a referee (what `python -m bots.GAME.NAME --connect` does)."""
    from arena.play.run import load_bot
    from arena.sdk import BotRejected, read_ca, run
    from bots import EXTERNAL

    if name in EXTERNAL:  # a program in another language: run it as it is
        import subprocess

        from arena.referee.host import bot_command

        problem = EXTERNAL[name].problem()
        if problem:
            raise fail(problem)
        ca_path = str(tls_ca) if tls_ca else None
        command = bot_command(name, connect, token, seed, ca_path, capacity, game)
        if reconnect_file:
            command += ["--reconnect-file", str(reconnect_file)]
        raise typer.Exit(subprocess.call(command))
    try:
        source = ctx.get_parameter_source("game")
        given = source is not None and source.name == "COMMANDLINE"  # else the referee tells
        player = load_bot(name, seed, game, check_games=given)
        tls, keep = read_ca(tls_ca), reconnect_file
        run(player, connect, token=token, capacity=capacity, tls_ca=tls, reconnect_file=keep)
    except (ValueError, BotRejected, ConnectionError) as exc:
        raise fail(str(exc)) from None


@app.command()
def check(
    *,
    listen: Annotated[
        str,
        typer.Option("--listen", metavar="HOST:PORT", help="Address to wait on for your bot."),
    ] = "127.0.0.1:50051",
    decision_timeout: TimeoutO = 1.0,
    wait: Annotated[
        float,
        typer.Option(
            "--wait",
            metavar="SECONDS",
            callback=_finite("wait", least=1),
            help="Seconds to wait for the bot to connect.",
        ),
    ] = 300.0,
    game: Annotated[
        str,
        typer.Option("--game", metavar="truf|truco|ruff", help="The game to check the bot at."),
    ] = "truf",
) -> None:
    """Wait for one bot, play it through the rules' edge cases and report every problem."""
    from arena.play.signals import run_async
    from arena.referee.check import run_check

    try:
        check_listen(listen)
        report = run_async(
            run_check(
                listen,
                decision_timeout=decision_timeout,
                wait=wait,
                say=lambda text: out.print(text, markup=False, highlight=False),
                game=game,
            )
        )
    except KeyboardInterrupt:
        err.print("[yellow]interrupted[/]: the check was stopped")
        raise typer.Exit(130) from None
    except (ValueError, RuntimeError, OSError) as exc:
        raise fail(str(exc)) from None
    for f in report.findings:
        if f.ok:
            out.print(
                f"[green]✓[/] {escape(f'{f.case}: {f.text}')}", highlight=False, soft_wrap=True
            )
        else:
            out.print(f"[red]✗[/] {escape(f'{f.case}: {f.text}')}", highlight=False, soft_wrap=True)
            out.print(f"    {f.request}", markup=False, highlight=False, soft_wrap=True)
    failed = len(report.failed)
    total = len(report.findings)
    if failed:
        out.print(f"[red]{failed} of {total} checks failed[/]")
        raise typer.Exit(1)
    out.print(f"[green]all {total} checks passed[/]")


@app.command()
def edge(
    *,
    listen: Annotated[
        str,
        typer.Option("--listen", metavar="HOST:PORT", help="Address the bots dial."),
    ] = "0.0.0.0:50051",
    referee: Annotated[
        str,
        typer.Option(
            "--referee", metavar="unix:PATH", help="The referee's --listen (a Unix socket)."
        ),
    ] = "unix:arena.sock",
    tls_cert: TlsCertO = None,
    tls_key: TlsKeyO = None,
) -> None:
    """Run nginx in front of a referee for an internet event (see the README's threat model)."""
    from arena.referee.edge import run_edge

    try:
        if (tls_cert is None) != (tls_key is None):
            raise ValueError("TLS needs both --tls-cert and --tls-key")
        tls = (tls_cert, tls_key) if tls_cert and tls_key else None
        code = run_edge(listen, referee, tls)
    except (ValueError, OSError) as exc:
        raise fail(str(exc)) from None
    raise typer.Exit(code)


@app.command()
def leaderboard(
    directory: Annotated[
        Path, typer.Argument(metavar="DIR", help="A results directory (results/<run>/).")
    ],
    *,
    format: Annotated[
        Format,
        typer.Option(
            "--format", "-f", metavar="FORMAT", help="Output format: table, csv, json or markdown."
        ),
    ] = Format.table,
) -> None:
    """Re-render a saved leaderboard from a results directory."""
    from arena.report.console import leaderboard_table
    from arena.standings.leaderboard import (
        build_leaderboard,
        load_matches,
        to_csv,
        to_json,
        to_markdown,
    )

    try:
        matches_path = directory / "matches.jsonl"
        if not directory.is_dir():
            raise ValueError(f"{directory} is not a directory")
        if not matches_path.exists():
            raise ValueError(f"{directory} is not a results directory: no matches.jsonl")
        records = load_matches(matches_path)
        entrants, game = None, None
        with contextlib.suppress(ValueError):  # no tournament.json: names from the matches
            config = load_config(directory)
            entrants, game = config.entrants(), config.game
        rows = build_leaderboard(records, entrants, game=game)
    except ValueError as exc:
        raise fail(str(exc)) from None
    if format is Format.table:
        out.print(
            leaderboard_table(rows, title=f"Leaderboard · {len(records)} matches · {directory}")
        )
    elif format is Format.markdown:
        sys.stdout.write(to_markdown(rows))
    elif format is Format.csv:
        sys.stdout.write(to_csv(rows))
    else:
        sys.stdout.write(to_json(rows, {"matches": len(records)}))


@app.command()
def report(
    directory: Annotated[
        Path, typer.Argument(metavar="DIR", help="A results directory (results/<run>/).")
    ],
) -> None:
    """Write DIR/report.html: leaderboard, rating charts, head to head, per-entrant
    statistics, faults and a replay viewer, in one file that opens offline."""
    from arena.report.html import write_report

    try:
        path = write_report(directory)
    except ValueError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        where = exc.filename or directory
        raise fail(f"cannot write the report: {exc.strerror or exc}: {where}") from None
    out.print(str(path), markup=False, highlight=False)


@app.command()
def verify(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="A results directory to audit.")],
) -> None:
    """Replay every logged deal through the engine and check each result against the rulings;
    where the run's secret (or --seed) is known, check that it deals the logged hands."""
    from arena.core.replaycheck import ReplayMismatch, group_by_match
    from arena.core.seeding import deal_key
    from arena.games.registry import record_game
    from arena.standings.results import REPLAYS, read_jsonl_numbered

    try:
        if not directory.is_dir():
            raise ValueError(f"{directory} is not a directory")
        path = directory / REPLAYS
        lines = read_jsonl_numbered(path)
        if not lines:
            raise ValueError(f"no replays to check in {directory} ({REPLAYS} is missing or empty)")
        games = {record_game(rec) for _, rec in lines}
        if len(games) > 1:
            several = ", ".join(sorted(games))
            raise ValueError(f"{path} mixes the records of several games: {several}")
        entry = game_entry(games.pop())
        deals, matches = entry.replay_log(lines, str(path))
        secret = _known_secret(directory)
        dealt = 0
        if secret is not None:
            for match_id, recs in group_by_match(rec for _, rec in lines).items():
                block = recs[0].get("block") if recs else None  # a duplicate run's
                if block is not None and (not isinstance(block, int) or block < 1):
                    raise ValueError(f"{path}: match {match_id}: bad block {block!r}")
                dealt += entry.check_dealt(recs, deal_key(secret, match_id, block))
        placed, lucky = _check_match_lines(directory, lines)
    except ReplayMismatch as exc:
        raise fail(f"replay mismatch: {exc}") from None
    except ValueError as exc:
        raise fail(str(exc)) from None
    word = entry.deal_word  # a Truco deal is a hand
    out.print(f"[green]ok[/]: {deals} {word}s in {matches} matches replay exactly")
    if placed:
        out.print(f"[green]ok[/]: {placed} match lines place offenders last (docs/results.md)")
    if lucky:
        out.print(f"[green]ok[/]: the random bot's luck in {lucky} {word}s is the replays'")
    if secret is not None:
        out.print(f"[green]ok[/]: {dealt} dealt {word}s are the ones the run's secret deals")
    else:
        out.print("the run's secret is not in this directory: the deals were not re-dealt")


def _check_match_lines(directory: Path, lines: Any) -> tuple[int, int]:
    """matches.jsonl's places, disqualifications and luck (``arena.standings.matchcheck``):
    the lines and the deals checked; (0, 0) without it."""
    from arena.core.replaycheck import group_by_match
    from arena.standings.leaderboard import ResultsError, load_matches
    from arena.standings.matchcheck import check_luck, check_places, check_replayed
    from arena.standings.results import MATCHES

    path = directory / MATCHES
    if not path.exists():
        return 0, 0
    try:
        records = load_matches(path)
    except ResultsError as exc:
        raise ValueError(str(exc)) from None
    deals = group_by_match(rec for _, rec in lines)
    check_replayed(path, records, deals)
    return check_places(path, records), check_luck(path, records, deals, _corrected(directory))


def _corrected(directory: Path) -> frozenset[str] | None:
    """The entrants whose luck the run in ``directory`` takes out (``--correct-random``;
    empty when it does not), or None when its options are not there to say."""
    if not (directory / TOURNAMENT).exists():
        return None
    config = load_config(directory)
    if not config.correct_random:
        return frozenset()
    return uniform_entrants(config, config.entrants())


def _known_secret(directory: Path) -> str | None:
    """The run's secret, if this directory can tell it (its secret file, or --seed)."""
    if saved_randomness(directory) is None:  # no tournament.json, or from an older arena
        return None
    config = load_config(directory)
    if config.seed is None and not (directory / SECRET).exists():
        return None
    return run_secret(config, directory, resuming=True)


app.add_typer(__import__("arena.ladder.commands", fromlist=["app"]).app, name="ladder")


def main() -> None:
    stop_on_sigterm()  # as Ctrl-C, even where SIGINT is ignored (arena.play.signals)
    app()


if __name__ == "__main__":
    main()
