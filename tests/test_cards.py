"""Card masks: a mask turned into its sorted cards, plays and bids (``SliceTable``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.cards import CARD_SLICES, CARDS, Card, cards_of, mask_of
from arena.games.truf.actions import BID_SLICES, BIDS, PLAY_SLICES, PLAYS


@settings(max_examples=500, deadline=None, derandomize=True)
@given(mask=st.integers(0, (1 << 52) - 1))
def test_a_mask_gives_its_cards_sorted_by_suit_then_rank(mask: int) -> None:
    want = tuple(c for c in CARDS if mask >> c & 1)  # CARDS runs S, H, D, C; 2..A in each
    assert cards_of(mask) == want and mask_of(want) == mask
    assert all(type(c) is Card for c in cards_of(mask))
    assert PLAY_SLICES.of_mask(mask) == tuple(PLAYS[c] for c in want)
    assert BID_SLICES.of_mask(mask) == tuple(BIDS[c] for c in want)


def test_every_single_suit_slice_is_right() -> None:
    """All 4 x 8192 entries of the table, each joined from its two halves."""
    for suit in range(4):
        for bits in range(1 << 13):
            got = CARD_SLICES.of_mask(bits << 13 * suit)
            assert got == tuple(CARDS[suit * 13 + r] for r in range(13) if bits >> r & 1)
