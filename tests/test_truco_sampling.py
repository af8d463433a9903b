"""``arena.games.truco.sampling``: every draw is a deal the view allows, and draws follow the
law of the deals the view allows.

A deal is every seat's three cards in dealt order, all orders alike. It is *consistent*
with a view when each seat holds the cards it was seen to play, each declaration is its
seat's true envido (R9) and the shown cards are its envido cards (R9: ties by dealt
order). The brute force below lists every way to place the unseen cards and weighs each by
its dealt orders that fit, with the engine's own ``envido_score`` and ``envido_cards``;
it shares nothing with the sampler but the view.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from arena.games.truco import sampling, sim
from arena.games.truco.actions import MAZO, NO_QUIERO, QUIERO
from arena.games.truco.cards import DECK
from arena.games.truco.envido import envido_cards, envido_score
from arena.games.truco.rules import TrucoRules
from arena.games.truco.state import TrucoMatch
from arena.games.truco.view import TrucoView

Placement = tuple[frozenset[int], ...]  # per seat: its hidden cards (the own seat: none)


def views_of(seats: int, seed: str) -> Iterator[TrucoView]:
    """Views at every decision of random matches that accept most Envidos."""
    rng = random.Random(seed)
    for m in itertools.count():
        match = TrucoMatch(TrucoRules(seats=seats), seed=f"{seed}:{m}")
        while not match.is_over:
            (seat,) = match.to_act()
            yield match.view(seat)
            legal = [a for a in match.legal_actions(seat) if a is not MAZO]
            if QUIERO in legal and match.view(seat).asked == "answer-envido":
                move = QUIERO if rng.random() < 0.8 else NO_QUIERO
            else:
                move = legal[rng.randrange(len(legal))]
            match.apply(seat, move)


def orders_that_fit(three: tuple[int, ...], points: int | None, shown: tuple[int, ...] | None,
                    count: sampling.EnvidoCount) -> int:  # fmt: skip
    if points is None:
        return 6
    cards = [DECK[c] for c in three]
    if envido_score(cards, count) != points:
        return 0
    if shown is None:
        return 6
    return sum(
        sorted(DECK.index(c) for c in envido_cards(list(p), count)) == sorted(shown)
        for p in itertools.permutations(cards)
    )


def brute_force(view: TrucoView) -> dict[Placement, int]:
    """Every placement of the unseen cards on the other seats, with its weight."""
    know = sampling.knowledge(view)
    others = [s for s in range(know.seats) if s != know.seat]
    needs = [sim.HAND - len(know.known[s]) for s in others]
    out: dict[Placement, int] = {}

    def place(i: int, left: tuple[int, ...], chosen: list[tuple[int, ...]], weight: int) -> None:
        if i == len(others):
            placement = [frozenset()] * know.seats
            for s, hidden in zip(others, chosen, strict=True):
                placement[s] = frozenset(hidden)
            out[tuple(placement)] = weight
            return
        seat = others[i]
        for hidden in itertools.combinations(left, needs[i]):
            w = orders_that_fit(
                know.known[seat] + hidden, know.declared[seat], know.shown[seat], know.envido_count
            )
            if w:
                rest = tuple(c for c in left if c not in hidden)
                place(i + 1, rest, [*chosen, hidden], weight * w)

    place(0, know.pool, [], 1)
    return out


def small_positions() -> list[TrucoView]:
    """Views late in a hand with a declaration heard, few enough unseen cards to list
    every placement: 2 seats, and 4 seats with two seats' declarations."""
    out: list[TrucoView] = []
    for seats, declared, wanted in ((2, 1, 3), (4, 2, 2)):
        for view in views_of(seats, f"small-{seats}"):
            know = sampling.knowledge(view)
            heard = sum(p is not None for s, p in enumerate(know.declared) if s != view.seat)
            hidden = sum(sim.HAND - len(know.known[s]) for s in range(seats) if s != view.seat)
            if heard >= declared and hidden <= (2 if seats == 2 else 3):
                out.append(view)
                if sum(len(v.names) == seats for v in out) == wanted:
                    break
    return out


