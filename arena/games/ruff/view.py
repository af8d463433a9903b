"""What one Ruff and Trump seat may know (ruling F11): the only thing a bot ever sees.

Its own cards; the dealer and eldest; the turned-up trump; every announcement; the ruff's
winner and its 12 once announcing ends; who rubs, once the rub begins (and, for the rubber
alone, the head cards it took and its discards); the shown ruff; every card played and each
trick's winner; the scores. Never another seat's cards, a partner's included, nor the
head's unseen cards.
"""

from __future__ import annotations

from typing import NamedTuple

from arena.core.cards import Card


class Trick(NamedTuple):
    leader: int
    cards: tuple[tuple[int, Card], ...]  # (seat, card) in play order
    winner: int


class ShownRuff(NamedTuple):
    """The ruff winner's ruff, shown to every seat after the rub (ruling F6)."""

    seat: int
    suit: int  # 0 S, 1 H, 2 D, 3 C (arena.core.cards.Suit)
    cards: tuple[Card, ...]  # highest first until they reach the announced number


class RuffView(NamedTuple):
    game: str  # "ruff"
    match_id: str
    deal: int  # 1-based
    seat: int
    names: tuple[str, ...]  # entrant per seat; seats are numbered clockwise (F2)
    form: str  # "double" or "single" (F1)
    teams: tuple[tuple[int, ...], ...]  # the sides: ((0, 2), (1, 3)) in double, else one each
    set_points: int  # what wins the match (F9)
    hand_size: int  # cards dealt to each seat (F2)
    dealer: int
    eldest: int  # dealer + 1: announces first and leads trick 1 (F2, F4, F7)
    phase: str  # "announce", "rub", "play" or "over"
    to_act: tuple[int, ...]
    hand: tuple[Card, ...]  # this seat's cards now, in card order (S, H, D, C; 2..A)
    dealt: tuple[Card, ...]  # this seat's cards as dealt (its ruff is reckoned on these, F3)
    turned: Card  # the head's top card, face up: its suit is trump (F2)
    trump: int  # the turned card's suit
    announcements: tuple[tuple[int, int], ...]  # (seat, number) in announcing order (F4)
    ruff_winner: int | None  # once announcing has ended (F4)
    rubber: int | None  # once the rub has begun (F5); None before, or when the set ended it
    taken: tuple[Card, ...] | None  # the rubber alone: the head cards it took (F5, F11)
    discards: tuple[Card, ...] | None  # the rubber alone, once made
    shown: ShownRuff | None  # once the rub is over (F6)
    tricks: tuple[Trick, ...]  # closed tricks of this deal
    trick: tuple[tuple[int, Card], ...]  # the open trick, (seat, card) in play order
    cards_won: tuple[int, ...]  # per side: cards taken in this deal's closed tricks (F8)
    scores: tuple[int, ...]  # per side, now (the ruff's 12 included once scored, F9)

    @property
    def side(self) -> int:
        """The index in ``teams`` of this seat's side."""
        return next(i for i, team in enumerate(self.teams) if self.seat in team)

    @property
    def led_suit(self) -> int | None:
        """The suit of the open trick, or None when this seat is to lead."""
        return self.trick[0][1].suit if self.trick else None
