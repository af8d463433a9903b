"""The bundled Truf bots: the heuristic ones, weakest first, ``random`` (``bots.random``,
which plays any game), ``greedy``, ``planner`` and ``tracker``; and the search bot
``pimc`` (stronger and slower: a time budget per decision). Each plays in-process and
over gRPC as a program: ``python -m bots.truf.greedy --connect HOST:PORT``.
"""

from __future__ import annotations

BUNDLED = ("random", "greedy", "planner", "tracker")  # the heuristic bots, weakest first
# The search bots: stronger, and slower (a time budget per decision; see bots/truf/pimc.py).
SEARCH = ("pimc",)
# Each bundled Truf bot's module (its ``Bot`` class): what the arena loads and launches.
MODULES = {
    "random": "bots.random",
    "greedy": "bots.truf.greedy",
    "planner": "bots.truf.planner",
    "tracker": "bots.truf.tracker",
    "pimc": "bots.truf.pimc",
}
