"""Issue 29 part 6, measured: a value correction at the random bot's decisions (AIVAT).

The bundled ``random`` bot picks uniformly among the legal actions (``bots/random.py``),
so at each of its decisions the arena knows the chance of every action. Give each
action a value for every seat, V(a), from playouts of the rest of the deal; then
V(chosen) − the mean of V(a) over the legal actions has expectation zero whatever V is
(the mean is exactly what uniform play gives), and subtracting it from each seat's points
in the deal leaves every expected score unchanged while taking out as much of the random
bot's own luck as V explains (AIVAT, Burch et al. 2018, with a known policy in place of a
chance node). The closer V is to the real outcome, the more variance goes; a poor V costs
variance, never bias.

What is corrected here (Truf only: the measured noise of issue 29 is Truf's, where the
random bot's draws were 72–79% of the variance):

* ``bid``: the random bot's bid (classic: a card of its hand, C3; target: a declaration,
  T2), made while the other three bid at once (C3/T2), so they do not depend on it. Each
  option's value: ``--samples`` playouts from the bids with that option, the other seats
  playing ``bots.truf.pimc.heuristic_card``, the random seat random legal cards, and the
  high bidder choosing the mode at 13 (C5/T4) by one playout of each mode;
* ``play`` (``--decisions bid,play``): each of its cards with more than one legal choice,
  valued the same way from the state after it.

Every option of one decision is played out from the same random numbers, so their
differences are the options' own. ``--width W`` plays out only the chosen option and W − 1
others drawn uniformly (every option is then in the set with the same chance whichever
was chosen, so the term still averages to zero), for a fraction of the cost.

Per seed it plays the bundled field in process (one core, through the arena's own plan
and runner), corrects the deals, and rates the run round by round as the leaderboard does
(``bench/ratings.py``'s ``walk``) twice: with each deal's points as played and as
corrected. Reported:

* the variance of each true neighbour pair's per-deal difference, as played and
  corrected, and their ratio with a 95% bootstrap interval over seeds: the rounds needed
  for the same precision scale with it;
* the mean of each pair's difference both ways (the correction must not move it: no
  bias), with the mean change and its standard error;
* the share of seeds whose leaderboard shows the true order after 10, 20 and 40 rounds,
  both ways, with 95% intervals;
* the cost: seconds of correction a deal against seconds of play a deal (process time).

Run: ``python bench/aivat.py --variant classic --seeds 100`` (``--rounds``, ``--samples``,
``--decisions``, ``--width``). The true order is ``bench/ratings.py``'s (its long cached
run), or ``--true-order``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ratings import share, truth, walk  # noqa: E402

from arena.core.cards import CARD_SLICES, Card, mask_of  # noqa: E402
from arena.core.seeding import seeded_secret  # noqa: E402
from arena.games.truf import sim  # noqa: E402
from arena.games.truf.replay import bid_from_json, rules_of  # noqa: E402
from arena.play.run import RunConfig, load_bots, make_plan  # noqa: E402
from arena.play.tournament import run_in_process  # noqa: E402
from bots.truf.pimc import heuristic_card  # noqa: E402

RANDOM = "random"  # the bundled bot whose policy is known: uniform over the legal actions
CHECKPOINTS = (10, 20, 40)


class DealWriter:
    """What ``run_in_process`` writes to, kept in memory: each match line and its deals."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self.deals: list[list[dict[str, Any]]] = []

    def write_match(self, record: Mapping[str, Any], deals: Sequence[Mapping[str, Any]]) -> None:
        self.records.append(dict(record))
        self.deals.append([dict(d) for d in deals])


def _play_on(state: sim.Sim, rseat: int, rng: random.Random) -> tuple[int, ...]:
    """The deal's scores after playing ``state`` out: the random seat at random, the
    others by ``heuristic_card``, the high bidder at 13 taking the better mode for itself
    by one playout of each (C5/T4)."""
    if state.phase == sim.MODE:
        if state.turn == rseat:
            state.choose_mode(rng.random() < 0.5)
        else:
            seed = rng.random()
            me = state.turn

            def mine(atas: bool) -> float:
                trial = state.copy()
                trial.choose_mode(atas)
                scores = _play_on(trial, rseat, random.Random(seed))
                return scores[me] - (sum(scores) - scores[me]) / (len(scores) - 1)

            state.choose_mode(mine(True) >= mine(False))
    while state.phase == sim.PLAY:
        if state.turn == rseat:
            cards = CARD_SLICES.of_mask(state.legal_mask())
            state.play(cards[int(rng.random() * len(cards))])
        else:
            state.play(heuristic_card(state, rng))
    return state.scores()


