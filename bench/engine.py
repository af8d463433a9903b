"""In-process engine throughput: classic deals per second through the whole referee path.

Two measurements in one run, on one core:

* ``baseline``: a bare pure-Python loop that deals (with the C2 redeal), bids and plays
  random legal cards, with plain lists of (rank, suit) cards, no views and no logs.
* ``engine``: four random bots through ``arena.play.tournament.play_match``: a seat view for
  every decision, the sorted legal list, rule checks on every answer, events, and
  the replay record of every deal.

Both run under the garbage-collector settings of ``arena tournament``
(``arena.play.run.tune_gc``).

Run: ``python bench/engine.py [--deals N]``. The last line is ``deals/s: N`` (the engine).

``--game truco [--seats 2|4|6]`` measures Truco instead: random bots through
``play_match`` (views, legal lists, rule checks, replay records), one side only, and the
last line is ``hands/s: N``. ``--game ruff [--form double|single] [--seats 4|3|2]``
measures Ruff and Trump the same way; the last line is ``deals/s: N``.

Wall-clock figures on a shared machine drift by 10-20%. For counts that do not, run one
side at a time under callgrind at two sizes and divide the difference in instructions by
the difference in deals (the same deals each time, so it is repeatable)::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg \
        python bench/engine.py --only engine --deals 390 --repeat 1
"""

from __future__ import annotations

import argparse
import os
import random
import time

from arena.games.registry import Game, TrufGame, make_game
from arena.games.ruff.rules import Form, RuffRules
from arena.games.truco.rules import TrucoRules
from arena.games.truf.rules import TrufRules
from arena.play.run import tune_gc
from arena.play.tournament import MatchContext, play_match
from bots.random import RandomBot

RANKS = "23456789TJQKA"
VALUE = {r: (0 if r in "JQK" else 1 if r == "A" else RANKS.index(r) + 2) for r in RANKS}


def baseline_deal(rng: random.Random, deal_no: int) -> list[int]:
    """One classic deal, the plain way: lists of cards, random legal choices."""
    deck = [(r, s) for s in "SHDC" for r in range(13)]
    while True:
        rng.shuffle(deck)
        hands = [deck[i * 13 : (i + 1) * 13] for i in range(4)]
        if all(any(r >= 9 for r, _ in h) and any(r < 9 for r, _ in h) for h in hands):
            break
    bids = [rng.choice(h) for h in hands]
    values = [VALUE[RANKS[r]] for r, _ in bids]
    high = max(range(4), key=lambda s: (values[s], -"SHDC".index(bids[s][1]), bids[s][0]))
    trump = bids[high][1]
    total = sum(values)
    atas = total > 13 or (total == 13 and rng.random() < 0.5)
    step = -1 if deal_no % 2 else 1
    leader, broken, won = high, False, [0] * 4
    for _ in range(13):
        trick = []
        seat = leader
        for i in range(4):
            hand = hands[seat]
            if i == 0:
                legal = hand if broken else [c for c in hand if c[1] != trump] or hand
            else:
                led = trick[0][1][1]
                legal = [c for c in hand if c[1] == led] or hand
            card = rng.choice(legal)
            hand.remove(card)
            trick.append((seat, card))
            seat = (seat + step) % 4
        led = trick[0][1][1]
        trumps = [t for t in trick if t[1][1] == trump]
        pool = trumps or [t for t in trick if t[1][1] == led]
        winner = max(pool, key=lambda t: t[1][0])[0]
        broken = broken or bool(trumps)
        won[winner] += 1
        leader = winner
    return [(w - v if atas else v - w) for w, v in zip(won, values, strict=True)]


