"""The bundled Truco bots, weakest first: ``random`` (``bots.random``, which plays any
game), ``basic`` (calls and answers by fixed thresholds on its own cards) and ``shrewd``
(estimates its chances by sampling the cards it has not seen, and plays the card that
rolls out best); and the search bot ``pimc`` (``bots.truco.pimc``: Monte Carlo search on
``arena.games.truco.sim``, 50 ms a decision; bundled, not a default entrant). Each plays 2, 4
and 6 seats, in-process and over gRPC as a program:
``python -m bots.truco.basic --connect HOST:PORT`` (``bots.bundled_module`` maps the
names; a hosted Truco tournament launches them so).
"""

from __future__ import annotations

import importlib

from arena.bot import BaseBot

BUNDLED = ("random", "basic", "shrewd")
# Truco's search bot: stronger, and slower (a time budget per decision; bots/truco/pimc.py).
SEARCH = ("pimc",)
# Each bundled Truco bot's module (its ``Bot`` class): what the arena loads and launches.
MODULES = {
    "random": "bots.random",
    "basic": "bots.truco.basic",
    "shrewd": "bots.truco.shrewd",
    "pimc": "bots.truco.pimc",
}


def bot_class(name: str) -> type[BaseBot]:
    """The class of the bundled Truco bot ``name``."""
    if name not in MODULES:
        raise ValueError(f"no bundled Truco bot {name!r}; there are: {', '.join(BUNDLED + SEARCH)}")
    bot: type[BaseBot] = importlib.import_module(MODULES[name]).Bot
    return bot
