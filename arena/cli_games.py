"""The game options of ``arena tournament`` and ``arena serve``, built from the registry.

Each game declares its options in its entry (``GameEntry.options``, in its own folder);
``with_game_options`` turns them into the command's options, one per flag (a flag two
games share, such as ``--seats``, is one option whose help says what each game takes),
and hands the command what was given on its command line, for
``arena.games.registry.option_values`` to check in one place. ``GameCommand`` makes
``arena tournament --game truco --help`` show Truco's options and bots only.
"""

from __future__ import annotations

import copy
import functools
import inspect
import typing
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperCommand

from arena.games.registry import REGISTRY, GameOption

# The flags of every game's options, in registry order: flag -> (field, the games' options).
FLAGS: dict[str, tuple[str, list[tuple[str, GameOption]]]] = {}
for _entry in REGISTRY.values():
    for _option in _entry.options:
        _field, _owners = FLAGS.setdefault(_option.flag, (_option.field, []))
        # One flag sets one RunConfig field, of one type, whichever game takes it.
        assert _field == _option.field and all(o.type is _option.type for _, o in _owners)
        _owners.append((_entry.title, _option))


def _shown_default(option: GameOption) -> str:
    return "" if option.type is bool else f" [default: {option.default}]"


def option_help(flag: str, game: str | None = None) -> str:
    """The help of ``flag``: what it chooses in ``game``, or in every game that takes it."""
    _, owners = FLAGS[flag]
    if game is not None:
        title = REGISTRY[game].title
        help = next(f"{o.help}.{_shown_default(o)}" for t, o in owners if t == title)
        return help[:1].upper() + help[1:]
    return " ".join(f"{title}: {o.help}.{_shown_default(o)}" for title, o in owners)


def bots_help(game: str | None = None) -> str:
    """The help of ``--bots``: the bundled bots of ``game``, or of every game."""
    from bots import bundled_names

    games = [REGISTRY[game]] if game is not None else list(REGISTRY.values())
    listed = "; ".join(f"{e.title}: {', '.join(bundled_names(e.name))}" for e in games)
    example = " (pimc:budget=0.5)" if game in (None, "truf") else ""
    return (
        f"Entrants, comma-separated: bundled bot names ({listed}) or module:Class, each with "
        f"any :NAME=VALUE options{example}. A repeated name gives separate entrants "
        "(random#1, random#2)."
    )


def _parameter(flag: str) -> inspect.Parameter:
    field, owners = FLAGS[flag]
    first = owners[0][1]
    least = next((o.least for _, o in owners if o.least is not None), None)
    metavars = dict.fromkeys(o.metavar for _, o in owners if o.metavar)
    if first.type is bool:
        annotation: Any = Annotated[
            bool, typer.Option(flag, metavar="", help=option_help(flag), show_default=False)
        ]
        return inspect.Parameter(field, inspect.Parameter.KEYWORD_ONLY, default=False,
                                 annotation=annotation)  # fmt: skip
    annotation = Annotated[
        first.type | None,  # None: not given, the game's default applies
        typer.Option(
            flag,
            metavar="|".join(metavars) if len(metavars) > 1 else next(iter(metavars), "VALUE"),
            min=least,
            help=option_help(flag),
            show_default=False,
        ),
    ]
    return inspect.Parameter(field, inspect.Parameter.KEYWORD_ONLY, default=None,
                             annotation=annotation)  # fmt: skip


def with_game_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``command`` (whose first parameter is its ``typer.Context``) with every game's
    options added after its ``game`` parameter; it gets those given on the command line
    as ``game_options`` (flag -> value)."""
    signature = inspect.signature(command)
    hints = typing.get_type_hints(command, include_extras=True)
    params: list[inspect.Parameter] = []
    for param in signature.parameters.values():
        if param.name == "game_options":
            continue
        params.append(param.replace(annotation=hints.get(param.name, param.annotation)))
        if param.name == "game":
            params.extend(_parameter(flag) for flag in FLAGS)

    @functools.wraps(command)
    def with_options(*args: Any, **kwargs: Any) -> Any:
        ctx: typer.Context = kwargs["ctx"] if "ctx" in kwargs else args[0]
        given = {}
        for flag, (field, _) in FLAGS.items():
            value = kwargs.pop(field)
            source = ctx.get_parameter_source(field)
            if source is not None and source.name == "COMMANDLINE":
                given[flag] = value
        return command(*args, game_options=given, **kwargs)

    del with_options.__wrapped__  # typer reads the signature below, not the command's
    with_options.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    with_options.__annotations__ = {p.name: p.annotation for p in params}
    with_options.__annotations__["return"] = hints.get("return")
    return with_options


def game_in(args: Sequence[str]) -> str | None:
    """The registered game that ``--game``/``-g`` names in ``args``, or None."""
    for i, arg in enumerate(args):
        if arg in ("--game", "-g") and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--game="):
            value = arg.removeprefix("--game=")
        elif arg.startswith("-g") and len(arg) > 2:
            value = arg[2:]
        else:
            continue
        return value if value in REGISTRY else None
    return None


class GameCommand(TyperCommand):
    """A command with game options whose ``--help`` after ``--game G`` shows G's options
    (with G's help and defaults) and G's bots only."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        ctx.meta["arena.args"] = list(args)  # for --help, which runs before --game is read
        return super().parse_args(ctx, args)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        ctx.meta["arena.help_game"] = game_in(ctx.meta.get("arena.args", ()))
        try:
            super().format_help(ctx, formatter)
        finally:
            ctx.meta.pop("arena.help_game", None)

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        game = ctx.meta.get("arena.help_game")
        if game is None:
            return params
        shown = []
        for param in params:
            flag = max(param.opts, key=len) if param.opts else ""
            if flag in FLAGS:
                if REGISTRY[game].option(flag) is None:
                    continue  # another game's option
                param = copy.copy(param)
                param.help = option_help(flag, game)  # type: ignore[attr-defined]
            elif flag == "--bots":
                param = copy.copy(param)
                param.help = bots_help(game)  # type: ignore[attr-defined]
            shown.append(param)
        return shown
