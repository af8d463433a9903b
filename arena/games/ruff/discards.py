"""Every legal discard of a rubber's hand (ruling F5), as a sequence built only when read.

Any four cards of the hand are legal: 1820 sets of a 16-card hand, 20475 of a 28-card one
(the alternative two-seat deal). Building them all costs far more than the decision it
serves, so ``Discards`` computes the ``i``-th set, and the index of a set, on demand. Its
order is ``sort_key``'s (``arena.games.ruff.actions``): the sets of four of the hand (in card
order) in lexicographic order of their positions, as ``itertools.combinations`` makes them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb
from typing import Any, overload

from arena.core.cards import Card
from arena.games.ruff.actions import Discard
from arena.games.ruff.rules import RUB_CARDS


class Discards(Sequence[Discard]):
    """The discards of ``hand`` (its cards in card order), in the legal list's order."""

    __slots__ = ("_hand", "_len", "_pos")

    def __init__(self, hand: Sequence[Card]) -> None:
        self._hand = tuple(sorted(hand))
        self._len = comb(len(self._hand), RUB_CARDS)
        self._pos = {card: i for i, card in enumerate(self._hand)}

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Discard: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Discard, ...]: ...
    def __getitem__(self, index: int | slice) -> Discard | tuple[Discard, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self._len)))
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError(f"discard {index} of {self._len}")
        return Discard(self._unrank(index))

    def _unrank(self, index: int) -> tuple[Card, ...]:
        """The ``index``-th set of four in lexicographic order of positions."""
        n, picked, first = len(self._hand), [], 0
        for left in range(RUB_CARDS, 0, -1):
            for pos in range(first, n):
                after = comb(n - pos - 1, left - 1)  # sets that start with this position
                if index < after:
                    picked.append(self._hand[pos])
                    first = pos + 1
                    break
                index -= after
        return tuple(picked)

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        """The position of the discard ``value``; ValueError if it is not one of these."""
        positions = self._positions(value)
        if positions is None:
            raise ValueError(f"{value!r} is not a discard of this hand")
        n, rank, first = len(self._hand), 0, 0
        for left, pos in zip(range(RUB_CARDS, 0, -1), positions, strict=True):
            rank += sum(comb(n - p - 1, left - 1) for p in range(first, pos))
            first = pos + 1
        if not start <= rank < (self._len if stop is None else stop):
            raise ValueError(f"{value!r} is not in the given range")
        return rank

    def _positions(self, value: object) -> list[int] | None:
        if not isinstance(value, Discard):
            return None
        positions = [self._pos.get(card) for card in value.cards]
        if None in positions:
            return None
        return sorted(p for p in positions if p is not None)

    def __contains__(self, value: object) -> bool:
        return self._positions(value) is not None

    def __iter__(self) -> Iterator[Discard]:
        return (Discard(cards) for cards in combinations(self._hand, RUB_CARDS))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Discards):
            return self._hand == other._hand
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(other) == self._len and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Discards({' '.join(c.code for c in self._hand)})"
