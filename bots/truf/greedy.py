"""greedy: bids the tricks it counts in its hand and plays each trick on its own.

Bidding counts likely tricks (aces, guarded kings, trump length and honours for the
suit its bid card would make trump) and bids the card whose value is nearest that
count. Play looks at the current trick only: when it wants tricks (atas, or a target
not yet reached) it wins as cheaply as it can, or else throws its lowest card; when it
wants none (bawah, or a target reached) it plays the highest card that still loses,
and throws its highest cards when it cannot follow.

The small helpers here (the open trick's state, which card beats it) are shared by
``planner`` and ``tracker``.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.bot import BaseBot
from arena.core.cards import VALUES, Card
from arena.games.truf.actions import Action, ChooseMode, Declare, Mode
from arena.games.truf.view import SeatView

ACE = 12
KING = 11
QUEEN = 10


class TrickState:
    """The open trick as one seat sees it.

    ``best`` is the highest card seen that is winning so far (None when leading, or when
    the winner is a face-down trump whose rank is hidden, ruling C11). ``trumped`` is
    True once a trump is in the trick; ``hidden`` counts face-down trumps of unknown rank.
    """

    __slots__ = ("best", "best_seat", "hidden", "led", "to_come", "trumped")

    def __init__(self, view: SeatView, trump: int | None) -> None:
        trick = view.trick
        self.led: int | None = view.led_suit
        self.to_come = 3 - len(trick)  # seats still to play after this one
        best: int | None = None
        best_seat = -1
        trumped = False
        hidden = 0
        for pc in trick:
            card = pc.card
            if card is None:  # someone else's face-down trump (C11)
                hidden += 1
                trumped = True
                if best is None or best // 13 != trump:
                    best_seat = pc.seat  # a trump, so it beats any card of another suit
                continue
            if best is None:
                best, best_seat = card, pc.seat
                trumped = card // 13 == trump
            elif card // 13 == trump:
                if not trumped or card > best:
                    best, best_seat = card, pc.seat
                trumped = True
            elif not trumped and card // 13 == best // 13 and card > best:
                best, best_seat = card, pc.seat
        if best is not None and trumped and best // 13 != trump:
            best = None  # only hidden trumps beat the led suit so far
        self.best = best
        self.best_seat = best_seat
        self.trumped = trumped
        self.hidden = hidden

    def beats(self, card: int, trump: int | None, hidden_rank: int = 6) -> bool:
        """Whether ``card`` would be winning the trick so far. A hidden trump is taken to
        have rank ``hidden_rank`` (6: an eight)."""
        led = self.led
        if led is None:
            return True
        suit = card // 13
        if self.trumped:
            if suit != trump:
                return False
            if self.hidden and card % 13 <= hidden_rank:
                return False
            best = self.best
            return best is None or card > best
        if suit == trump:
            return True
        best = self.best
        return suit == led and (best is None or card > best)


def play_cards(legal: Sequence[Action]) -> list[Card]:
    return [a.card for a in legal]  # type: ignore[union-attr]


def suit_lengths(hand: Sequence[int]) -> list[int]:
    lengths = [0, 0, 0, 0]
    for c in hand:
        lengths[c // 13] += 1
    return lengths


def count_tricks(hand: Sequence[int], trump: int | None) -> float:
    """A plain count of the tricks a hand may take when everyone tries to win:
    aces, guarded kings and queens, and long or high trumps."""
    lengths = suit_lengths(hand)
    est = 0.0
    for c in hand:
        suit, rank = divmod(c, 13)
        length = lengths[suit]
        if suit == trump:
            if rank == ACE:
                est += 1.0
            elif rank == KING:
                est += 0.8 if length >= 2 else 0.4
            elif rank == QUEEN:
                est += 0.5 if length >= 3 else 0.2
        elif rank == ACE:
            est += 0.9 if length <= 5 else 0.6
        elif rank == KING:
            est += 0.6 if 2 <= length <= 5 else 0.25
        elif rank == QUEEN and 3 <= length <= 5:
            est += 0.25
    if trump is not None:
        tl = lengths[trump]
        est += max(0, tl - 3) * 0.8
        if tl >= 2:  # short side suits make ruffs
            est += 0.4 * sum(1 for s in range(4) if s != trump and lengths[s] <= 1)
    return est


class Bot(BaseBot):
    name = "greedy"
    version = "1.0"

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed  # greedy takes no random decisions; the seed is kept for the record

    def act(self, view: SeatView, legal: Sequence[Action]) -> Action | int:
        phase = view.phase
        if phase == "play":
            return self.play(view, legal)
        if phase == "bid":
            return self.bid(view, legal)
        if phase == "declare":
            return self.declare(view, legal)
        if phase == "mode":
            return self.choose_mode(view, legal)
        return 0

    # ------------------------------------------------------------------ bidding

    def bid(self, view: SeatView, legal: Sequence[Action]) -> Action | int:
        hand = view.hand
        counts = [count_tricks(hand, s) for s in range(4)]
        lengths = suit_lengths(hand)
        best, best_key = 0, None
        for i, action in enumerate(legal):
            card = action.card  # type: ignore[union-attr]
            suit = card // 13
            key = (abs(VALUES[card] - counts[suit]), -lengths[suit], -VALUES[card], -card)
            if best_key is None or key < best_key:
                best, best_key = i, key
        return best

    def declare(self, view: SeatView, legal: Sequence[Action]) -> Action | int:
        hand = view.hand
        counts: dict[int | None, float] = {s: count_tricks(hand, s) for s in range(4)}
        counts[None] = count_tricks(hand, None)
        best, best_key = 0, None
        for i, action in enumerate(legal):
            assert isinstance(action, Declare)
            target = action.target
            key = (abs(target - counts[action.suit_for_trump]), -target, i)
            if best_key is None or key < best_key:
                best, best_key = i, key
        return best

    def choose_mode(self, view: SeatView, legal: Sequence[Action]) -> Action | int:
        bids = view.bids or ()
        mine = bids[view.seat]
        target = mine.target if isinstance(mine, Declare) else VALUES[mine.card]
        atas = count_tricks(view.hand, view.trump) >= target
        want = Mode.ATAS if atas else Mode.BAWAH
        for i, action in enumerate(legal):
            if isinstance(action, ChooseMode) and action.mode is want:
                return i
        return 0

    # ------------------------------------------------------------------ play

    def wants_tricks(self, view: SeatView) -> bool:
        if view.variant == "target":
            assert view.final_bids is not None
            return view.tricks_won[view.seat] < view.final_bids[view.seat]
        return view.mode is Mode.ATAS

    def play(self, view: SeatView, legal: Sequence[Action]) -> Action | int:
        cards = play_cards(legal)
        if len(cards) == 1:
            return 0
        trump = view.trump
        state = TrickState(view, trump)

        def rank_key(c: int) -> tuple[bool, int]:
            return (c // 13 == trump, c % 13)  # trumps count above every other card

        if self.wants_tricks(view):
            if state.led is None:
                aces = [c for c in cards if c % 13 == ACE and c // 13 != trump]
                return cards.index(aces[0] if aces else max(cards, key=rank_key))
            winners = [c for c in cards if state.beats(c, trump)]
            if winners:
                return cards.index(min(winners, key=rank_key))
            return cards.index(min(cards, key=rank_key))
        if state.led is None:
            return cards.index(min(cards, key=rank_key))
        losers = [c for c in cards if not state.beats(c, trump)]
        if losers:
            return cards.index(max(losers, key=rank_key))
        return cards.index(max(cards, key=rank_key))


GreedyBot = Bot

if __name__ == "__main__":
    from arena.sdk import main

    main(Bot)
