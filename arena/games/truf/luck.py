"""How much of a Truf deal's points came from the luck of seats that choose at random.

A seat that picks uniformly among its legal actions (the bundled ``random`` bot,
``bots/random.py``) has a known policy, so at each of its decisions every option's chance
is known. Give each option ``a`` a value for every seat, V(a), from playouts of the rest
of the deal; then V(chosen) − the mean of V over the options has expectation zero,
whatever V is (the mean is what uniform play gives on average). Subtracting the sum of
these terms from each seat's points leaves every expected score as it was and takes out
as much of the random seat's luck as V explains: AIVAT (Burch et al., 2018), with a known
policy where poker has its chance nodes. A poor V costs variance, never bias.

``luck(deal, seats)`` returns those sums per seat for one replay record
(``replays.jsonl``). Its decisions (``DECISIONS``):

* ``bid``: a random seat's bid card (C3) or declaration (T2). All four bid at once, so no
  other bid depends on it; each option is played out from the bids with it in place;
* ``mode``: its choice of atas or bawah when its bid was the high one at 13 (C5/T4);
* ``play``: each of its cards with more than one legal choice (C9, C10, T5).

Each option is worth the mean of ``samples`` playouts (``arena.games.truf.quick``'s
player for the other seats and the random seats at random; a high bidder at 13 that is
not random takes the better mode for itself by one playout of each), every option of a
decision from the same random numbers, so their differences are the options' own. With
``width`` > 0 only the chosen option and ``width`` − 1 others drawn uniformly are played
out: every option is then in the set with the same chance whichever was chosen, so the
term still averages to zero, for a fraction of the playouts. A decision on which a random
seat faulted (its fallback is no uniform choice) gets no term; its other decisions keep
theirs, each zero on average by itself. The random numbers come from the match and the
deal, so the same record gives the same correction.
``bench/aivat.py`` measures what it removes and what it costs.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from arena.core.cards import CARD_SLICES, Card, mask_of
from arena.games.truf import sim
from arena.games.truf.actions import Bid, Declare
from arena.games.truf.quick import heuristic_card
from arena.games.truf.replay import bid_from_json, rules_of

DECISIONS = ("bid", "mode", "play")

Values = list[float]  # per seat


def _bid_move(bid: Bid | Declare) -> int | Declare:
    """A record's bid as the simulator takes it: the card (classic) or the declaration."""
    return int(bid.card) if isinstance(bid, Bid) else bid


def _play_on(state: sim.Sim, uniform: Collection[int], rng: random.Random) -> tuple[int, ...]:
    """The deal's scores after playing ``state`` out: the ``uniform`` seats at random,
    the others by ``heuristic_card``, a high bidder at 13 (C5/T4) at random if it is one of
    them, else taking the better mode for itself by one playout of each."""
    if state.phase == sim.MODE:
        me = state.turn
        if me in uniform:
            state.choose_mode(rng.random() < 0.5)
        else:
            seed = rng.random()

            def mine(atas: bool) -> float:
                trial = state.copy()
                trial.choose_mode(atas)
                scores = _play_on(trial, uniform, random.Random(seed))
                return scores[me] - (sum(scores) - scores[me]) / (len(scores) - 1)

            state.choose_mode(mine(True) >= mine(False))
    while state.phase == sim.PLAY:
        if state.turn in uniform:
            cards = CARD_SLICES.of_mask(state.legal_mask())
            state.play(cards[int(rng.random() * len(cards))])
        else:
            state.play(heuristic_card(state, rng))
    return state.scores()


def _value(state: sim.Sim, uniform: Collection[int], samples: int, seed: int) -> Values:
    """Each seat's mean score over ``samples`` playouts of ``state``."""
    total = [0.0] * len(state.hands)
    for i in range(samples):
        for seat, points in enumerate(_play_on(state.copy(), uniform, random.Random(seed + i))):
            total[seat] += points
    return [t / samples for t in total]


def term(values: Sequence[Sequence[float]], chosen: int) -> Values:
    """V(chosen) − the mean of V over ``values``' options, per seat."""
    n = len(values)
    return [values[chosen][s] - sum(v[s] for v in values) / n for s in range(len(values[0]))]


