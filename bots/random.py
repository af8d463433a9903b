"""random: plays uniformly among the legal actions, every kind of declaration included.

Its choices are a function of its seed and the match, not of the order in which
the referee serves its tables, so a seeded tournament replays exactly.
"""

from __future__ import annotations

import random as _random
from collections.abc import Sequence
from typing import Any

from arena.bot import BaseBot


class Bot(BaseBot):
    name = "random"
    version = "1.0"
    games = ("truf", "truco", "ruff")  # any game: it only picks among the legal actions

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed
        self._rngs: dict[tuple[str, int], _random.Random] = {}

    def act(self, view: Any, legal: Sequence[Any]) -> Any:
        key = (view.match_id, view.seat)
        rng = self._rngs.get(key)
        if rng is None:
            if len(self._rngs) >= 64:  # keep memory bounded: forget the oldest match
                del self._rngs[next(iter(self._rngs))]
            rng = self._rngs[key] = _random.Random(f"{self.seed}:{view.match_id}:{view.seat}")
        return legal[int(rng.random() * len(legal))]


RandomBot = Bot

if __name__ == "__main__":
    from arena.sdk import main

    main(Bot)
