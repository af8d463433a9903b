"""What a Ruff bot can work out from its view (F11): the trick's winner so far, partners,
and the cards it has not seen."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from arena.core.cards import CARDS, Card
from arena.core.tricks import trick_winner
from arena.games.ruff.reckoning import ruff_value
from arena.games.ruff.view import RuffView


def winning(view: RuffView) -> tuple[int, Card] | None:
    """The (seat, card) that wins the open trick so far, or None when leading."""
    if not view.trick:
        return None
    seat = trick_winner(view.trick, view.trump)
    return seat, dict(view.trick)[seat]


def beats(card: Card, best: Card, led: int, trump: int) -> bool:
    """Whether ``card`` would take a trick led in ``led`` that ``best`` now wins (F7)."""
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


def partners(view: RuffView) -> frozenset[int]:
    """The other seats of this seat's side (none in the single form)."""
    return frozenset(view.teams[view.side]) - {view.seat}


def unseen(view: RuffView) -> set[Card]:
    """Cards this seat has not seen: not its own, not played, not its discards (dead head
    cards count as unseen: nobody knows them)."""
    known = set(view.hand)
    known.update(c for t in view.tricks for _, c in t.cards)
    known.update(c for _, c in view.trick)
    if view.discards:
        known.update(view.discards)
    return {c for c in CARDS if c not in known}


def is_master(card: Card, hidden: Iterable[Card]) -> bool:
    """No card of ``card``'s suit that this seat has not seen is higher."""
    return not any(c // 13 == card // 13 and c > card for c in hidden)


def lowest(cards: Sequence[Card], trump: int) -> Card:
    """The cheapest card to give away: the lowest rank, side suits before trumps."""
    return min(cards, key=lambda c: (c // 13 == trump, c % 13, ruff_value(c)))
