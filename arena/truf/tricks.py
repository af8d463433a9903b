"""Which cards may be played to a trick, and who wins it (C8..C12, T5).

Works on 52-bit masks; suits are 13-bit slices (see ``arena.cards``).
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.cards import SUIT_MASKS


def legal_play_mask(
    hand: int, led_suit: int | None, trump: int | None, trump_broken: bool, trump_lead_free: bool
) -> int:
    """The cards of ``hand`` that may be played now.

    ``led_suit`` is None when leading. ``trump_lead_free`` is True in the target
    variant (T5: trumps may be led at any time).
    """
    if led_suit is not None:
        follow = hand & SUIT_MASKS[led_suit]
        return follow or hand  # C9 / T5: follow suit if you can, else anything
    if trump is None or trump_broken or trump_lead_free:
        return hand
    # C10: no trump lead until broken, unless the leader holds only trumps.
    return hand & ~SUIT_MASKS[trump] or hand


def trick_winner(cards: Sequence[tuple[int, int]], trump: int | None) -> int:
    """The seat that wins a closed trick of ``(seat, card)`` pairs in play order (C12, T5)."""
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
