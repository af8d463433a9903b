"""A hand's envido score (ruling R9), and which declaration beats which."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from itertools import combinations

from arena.games.truco.cards import Card


class EnvidoCount(StrEnum):
    """How a hand with no two cards of one suit counts (ruling R9)."""

    SEED = "seed"  # the best sum of two cards (the seed's text; the default)
    TRADITIONAL = "traditional"  # the highest single card


def envido_cards(cards: Sequence[Card], count: EnvidoCount = EnvidoCount.SEED) -> tuple[Card, ...]:
    """The cards that make the hand's envido: the best pair, or (traditional count, no
    suited pair) the best single card. Ties go to the first in dealt order."""
    pairs = list(combinations(cards, 2))
    suited = [p for p in pairs if p[0].suit == p[1].suit]
    if suited or count is EnvidoCount.SEED:
        return max(suited or pairs, key=_pair_points)
    return (max(cards, key=lambda c: c.envido_value),)


def envido_score(cards: Sequence[Card], count: EnvidoCount = EnvidoCount.SEED) -> int:
    """ruling R9: counted on all three dealt cards, played ones included."""
    best = envido_cards(cards, count)
    if len(best) == 1:
        return best[0].envido_value
    return _pair_points(best)


def _pair_points(pair: tuple[Card, ...]) -> int:
    a, b = pair
    return a.envido_value + b.envido_value + (20 if a.suit == b.suit else 0)


def beats(score: int, distance: int, best: tuple[int, int] | None) -> bool:
    """ruling R9: ``score`` declared at ``distance`` seats from mano (in play order) beats
    the ``best`` (score, distance) so far: higher, or equal and closer to mano."""
    if best is None:
        return True
    return score > best[0] or (score == best[0] and distance < best[1])
