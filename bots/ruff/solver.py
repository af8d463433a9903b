"""An exact solver of the last tricks of a Ruff and Trump deal, all hands open.

``solve(state, side)`` plays the rest of the deal's tricks (F7) from a ``Sim`` in its play
phase, every seat seeing every hand, and returns the best value (``value``:
``side``'s points less the others', F8) that ``side`` can make sure of when each seat of
``side`` plays for the most of it and every other seat for the least (in double and in
single 2 that is the game itself, two sides against each other; in single 3 and 4 the
others are taken as one side against it, the usual "paranoid" reading).

It is the double-dummy solve of bridge programs, on a small scale: a minimax with
alpha-beta pruning; cards of one suit in one hand that no other live card separates are
searched once (they win and lose the same tricks); a table of the positions at the start
of a trick (the hands, whose lead, the cards each side has won) keeps each one's bounds.
It is exact, so a search bot (``bots.ruff.pimc``) can trust it once few tricks are left,
where a quick playout policy still throws tricks away.

What it costs (2026-11-26, 40 positions a row at a trick start or inside one, one
process at nice 0 on the 2-core machine with load about 1, not under the lock): the median
solve of 3 tricks left takes 0.16 ms in double (0.11 single 3, 0.05 single 2), of 4
tricks 0.7 ms (0.35, 0.11), of 5 tricks 2.9 ms (1.7, 0.25) with 43 ms at most, of 6 tricks
16 ms in double and 46 ms in single 4; ``card_policy`` plays the same tails in 0.02 to
0.05 ms. ``bots.ruff.pimc`` can use it (``tail``, ``endgame``) but does not by default: it
gained nothing measurable there (see that module's text).

``tests/test_ruff_solver.py`` checks it against a plain minimax over every legal card on
thousands of small positions in every form and seat count.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.core.cards import SUIT_MASKS
from arena.games.ruff import sim

__all__ = ["Solver", "solve", "value"]

_EXACT, _LOWER, _UPPER = 0, 1, 2


def value(points: Sequence[int], side: int) -> float:
    """Its side's points less the others' (their mean when more than one, F8): what the
    solver and ``bots.ruff.pimc``'s playouts score."""
    others = [p for s, p in enumerate(points) if s != side]
    return points[side] - sum(others) / len(others)


def _distinct(legal: int, live: int) -> list[int]:
    """One card of each run of ``legal`` that no other card of ``live`` separates (the
    cards of a run are equal for the rest of the deal), lowest first."""
    out = []
    for suit_mask in SUIT_MASKS:
        mine = legal & suit_mask
        if not mine:
            continue
        alive = live & suit_mask
        previous_mine = False
        bits = alive
        while bits:
            low = bits & -bits
            bits ^= low
            if low & mine:
                if not previous_mine:
                    out.append(low.bit_length() - 1)
                previous_mine = True
            else:
                previous_mine = False
    return out


class Solver:
    """One position's solver: the deal's constants, a move counter and the table."""

    def __init__(self, state: sim.Sim, side: int) -> None:
        self.seats = state.seats
        self.side = state.side
        self.mine = side
        self.trump = state.trump
        self.par = state.par
        self.base = tuple(state.points)  # the ruff's 12 are in already (F9)
        self.table: dict[tuple[object, ...], tuple[int, float]] = {}
        self.nodes = 0

    def leaf(self, won: tuple[int, ...]) -> float:
        """``side``'s points less the others' once the last trick is taken (F8)."""
        points = [b + max(0, w - self.par) for b, w in zip(self.base, won, strict=True)]
        return value(points, self.mine)

    def search(
        self,
        hands: tuple[int, ...],
        turn: int,
        trick: tuple[int, ...],
        led: int,
        best: int,
        best_seat: int,
        best_trump: bool,
        won: tuple[int, ...],
        alpha: float,
        beta: float,
    ) -> float:
        """The value of the position with ``turn`` to play, ``trick`` the cards played to
        the trick so far (its led suit, best card, that card's seat, and whether it is a
        trump), between the bounds ``alpha`` and ``beta``."""
        self.nodes += 1
        key = None
        if not trick:
            if not any(hands):
                return self.leaf(won)
            key = (hands, turn, won)
            hit = self.table.get(key)
            if hit is not None:
                kind, v = hit
                if kind == _EXACT:
                    return v
                if kind == _LOWER and v >= beta:
                    return v
                if kind == _UPPER and v <= alpha:
                    return v
                if kind == _LOWER and v > alpha:
                    alpha = v
                elif kind == _UPPER and v < beta:
                    beta = v
        hand = hands[turn]
        legal = hand
        if trick:
            follow = hand & SUIT_MASKS[led]
            if follow:
                legal = follow
        live = 0
        for h in hands:
            live |= h
        for c in trick:
            live |= 1 << c
        maximise = self.side[turn] == self.mine
        start_alpha, start_beta = alpha, beta
        value = -1e9 if maximise else 1e9
        trump = self.trump
        last = len(trick) == self.seats - 1
        for card in _distinct(legal, live):
            new_hands = hands[:turn] + (hand ^ 1 << card,) + hands[turn + 1 :]
            suit = card // 13
            if not trick:
                b, bs, bt, ld = card, turn, suit == trump, suit
            else:
                b, bs, bt, ld = best, best_seat, best_trump, led
                if suit == trump:  # ruling F7: the highest trump wins
                    if not bt or card > b:
                        b, bs, bt = card, turn, True
                elif not bt and suit == led and card > b:
                    b, bs = card, turn
            if last:
                taker = self.side[bs]
                new_won = won[:taker] + (won[taker] + self.seats,) + won[taker + 1 :]
                v = self.search(new_hands, bs, (), -1, -1, -1, False, new_won, alpha, beta)
            else:
                v = self.search(
                    new_hands, (turn + 1) % self.seats, (*trick, card), ld, b, bs, bt, won,
                    alpha, beta,
                )  # fmt: skip
            if maximise:
                if v > value:
                    value = v
                if value > alpha:
                    alpha = value
            else:
                if v < value:
                    value = v
                if value < beta:
                    beta = value
            if alpha >= beta:
                break
        if key is not None:
            if value <= start_alpha:
                self.table[key] = (_UPPER, value)
            elif value >= start_beta:
                self.table[key] = (_LOWER, value)
            else:
                self.table[key] = (_EXACT, value)
        return value

    def run(self, state: sim.Sim) -> float:
        trick = tuple(c for _, c in state.trick)
        return self.search(
            tuple(state.hands), state.turn, trick, state.led, state.best, state.best_seat,
            state.best_trump, tuple(state.cards_won), -1e9, 1e9,
        )  # fmt: skip


def solve(state: sim.Sim, side: int) -> float:
    """The value of a play-phase ``state`` for ``side`` under exact play, all hands open
    (see the module's text); a deal that is over is worth its points."""
    if state.phase == sim.OVER:
        return value(state.points, side)
    if state.phase != sim.PLAY:
        raise ValueError("the solver plays only the tricks (F7): announce and rub first")
    return Solver(state, side).run(state)
