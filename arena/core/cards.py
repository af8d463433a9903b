"""Cards of the 52-card French deck, as small interned ints.

A card is an ``int`` in ``0..51``: ``suit * 13 + rank``. Suits are numbered
spades 0, hearts 1, diamonds 2, clubs 3 (the order of the codes ``S H D C``);
ranks 2..A are numbered 0..12. Because a card is an int, a hand is a 52-bit
mask (``1 << card``) and the engine's hot paths are plain integer operations,
while the public API still shows ``Card`` objects with a readable code.

The text form is the two-character code, rank then suit: ``TD``, ``AS``, ``2C``.
``Card.parse`` also accepts ``10D`` and lower case; ``str(card)`` round-trips.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from enum import IntEnum
from typing import Generic, TypeVar

T = TypeVar("T")


class Suit(IntEnum):
    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        try:
            return cls("SHDC".index(text.strip().upper()))
        except ValueError:
            raise CardError(f"not a suit: {text!r} (expected one of S, H, D, C)") from None


class Rank(IntEnum):
    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def letter(self) -> str:
        return RANK_LETTERS[self]


RANK_LETTERS = "23456789TJQKA"
SUIT_LETTERS = "SHDC"
NUM_CARDS = 52
FULL_DECK_MASK = (1 << NUM_CARDS) - 1
SUIT_MASKS: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))


class CardError(ValueError):
    """A card code that does not parse."""


class Card(int):
    """One card; an interned ``int`` 0..51 with a readable code.

    >>> Card.parse("10D")
    Card.parse('TD')
    >>> Card.parse("AS").value
    1
    """

    __slots__ = ()

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def rank(self) -> Rank:
        return Rank(self % 13)

    @property
    def code(self) -> str:
        return CODES[self]

    @property
    def value(self) -> int:
        """The card's worth as a bid or target: J = Q = K = 0, A = 1, 2..10 face value."""
        return VALUES[self]

    @property
    def is_court(self) -> bool:
        """A, K, Q or J: the cards that are not numerals (ruling C2 counts the ace here)."""
        return self % 13 >= Rank.JACK

    @staticmethod
    def of(rank: Rank | int, suit: Suit | int) -> Card:
        return CARDS[int(suit) * 13 + int(rank)]

    @staticmethod
    def parse(text: str) -> Card:
        card = _BY_CODE.get(text.strip().upper()) if isinstance(text, str) else None
        if card is None:
            raise CardError(
                f"not a card code: {text!r} (expected rank 2-9, T or 10, J, Q, K, A "
                "then suit S, H, D, C, as in 'TD' or 'AS')"
            )
        return card

    def __repr__(self) -> str:
        return f"Card.parse({CODES[self]!r})"

    def __str__(self) -> str:
        return CODES[self]

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (CODES[self],))


CODES: tuple[str, ...] = tuple(r + s for s in SUIT_LETTERS for r in RANK_LETTERS)
CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(NUM_CARDS))
VALUES: tuple[int, ...] = tuple(
    (0 if r >= Rank.JACK and r != Rank.ACE else 1 if r == Rank.ACE else r + 2)
    for _s in range(4)
    for r in range(13)
)
_BY_CODE: dict[str, Card] = {code: CARDS[i] for i, code in enumerate(CODES)}
_BY_CODE.update({"10" + s: _BY_CODE["T" + s] for s in SUIT_LETTERS})


class SliceTable(Generic[T]):
    """Lazily filled lookup: (suit, 13-bit slice of a mask) -> tuple of items for those
    cards in rank order. Makes mask -> sorted tuple a few list lookups. A missing entry
    is joined from two small eager tables (ranks 2..8 and 9..A), so filling is cheap."""

    __slots__ = ("item", "table", "_low", "_high")

    def __init__(self, item: Sequence[T]) -> None:
        self.item = item
        self.table: list[tuple[T, ...] | None] = [None] * (4 << 13)
        self._low = [self._subset(key >> 7, key & 0x7F, 0) for key in range(4 << 7)]
        self._high = [self._subset(key >> 6, key & 0x3F, 7) for key in range(4 << 6)]

    def _subset(self, suit: int, bits: int, first: int) -> tuple[T, ...]:
        base = suit * 13 + first
        return tuple(self.item[base + r] for r in range(13 - first) if bits >> r & 1)

    def fill(self, key: int) -> tuple[T, ...]:
        suit, bits = key >> 13, key & 0x1FFF
        out = self.table[key] = (
            self._low[suit << 7 | bits & 0x7F] + self._high[suit << 6 | bits >> 7]
        )
        return out

    def of_mask(self, mask: int) -> tuple[T, ...]:
        """The items of every card in ``mask``, sorted by suit (S, H, D, C) then rank."""
        table = self.table
        out: tuple[T, ...] = ()
        bits = mask & 0x1FFF
        if bits:
            out = table[bits] or self.fill(bits)
        bits = mask >> 13 & 0x1FFF
        if bits:
            out += table[0x2000 | bits] or self.fill(0x2000 | bits)
        bits = mask >> 26 & 0x1FFF
        if bits:
            out += table[0x4000 | bits] or self.fill(0x4000 | bits)
        bits = mask >> 39
        if bits:
            out += table[0x6000 | bits] or self.fill(0x6000 | bits)
        return out


CARD_SLICES: SliceTable[Card] = SliceTable(CARDS)


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards in a mask, sorted by suit (S, H, D, C) then rank (2..A)."""
    return CARD_SLICES.of_mask(mask)


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def parse_cards(codes: Iterable[str]) -> list[Card]:
    return [Card.parse(code) for code in codes]


def codes(cards: Iterable[int]) -> list[str]:
    return [CODES[c] for c in cards]


def deck() -> Iterator[Card]:
    return iter(CARDS)
