"""What one seat may know: the only thing a bot ever sees.

See the last section of the rulings. A view holds the seat's own hand, the seat
order and direction, the dealer, the cards played face up, the bids once revealed,
trump and mode once set, tricks won and the scores -- and nothing else. A
face-down trump in an open trick shows as ``PlayedCard(seat, None, True)`` to every
other seat (C11).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from arena.core.cards import Card
from arena.games.truf.actions import Bid, Declare, Mode


class PlayedCard(NamedTuple):
    seat: int
    card: Card | None  # None: a face-down trump whose rank this seat may not know yet (C11)
    face_down: bool


class Trick(NamedTuple):
    leader: int
    cards: tuple[tuple[int, Card], ...]  # (seat, card) in play order, all revealed
    winner: int


class SeatView(NamedTuple):
    game: str
    variant: str
    match_id: str
    deal: int  # 1-based
    deals: int  # deals in the match
    seat: int
    names: tuple[str, ...]  # entrant per seat; seats are numbered clockwise
    dealer: int
    direction: str  # "ccw": seat s is followed by s-1; "cw": by s+1 (C6)
    order: tuple[int, ...]  # the four seats in play order, starting after the dealer
    phase: str  # "bid", "declare", "mode", "play" or "over"
    to_act: tuple[int, ...]  # seats whose decision is awaited
    hand: tuple[Card, ...]  # sorted
    bids: tuple[Bid | Declare, ...] | None  # every seat's bid, once revealed (C3/T2)
    bid_total: int | None
    high_bidder: int | None
    trump: int | None  # suit index (0 S, 1 H, 2 D, 3 C); None before the reveal or NO TRUF
    no_truf: bool  # target variant: a NO TRUF declaration won (T3)
    mode: Mode | None
    final_bids: tuple[int, ...] | None  # classic: bids after the C5 shift; target: targets
    tricks: tuple[Trick, ...]  # closed tricks of this deal
    trick_leader: int | None
    trick: tuple[PlayedCard, ...]  # the open trick
    trump_broken: bool  # C10
    tricks_won: tuple[int, ...]
    totals: tuple[int, ...]  # cumulative scores before this deal's result

    @property
    def led_suit(self) -> int | None:
        """The suit of the open trick; a face-down lead is a trump lead (C11)."""
        if not self.trick:
            return None
        first = self.trick[0]
        return self.trump if first.card is None else first.card // 13

    def next_seat(self, seat: int) -> int:
        return (
            (seat - 1) % len(self.names)
            if self.direction == "ccw"
            else (seat + 1) % len(self.names)
        )


class LazyView:
    """A seat's view that builds its ``SeatView`` only when first read.

    It has every field, property and method of ``SeatView``, iterates, indexes, compares
    and hashes as the ``SeatView`` it stands for (``materialize()`` returns that), and is
    read-only. It is not a ``SeatView`` instance: ``isinstance`` is False. Two kinds exist:
    the engine's (``arena.games.truf.state.MatchView``, what in-process bots get) and the SDK's
    (``arena.games.truf.wire.WireView``, decoded from the wire). A subclass gives
    ``materialize`` and the fields.
    """

    __slots__ = ()

    _fields = SeatView._fields
    led_suit = SeatView.led_suit
    next_seat = SeatView.next_seat

    def materialize(self) -> SeatView:
        """The ``SeatView`` itself, every field built."""
        raise NotImplementedError(f"{type(self).__name__} must define materialize()")

    def __iter__(self) -> Iterator[Any]:
        return iter(self.materialize())

    def __len__(self) -> int:
        return len(self._fields)

    def __getitem__(self, index: Any) -> Any:
        return self.materialize()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyView):
            other = other.materialize()
        return self.materialize() == other

    def __hash__(self) -> int:
        return hash(self.materialize())

    def __repr__(self) -> str:
        return repr(self.materialize())

    def _replace(self, **changes: Any) -> SeatView:
        return self.materialize()._replace(**changes)

    def _asdict(self) -> dict[str, Any]:
        return self.materialize()._asdict()
