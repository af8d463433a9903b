"""The registry: every game this arena plays, by name, and what the arena asks of it.

The referee, the scheduler, the ratings and the CLI know games only through ``Game``
and ``Match`` (``arena.core.game``) and the ``GameEntry`` each game defines in its own
folder (``arena/games/<game>/entry.py``): a game joins by adding its entry here, one
line. This is the one module outside a game's folder that imports it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.core.game import (
    DuplicateGame,
    Game,
    GameEntry,
    GameOption,
    Match,
    SeatOutcome,
    StatColumn,
)
from arena.games.ruff.entry import ENTRY as RUFF
from arena.games.truco.entry import ENTRY as TRUCO
from arena.games.truf.entry import ENTRY as TRUF
from arena.games.truf.game import TrufGame

__all__ = [
    "GAMES",
    "REGISTRY",
    "DuplicateGame",
    "Game",
    "GameEntry",
    "GameOption",
    "Match",
    "SeatOutcome",
    "StatColumn",
    "TrufGame",
    "game_entry",
    "make_game",
    "option_values",
    "record_game",
]

REGISTRY: dict[str, GameEntry] = {entry.name: entry for entry in (TRUF, TRUCO, RUFF)}


def make_game(name: str = "truf", *, rules: Any = None, deals: Sequence[Any] = ()) -> Game:
    """The game ``name`` (a ``REGISTRY`` key) under ``rules`` (that game's rules class,
    or its defaults), playing the given ``deals`` first (that game's deal specs)."""
    entry = game_entry(name)
    if rules is not None and not isinstance(rules, entry.rules_type):
        raise ValueError(
            f"{entry.title} takes {entry.rules_type.__name__}, not {type(rules).__name__}"
        )
    return entry.make(rules if rules is not None else entry.rules_type(), tuple(deals))


GAMES = tuple(REGISTRY)  # every game this arena plays, by name


def game_entry(name: str) -> GameEntry:
    """The registry entry of game ``name``; a ValueError naming the games otherwise."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise ValueError(
            f"unknown game {name!r}; this arena plays: {', '.join(REGISTRY)}"
        ) from None


def record_game(record: Mapping[str, Any]) -> str:
    """The game a results line belongs to (lines written before Truco have no "game")."""
    game = record.get("game", "truf")
    return game if isinstance(game, str) else repr(game)


def option_owners(flag: str) -> list[GameEntry]:
    """The games that take the option ``flag``, in registry order."""
    return [entry for entry in REGISTRY.values() if entry.option(flag) is not None]


def option_values(game: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The RunConfig fields of a run of ``game`` whose command line gave the options
    ``given`` (flag -> value): ``game`` and every one of its options, given or default.
    The one place game options are checked: an option of another game, a value that is
    not one of the option's, and values the game refuses together are each a ValueError
    of one line naming the option (before anything is written)."""
    entry = game_entry(game)
    for flag in given:
        if entry.option(flag) is None:
            owners = [other.title for other in option_owners(flag)]
            raise ValueError(
                f"{flag} is a {' option and a '.join(owners)} option; a {entry.title} "
                f"tournament (--game {entry.name}) does not take it"
            )
    values = entry.option_defaults()
    fields = set()
    for flag, value in given.items():
        option = entry.option(flag)
        assert option is not None  # every given option is the game's: checked above
        option.check(value)
        values[option.field] = value
        fields.add(option.field)
    entry.check_options(values, frozenset(fields))
    return {"game": entry.name, **values}
