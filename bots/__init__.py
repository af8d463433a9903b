"""The bundled bots: one package per game, ``bots/<game>/`` (``bots/truf``, ``bots/truco``,
``bots/ruff``), whose ``MODULES`` names each of its bots' modules, plus ``bots.random``,
which plays every game. Each bot is a module with a ``Bot`` class, and a program:
``python -m bots.truf.greedy --connect HOST:PORT`` (``python -m bots.random ...``).

Bundled bots in other languages live in ``bots/<name>/`` and are listed in ``EXTERNAL``:
they are programs of their own, so they play over gRPC only (the referee launches them
in a hosted tournament, ``arena tournament --bots js,...``), never ``--in-process``.
"""

from __future__ import annotations

import importlib
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent


def bot_games() -> tuple[str, ...]:
    """The games with bundled Python bots: each has a package ``bots.<game>`` whose
    ``MODULES`` maps its bots' names to their modules."""
    return tuple(sorted(p.parent.name for p in HERE.glob("*/__init__.py") if p.parent.name != "js"))


def bundled_bots(game: str = "truf") -> dict[str, str]:
    """The bundled Python bots of ``game``: name -> the module whose ``Bot`` class it is
    (a program too: ``python -m MODULE --connect HOST:PORT``). Empty for a game with none.
    Read from ``bots.<game>.MODULES``, imported by name: this catalogue imports no bot."""
    if game not in bot_games():
        return {}
    return dict(importlib.import_module(f"bots.{game}").MODULES)


def bundled_module(spec: str, game: str = "truf") -> str | None:
    """The module of the bundled Python bot ``spec`` for ``game`` (its program is
    ``python -m MODULE``), or None. A Truco bot is named plainly in a Truco tournament
    (``basic``) or anywhere as ``truco.basic``: ``python -m bots.truco.basic`` (a Ruff bot
    likewise, ``ruff.sharp``; a Truf bot ``truf.greedy``); ``random``
    (``bots.random``) plays every game."""
    prefix, dot, name = spec.partition(".")
    if dot and prefix in bot_games():
        game, spec = prefix, name
    return bundled_bots(game).get(spec)


def bundled_names(game: str = "truf") -> tuple[str, ...]:
    """The bundled Python bots of ``game``, by the names ``bundled_module`` takes."""
    return tuple(bundled_bots(game))


def games_with_bot(name: str) -> tuple[str, ...]:
    """The games that have a bundled Python bot called ``name`` (for a hint when it is
    named in a tournament of another game)."""
    return tuple(game for game in bot_games() if name in bundled_bots(game))


@dataclass(frozen=True)
class ExternalBot:
    """A bundled bot written in another language: how to run it, and how to set it up."""

    name: str
    language: str
    program: str  # the interpreter, looked up on PATH
    script: str  # the bot's entry point, relative to bots/
    setup: str  # the command that installs its dependencies, with {dir} for bots/<name>
    installed: str  # exists, relative to bots/, once `setup` has run

    def command(self, args: Sequence[str]) -> list[str]:
        """The command line that runs the bot with ``args`` (``--connect HOST:PORT ...``)."""
        return [shutil.which(self.program) or self.program, str(HERE / self.script), *args]

    def problem(self) -> str | None:
        """Why the bot cannot start on this machine now, or None."""
        if shutil.which(self.program) is None:
            return f"the {self.name} bot needs {self.language} ({self.program!r}) on PATH"
        if not (HERE / self.installed).exists():
            return (
                f"the {self.name} bot's dependencies are not installed; run: "
                + self.setup.format(dir=_shown(HERE / self.name))
            )
        return None


def _shown(path: Path) -> str:
    """``path`` relative to the working directory when it is below it, else absolute."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return path.as_posix()
    return path.as_posix() if rel.startswith("..") else Path(rel).as_posix()


EXTERNAL: dict[str, ExternalBot] = {
    bot.name: bot
    for bot in (
        ExternalBot(
            name="js",
            language="Node.js",
            program="node",
            script="js/bot.js",
            setup="npm ci --prefix {dir}",
            installed="js/node_modules/@grpc/grpc-js",
        ),
    )
}
"""Bundled bots in other languages, by name: gRPC only, each launched as its own program."""
