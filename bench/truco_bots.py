"""Head-to-head strength of two in-process Truco bots: team A's seats all play one bot,
team B's the other, and the bots swap teams every match (so the first dealer and the
seed favour neither).

Run: ``python bench/truco_bots.py basic random --seats 4 --matches 200``. Prints the
matches each bot won and its win share with a 95% interval.
"""

from __future__ import annotations

import argparse
import math
import time

from arena.games.registry import make_game
from arena.games.truco.rules import TrucoRules
from arena.play.tournament import MatchContext, play_match
from bots.truco import BUNDLED, bot_class


def head_to_head(a: str, b: str, *, seats: int, matches: int, points: int = 30) -> list[int]:
    """Matches won by ``a`` and by ``b`` (a shared game counts half to each, rounded down)."""
    game = make_game("truco", rules=TrucoRules(seats=seats, points=points))
    wins = [0, 0]
    for m in range(matches):
        first, second = (a, b) if m % 2 == 0 else (b, a)
        names = [f"{first if s % 2 == 0 else second}#{s}" for s in range(seats)]
        bots = [bot_class(first if s % 2 == 0 else second)() for s in range(seats)]
        out = play_match(game, bots, ctx=MatchContext(f"h2h-{m}", seed=f"h2h:{m}"), names=names)
        ranks = out.record["ranks"]
        a_team = 0 if first == a else 1
        if ranks[a_team] == 1:
            wins[0] += 1
        if ranks[1 - a_team] == 1:
            wins[1] += 1
    return wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", choices=BUNDLED)
    parser.add_argument("b", choices=BUNDLED)
    parser.add_argument("--seats", type=int, choices=(2, 4, 6), default=4)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--points", type=int, choices=(30, 15), default=30)
    args = parser.parse_args()
    start = time.perf_counter()
    wins = head_to_head(args.a, args.b, seats=args.seats, matches=args.matches, points=args.points)
    n = args.matches
    share = wins[0] / n
    half = 1.96 * math.sqrt(max(share * (1 - share), 1e-9) / n)
    print(
        f"{args.seats} seats, {n} matches to {args.points}: {args.a} won {wins[0]}, "
        f"{args.b} won {wins[1]}; {args.a}'s share {share:.1%} ± {half:.1%} "
        f"({time.perf_counter() - start:.1f}s)"
    )


if __name__ == "__main__":
    main()
