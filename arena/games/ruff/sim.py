"""A Ruff and Trump simulator for search bots: one deal, from any point to its end.

The referee's engine (``arena.games.ruff.state``) keeps the set, builds views and writes the
replay log; a search bot needs only the rules of one deal, fast. A ``Sim`` is one deal:
the announcements (F3, F4) and the ruff's 12 (F9: they may end the set at once), the rub
(F5), the tricks (F7) and the card points (F8), in either form and at any seat count
(F1). Cards are ``arena.core.cards`` ints and hands 52-bit masks, so ``copy()`` copies a few
ints and short lists; moves are the engine's own action values (``Announce``,
``Discard``, ``Play``), so a bot's choice in the simulator is the action it sends.

``legal()`` lists the moves of the seat asked, sorted as the engine sorts them (the
rubber's 1820 or more discards as a lazy ``Discards`` sequence); ``apply(move)`` checks
and makes one; ``playout(rng, policy)`` plays to the end of the deal and returns each
side's points in it. For a bot: ``Sampler(view)`` draws the cards it cannot see
(``arena.games.ruff.sampling``) and ``from_view(view, deal)`` replays the deal so far on them::

    state = from_view(view, Sampler(view).sample(rng))
    points = state.playout(rng)

``tests/test_ruff_sim.py`` plays thousands of random deals in every form and seat count
through this module and the engine and asserts the same legal moves at every step and
the same points.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

from arena.core.cards import CARD_SLICES, CARDS, SUIT_MASKS, mask_of
from arena.games.ruff.actions import ANNOUNCES, PLAYS, Action, Announce, Discard, Play
from arena.games.ruff.discards import Discards
from arena.games.ruff.reckoning import RUFF_VALUES, rubber, ruff_winner
from arena.games.ruff.rules import RUB_CARDS, RUFF_POINTS, RuffRules
from arena.games.ruff.scoring import set_winners
from arena.games.ruff.view import RuffView

__all__ = [
    "ANNOUNCE", "ANNOUNCES", "OVER", "PLAY", "RUB", "Deal", "Policy", "Sim", "from_view",
    "random_deal",
]  # fmt: skip

ANNOUNCE, RUB, PLAY, OVER = 0, 1, 2, 3
PHASE_NAMES = ("announce", "rub", "play", "over")
_PHASE_OF_VIEW = {"announce": ANNOUNCE, "rub": RUB, "play": PLAY, "over": OVER}

Policy = Callable[["Sim", random.Random], Action]  # (state, rng) -> one of state.legal()


class Deal(NamedTuple):
    """A whole deal as a bot may picture it: each seat's cards as dealt, the head (top
    card, the turned-up trump, first) and the rubber's discards once made (F5)."""

    dealt: tuple[tuple[int, ...], ...]
    head: tuple[int, ...]
    discards: tuple[int, ...] | None = None


def true_ruff_of(mask: int, turned: int) -> int:
    """ruling F3: the best suit's sum of a dealt hand (a mask), the turned card in trump."""
    best = 0
    trump = turned // 13
    for suit in range(4):
        bits = mask >> 13 * suit & 0x1FFF
        total = RUFF_VALUES[turned % 13] if suit == trump else 0
        while bits:
            low = bits & -bits
            total += RUFF_VALUES[low.bit_length() - 1]
            bits ^= low
        if total > best:
            best = total
    return best


