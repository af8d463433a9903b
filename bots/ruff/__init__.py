"""The bundled Ruff and Trump bots, weakest first: ``random`` (``bots.random``, which plays
any game), ``steady`` (announces its true ruff, discards its lowest cards, takes a trick
whenever it can, partner or not) and ``sharp`` (discards to make side-suit voids, counts
the cards played, leads its masters, keeps off its partner's tricks). Each plays every form
and seat count, in-process and over gRPC as a program:
``python -m bots.ruff.sharp --connect HOST:PORT``.
"""

from __future__ import annotations

BUNDLED = ("random", "steady", "sharp")
# Each bundled Ruff bot's module (its ``Bot`` class): what the arena loads and launches.
MODULES = {"random": "bots.random", "steady": "bots.ruff.steady", "sharp": "bots.ruff.sharp"}
