"""A quick, fair Truf player for playouts (``Sim.playout(rng, heuristic_card)``): what
``bots.truf.pimc`` plays its worlds out with and what ``arena.games.truf.luck`` values the
random bot's choices by. It wins a trick cheaply when its seat wants tricks (classic atas,
C13; target short of its target, T6) and ducks under the winning card when it does not;
now and then a random card, so the worlds stay varied."""

from __future__ import annotations

import random

from arena.core.cards import SUIT_MASKS, cards_of
from arena.games.truf import sim

NOISE = 0.1  # the share of playout moves made at random: worlds stay varied


def _highest(mask: int) -> int:
    """The highest-ranked card of a non-empty mask (a trump counts as any other)."""
    best, best_rank = -1, -1
    for s in range(4):
        bits = mask >> 13 * s & 0x1FFF
        if bits:
            r = bits.bit_length() - 1
            if r > best_rank:
                best, best_rank = 13 * s + r, r
    return best


def _lowest(mask: int, avoid_suit: int | None = None) -> int:
    """The lowest-ranked card of a non-empty mask, a card of ``avoid_suit`` only if
    nothing else is there."""
    best, best_rank = -1, 99
    for s in range(4):
        bits = mask >> 13 * s & 0x1FFF
        if bits:
            r = (bits & -bits).bit_length() - 1
            if s == avoid_suit:
                r += 13
            if r < best_rank:
                best, best_rank = 13 * s + r % 13, r
    return best


def _winners(state: sim.Sim, legal: int) -> int:
    """The cards of ``legal`` that would now take the open trick's lead (C12/T5)."""
    best, trump = state.best, state.trump
    above = ~((2 << best) - 1)
    if state.best_trump:
        return legal & SUIT_MASKS[best // 13] & above
    out = legal & SUIT_MASKS[state.led] & above
    if trump is not None:
        out |= legal & SUIT_MASKS[trump]
    return out


def wants_tricks(state: sim.Sim, seat: int) -> bool:
    """Classic: atas wants every trick, bawah none (C13). Target: tricks until the
    target is reached (T6)."""
    if state.cfg.target:
        return state.won[seat] < state.final_bids[seat]
    return state.atas


def heuristic_card(state: sim.Sim, rng: random.Random) -> int:
    """A quick, fair player for playouts: it wins a trick cheaply when it wants tricks
    and ducks under the winning card when it does not; now and then a random card."""
    legal = state.legal_mask()
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if rng.random() < NOISE:
        cards = cards_of(legal)
        return cards[int(rng.random() * len(cards))]
    seat = state.turn
    want = wants_tricks(state, seat)
    trump = state.trump
    if not state.trick:  # leading
        return _highest(legal) if want else _lowest(legal, trump)
    last = len(state.trick) == 3
    win = _winners(state, legal)
    if want:
        if win:
            return _lowest(win) if last else _highest(win)
        return _lowest(legal, trump)
    lose = legal & ~win
    if lose:
        return _highest(lose)
    return _highest(win) if last else _lowest(win)