def bench_baseline(deals: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for d in range(deals):
        baseline_deal(rng, d + 1)
    return deals / (time.perf_counter() - start)


def bench_engine(deals: int, seed: int) -> float:
    game = TrufGame(TrufRules(deals=13))
    matches = max(1, deals // game.rules.deals)
    bots = [RandomBot(seed=seed + i) for i in range(4)]
    names = [f"random#{i + 1}" for i in range(4)]
    start = time.perf_counter()
    for m in range(matches):
        ctx = MatchContext(f"bench-{m}", seed=f"{seed}:{m}")
        play_match(game, bots, ctx=ctx, names=names)
    return matches * game.rules.deals / (time.perf_counter() - start)


def bench_truco(hands: int, seed: int, seats: int) -> float:
    """Truco hands per second: random bots in whole matches until ``hands`` are played."""
    return bench_game(make_game("truco", rules=TrucoRules(seats=seats)), hands, seed)


def bench_ruff(deals: int, seed: int, form: str, seats: int) -> float:
    """Ruff and Trump deals per second: random bots in whole matches."""
    rules = RuffRules(form=Form(form), seats=seats)
    return bench_game(make_game("ruff", rules=rules), deals, seed)


def bench_game(game: Game, hands: int, seed: int) -> float:
    """A game's deals per second: random bots in whole matches until ``hands`` deals
    are played (the bot takes any legal action, so it measures the engine)."""
    seats = game.table_size
    bots = [RandomBot(seed=seed + i) for i in range(seats)]
    names = [f"random#{i + 1}" for i in range(seats)]
    played = m = 0
    start = time.perf_counter()
    while played < hands:
        ctx = MatchContext(f"bench-{m}", seed=f"{seed}:{m}")
        played += len(play_match(game, bots, ctx=ctx, names=names).deals)
        m += 1
    return played / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6500, help="deals (Truco: hands) per run")
    parser.add_argument("--game", choices=("truf", "truco", "ruff"), default="truf")
    parser.add_argument(
        "--seats", type=int, choices=(2, 3, 4, 6), default=4, help="Truco: 2|4|6; Ruff: 2|3|4"
    )
    parser.add_argument("--form", choices=("double", "single"), default=None, help="Ruff only")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs each")
    parser.add_argument(
        "--only",
        choices=("baseline", "engine"),
        help="run one side only (for callgrind; see the module's docstring)",
    )
    args = parser.parse_args()
    if args.deals < 1 or args.repeat < 1:
        parser.error("--deals and --repeat must be at least 1")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    tune_gc()  # the collector settings `arena tournament` plays under (both sides)
    if args.form is not None and args.game != "ruff":
        parser.error("--form applies to Ruff")
    if args.game == "ruff":
        if args.only is not None:
            parser.error("--only applies to Truf (Ruff has no baseline loop)")
        form = args.form or ("double" if args.seats == 4 else "single")
        if args.seats not in (2, 3, 4) or (form == "double" and args.seats != 4):
            parser.error("Ruff: --seats 4 (double), or 4, 3 or 2 with --form single (F1)")
        rate = max(bench_ruff(args.deals, args.seed, form, args.seats) for _ in range(args.repeat))
        print(f"ruff, {form}, {args.seats} seats (views, legality, replay records): "
              f"{rate:,.0f} deals/s")  # fmt: skip
        print(f"deals/s: {rate:.0f}")
        return
    if args.game == "truco" and args.seats not in (2, 4, 6):
        parser.error("Truco: --seats 2, 4 or 6 (R2)")
    if args.game == "truco":
        if args.only is not None:
            parser.error("--only applies to Truf (Truco has no baseline loop)")
        rate = max(bench_truco(args.deals, args.seed, args.seats) for _ in range(args.repeat))
        print(f"truco, {args.seats} seats (views, legality, replay records): {rate:,.0f} hands/s")
        print(f"hands/s: {rate:.0f}")
        return
    if args.seats != 4:
        parser.error("--seats applies to Truco (Truf is a four-seat game)")
    if args.only != "engine":
        base = max(bench_baseline(args.deals, args.seed) for _ in range(args.repeat))
        print(f"baseline (bare loop, no views/logs): {base:,.0f} deals/s")
    if args.only != "baseline":
        eng = max(bench_engine(args.deals, args.seed) for _ in range(args.repeat))
        print(f"engine (views, legality, events, replay records): {eng:,.0f} deals/s")
    if args.only is None:
        print(f"engine / baseline: {eng / base:.2f}")
    if args.only != "baseline":
        print(f"deals/s: {eng:.0f}")


if __name__ == "__main__":
    main()