POSITIONS = small_positions()


def chi_square_ok(counts: Counter[Placement], support: dict[Placement, int], draws: int) -> bool:
    """Whether ``counts`` fit the law ``support`` (weights) at the 0.1% level
    (Wilson-Hilferty's approximation of the chi-square quantile)."""
    total = sum(support.values())
    if len(support) == 1:
        return sum(counts.values()) == draws
    stat = sum(
        (counts[p] - draws * w / total) ** 2 / (draws * w / total) for p, w in support.items()
    )
    df = len(support) - 1
    z = 3.09
    limit = df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3
    return stat <= limit


def placement_of(view: TrucoView, dealt: list[tuple[int, ...]]) -> Placement:
    know = sampling.knowledge(view)
    return tuple(
        frozenset() if s == view.seat else frozenset(dealt[s]) - frozenset(know.known[s])
        for s in range(know.seats)
    )


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_draws_follow_the_law_of_the_consistent_deals(index: int) -> None:
    view = POSITIONS[index]
    support = brute_force(view)
    assert support, "the true deal at least is consistent"
    lightest = min(support.values()) / sum(support.values())
    draws = max(2000, math.ceil(8 / lightest))
    sampler = sampling.Sampler(view)
    rng = random.Random(f"law:{index}")
    counts = Counter(placement_of(view, sampler.sample(rng)) for _ in range(draws))
    assert set(counts) <= set(support)  # never a deal outside the consistent ones
    assert chi_square_ok(counts, support, draws)


def test_positions_hear_declarations_at_two_and_four_seats() -> None:
    assert sorted(len(v.names) for v in POSITIONS) == [2, 2, 2, 4, 4]


def test_a_draw_replays_the_view_in_the_simulator() -> None:
    """Every draw, at every seat count, is a deal on which the hand so far replays (the
    declarations are true scores, R9) and which gives the seat its own cards."""
    rng = random.Random(5)
    for seats in (2, 4, 6):
        for i, view in enumerate(views_of(seats, f"replay-{seats}")):
            if i >= 150:
                break
            dealt = sampling.Sampler(view).sample(rng)
            state = sim.from_view(view, dealt)  # raises if a declaration does not fit
            assert sorted(dealt[view.seat]) == sorted(sim.CARD_INDEX[c] for c in view.dealt)
            assert len({c for h in dealt for c in h}) == 3 * seats
            assert not state.is_over


def test_shown_cards_count_the_dealt_orders_that_show_them() -> None:
    card = {c.code: i for i, c in enumerate(DECK)}
    five = (card["5E"], card["5O"], card["5C"])  # three equal pairs: the order decides
    assert sampling.shown_orders(five, five[:2], sampling.EnvidoCount.SEED) == 2
    suited = (card["7O"], card["6O"], card["1E"])
    assert sampling.shown_orders(suited, suited[:2], sampling.EnvidoCount.SEED) == 6
    assert sampling.shown_orders(suited, (suited[0], suited[2]), sampling.EnvidoCount.SEED) == 0


def test_the_check_catches_a_sampler_that_ignores_the_declarations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Dealing the unseen cards at random, as if nobody had declared, is caught."""
    real_init = sampling.Sampler.__init__

    def blind(self: sampling.Sampler, view: TrucoView) -> None:
        real_init(self, view)
        self.options = []
        self.free = [s for s in range(self.know.seats) if s != self.know.seat]

    monkeypatch.setattr(sampling.Sampler, "__init__", blind)
    caught = 0
    for index, view in enumerate(POSITIONS):
        support = brute_force(view)
        rng = random.Random(f"blind:{index}")
        sampler = sampling.Sampler(view)
        counts = Counter(placement_of(view, sampler.sample(rng)) for _ in range(2000))
        caught += not set(counts) <= set(support) or not chi_square_ok(counts, support, 2000)
    assert caught == len(POSITIONS)
