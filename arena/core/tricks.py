"""The trick rules the French-deck games share: follow the led suit if you can, and the
highest trump, else the highest card of the led suit, wins (Truf C9/C12, Ruff F7).

Cards are ``arena.core.cards`` ints, so a higher card of a suit is a higher int (aces high).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from arena.core.cards import Card


def follow_suit(hand: Iterable[Card], led_suit: int | None) -> list[Card]:
    """The cards of ``hand`` that may be played to a trick led in ``led_suit`` (None:
    leading): the led suit's if the hand holds any, else every card."""
    cards = list(hand)
    if led_suit is None:
        return cards
    return [c for c in cards if c // 13 == led_suit] or cards


def trick_winner(cards: Sequence[tuple[int, int]], trump: int | None) -> int:
    """The seat that wins a closed trick of ``(seat, card)`` pairs in play order."""
    led = cards[0][1] // 13
    best_seat, best_card = cards[0]
    best_trump = trump is not None and led == trump
    for seat, card in cards[1:]:
        suit = card // 13
        if suit == trump:
            if not best_trump or card > best_card:
                best_seat, best_card, best_trump = seat, card, True
        elif not best_trump and suit == led and card > best_card:
            best_seat, best_card = seat, card
    return best_seat
