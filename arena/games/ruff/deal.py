"""The deal (ruling F2): hands and head from one seeded shuffle, the first dealer from the
match seed, and the check that a given deal (a deals file, a replay) is one deck."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena.core.cards import CARDS, Card
from arena.core.errors import DealError
from arena.core.seeding import rng
from arena.games.ruff.rules import RuffRules

PACKET = 4  # ruling F2 (the seed): the dealer deals four cards at a time


@dataclass(frozen=True)
class DealSpec:
    """A deal given rather than dealt from the seed: every seat's hand as dealt and the
    head, top card (the turned-up trump) first; optionally the dealer."""

    hands: tuple[tuple[Card, ...], ...]
    head: tuple[Card, ...]
    dealer: int | None = None
    source: str = "given"


def first_dealer(seed: str, seats: int) -> int:
    """The first deal's dealer, drawn from the match seed (ruling F2)."""
    return rng(seed, "ruff", "dealer").randrange(seats)


def dealer_at(seed: str, deal_no: int, seats: int, rotation: int = 0) -> int:
    """The dealer of seeded deal ``deal_no`` in a match keyed by ``seed``: the first is
    drawn from the seed, and the deal passes clockwise after every deal (F2). At
    ``rotation`` (a duplicate match) every dealer is turned back by ``rotation`` seats, so
    that seat s holds what seat s + rotation holds at rotation 0."""
    return (first_dealer(seed, seats) + deal_no - 1 - rotation) % seats


def seeded_deal(
    seed: str, deal_no: int, dealer: int, rules: RuffRules
) -> tuple[list[tuple[Card, ...]], tuple[Card, ...]]:
    """Deal ``deal_no``'s hands and head: one deck shuffled from the match seed, dealt in
    packets of four from eldest (the seat after ``dealer``); the rest is the head, in
    deck order, its first card on top (F2)."""
    deck = list(CARDS)
    rng(seed, "ruff", "deal", deal_no).shuffle(deck)
    n, size = rules.seats, rules.hand_size
    hands: list[list[Card]] = [[] for _ in range(n)]
    for packet in range(n * size // PACKET):
        seat = (dealer + 1 + packet) % n
        hands[seat] += deck[packet * PACKET : (packet + 1) * PACKET]
    return [tuple(h) for h in hands], tuple(deck[n * size :])


def check_deal(hands: Sequence[Sequence[Card]], head: Sequence[Card], rules: RuffRules) -> None:
    """Raise DealError unless ``hands`` and ``head`` deal the whole deck once, ``rules``'
    hand size to each of its seats (F2)."""
    n, size = rules.seats, rules.hand_size
    if len(hands) != n:
        raise DealError(f"a {n}-seat deal has {n} hands, this one has {len(hands)}")
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            raise DealError(f"hand {seat} has {len(hand)} cards, not {size} (ruling F2)")
    if len(head) != rules.head_size:
        raise DealError(f"the head has {len(head)} cards, not {rules.head_size} (ruling F2)")
    seen: set[Card] = set()
    for card in [c for h in hands for c in h] + list(head):
        if card in seen:
            raise DealError(f"card {card} appears twice (F2: hands and head are one deck)")
        seen.add(card)
