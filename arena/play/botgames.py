"""Which games a Python bot plays: its ``games`` attribute, checked the same way wherever
the bot is loaded.

Over gRPC a bot says its games in ``Hello.games`` and the referee refuses one that does
not list the tournament's game. In-process there is no hello, so the arena checks the
same attribute when it loads the bot (``arena.play.run.load_bot``): a Truco bot that forgot
``games = ("truco",)`` fails before it plays, in one line that says what to add, whether
it plays in-process, is launched by ``arena tournament`` or runs as ``arena bot`` /
``python -m arena.sdk``.
"""

from __future__ import annotations

import inspect

from arena.play.loading import BotLoadError, _shown

DEFAULT_GAMES = ("truf",)  # arena.proto: a Hello without games means ["truf"]


def declared_games(bot: object) -> tuple[str, ...]:
    """The games ``bot`` (an instance or its class) declares: its ``games`` attribute,
    Truf alone by default (``arena.bot.BaseBot``). A bare string counts as one game."""
    games = getattr(bot, "games", DEFAULT_GAMES)
    if isinstance(games, str):
        return (games,)
    try:
        return tuple(str(g) for g in games)
    except TypeError:  # not iterable: it declares nothing usable
        return ()


def what_to_add(game: str) -> str:
    """The line a Python bot's class needs to play ``game``."""
    return f"games = ({game!r},)".replace("'", '"')


def check_plays(bot: object, game: str, spec: str) -> None:
    """Refuse ``bot`` (loaded from ``spec``) for a ``game`` tournament it does not
    declare, with the line to add: the in-process twin of the referee's hello check."""
    games = declared_games(bot)
    if game in games:
        return
    cls = bot if isinstance(bot, type) else type(bot)
    shown = ", ".join(games) if games else "none"
    try:
        source = inspect.getsourcefile(cls)
    except TypeError:  # a class without a file (built in C)
        source = None
    where = f" in {_shown(source)}" if source else ""
    raise BotLoadError(
        f"bot {spec!r} does not play {game} (its games: {shown}); "
        f"add {what_to_add(game)} to class {cls.__name__}{where}"
    )


def hello_games_hint(game: str) -> str:
    """What the referee adds when it refuses a hello for its game: what to send instead,
    in any language, and the line a Python bot's class needs."""
    return f'; list "{game}" there (a Python bot: {what_to_add(game)} in its class)'