def _value(state: sim.Sim, rseat: int, samples: int, seed: int) -> list[float]:
    """Each seat's mean score over ``samples`` playouts of ``state``."""
    total = [0.0] * len(state.hands)
    for i in range(samples):
        for seat, points in enumerate(_play_on(state.copy(), rseat, random.Random(seed + i))):
            total[seat] += points
    return [t / samples for t in total]


def _term(values: Sequence[Sequence[float]], chosen: int) -> list[float]:
    """V(chosen) − the mean of V over the options, per seat: zero on average under
    uniform play."""
    n = len(values)
    return [values[chosen][s] - sum(v[s] for v in values) / n for s in range(len(values[0]))]


def _decision(
    options: Sequence[Any],
    chosen: int,
    value_of: Callable[[Any], list[float]],
    width: int,
    rng: random.Random,
) -> list[float]:
    """One decision's term. With ``width`` (0: every option) the mean is taken over the
    chosen option and ``width`` − 1 others drawn uniformly: every option is then in the
    set with the same chance whichever was chosen, so the term still averages to zero
    under uniform play, for a fraction of the playouts."""
    n = len(options)
    if 0 < width < n:
        picked = [chosen, *rng.sample([i for i in range(n) if i != chosen], width - 1)]
    else:
        picked = list(range(n))
    values = [value_of(options[i]) for i in picked]
    return _term(values, picked.index(chosen))


def correction(
    deal: Mapping[str, Any], samples: int, decisions: Sequence[str], seed: int, width: int = 0
) -> list[float]:
    """Per seat, the sum of the correction terms of the random seat's decisions in one
    deal (``replays.jsonl``'s line); zeros when no seat is the random bot."""
    seats = deal["seats"]
    if RANDOM not in seats:
        return [0.0] * len(seats)
    rseat = seats.index(RANDOM)
    hands = [mask_of(Card.parse(c) for c in hand) for hand in deal["hands"]]
    state = sim.Sim.start(rules_of(deal, 1), hands, -1 if deal["direction"] == "ccw" else 1)
    bids = [bid_from_json(b) for b in deal["bids"]]
    bids_made = [b.card if hasattr(b, "card") else b for b in bids]  # classic: the card
    total = [0.0] * len(seats)
    rng = random.Random(seed)  # which options stand for the others (``width``)

    def add(term: Sequence[float]) -> None:
        for s, t in enumerate(term):
            total[s] += t

    if "bid" in decisions:
        options = state.legal(rseat)

        def bid_value(option: Any) -> list[float]:
            trial = state.copy()
            for seat, made in enumerate(bids_made):
                trial.bid(seat, option if seat == rseat else made)  # type: ignore[arg-type]
            return _value(trial, rseat, samples, seed)

        chosen = options.index(bids_made[rseat])
        add(_decision(options, chosen, bid_value, width, rng))
    for seat, made in enumerate(bids_made):
        state.bid(seat, made)  # type: ignore[arg-type]
    if state.phase == sim.MODE:
        state.choose_mode(deal["mode"] == "atas")
    decision = 0
    for trick in deal["tricks"]:
        for seat, code in trick["cards"]:
            card = int(Card.parse(code))
            if seat == rseat and "play" in decisions:
                cards = list(CARD_SLICES.of_mask(state.legal_mask()))
                if len(cards) > 1:
                    decision += 1

                    def card_value(option: int, at: int = seed + 7919 * decision) -> list[float]:
                        trial = state.copy()
                        trial.play(option)
                        return _value(trial, rseat, samples, at)

                    add(_decision(cards, cards.index(card), card_value, width, rng))
            state.play(card)
    if list(state.scores()) != list(deal["scores"]):
        raise ValueError(f"{deal['match']} deal {deal['deal']}: the simulator scores "
                         f"{list(state.scores())}, the replay {deal['scores']}")  # fmt: skip
    return total


def corrected(
    records: Sequence[Mapping[str, Any]],
    deals: Sequence[Sequence[Mapping[str, Any]]],
    samples: int,
    decisions: Sequence[str],
    width: int = 0,
) -> list[dict[str, Any]]:
    """The match records with each deal's points less its correction."""
    out = []
    for m, (record, match_deals) in enumerate(zip(records, deals, strict=True)):
        points = []
        for d, (played, deal) in enumerate(zip(record["deal_points"], match_deals, strict=True)):
            terms = correction(deal, samples, decisions, 1_000_003 * m + 10_007 * d, width)
            points.append([p - t for p, t in zip(played, terms, strict=True)])
        out.append({**record, "deal_points": points})
    return out


def pair_differences(records: Sequence[Mapping[str, Any]], upper: str, lower: str) -> list[float]:
    """``upper``'s points less ``lower``'s in every deal that seats both."""
    out = []
    for record in records:
        seats = record["seats"]
        if upper in seats and lower in seats:
            a, b = seats.index(upper), seats.index(lower)
            out.extend(p[a] - p[b] for p in record["deal_points"])
    return out


