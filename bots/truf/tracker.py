"""tracker: the planner, plus card tracking.

It reads the whole deal from the view: the cards already played, the suits each seat has
shown out of, and the bid cards each seat still holds (C3/T2: they go back into the
hands); unknown cards are spread over the hands so that hand sizes and suit counts add
up. So it knows which cards are still out, when its card is the master of a suit (a
king is as good as an ace once the ace is gone), when a ruff or an overruff is likely,
and which low cards are a safe lead in bawah. In target it knows which seats still need
tricks (they fight for the trick) and which have their target (they duck), and aims
exactly at its own. Over a match it tracks each seat's bids and declarations and fits
its bidding prior to them, and it rates its hands with the self-play tables in both
modes (memory keyed by match and seat, bounded).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from arena.core.cards import SUIT_MASKS, VALUES
from arena.games.truf.actions import Action, Bid, Declare
from arena.games.truf.view import SeatView
from bots.truf.greedy import TrickState
from bots.truf.planner import (
    ABOVE,
    ATAS_SIDE,
    ATAS_TRUMP,
    BAWAH_SIDE,
    BAWAH_TRUMP,
    BID_PRIOR,
    FULL,
    TARGET_PRIOR,
    Knowledge,
    expected_tricks,
)
from bots.truf.planner import Bot as Planner


def tracked_knowledge(view: SeatView) -> Knowledge:
    """Everything the deal so far tells: cards played, suits seats showed out of, and
    the bid cards each seat still holds (C3/T2: bid cards go back into the hands)."""
    me = view.seat
    trump = view.trump
    mine = 0
    for c in view.hand:
        mine |= 1 << c
    gone = mine
    void = {j: 0 for j in range(4) if j != me}
    for trick in view.tricks:
        cards = trick.cards
        led = cards[0][1] // 13
        for seat, card in cards:
            gone |= 1 << card
            if card // 13 != led and seat != me:
                void[seat] |= 1 << led
    played_now = set()
    led_now = view.led_suit
    for pc in view.trick:
        played_now.add(pc.seat)
        if pc.card is not None:
            gone |= 1 << pc.card
            suit = pc.card // 13
        else:  # a face-down card is a trump (C11)
            suit = trump if trump is not None else -1
        if pc.seat != me and led_now is not None and suit != led_now:
            void[pc.seat] |= 1 << led_now
    left = 13 - len(view.tricks)
    free = {j: left - (j in played_now) for j in void}
    out = FULL & ~gone
    known = dict.fromkeys(void, 0)
    if view.bids is not None:
        for j in void:
            bid = view.bids[j]
            bid_cards = (bid.card,) if isinstance(bid, Bid) else bid.cards
            for c in bid_cards:
                if out >> c & 1:
                    known[j] |= 1 << c
    return Knowledge(trump, out, free, known, void, mine)


class Bot(Planner):
    name = "tracker"
    version = "1.0"

    PRIOR_WEIGHT = 8.0  # the generic prior counts as this many observed deals
    # Declaring the best-looking target picks hands whose strength was overrated (and a
    # target of 0 pays the highest target): calibrated on its own results.
    TARGET_SHIFT = -0.75

    def __init__(self, seed: int | str = 0) -> None:
        super().__init__(seed)
        # (match, seat) -> deal -> the four revealed bid values, oldest match first.
        self._bids_seen: dict[tuple[str, int], dict[int, tuple[int, ...]]] = {}

    def act(self, view: SeatView, legal: Sequence[Action]) -> Action | int:
        if view.bids is not None:
            self.remember_bids(view)
        return super().act(view, legal)

    def knowledge(self, view: SeatView) -> Knowledge:
        return tracked_knowledge(view)

    def tricks_bawah(self, view: SeatView, trump: int | None, leads: bool) -> float:
        """Tricks this hand should take in bawah: the per-card tables for bawah."""
        return expected_tricks(view.hand, trump, False, leads)

    def remember_bids(self, view: SeatView) -> None:
        key = (view.match_id, view.seat)
        seen = self._bids_seen.get(key)
        if seen is None:
            # Keep memory bounded: forget the match that started longest ago (finished by
            # now: far fewer than 64 tables play at once), never a live one.
            # Tables decide on threads of their own over gRPC (arena.sdk): another table's
            # thread may forget the same match first, or mid-way.
            while len(self._bids_seen) >= 64:
                with contextlib.suppress(KeyError, RuntimeError, StopIteration):
                    del self._bids_seen[next(iter(self._bids_seen))]
            seen = self._bids_seen[key] = {}
        if view.deal not in seen and view.bids is not None:
            seen[view.deal] = tuple(
                b.target if isinstance(b, Declare) else VALUES[b.card] for b in view.bids
            )

    def worth_atas(self, c: int, know: Knowledge) -> float:
        """What keeping ``c`` is worth in atas: the chance a card of its standing wins a
        trick (the self-play tables), where its rank counts only the higher cards still
        out -- a king is as good as an ace once the ace is gone."""
        suit = c // 13
        length = (know.mine & SUIT_MASKS[suit]).bit_count()
        rank = 12 - (ABOVE[c] & know.out).bit_count()
        table = ATAS_TRUMP if suit == know.trump else ATAS_SIDE
        return table[min(length, 7) - 1][rank] / 100

    def danger(self, c: int, know: Knowledge) -> float:
        """How likely ``c`` is to win a trick later in bawah: the chance a card of its
        standing does (the self-play tables), its rank counting only the higher cards
        still out."""
        suit = c // 13
        length = (know.mine & SUIT_MASKS[suit]).bit_count()
        rank = 12 - (ABOVE[c] & know.out).bit_count()
        table = BAWAH_TRUMP if suit == know.trump else BAWAH_SIDE
        return table[min(length, 7) - 1][rank] / 100

    def p_win_target(
        self, view: SeatView, c: int, state: TrickState, know: Knowledge, later: list[int]
    ) -> float:
        """The chance ``c`` takes the trick, knowing which later seats still need tricks
        (they fight for it) and which have their target (they duck), ruling T6."""
        p = self.beats_now(c, state, know)
        if p <= 0.0 or not later:
            return p
        assert view.final_bids is not None
        led = c // 13 if state.led is None else state.led
        fighters = [j for j in later if view.final_bids[j] > view.tricks_won[j]]
        duckers = [j for j in later if j not in fighters]
        if fighters:
            p *= know.p_survive_atas(c, led, fighters)
        if duckers:
            p *= know.p_survive_bawah(c, led, duckers)
        return p

    def bid_dists(self, view: SeatView) -> list[Sequence[float]]:
        return self.seen_dists(view, BID_PRIOR)

    def target_dists(self, view: SeatView) -> list[Sequence[float]]:
        return self.seen_dists(view, TARGET_PRIOR)

    def seen_dists(self, view: SeatView, prior: Sequence[float]) -> list[Sequence[float]]:
        """Each other seat's bids in this match so far, smoothed, on top of the prior."""
        seen = self._bids_seen.get((view.match_id, view.seat), {})
        top = len(prior) - 1
        out: list[Sequence[float]] = []
        for j in range(4):
            if j == view.seat:
                continue
            dist = [p * self.PRIOR_WEIGHT for p in prior]
            for values in seen.values():
                x = min(values[j], top)
                dist[x] += 0.5
                dist[max(0, x - 1)] += 0.25
                dist[min(top, x + 1)] += 0.25
            total = sum(dist)
            out.append([p / total for p in dist])
        return out


TrackerBot = Bot

if __name__ == "__main__":
    from arena.sdk import main

    main(Bot)