def decision_term(
    options: Sequence[Any],
    chosen: int,
    value_of: Callable[[Any], Values],
    width: int,
    rng: random.Random,
) -> Values:
    """One decision's term: over every option, or (``0 < width < len(options)``) over
    the chosen one and ``width`` − 1 others drawn uniformly."""
    n = len(options)
    if 0 < width < n:
        picked = [chosen, *rng.sample([i for i in range(n) if i != chosen], width - 1)]
    else:
        picked = list(range(n))
    return term([value_of(options[i]) for i in picked], picked.index(chosen))


def luck(
    deal: Mapping[str, Any],
    seats: Collection[int],
    *,
    decisions: Collection[str] = ("bid", "mode"),
    samples: int = 4,
    width: int = 0,
) -> Values:
    """Per seat, the sum of the terms of the decisions of ``seats`` (seats that choose
    uniformly among their legal actions) in one deal; subtract it from the deal's points.
    Raises ValueError when the record cannot be followed to its scores."""
    unknown = set(decisions) - set(DECISIONS)
    if unknown:
        raise ValueError(f"no such decisions: {sorted(unknown)}; the choices are {DECISIONS}")
    total = [0.0] * len(deal["seats"])
    uniform = frozenset(seats)
    if not uniform:
        return total
    # The decisions (numbered as fault records number them, docs/results.md: the bids in
    # seat order, the mode choice, the cards in trick order) that a fallback made.
    faulted = {f.get("decision") for f in deal.get("faults") or () if f.get("seat") in uniform}
    hands = [mask_of(Card.parse(c) for c in hand) for hand in deal["hands"]]
    state = sim.Sim.start(rules_of(deal, 1), hands, -1 if deal["direction"] == "ccw" else 1)
    made = [_bid_move(bid_from_json(b)) for b in deal["bids"]]
    key = zlib.crc32(f"{deal.get('match')}:{deal.get('deal')}".encode())
    rng = random.Random(key)  # which options stand for the others (``width``)

    def add(values: Sequence[float]) -> None:
        for s, t in enumerate(values):
            total[s] += t

    where = f"match {deal.get('match')} deal {deal.get('deal')}"

    def chosen(options: Sequence[Any], made: Any) -> int:
        if made not in options:
            raise ValueError(f"{where}: {made!r} is not among the simulator's legal choices")
        return list(options).index(made)

    if "bid" in decisions:
        for seat in sorted(uniform):
            options = state.legal(seat)
            seed = rng.randrange(1 << 30)

            def bid_value(option: Any, seat: int = seat, seed: int = seed) -> Values:
                trial = state.copy()
                for other, bid in enumerate(made):
                    trial.bid(other, option if other == seat else bid)
                return _value(trial, uniform, samples, seed)

            if seat + 1 not in faulted:  # the bids are decisions 1 to 4
                add(decision_term(options, chosen(options, made[seat]), bid_value, width, rng))
    for seat, bid in enumerate(made):
        state.bid(seat, bid)
    number = len(made)
    if state.phase == sim.MODE:
        number += 1
        atas = deal["mode"] == "atas"
        if state.turn in uniform and "mode" in decisions and number not in faulted:
            seed = rng.randrange(1 << 30)

            def mode_value(option: bool) -> Values:
                trial = state.copy()
                trial.choose_mode(option)
                return _value(trial, uniform, samples, seed)

            add(decision_term([True, False], 0 if atas else 1, mode_value, width, rng))
        state.choose_mode(atas)
    for trick in deal["tricks"]:
        for seat, code in trick["cards"]:
            number += 1
            card = int(Card.parse(code))
            if seat in uniform and "play" in decisions and number not in faulted:
                cards = [int(c) for c in CARD_SLICES.of_mask(state.legal_mask())]
                if len(cards) > 1:
                    seed = rng.randrange(1 << 30)

                    def card_value(option: int, seed: int = seed) -> Values:
                        trial = state.copy()
                        trial.play(option)
                        return _value(trial, uniform, samples, seed)

                    add(decision_term(cards, chosen(cards, card), card_value, width, rng))
            state.play(card)
    if list(state.scores()) != list(deal["scores"]):
        raise ValueError(
            f"{where}: the simulator scores {list(state.scores())} where the record has "
            f"{list(deal['scores'])}"
        )
    return total
