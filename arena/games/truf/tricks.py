"""Which cards may be played to a trick, and who wins it (C8..C12, T5).

Works on 52-bit masks; suits are 13-bit slices (see ``arena.core.cards``).
"""

from __future__ import annotations

from arena.core.cards import SUIT_MASKS
from arena.core.tricks import trick_winner

__all__ = ["legal_play_mask", "trick_winner"]  # trick_winner is shared (arena.core.tricks)


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
