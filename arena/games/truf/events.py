"""Frozen records of everything that happens in a match.

The engine appends one event per step to ``TrufMatch.events``; the replay log is
built from these and nothing else (``arena.games.truf.replay``).
"""

from __future__ import annotations

from typing import NamedTuple

from arena.core.cards import Card
from arena.games.truf.actions import Bid, Declare, Mode


class DealStarted(NamedTuple):
    deal: int
    dealer: int
    direction: str  # "ccw" or "cw" (C6)
    hands: tuple[tuple[Card, ...], ...]  # as dealt, after any C2 redeal
    redeals: int  # thrown-in deals before this one (C2); never shown to bots
    source: str  # "seed" or "file:<line>"


class BidMade(NamedTuple):
    seat: int
    action: Bid | Declare  # hidden from the other seats until BidsRevealed


class BidsRevealed(NamedTuple):
    bids: tuple[Bid | Declare, ...]
    high_bidder: int
    trump: int | None  # suit index, or None for a NO TRUF deal (T3)
    total: int


class ModeChosen(NamedTuple):
    seat: int
    mode: Mode


class ModeSet(NamedTuple):
    mode: Mode
    final_bids: tuple[int, ...]  # classic: after the C5 shift; target: the targets
    chosen: bool  # True when the bids totalled 13 and the high bidder chose


class CardPlayed(NamedTuple):
    seat: int
    card: Card
    face_down: bool  # C11: a classic trump is played face down


class TrickClosed(NamedTuple):
    number: int  # 1..13
    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int


class DealScored(NamedTuple):
    deal: int
    tricks_won: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]


class MatchEnded(NamedTuple):
    totals: tuple[int, ...]
    ranks: tuple[int, ...]


Event = (
    DealStarted
    | BidMade
    | BidsRevealed
    | ModeChosen
    | ModeSet
    | CardPlayed
    | TrickClosed
    | DealScored
    | MatchEnded
)
