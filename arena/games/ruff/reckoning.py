"""The ruff: what a suit is worth (F3), who wins the ruff (F4), who rubs (F5) and which
cards are shown for it (F6)."""

from __future__ import annotations

from collections.abc import Sequence

from arena.core.cards import Card, Rank

# ruling F3: 2..10 at face value, J Q K 10, A 11 (indexed by rank 0..12 = 2..A).
RUFF_VALUES = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11)


def ruff_value(card: Card) -> int:
    """A card's worth in reckoning the ruff (ruling F3)."""
    return RUFF_VALUES[card % 13]


def suit_sums(dealt: Sequence[Card], turned: Card) -> list[int]:
    """Each suit's sum (S, H, D, C) for a seat dealt ``dealt``; the trump suit's always
    counts the turned-up card (ruling F3)."""
    sums = [0, 0, 0, 0]
    for card in dealt:
        sums[card // 13] += RUFF_VALUES[card % 13]
    sums[turned // 13] += RUFF_VALUES[turned % 13]
    return sums


def true_ruff(dealt: Sequence[Card], turned: Card) -> int:
    """The seat's ruff: its best suit's sum, on the cards it was dealt (ruling F3)."""
    return max(suit_sums(dealt, turned))


def ruff_suit(dealt: Sequence[Card], turned: Card) -> int:
    """The best suit by F3; equal sums go spades > hearts > diamonds > clubs (ruling F6)."""
    sums = suit_sums(dealt, turned)
    return sums.index(max(sums))


def shown_cards(
    dealt: Sequence[Card], turned: Card, announced: int
) -> tuple[int, tuple[Card, ...]]:
    """The ruff suit and the cards shown for an announcement (ruling F6): the suit's dealt
    cards highest first until their sum reaches ``announced``; in the trump suit, the
    turned-up card last when the dealt cards fall short. 0 shows no card."""
    suit = ruff_suit(dealt, turned)
    own = sorted((c for c in dealt if c // 13 == suit), reverse=True)
    if suit == turned // 13:
        own.append(turned)
    shown: list[Card] = []
    total = 0
    for card in own:
        if total >= announced:
            break
        shown.append(card)
        total += ruff_value(card)
    return suit, tuple(shown)


def ruff_winner(announcements: Sequence[tuple[int, int]]) -> int:
    """The seat that wins the ruff: the highest number; equal numbers go to the seat that
    announced first (ruling F4). ``announcements`` are (seat, number) in order."""
    best_seat, best = announcements[0]
    for seat, number in announcements[1:]:
        if number > best:
            best_seat, best = seat, number
    return best_seat


def rubber(hands: Sequence[Sequence[Card]], trump: int, dealer: int) -> int:
    """The seat that rubs: the holder of the trump ace, else (it is the turned-up card,
    or lies unseen in the head) the dealer (ruling F5)."""
    ace = Card.of(Rank.ACE, trump)
    for seat, hand in enumerate(hands):
        if ace in hand:
            return seat
    return dealer
