"""pimc: Ruff and Trump by Monte Carlo search on the simulator (``arena.games.ruff.sim``).

For every decision it draws the deal it cannot see, exactly among those its view allows
(``arena.games.ruff.sampling``: announcements, the rubber, the shown ruff, voids and the
rubber's own knowledge), and in each such world plays each candidate out to the end of
the deal with ``card_policy``, a quick player that wins tricks cheaply, lets a partner's
trick stand and otherwise throws its lowest card. It takes the candidate whose worlds
score best: its side's points in the deal (the ruff's 12 and the card points, F8, F9) less
the others' (the other side's in double, the others' mean in single).

* **Announcing** (F4): the numbers that matter -- its true ruff, and, announcing last,
  the least number that still wins the ruff (it shows fewer cards, F6) -- searched in the
  same worlds, the seats after it announcing their true ruffs.
* **Discarding** (F5): of the 1820 or more legal sets, a short list (the lowest cards,
  the lowest outside trump, whole short side suits to make voids, ``sharp``'s choice),
  each played out in every world.
* **Playing** (F7): every legal card.

Its worlds are drawn without the announcements' bounds (F4), which reject most exact
draws once another seat has rubbed, and weighed instead by how far each falls short of
them (``exact=1`` draws exactly, and fewer worlds in its time).

Options (``--bots pimc:budget=0.1`` or ``pimc:samples=40``): ``budget``, seconds of
search per decision (default 0.05), or ``samples``, a fixed number of worlds per decision
so that its play repeats exactly (``bots.searching``).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Sequence

from arena.bot import BaseBot
from arena.core.cards import CARD_SLICES, CARDS, SUIT_MASKS, Card
from arena.games.ruff import sim
from arena.games.ruff.actions import ANNOUNCES, PLAYS, Action, Announce, Discard, Play
from arena.games.ruff.rules import RUB_CARDS
from arena.games.ruff.sampling import Sampler, deficit
from arena.games.ruff.view import RuffView
from bots.ruff.sharp import Bot as SharpBot
from bots.ruff.sharp import discards as sharp_discards
from bots.searching import SearchOptions, decision_rng, search

NOISE = 0.05  # the share of playout cards played at random: worlds stay varied
MAX_DISCARDS = 10  # candidate discards searched
PLAYOUTS = 2  # playouts per candidate in each world (a world costs more than a playout)


def _lowest(mask: int, trump: int) -> int:
    """The lowest-ranked card of a non-empty mask, a trump only if nothing else is left."""
    best, key = -1, 99
    for s in range(4):
        bits = mask >> 13 * s & 0x1FFF
        if bits:
            r = (bits & -bits).bit_length() - 1
            k = r + (13 if s == trump else 0)
            if k < key:
                best, key = 13 * s + r, k
    return best


def _above(card: int) -> int:
    """The mask of the cards of ``card``'s suit that rank above it."""
    return SUIT_MASKS[card // 13] & ~((2 << card) - 1)


def card_policy(state: sim.Sim, rng: random.Random) -> int:
    """A quick player in the manner of ``sharp``, reading the cards as the world deals
    them: it leads a master (no other hand holds a higher card of its suit), else draws
    trumps with the master trump, else leads low from its longest side suit; it lets a
    partner's trick stand when that is safe, wins with the cheapest card that stays on
    top (last to play, a master, or its cheapest winning trump), else throws its lowest."""
    legal = state.legal_mask()
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if rng.random() < NOISE:
        cards = CARD_SLICES.of_mask(legal)
        return cards[int(rng.random() * len(cards))]
    trump, seat, hands = state.trump, state.turn, state.hands
    others = 0
    for s, hand in enumerate(hands):
        if s != seat:
            others |= hand
    trumps = SUIT_MASKS[trump]
    if not state.trick:
        side_cards = legal & ~trumps
        bits = side_cards
        while bits:
            low = bits & -bits
            card = low.bit_length() - 1
            if not others & _above(card) and others & SUIT_MASKS[card // 13]:
                return card  # a side master that others must follow
            bits ^= low
        top_trump = (legal & trumps).bit_length() - 1
        if top_trump >= 0 and others & trumps and not others & _above(top_trump):
            return top_trump  # draw trumps with the master
        if side_cards:
            longest = max(range(4), key=lambda s: (side_cards & SUIT_MASKS[s]).bit_count())
            pick = side_cards & SUIT_MASKS[longest]
            return (pick & -pick).bit_length() - 1
        return _lowest(legal, trump)
    last = len(state.trick) == state.seats - 1
    best = state.best
    partner = state.side[state.best_seat] == state.side[seat]
    if partner and (last or state.best_trump or not others & _above(best)):
        return _lowest(legal, trump)  # the partner's trick stands
    if state.best_trump:
        win = legal & trumps & ~((2 << best) - 1)
    else:
        win = (legal & SUIT_MASKS[state.led] & ~((2 << best) - 1)) | (legal & trumps)
    if win:
        side = win & ~trumps
        if side:
            cheapest = (side & -side).bit_length() - 1
            if last or not others & _above(cheapest):
                return cheapest
            top = side.bit_length() - 1
            if not others & _above(top):
                return top  # the master of the led suit
        else:
            return (win & -win).bit_length() - 1  # the cheapest winning trump
    return _lowest(legal, trump)


def policy(state: sim.Sim, rng: random.Random) -> Action:
    """The whole deal's quick player: its true ruff (as ``sharp``), ``sharp``'s discards,
    then ``card_policy``."""
    if state.phase == sim.ANNOUNCE:
        return ANNOUNCES[state.ruffs[state.turn]]
    if state.phase == sim.RUB:
        hand = [CARDS[c] for c in CARD_SLICES.of_mask(state.hands[state.turn])]
        return Discard(sharp_discards(hand, state.trump))
    return PLAYS[card_policy(state, rng)]


def value(points: Sequence[int], side: int) -> float:
    """Its side's points less the others' (their mean when more than one)."""
    others = [p for s, p in enumerate(points) if s != side]
    return points[side] - sum(others) / len(others)


def discard_candidates(hand: Sequence[Card], trump: int) -> list[tuple[Card, ...]]:
    """A short list of the rubber's discards worth searching (F5)."""
    order = sorted(hand, key=lambda c: (c // 13 == trump, c % 13))
    out = [tuple(sorted(sharp_discards(hand, trump))), tuple(sorted(order[:RUB_CARDS]))]
    side = [c for c in hand if c // 13 != trump]
    by_suit = {s: [c for c in side if c // 13 == s] for s in range(4) if s != trump}
    short = sorted((cards for cards in by_suit.values() if cards), key=len)
    for n in range(1, 3):  # void one or two short side suits, fill with the lowest
        for suits in itertools.combinations(short, n):
            void = [c for cards in suits for c in cards]
            if len(void) <= RUB_CARDS:
                rest = [c for c in order if c not in void]
                out.append(tuple(sorted(void + rest[: RUB_CARDS - len(void)])))
    lowest_side = sorted(side, key=lambda c: c % 13)
    if len(lowest_side) >= RUB_CARDS:
        out.append(tuple(sorted(lowest_side[:RUB_CARDS])))
    unique = list(dict.fromkeys(out))
    return unique[:MAX_DISCARDS]


class Bot(BaseBot):
    name = "pimc"
    version = "1.0"
    games = ("ruff",)

    def __init__(
        self, seed: int | str = 0, budget: float = 0.05, samples: int = 0, exact: bool = False
    ) -> None:
        self.seed = seed
        self.options = SearchOptions(budget=budget, samples=samples)
        self.exact = bool(exact)

    def act(self, view: RuffView, legal: Sequence[Action]) -> Action | int:
        if len(legal) == 1:
            return 0
        started = time.perf_counter()
        more = self.options.more(started)
        # On a clock, a draw gives up at the budget's end (then sharp's choice stands in
        # if no world was drawn); with ``samples`` every draw runs to its end.
        give_up = None if self.options.samples else started + self.options.budget
        rng = decision_rng(self.seed, view.match_id, view.deal, view.seat, view.phase,
                           len(view.announcements), len(view.tricks), len(view.trick))  # fmt: skip
        candidates = self.candidates(view, legal)
        if len(candidates) == 1:
            return candidates[0]
        # The announcements' bounds (F4) reject most exact draws once another seat has
        # rubbed: they weigh the worlds instead, a point short costing a factor e^-1/4.
        sampler = Sampler(view, bounds=self.exact)
        side = view.side

        def draw(rng: random.Random) -> tuple[sim.Sim, float]:
            deal = sampler.sample(rng, give_up)
            weight = 1.0 if self.exact else math.exp(-deficit(view, deal) / 4)
            return sim.from_view(view, deal), weight

        def score(world: object, rng: random.Random) -> list[float]:
            state = world[0]  # type: ignore[index]
            values = []
            for action in candidates:
                total = 0.0
                for _ in range(PLAYOUTS):
                    child = state.copy()
                    child.step(action)
                    total += value(child.playout(rng, policy), side)
                values.append(total / PLAYOUTS)
            return values

        weigh = lambda world: world[1]  # noqa: E731
        tally = search(len(candidates), draw, score, rng, more, weigh)
        if not tally.n:
            return SharpBot().act(view, legal)
        return candidates[tally.best()]

    @staticmethod
    def candidates(view: RuffView, legal: Sequence[Action]) -> list[Action]:
        first = legal[0]
        if isinstance(first, Play):
            return list(legal)
        if isinstance(first, Discard):
            return [Discard(cards) for cards in discard_candidates(view.hand, view.trump)]
        assert isinstance(first, Announce)
        true = legal[-1]
        assert isinstance(true, Announce)
        out: list[Action] = [true]
        if len(view.announcements) == len(view.names) - 1:  # the last to announce
            best = max(n for _, n in view.announcements)
            if best + 1 <= true.number:  # ruling F4: equal goes to the earlier seat
                out.insert(0, ANNOUNCES[best + 1])
            else:
                out.insert(0, ANNOUNCES[0])  # it cannot win the ruff: show nothing
        return out


PimcBot = Bot

if __name__ == "__main__":
    from arena.sdk import main

    main(Bot)