def bootstrap_ratio(
    played: Sequence[Sequence[float]], fixed: Sequence[Sequence[float]], draws: int = 1000
) -> tuple[float, float]:
    """A 95% interval of var(corrected) / var(played), resampling seeds."""
    rng = random.Random(29)
    n = len(played)
    ratios = []
    for _ in range(draws):
        picks = [rng.randrange(n) for _ in range(n)]
        a = [x for i in picks for x in played[i]]
        b = [x for i in picks for x in fixed[i]]
        ratios.append(statistics.variance(b) / statistics.variance(a))
    ratios.sort()
    return ratios[int(0.025 * draws)], ratios[int(0.975 * draws) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="classic", choices=("classic", "target"))
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--samples", type=int, default=4, help="playouts per option")
    parser.add_argument("--decisions", default="bid", help="bid, or bid,play")
    parser.add_argument("--width", type=int, default=0,
                        help="options played out a decision: the chosen and width - 1 drawn "
                             "(0: all)")  # fmt: skip
    parser.add_argument(
        "--true-order",
        default=None,
        help="e.g. tracker,planner,greedy,random (default: bench/ratings.py's)",
    )
    args = parser.parse_args()
    decisions = args.decisions.split(",")
    if (
        any(d not in ("bid", "play") for d in decisions)
        or args.samples < 1
        or args.seeds < 1
        or args.width < 0
    ):
        parser.error(
            "--decisions takes bid and play, --samples and --seeds at least 1, --width 0 or more"
        )
    order = args.true_order.split(",") if args.true_order else truth(args.variant, 2000)
    pairs = list(zip(order, order[1:], strict=False))
    played_walks, fixed_walks = [], []
    diffs: dict[tuple[str, str], tuple[list[list[float]], list[list[float]]]] = {
        p: ([], []) for p in pairs
    }
    play_time = fix_time = 0.0
    deals = 0
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        config = RunConfig(rounds=args.rounds, variant=args.variant, seed=seed,
                           transport="in-process")  # fmt: skip
        secret = seeded_secret(seed)
        writer = DealWriter()
        started = time.process_time()
        run_in_process(make_plan(config, secret=secret), load_bots(config, secret), writer)  # type: ignore[arg-type]
        play_time += time.process_time() - started
        started = time.process_time()
        fixed = corrected(writer.records, writer.deals, args.samples, decisions, args.width)
        fix_time += time.process_time() - started
        deals += sum(len(d) for d in writer.deals)
        played_walks.append(walk(writer.records, args.rounds, order))
        fixed_walks.append(walk(fixed, args.rounds, order))
        for pair in pairs:
            diffs[pair][0].append(pair_differences(writer.records, *pair))
            diffs[pair][1].append(pair_differences(fixed, *pair))
        so_far = f"{play_time / deals * 1000:.1f} ms of play, {fix_time / deals * 1000:.1f} ms"
        print(f"seed {seed}: {so_far} of correction a deal so far", flush=True)
    n = args.seeds
    print(f"\n{args.variant}, {n} seeds of {args.rounds} rounds, corrected at the random "
          f"bot's {' and '.join(decisions)}, {args.samples} playouts an option, "
          f"{args.width or 'all'} options a decision")  # fmt: skip
    print(
        "  per-deal difference of true neighbours: variance played → corrected, ratio "
        "(95% bootstrap over seeds); mean played → corrected, change ± s.e."
    )
    for (upper, lower), (played, fixed) in diffs.items():
        a = [x for run in played for x in run]
        b = [x for run in fixed for x in run]
        low, high = bootstrap_ratio(played, fixed)
        change = [y - x for x, y in zip(a, b, strict=True)]
        se = statistics.stdev(change) / len(change) ** 0.5
        va, vb = statistics.variance(a), statistics.variance(b)
        ma, mb, mc = statistics.mean(a), statistics.mean(b), statistics.mean(change)
        print(
            f"  {upper} − {lower}: variance {va:.2f} → {vb:.2f}, ratio {vb / va:.3f} "
            f"[{low:.3f}, {high:.3f}]; mean {ma:+.3f} → {mb:+.3f}, change {mc:+.3f} ± {se:.3f}"
        )
    print("  share of seeds in the true order after R rounds (95% interval): played, corrected")
    for r in (c for c in CHECKPOINTS if c <= args.rounds):
        hits = [sum(w.right["leaderboard"][r - 1] for w in walks)
                for walks in (played_walks, fixed_walks)]  # fmt: skip
        print(f"  R={r:>3}: {share(hits[0], n)}  {share(hits[1], n)}")
    print(f"  cost (process time, one core): play {play_time / deals * 1000:.2f} ms a deal, "
          f"correction {fix_time / deals * 1000:.2f} ms a deal")  # fmt: skip


if __name__ == "__main__":
    main()
