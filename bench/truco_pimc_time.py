"""How long Truco's ``pimc`` thinks, and how many worlds its time budget buys.

Plays seeded in-process matches (pimc on team A's seats, shrewd on team B's) and times
every decision pimc searches, whole (one legal action and declarations are not searched): the
median and 95th percentile of the time per decision, and of the worlds per decision. The
worlds a budget buys on an idle machine is the ``samples=N`` that plays as the budget
does, independent of the machine's speed (bench/truco_strength.py runs that way).

A timing: run it alone, under the quiet lock
(``flock /work/quiet.lock python bench/truco_pimc_time.py --seats 4``).

2026-11-26, branch truco11, ``--matches 4``, under the quiet lock at normal priority
beside other engineers' jobs at nice 19 (load 12 to 14): the default budget holds (95th
percentile 50.0 to 50.3 ms at 2, 4 and 6 seats), and the information-set tree
(``--pimc tree=below``, the default for part of that day, an option since) buys fewer
worlds than the plain playouts (``--pimc tree=off``): medians 169 against 232 at four
seats, 161 against 188 at six.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import bots.truco.pimc as pimc
from arena.games.registry import make_game
from arena.games.truco.rules import TrucoRules
from arena.play.loading import BotLoadError, instantiate, split_options
from arena.play.tournament import MatchContext, play_match
from bots.truco import bot_class


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, choices=(2, 4, 6), default=4)
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--pimc", default="", help="pimc's options, e.g. budget=0.05:tree=below")
    args = parser.parse_args()
    spec = ":".join(filter(None, ("pimc", args.pimc)))
    try:  # the arena's own reading of bot options (their types, a bad one named)
        _, options = split_options(spec)
        instantiate(pimc.Bot, "0", spec, options)
    except BotLoadError as exc:
        raise SystemExit(f"--pimc: {exc}") from None
    times: list[float] = []
    worlds: list[float] = []
    search, act = pimc.search, pimc.Bot.act

    def counted(*a: Any, **k: Any) -> Any:
        tally = search(*a, **k)
        worlds.append(tally.n)
        return tally

    def timed(self: pimc.Bot, view: Any, legal: Any) -> Any:
        searched = len(worlds)
        started = time.perf_counter()
        out = act(self, view, legal)
        if len(worlds) > searched:  # a searched decision: timed whole, sampler and all
            times.append(time.perf_counter() - started)
        return out

    setattr(pimc, "search", counted)  # noqa: B010 (patched for the count, then played)
    setattr(pimc.Bot, "act", timed)  # noqa: B010
    game = make_game("truco", rules=TrucoRules(seats=args.seats))
    started = time.perf_counter()
    for m in range(args.matches):
        bots = [
            instantiate(pimc.Bot, str(s), spec, options) if s % 2 == 0 else bot_class("shrewd")()
            for s in range(args.seats)
        ]
        names = [f"s{s}" for s in range(args.seats)]
        play_match(game, bots, ctx=MatchContext(f"time-{m}", seed=f"time:{m}"), names=names)
    took = time.perf_counter() - started
    ms = [1000 * t for t in times]
    print(
        f"{args.seats} seats, {args.matches} matches, {len(times)} searched decisions "
        f"({took:.0f}s): time per decision median {statistics.median(ms):.1f} ms, "
        f"95th percentile {percentile(ms, 0.95):.1f} ms; worlds median "
        f"{statistics.median(worlds):g}, 5th percentile {percentile(worlds, 0.05):g}, "
        f"95th {percentile(worlds, 0.95):g}"
    )


if __name__ == "__main__":
    main()