class Sim:
    """One deal of Ruff and Trump, from any point to its end. Mutable; ``copy()`` is cheap.

    Public fields (read them, do not write them): ``seats``, ``side`` (each seat's side),
    ``dealer``, ``eldest``, ``turned``, ``trump``, ``dealt`` and ``hands`` (masks),
    ``ruffs`` (each seat's true ruff, F3), ``phase``, ``turn``, ``announcements``,
    ``winner`` (the ruff's), ``rubber``, ``trick`` ((seat, card) pairs), ``cards_won``
    and ``points`` (per side, this deal's: the ruff's 12, then the card points).
    """

    __slots__ = (
        "seats", "side", "sides", "par", "set_points", "before", "dealer", "eldest",
        "turned", "trump", "head", "dealt", "hands", "ruffs", "phase", "turn",
        "announcements", "winner", "rubber", "trick", "led", "best", "best_seat",
        "best_trump", "cards_won", "points",
    )  # fmt: skip

    seats: int
    side: tuple[int, ...]
    sides: int
    par: int
    set_points: int
    before: tuple[int, ...]
    dealer: int
    eldest: int
    turned: int
    trump: int
    head: tuple[int, ...]
    dealt: tuple[int, ...]
    hands: list[int]
    ruffs: tuple[int, ...]
    phase: int
    turn: int
    announcements: list[tuple[int, int]]
    winner: int
    rubber: int
    trick: list[tuple[int, int]]
    led: int
    best: int
    best_seat: int
    best_trump: bool
    cards_won: list[int]
    points: list[int]

    @classmethod
    def start(
        cls,
        rules: RuffRules,
        dealt: Sequence[Sequence[int]],
        head: Sequence[int],
        dealer: int,
        scores: Sequence[int] = (),
    ) -> Sim:
        """A fresh deal: ``dealt`` every seat's cards, ``head`` top card first (F2), and
        each side's score before it (the set may end at the ruff, F9)."""
        n = rules.seats
        if len(dealt) != n:
            raise ValueError(f"a {n}-seat deal has {n} hands, not {len(dealt)}")
        s = object.__new__(cls)
        s.seats = n
        s.side = tuple(rules.side_of(seat) for seat in range(n))
        s.sides = len(rules.teams)
        s.par = rules.par
        s.set_points = rules.set_points
        s.before = tuple(scores) or (0,) * s.sides
        s.dealer = dealer
        s.eldest = (dealer + 1) % n  # ruling F2
        s.head = tuple(int(c) for c in head)
        s.turned = s.head[0]
        s.trump = s.turned // 13
        s.dealt = tuple(mask_of(h) for h in dealt)
        s.hands = list(s.dealt)
        s.ruffs = tuple(true_ruff_of(m, s.turned) for m in s.dealt)
        s.phase = ANNOUNCE
        s.turn = s.eldest  # ruling F4
        s.announcements = []
        s.winner = -1
        s.rubber = -1
        s.trick = []
        s.led = s.best = s.best_seat = -1
        s.best_trump = False
        s.cards_won = [0] * s.sides
        s.points = [0] * s.sides
        return s

    def copy(self) -> Sim:
        s = object.__new__(Sim)
        for name in Sim.__slots__:
            setattr(s, name, getattr(self, name))
        s.hands = self.hands[:]
        s.announcements = self.announcements[:]
        s.trick = self.trick[:]
        s.cards_won = self.cards_won[:]
        s.points = self.points[:]
        return s

    # ----------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def to_act(self) -> tuple[int, ...]:
        return () if self.phase == OVER else (self.turn,)

    def legal_mask(self) -> int:
        """The cards the seat to play may play (F7: follow suit if you can)."""
        hand = self.hands[self.turn]
        if self.trick:
            follow = hand & SUIT_MASKS[self.led]
            if follow:
                return follow
        return hand

    def legal(self, seat: int | None = None) -> Sequence[Action]:
        """The moves of the seat asked (or of ``seat``: none unless it is asked), sorted
        as the engine sorts them."""
        if self.phase == OVER or seat not in (None, self.turn):
            return []
        if self.phase == ANNOUNCE:  # ruling F4: 0 up to the true ruff
            return ANNOUNCES[: self.ruffs[self.turn] + 1]
        if self.phase == RUB:  # ruling F5: any four of the hand
            return Discards(CARD_SLICES.of_mask(self.hands[self.turn]))
        return [PLAYS[c] for c in CARD_SLICES.of_mask(self.legal_mask())]

    def scores(self) -> tuple[int, ...]:
        """Each side's score now: before the deal plus this deal's points."""
        return tuple(b + p for b, p in zip(self.before, self.points, strict=True))

    # ----------------------------------------------------------------- moves

    def apply(self, move: Action, seat: int | None = None) -> None:
        """Make ``move`` for the seat asked (``seat``, if given, must be it); a
        ValueError says why a move is not legal."""
        if self.phase == OVER:
            raise ValueError("the deal is over")
        if seat not in (None, self.turn):
            raise ValueError(f"seat {self.turn} is asked to {PHASE_NAMES[self.phase]}, not {seat}")
        if self.phase == ANNOUNCE:
            if not isinstance(move, Announce) or not 0 <= move.number <= self.ruffs[self.turn]:
                raise ValueError(f"seat {self.turn} may announce 0 to {self.ruffs[self.turn]} (F4)")
            self.announce(move.number)
        elif self.phase == RUB:
            hand = self.hands[self.turn]
            if not isinstance(move, Discard) or mask_of(move.cards) & ~hand:
                raise ValueError(f"seat {self.turn} must discard four of its cards (F5)")
            self.discard(mask_of(move.cards))
        else:
            if not isinstance(move, Play) or not self.legal_mask() >> move.card & 1:
                raise ValueError(f"seat {self.turn} may not {move} now (F7)")
            self.play(move.card)

    def step(self, move: Action) -> None:
        """Make ``move`` for the seat asked, unchecked (take it from ``legal()``)."""
        if isinstance(move, Play):
            self.play(move.card)
        elif isinstance(move, Announce):
            self.announce(move.number)
        else:
            assert isinstance(move, Discard)
            self.discard(mask_of(move.cards))

    def announce(self, number: int) -> None:
        """The seat asked announces ``number``, unchecked (F4)."""
        seat = self.turn
        self.announcements.append((seat, number))
        if len(self.announcements) < self.seats:
            self.turn = (seat + 1) % self.seats
            return
        winner = self.winner = ruff_winner(self.announcements)  # ruling F4
        self.points[self.side[winner]] += RUFF_POINTS  # ruling F9: scored at once
        if set_winners(self.scores(), self.set_points) is not None:
            self.phase = OVER  # ruling F9: no rub, no showing, no play
            return
        hands = [CARD_SLICES.of_mask(m) for m in self.dealt]
        self.rubber = rubber(hands, self.trump, self.dealer)  # ruling F5
        self.hands[self.rubber] |= mask_of(self.head[:RUB_CARDS])
        self.phase = RUB
        self.turn = self.rubber

    def discard(self, cards: int) -> None:
        """The rubber throws the four cards of mask ``cards``, unchecked (F5)."""
        self.hands[self.turn] &= ~cards
        self.phase = PLAY
        self.turn = self.eldest  # ruling F7

    def play(self, card: int) -> None:
        """Play ``card`` for the seat to move, unchecked (use ``legal_mask``)."""
        seat = self.turn
        self.hands[seat] ^= 1 << card
        trick = self.trick
        trick.append((seat, card))
        suit = card // 13
        if len(trick) == 1:
            self.led, self.best, self.best_seat = suit, card, seat
            self.best_trump = suit == self.trump
        elif suit == self.trump:  # ruling F7: the highest trump wins
            if not self.best_trump or card > self.best:
                self.best, self.best_seat, self.best_trump = card, seat, True
        elif not self.best_trump and suit == self.led and card > self.best:
            self.best, self.best_seat = card, seat
        if len(trick) < self.seats:
            self.turn = (seat + 1) % self.seats
            return
        winner = self.best_seat
        self.cards_won[self.side[winner]] += len(trick)
        self.trick = []
        self.turn = winner
        if not self.hands[winner]:
            self._score_cards()

    def _score_cards(self) -> None:
        for side, won in enumerate(self.cards_won):  # ruling F8
            self.points[side] += max(0, won - self.par)
        self.phase = OVER

    # ----------------------------------------------------------------- playouts

    def playout(self, rng: random.Random, policy: Policy | None = None) -> tuple[int, ...]:
        """Play the deal to its end; return each side's points in it. Every move is
        ``policy(state, rng)``, or (no policy) random: any number it may announce, any
        four cards to discard, any legal card."""
        rnd = rng.random
        while self.phase != OVER:
            if policy is not None:
                self.step(policy(self, rng))
            elif self.phase == ANNOUNCE:
                self.announce(int(rnd() * (self.ruffs[self.turn] + 1)))
            elif self.phase == RUB:
                cards = CARD_SLICES.of_mask(self.hands[self.turn])
                self.discard(mask_of(rng.sample(cards, RUB_CARDS)))
            else:
                cards = CARD_SLICES.of_mask(self.legal_mask())
                self.play(cards[int(rnd() * len(cards))])
        return tuple(self.points)

    def __repr__(self) -> str:
        return f"<ruff Sim {PHASE_NAMES[self.phase]} turn {self.turn} points {self.points}>"


