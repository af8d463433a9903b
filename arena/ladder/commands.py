"""``arena ladder ...``: create a ladder, manage its entrants, run it, export it.

A typer sub-app of its own, added to ``arena.cli`` by one line. Every mistake is one line
on stderr and exit code 1; Ctrl-C or SIGTERM stops ``run`` (exit 130), and a ``kill -9``
loses only the matches in play.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from arena.games.registry import REGISTRY, game_entry
from arena.ladder.store import Store
from arena.play.run import (
    CONFIG_SCHEMA,
    ConfigError,
    RunConfig,
    check_listen,
    split_listen,
    versions,
)
from arena.standings.results import (
    MATCHES,
    REPLAYS,
    SECRET,
    TOURNAMENT,
    ResultsDirError,
    write_json_atomic,
)

app = typer.Typer(
    name="ladder",
    help="A ladder that never ends: bots connect when they like, matches are made "
    "continuously, results live in DIR/ladder.db, a live web page shows it all.",
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    add_completion=False,
)
out = Console(width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True, soft_wrap=True)

DirArg = Annotated[Path, typer.Argument(metavar="DIR", help="The ladder's directory.")]
NameArg = Annotated[str, typer.Argument(metavar="NAME", help="The entrant's name.")]


def fail(message: str) -> typer.Exit:
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    return typer.Exit(1)


def _open(directory: Path) -> Store:
    return Store(directory)


# Each game's own options, as `arena tournament` names them (arena.games REGISTRY).
_GAME_OPTIONS = {o.flag for entry in REGISTRY.values() for o in entry.options}


@app.command()
def init(
    ctx: typer.Context,
    directory: DirArg,
    *,
    game: Annotated[
        str, typer.Option("--game", "-g", metavar="GAME", help=f"{' | '.join(REGISTRY)}")
    ] = "truf",
    variant: Annotated[str, typer.Option(help="Truf: classic or target.")] = "classic",
    scoring: Annotated[str, typer.Option(help="Truf classic: 1, 2, 3 or 2+3 (C13).")] = "1",
    multiplier: Annotated[int, typer.Option(min=1, help="Truf: methods 3, 2+3 (C13).")] = 2,
    deals: Annotated[int, typer.Option(min=0, help="Truf: deals per match (0: default).")] = 0,
    seats: Annotated[int, typer.Option(help="Truco: 2, 4 or 6 (R2); Ruff single: 2-4.")] = 4,
    points: Annotated[int, typer.Option(help="Truco: 30 or 15 (R11).")] = 30,
    form: Annotated[str, typer.Option(help="Ruff: double or single (F1).")] = "double",
    alt_deals: Annotated[bool, typer.Option("--alt-deals", help="Ruff: F2's deals.")] = False,
    decision_timeout: Annotated[
        float, typer.Option(min=0.001, metavar="SECONDS", help="Seconds per decision.")
    ] = 1.0,
    time_bank: Annotated[float, typer.Option(min=0.0, metavar="SECONDS")] = 0.0,
    grace: Annotated[
        float,
        typer.Option(
            min=0.0,
            metavar="SECONDS",
            help="A bot away longer than this in a match forfeits the rest of it.",
        ),
    ] = 30.0,
    strikes: Annotated[int, typer.Option(min=1, help="Faults before disqualification.")] = 3,
) -> None:
    """Create a ladder in DIR (its database DIR/ladder.db) for one game and its options."""
    try:
        entry = game_entry(game)
        given = {
            max(p.opts, key=len)
            for p in ctx.command.params
            if (source := ctx.get_parameter_source(p.name or "")) and source.name == "COMMANDLINE"
        }
        foreign = sorted((given & _GAME_OPTIONS) - {o.flag for o in entry.options})
        if foreign:
            raise ConfigError(f"{foreign[0]} is not an option of {entry.title} (--game {game})")
        config = RunConfig(
            bots=[],
            game=game,
            variant=variant,
            scoring=scoring,
            multiplier=multiplier,
            deals=deals,
            seats=seats,
            points=points,
            form=form,
            alt_deals=alt_deals,
            decision_timeout=decision_timeout,
            time_bank=time_bank,
            grace=grace,
            strikes=strikes,
            external=True,
        )
        values = {o.field: getattr(config, o.field) for o in entry.options}
        for o in entry.options:  # each value, then the values together (the game's rulings)
            o.check(values[o.field])
        entry.check_options(values, frozenset(o.field for o in entry.options if o.flag in given))
        config.make_game()  # and the game's rules refuse what is left now
        store = Store.create(directory, config.to_json())
        store.close()
    except (ValueError, OSError) as exc:
        raise fail(str(exc)) from None
    out.print(f"ladder for {entry.title} created in {directory}", markup=False, highlight=False)


@app.command()
def add(directory: DirArg, name: NameArg) -> None:
    """Register an entrant; prints its token once (the ladder keeps only a hash)."""
    try:
        store = _open(directory)
        token = store.add(name)
        store.close()
    except (ValueError, OSError) as exc:
        raise fail(str(exc)) from None
    out.print(f"{name} {token}", markup=False, highlight=False)
    err.print(
        "give the bot this token (--token); it is shown only now", markup=False, highlight=False
    )


def _set_status(directory: Path, name: str, status: str, reason: str) -> None:
    try:
        store = _open(directory)
        store.set_status(name, status, reason)
        store.close()
    except (ValueError, OSError) as exc:
        raise fail(str(exc)) from None
    out.print(f"{name}: {status}; its history stays", markup=False, highlight=False)


@app.command()
def remove(directory: DirArg, name: NameArg) -> None:
    """Take an entrant off the ladder (it can no longer connect); its history stays."""
    _set_status(directory, name, "removed", "")


@app.command()
def ban(
    directory: DirArg,
    name: NameArg,
    reason: Annotated[str, typer.Option(help="Told to the bot when it is refused.")] = "",
) -> None:
    """Ban an entrant: disconnected now and refused from now on; its history stays."""
    _set_status(directory, name, "banned", reason)


@app.command()
def run(
    directory: DirArg,
    *,
    listen: Annotated[
        str, typer.Option(metavar="HOST:PORT", help="Where bots connect (gRPC).")
    ] = "127.0.0.1:50051",
    http: Annotated[
        str, typer.Option(metavar="HOST:PORT", help="Where the web page is served.")
    ] = "127.0.0.1:8080",
) -> None:
    """Run the ladder until stopped: bots connect with their tokens whenever they like."""
    from arena.ladder.service import LadderService
    from arena.play.run import tune_gc
    from arena.play.signals import run_async

    try:
        split_listen(http)
        check_listen(listen)
        check_listen(http)
        service = LadderService(directory, listen=listen, http=http)
    except (ValueError, OSError) as exc:
        raise fail(str(exc)) from None

    def ready(s: Any) -> None:
        host = split_listen(listen)[0]
        web = split_listen(http)[0]
        # One plain line (never wrapped): scripts and tests read the ports from it.
        print(
            f"ladder {directory}: {s.state.matches} matches so far; bots connect to "
            f"{host}:{s.grpc_port}, the page is http://{web}:{s.http_port}/",
            flush=True,
        )

    tune_gc()
    try:
        run_async(service.run(on_ready=ready))
    except KeyboardInterrupt:
        err.print(
            f"stopped; {service.state.matches} matches are recorded in {directory}",
            markup=False,
            highlight=False,
        )
        raise typer.Exit(130) from None
    except OSError as exc:
        raise fail(str(exc)) from None


@app.command()
def export(
    directory: DirArg,
    target: Annotated[Path, typer.Argument(metavar="OUT", help="A new results directory.")],
    *,
    with_secret: Annotated[
        bool,
        typer.Option(
            "--with-secret",
            help="Also write the ladder's secret, so that `arena verify` re-deals every deal. "
            "It predicts every future deal of the ladder: for a ladder that is over.",
        ),
    ] = False,
) -> None:
    """Write the ladder's finished matches as a results directory (docs/results.md), for
    `arena verify`, `arena report` and `arena leaderboard`."""
    try:
        store = _open(directory)
        if target.exists() and any(target.iterdir()):
            raise ResultsDirError(f"{target} is not empty; export into a new directory")
        count = export_results(store, target, with_secret=with_secret)
        store.close()
    except (ValueError, OSError) as exc:
        raise fail(str(exc)) from None
    out.print(f"{count} matches exported to {target}", markup=False, highlight=False)


def export_results(store: Store, target: Path, *, with_secret: bool = False) -> int:
    """The results directory of a ladder: tournament.json, matches.jsonl and replays.jsonl
    (in the order the matches finished, which is their ``round``). The replays hold every
    hand, so a directory made here is its owner's alone (0700) and the two line files are
    created 0600 (docs/ladder.md, "What is public")."""
    from arena.core.files import open_private, private_dir, write_secret
    from arena.standings.results import dumps

    private_dir(target)
    config = RunConfig.from_json(store.game_config())
    labels = sorted(store.versions())
    config.bots = labels
    config.names = labels
    count = 0
    with (
        open_private(target / MATCHES, "w") as matches,
        open_private(target / REPLAYS, "w") as replays,
    ):
        for record in store.records():
            matches.write(dumps(record) + "\n")
            count += 1
        for _, lines in store.replays():
            replays.write(lines.decode("utf-8"))
    game = config.make_game()
    write_json_atomic(
        target / TOURNAMENT,
        {
            "schema": CONFIG_SCHEMA,
            "config": config.to_json(),
            "game": game.describe(),
            "seed": None,
            "randomness": "secret",
            "entrants": [{"name": n, "bot": n, "version": n.partition("@")[2]} for n in labels],
            "matches": count,
            "versions": versions(),
            "ladder": str(store.dir.resolve()),
        },
    )
    if with_secret:
        write_secret(target / SECRET, store.secret() + "\n")
    return count
