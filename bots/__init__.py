"""The bundled bots. Each is a module ``bots.<name>`` with a ``Bot`` class, and a program:
``python -m bots.<name> --connect HOST:PORT``."""

from __future__ import annotations

BUNDLED = ("random", "greedy", "planner", "tracker")