def random_deal(rng: random.Random, rules: RuffRules) -> Deal:
    """Every seat's cards and the head from one shuffle (F2)."""
    deck = list(range(52))
    rng.shuffle(deck)
    n, size = rules.seats, rules.hand_size
    return Deal(
        tuple(tuple(deck[s * size : (s + 1) * size]) for s in range(n)), tuple(deck[n * size :])
    )


def rules_of(view: RuffView) -> RuffRules:
    """The rules a view shows (F1, F2)."""
    n = len(view.names)
    return RuffRules(form=view.form, seats=n, alt_deals=view.hand_size != 12)  # type: ignore[arg-type]


def from_view(view: RuffView, deal: Deal) -> Sim:
    """The ``Sim`` of the deal a view shows, with the unseen cards as in ``deal`` (from
    ``Sampler.sample``): the deal is started and everything in the view replayed on it."""
    me = view.seat
    if mask_of(deal.dealt[me]) != mask_of(view.dealt):
        raise ValueError(f"deal.dealt[{me}] is not the view's own dealt hand")
    if deal.head[0] != view.turned:
        raise ValueError("the head's top card is not the turned-up card (F2)")
    before = list(view.scores)
    if view.ruff_winner is not None:  # ruling F9: the ruff's 12 are in the scores already
        before[rules_of(view).side_of(view.ruff_winner)] -= RUFF_POINTS
    s = Sim.start(rules_of(view), deal.dealt, deal.head, view.dealer, before)
    for _, number in view.announcements:
        s.announce(number)
    if s.phase == RUB and _PHASE_OF_VIEW[view.phase] != RUB:
        if deal.discards is None:
            raise ValueError("the rub is over: the deal must give the rubber's discards")
        s.apply(Discard(tuple(CARDS[c] for c in deal.discards)))
    for trick in view.tricks:
        for seat, card in trick.cards:
            s.apply(PLAYS[card], seat)
    for seat, card in view.trick:
        s.apply(PLAYS[card], seat)
    return s
