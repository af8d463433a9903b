"""Drawing the cards a Truco seat cannot see, uniformly among the deals its view allows.

What a view shows about the unseen cards (``knowledge``, R14): every card played, in this
play and in the hand's earlier duels (R13); every declared envido, which is its seat's
true score (R9: a false number is not a legal action); and the envido winner's shown
cards once a play is over (R9). A deal is each seat's three cards in dealt order (the
order decides which of two equal pairs is shown, ``envido.envido_cards``).

*Son buenas* constrains nothing: it is legal whatever the hand (R9), so a deal in which
the seat could have declared higher is as consistent with the view as one in which it
could not (a bot that wants to read it as weakness can weigh the draws itself). Calls,
answers and al mazo are choices, legal with any cards: they constrain nothing either.

``Sampler(view)`` works out, once per decision, for each seat that declared, the
completions of its known cards that score its number (and show its shown cards, in how
many of the six dealt orders); ``sample(rng)`` picks one per such seat in proportion to
those orders, draws again while two of them share a card, and deals the rest of the
unseen cards at random. Each step keeps the draw uniform: the seats that declared nothing
have no constraint, so every way to complete the others leaves them the same number of
deals.
"""

from __future__ import annotations

import bisect
import itertools
import random
from typing import NamedTuple

from arena.games.truco.cards import DECK
from arena.games.truco.envido import EnvidoCount, envido_cards

__all__ = ["EnvidoCount", "Knowledge", "Sampler", "knowledge", "shown_orders"]
from arena.games.truco.sim import CARD_INDEX, HAND, envido_of
from arena.games.truco.view import TrucoView

FULL = (1 << len(DECK)) - 1


class Knowledge(NamedTuple):
    """What a view tells of the cards its seat cannot see."""

    seat: int
    seats: int
    dealt: tuple[int, ...]  # the seat's own three cards, dealt order
    known: tuple[tuple[int, ...], ...]  # per seat: its cards seen (played or shown), in order
    declared: tuple[int | None, ...]  # per seat: its declared envido (R9), if any
    shown: tuple[tuple[int, ...] | None, ...]  # per seat: the cards it showed (R9), if any
    pool: tuple[int, ...]  # the unseen cards whose holder is unknown
    envido_count: EnvidoCount


def knowledge(view: TrucoView) -> Knowledge:
    """Everything ``view`` shows about the cards its seat has not seen."""
    n, me = len(view.names), view.seat
    known: list[list[int]] = [[] for _ in range(n)]
    declared: list[int | None] = [None] * n
    shown: list[tuple[int, ...] | None] = [None] * n

    def see(seat: int, card: int) -> None:
        if card not in known[seat]:
            known[seat].append(card)

    for play in view.plays:
        for trick in play.tricks:
            for seat, card in trick.cards:
                see(seat, CARD_INDEX[card])
        for seat, card in play.trick:
            see(seat, CARD_INDEX[card])
        for seat, points in play.declarations:
            if points is not None:
                declared[seat] = points
        if play.shown is not None:
            seat, cards = play.shown
            showed = shown[seat] = tuple(CARD_INDEX[c] for c in cards)
            for c in showed:
                see(seat, c)
    dealt = tuple(CARD_INDEX[c] for c in view.dealt)
    seen = set(dealt).union(*known)
    known[me] = list(dealt)
    return Knowledge(
        seat=me,
        seats=n,
        dealt=dealt,
        known=tuple(tuple(k) for k in known),
        declared=tuple(declared),
        shown=tuple(shown),
        pool=tuple(c for c in range(len(DECK)) if c not in seen),
        envido_count=EnvidoCount(view.envido_count),
    )


# Every three-card set by its envido score, per count: what a declaration allows.
_BY_SCORE: dict[EnvidoCount, dict[int, list[tuple[int, ...]]]] = {}


def _by_score(count: EnvidoCount) -> dict[int, list[tuple[int, ...]]]:
    table = _BY_SCORE.get(count)
    if table is None:
        table = _BY_SCORE[count] = {}
        for three in itertools.combinations(range(len(DECK)), HAND):
            table.setdefault(envido_of(three, count), []).append(three)
    return table


def shown_orders(cards: tuple[int, ...], shown: tuple[int, ...], count: EnvidoCount) -> int:
    """In how many of the six dealt orders of ``cards`` the envido cards shown (R9) are
    ``shown``: ties between equal pairs go to the first in dealt order."""
    want = sorted(shown)
    return sum(
        sorted(CARD_INDEX[c] for c in envido_cards([DECK[i] for i in order], count)) == want
        for order in itertools.permutations(cards)
    )


class _Options:
    """The hidden cards of one seat that declared: each set it may hold, with its weight
    (dealt orders that fit what it showed), as cumulative weights for ``bisect``."""

    def __init__(self, seat: int, sets: list[tuple[int, ...]], weights: list[int]) -> None:
        self.seat = seat
        self.sets = sets
        self.cumulative = list(itertools.accumulate(weights))

    def draw(self, rng: random.Random) -> tuple[int, ...]:
        return self.sets[bisect.bisect_right(self.cumulative, rng.randrange(self.cumulative[-1]))]


class Sampler:
    """Draws every seat's dealt cards uniformly among the deals consistent with a view.

    Build one per decision (``Sampler(view)``) and call ``sample(rng)`` as often as you
    like. A draw is a list, per seat, of its three cards (``DECK`` indices) in a dealt
    order: its seen cards first, in the order seen, then its hidden ones (the order of a
    hand's cards changes nothing in the simulator).
    """

    OVERLAP_TRIES = 10_000

    def __init__(self, view: TrucoView) -> None:
        know = self.know = knowledge(view)
        pool = set(know.pool)
        self.options: list[_Options] = []
        for seat in range(know.seats):
            points = know.declared[seat]
            if seat == know.seat or points is None:
                continue
            have = set(know.known[seat])
            sets, weights = [], []
            for three in _by_score(know.envido_count).get(points, ()):
                hidden = [c for c in three if c not in have]
                if len(hidden) + len(have) != HAND or not pool.issuperset(hidden):
                    continue
                shown = know.shown[seat]
                weight = 6 if shown is None else shown_orders(three, shown, know.envido_count)
                if weight:
                    sets.append(tuple(hidden))
                    weights.append(weight)
            if not sets:
                raise ValueError(f"no hand of seat {seat} fits what the view shows of it")
            self.options.append(_Options(seat, sets, weights))
        self.free = [s for s in range(know.seats) if s != know.seat and (know.declared[s] is None)]

    def sample(self, rng: random.Random) -> list[tuple[int, ...]]:
        know = self.know
        hidden: dict[int, tuple[int, ...]] = {}
        for _ in range(self.OVERLAP_TRIES):
            taken: set[int] = set()
            for opt in self.options:
                cards = opt.draw(rng)
                if taken.intersection(cards):
                    break
                taken.update(cards)
                hidden[opt.seat] = cards
            else:
                break
        else:
            raise ValueError("no deal found that fits every declaration of this view")
        rest = [c for c in know.pool if c not in taken]
        rng.shuffle(rest)
        at = 0
        for seat in self.free:
            need = HAND - len(know.known[seat])
            hidden[seat] = tuple(rest[at : at + need])
            at += need
        return [
            know.known[s] if s == know.seat else know.known[s] + hidden[s]
            for s in range(know.seats)
        ]
