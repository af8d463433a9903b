"""The bundled Ruff and Trump bots, weakest first: ``random`` (``bots.random``, which plays
any game), ``steady`` (announces its true ruff, discards its lowest cards, takes a trick
whenever it can, partner or not) and ``sharp`` (discards to make side-suit voids, counts
the cards played, leads its masters, keeps off its partner's tricks); and the search bot
``pimc`` (``bots.ruff.pimc``: Monte Carlo search on ``arena.games.ruff.sim``, 50 ms a decision;
bundled, not a default entrant). Each plays every form and seat count, in-process and
over gRPC as a program:
``python -m bots.ruff.sharp --connect HOST:PORT``.
"""

from __future__ import annotations

BUNDLED = ("random", "steady", "sharp")
# Ruff's search bot: stronger, and slower (a time budget per decision; bots/ruff/pimc.py).
SEARCH = ("pimc",)
# Each bundled Ruff bot's module (its ``Bot`` class): what the arena loads and launches.
MODULES = {
    "random": "bots.random",
    "steady": "bots.ruff.steady",
    "sharp": "bots.ruff.sharp",
    "pimc": "bots.ruff.pimc",
}
