"""The bundled bots. Each is a module ``bots.<name>`` with a ``Bot`` class, and a program:
``python -m bots.<name> --connect HOST:PORT``.

Bundled bots in other languages live in ``bots/<name>/`` and are listed in ``EXTERNAL``:
they are programs of their own, so they play over gRPC only (the referee launches them
in a hosted tournament, ``arena tournament --bots js,...``), never ``--in-process``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

BUNDLED = ("random", "greedy", "planner", "tracker")  # Truf's heuristic bots, weakest first
# Truf's search bots: stronger, and slower (a time budget per decision; see bots/truf/pimc.py).
SEARCH = ("pimc",)


def bundled_bots(game: str = "truf") -> dict[str, str]:
    """The bundled Python bots of ``game``: name -> the module whose ``Bot`` class it is
    (a program too: ``python -m MODULE --connect HOST:PORT``). Empty for a game with none."""
    if game == "truco":
        from bots.truco import MODULES

        return dict(MODULES)
    if game == "ruff":
        from bots.ruff import MODULES as RUFF_MODULES

        return dict(RUFF_MODULES)
    if game == "truf":
        from bots.truf import MODULES as TRUF_MODULES

        return dict(TRUF_MODULES)
    return {}


HERE = Path(__file__).resolve().parent


def bundled_module(spec: str, game: str = "truf") -> str | None:
    """The module of the bundled Python bot ``spec`` for ``game`` (its program is
    ``python -m MODULE``), or None. A Truco bot is named plainly in a Truco tournament
    (``basic``) or anywhere as ``truco.basic``: ``python -m bots.truco.basic`` (a Ruff bot
    likewise, ``ruff.sharp``); ``random``
    (``bots.random``) plays every game."""
    for prefix in ("truco", "ruff"):
        if spec.startswith(prefix + "."):
            game, spec = prefix, spec.removeprefix(prefix + ".")
    return bundled_bots(game).get(spec)


def bundled_names(game: str = "truf") -> tuple[str, ...]:
    """The bundled Python bots of ``game``, by the names ``bundled_module`` takes."""
    return tuple(bundled_bots(game))


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
