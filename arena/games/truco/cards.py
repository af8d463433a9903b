"""The 40-card Spanish deck and its Truco order (ruling R1).

A card's text form is its rank then its suit letter (``1E``, ``12B``, ``7O``); parsing it
returns the one interned ``Card`` of that code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Suit(StrEnum):
    SWORDS = "E"  # espadas
    CLUBS = "B"  # bastos
    COINS = "O"  # oros
    CUPS = "C"  # copas


RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)  # no 8s and 9s: 40 cards
SUITS = tuple(Suit)

# ruling R1: the four trumps, then by rank; equal numbers here tie.
_TRUMPS = {(1, Suit.SWORDS): 14, (1, Suit.CLUBS): 13, (7, Suit.SWORDS): 12, (7, Suit.COINS): 11}
_BY_RANK = {3: 10, 2: 9, 1: 8, 12: 7, 11: 6, 10: 5, 7: 4, 6: 3, 5: 2, 4: 1}


@dataclass(frozen=True, slots=True)
class Card:
    rank: int
    suit: Suit
    # Its place in R1's order, 1 (the 4s) to 14 (1E); equal strengths tie.
    strength: int = field(init=False, compare=False, repr=False)
    # ruling R9: 1..7 at face value, 10/11/12 nothing.
    envido_value: int = field(init=False, compare=False, repr=False)
    _hash: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.rank not in RANKS or not isinstance(self.suit, Suit):
            raise ValueError(f"no card of rank {self.rank!r} and suit {self.suit!r}")
        strength = _TRUMPS.get((self.rank, self.suit), _BY_RANK[self.rank])  # ruling R1
        object.__setattr__(self, "strength", strength)
        object.__setattr__(self, "envido_value", 0 if self.rank >= 10 else self.rank)
        object.__setattr__(self, "_hash", self.rank * 4 + SUITS.index(self.suit))

    def __hash__(self) -> int:
        return self._hash

    @property
    def code(self) -> str:
        return f"{self.rank}{self.suit.value}"

    @property
    def sort_key(self) -> tuple[int, int]:
        """Weakest first (R1), then by suit E, B, O, C: the order of legal plays."""
        return _SORT_KEYS[self]

    @staticmethod
    def parse(code: str) -> Card:
        card = BY_CODE.get(code.strip().upper())
        if card is None:
            raise ValueError(f"{code!r} is not a Spanish-deck card (rank 1-7, 10-12; suit E B O C)")
        return card

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


DECK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in RANKS)
BY_CODE: dict[str, Card] = {c.code: c for c in DECK}
_SORT_KEYS = {c: (c.strength, SUITS.index(c.suit)) for c in DECK}


def codes(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [c.code for c in cards]
