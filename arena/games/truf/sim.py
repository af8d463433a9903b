"""A Truf simulator for search bots: one deal, cards as bit masks, cheap to copy.

The referee's engine (``arena.games.truf.state``) checks every answer, builds views and keeps
the replay log; a search bot needs none of that, only the rules, fast. A ``Sim`` is one
deal from any point: the bids (classic, C3) or declarations (target, T2), the mode
choice at 13 (C5/T4) and the 13 tricks (C8..C12, T5), scored by C13 or T6 with the
match's scoring method. Cards are the engine's ints (``arena.core.cards``: ``suit * 13 +
rank``) and hands are 52-bit masks, so ``copy()`` copies a few ints and small lists.

A move is a card (bid or play), a ``Declare`` (target) or a ``Mode``. ``legal(seat)``
and ``apply(move, seat)`` check; ``play(card)`` and ``playout(rng)`` trust their caller.

For a bot: ``sample_hands(view, rng)`` draws the cards it cannot see, uniformly among
the deals consistent with everything its view shows, and ``from_view(view, hands)``
builds the ``Sim`` of that deal as it stands now::

    hands = sample_hands(view, rng)
    state = from_view(view, hands)
    scores = state.playout(rng)

``tests/test_sim.py`` plays thousands of random deals through this module and the
engine and asserts identical tricks and scores.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence

from arena.core.cards import CARD_SLICES, VALUES, mask_of
from arena.games.truf import bidding
from arena.games.truf.actions import Bid, Declare, Mode
from arena.games.truf.rules import TrufRules
from arena.games.truf.sampling import Hands, Knowledge, Sampler, knowledge, sample_hands
from arena.games.truf.scoring import classic_score, target_score
from arena.games.truf.state import deal_from_seed
from arena.games.truf.tricks import legal_play_mask
from arena.games.truf.view import SeatView

__all__ = [
    "BID", "MODE", "OVER", "PLAY", "Hands", "Knowledge", "Move", "Policy", "Sampler", "Sim",
    "from_view", "knowledge", "random_deal", "sample_hands",
]  # fmt: skip

SEATS = 4
TRICKS = 13

# Phases, as small ints (compared on every move).
BID, MODE, PLAY, OVER = 0, 1, 2, 3
PHASE_NAMES = ("bid", "mode", "play", "over")
_PHASE_OF_VIEW = {"bid": BID, "declare": BID, "mode": MODE, "play": PLAY, "over": OVER}

Move = int | Declare | Mode  # a card (bid or play), a declaration, or a mode
Policy = Callable[["Sim", random.Random], int]  # (state in play, rng) -> a legal card


class SimRules:
    """What a ``Sim`` needs of ``TrufRules``, read once: the variant, and the classic
    scores (C13) as a table: ``classic[atas][bid + 1][tricks]``."""

    __slots__ = ("rules", "target", "classic")

    def __init__(self, rules: TrufRules) -> None:
        self.rules = rules
        self.target = rules.is_target
        method, mult, bonus = rules.scoring, rules.multiplier, rules.zero_bonus
        self.classic = tuple(
            tuple(
                tuple(classic_score(mode, bid, won, method, mult, bonus) for won in range(14))
                for bid in range(-1, 16)  # C5 moves a bid of 0..14 by one either way
            )
            for mode in (Mode.BAWAH, Mode.ATAS)
        )


# By the rules object's id (hashing a frozen dataclass costs more than a playout's
# bookkeeping); each entry keeps its rules alive, so an id is never reused.
_RULES_CACHE: dict[int, SimRules] = {}


def sim_rules(rules: TrufRules) -> SimRules:
    found = _RULES_CACHE.get(id(rules))
    if found is None:
        if len(_RULES_CACHE) > 256:
            _RULES_CACHE.clear()
        found = _RULES_CACHE[id(rules)] = SimRules(rules)
    return found


_NEXT = {d: tuple((seat + d) % 4 for seat in range(4)) for d in (-1, 1)}  # C6
# C4 as one int per card: value, then suit (S > H > D > C), then rank (K > Q > J).
_BID_RANK = tuple(
    (k[0] * 4 + k[1]) * 13 + k[2] for k in (bidding.classic_bid_key(c) for c in range(52))
)


class Sim:
    """One deal of Truf, from any point to its end. Mutable; ``copy()`` is cheap.

    Public fields (read them, do not write them): ``hands`` (four 52-bit masks of the
    cards each seat holds now), ``phase`` (``BID``, ``MODE``, ``PLAY``, ``OVER``),
    ``bids`` (each seat's bid card or ``Declare``, None until made), ``trump`` (suit, or
    None), ``high`` (the high bidder), ``atas``, ``final_bids``, ``turn``, ``leader``,
    ``trick`` (the open trick's (seat, card) pairs), ``broken`` (C10), ``won`` (tricks
    per seat), ``tricks_played`` and ``history`` (closed tricks: leader, cards, winner).
    """

    __slots__ = (
        "cfg", "next", "hands", "phase", "bids", "trump", "high", "atas", "final_bids",
        "turn", "leader", "trick", "led", "best", "best_seat", "best_trump", "broken",
        "won", "tricks_played", "history",
    )  # fmt: skip

    cfg: SimRules
    next: tuple[int, ...]
    hands: list[int]
    phase: int
    bids: list[int | Declare | None]
    trump: int | None
    high: int
    atas: bool
    final_bids: tuple[int, ...]
    turn: int
    leader: int
    trick: list[tuple[int, int]]
    led: int
    best: int
    best_seat: int
    best_trump: bool
    broken: bool
    won: list[int]
    tricks_played: int
    history: list[tuple[int, tuple[tuple[int, int], ...], int]] | None

    @classmethod
    def start(
        cls,
        rules: TrufRules,
        hands: Sequence[int],
        direction: int = -1,
        *,
        record: bool = False,
    ) -> Sim:
        """A fresh deal: ``hands`` are four masks, ``direction`` -1 counter-clockwise
        (deal 1, C6) or +1. ``record`` keeps every closed trick in ``history``."""
        s = cls.__new__(cls)
        s.cfg = sim_rules(rules)
        s.next = _NEXT[direction]
        s.hands = list(hands)
        s.phase = BID
        s.bids = [None] * SEATS
        s.trump = None
        s.high = -1
        s.atas = True
        s.final_bids = ()
        s.turn = -1
        s.leader = -1
        s.trick = []
        s.led = -1
        s.best = -1
        s.best_seat = -1
        s.best_trump = False
        s.broken = False
        s.won = [0] * SEATS
        s.tricks_played = 0
        s.history = [] if record else None
        return s

    def copy(self) -> Sim:
        s = _new(Sim)
        s.cfg = self.cfg
        s.next = self.next
        s.hands = self.hands[:]
        s.phase = self.phase
        s.bids = self.bids[:]
        s.trump = self.trump
        s.high = self.high
        s.atas = self.atas
        s.final_bids = self.final_bids
        s.turn = self.turn
        s.leader = self.leader
        s.trick = self.trick[:]
        s.led = self.led
        s.best = self.best
        s.best_seat = self.best_seat
        s.best_trump = self.best_trump
        s.broken = self.broken
        s.won = self.won[:]
        s.tricks_played = self.tricks_played
        s.history = None if self.history is None else self.history[:]
        return s

    # ----------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def to_act(self) -> tuple[int, ...]:
        """Seats whose move is awaited: all that have not bid, or the one to move."""
        if self.phase == BID:
            return tuple(s for s in range(SEATS) if self.bids[s] is None)
        if self.phase == OVER:
            return ()
        return (self.turn,)

    def legal_mask(self) -> int:
        """The cards the seat to play may play now (C9, C10, T5), as a mask."""
        return legal_play_mask(
            self.hands[self.turn],
            self.led if self.trick else None,
            self.trump,
            self.broken,
            self.cfg.target,
        )

    def legal(self, seat: int | None = None) -> list[Move]:
        """The legal moves of ``seat`` (default: the seat to move), sorted as the engine
        sorts them: cards to bid or play, declarations, or modes."""
        phase = self.phase
        if phase == PLAY:
            if seat is not None and seat != self.turn:
                return []
            return list(CARD_SLICES.of_mask(self.legal_mask()))
        if phase == MODE:
            return [Mode.ATAS, Mode.BAWAH] if seat in (None, self.turn) else []
        if phase == BID:
            if seat is None or self.bids[seat] is not None:
                return []
            if self.cfg.target:
                return list(bidding.legal_declarations(self.hands[seat]))
            return list(CARD_SLICES.of_mask(self.hands[seat]))
        return []

    def scores(self) -> tuple[int, ...]:
        """The deal's score per seat (C13 / T6); only once the deal is over."""
        if self.phase != OVER:
            raise ValueError("the deal is not over: no scores yet")
        return self._scores()

    # ----------------------------------------------------------------- moves

    def apply(self, move: Move, seat: int | None = None) -> None:
        """Make ``move`` for ``seat`` (default: the seat to move); a ValueError says
        why a move is not legal. Bids need their seat: all four bid at once (C3/T2)."""
        phase = self.phase
        if phase == BID:
            if seat is None:
                raise ValueError("a bid needs its seat: all four bid at once (C3/T2)")
            if move not in self.legal(seat):
                raise ValueError(f"seat {seat} may not bid {move!r} now")
            self.bid(seat, move)  # type: ignore[arg-type]
        elif phase == MODE:
            if seat not in (None, self.turn) or move not in (Mode.ATAS, Mode.BAWAH):
                raise ValueError(f"only seat {self.turn} chooses the mode, atas or bawah")
            self.choose_mode(move is Mode.ATAS)
        elif phase == PLAY:
            if seat not in (None, self.turn):
                raise ValueError(f"it is seat {self.turn}'s turn to play, not seat {seat}'s")
            if not isinstance(move, int) or not (0 <= move < 52 and self.legal_mask() >> move & 1):
                raise ValueError(f"seat {self.turn} may not play {move!r} now")
            self.play(move)
        else:
            raise ValueError("the deal is over")

    def bid(self, seat: int, bid: int | Declare) -> None:
        """Record ``seat``'s bid card (classic) or declaration (target), unchecked; the
        fourth reveals them all (C4/T3) and sets the mode, or asks for it (C5/T4)."""
        bids = self.bids
        bids[seat] = bid
        if None in bids:
            return
        if self.cfg.target:
            info = [_declared(d) for d in bids]  # type: ignore[arg-type]
            high = max(range(SEATS), key=lambda seat: info[seat][0])  # T3
            self.trump = info[high][2]
            values = [i[1] for i in info]
        else:
            a, b, c, d = bids  # cards
            rank = _BID_RANK  # C4
            ra, rb, rc, rd = rank[a], rank[b], rank[c], rank[d]  # type: ignore[index]
            top = max(ra, rb, rc, rd)
            high = 0 if ra == top else 1 if rb == top else 2 if rc == top else 3
            self.trump = bids[high] // 13  # type: ignore[operator]
            values = [VALUES[a], VALUES[b], VALUES[c], VALUES[d]]  # type: ignore[index]
        self.high = high
        self.final_bids = tuple(values)
        total = sum(values)
        if total == 13:  # C5/T4: the high bidder chooses
            self.phase = MODE
            self.turn = high
        else:
            self._begin_play(total > 13)

    def choose_mode(self, atas: bool) -> None:
        """The high bidder's choice at 13 (C5: in classic every bid moves by one)."""
        if not self.cfg.target:
            shift = 1 if atas else -1
            self.final_bids = tuple(v + shift for v in self.final_bids)
        self._begin_play(atas)

    def _begin_play(self, atas: bool) -> None:
        self.atas = atas
        self.phase = PLAY
        self.turn = self.leader = self.high  # C8/T5

    def play(self, card: int) -> None:
        """Play ``card`` for the seat to move, unchecked (use ``legal_mask``)."""
        seat = self.turn
        self.hands[seat] ^= 1 << card
        trick = self.trick
        trick.append((seat, card))
        suit = card // 13
        trump = self.trump
        if len(trick) == 1:
            self.led = suit
            self.best = card
            self.best_seat = seat
            self.best_trump = suit == trump
        elif suit == trump:  # C12: the highest trump wins
            if not self.best_trump or card > self.best:
                self.best, self.best_seat, self.best_trump = card, seat, True
        elif not self.best_trump and suit == self.led and card > self.best:
            self.best, self.best_seat = card, seat
        if len(trick) < SEATS:
            self.turn = self.next[seat]
            return
        winner = self.best_seat
        self.won[winner] += 1
        if self.best_trump:  # C10: broken by any trump played (then a trump wins)
            self.broken = True
        if self.history is not None:
            self.history.append((self.leader, tuple(trick), winner))
        self.trick = []
        self.tricks_played += 1
        if self.tricks_played == TRICKS:
            self.phase = OVER
        else:
            self.turn = self.leader = winner  # C8

    # ----------------------------------------------------------------- playouts

    def playout(self, rng: random.Random, policy: Policy | None = None) -> tuple[int, ...]:
        """Play the deal to its end and return its scores. Missing bids, the mode and
        every card are chosen at random among the legal moves, or the cards by
        ``policy(state, rng)`` when one is given."""
        rnd = rng.random
        if self.phase == BID:
            for seat in range(SEATS):
                if self.bids[seat] is None:
                    hand = self.hands[seat]
                    if self.cfg.target:
                        self.bid(seat, random_declaration(hand, rnd))
                    else:
                        cards = CARD_SLICES.of_mask(hand)
                        self.bid(seat, cards[int(rnd() * len(cards))])
        if self.phase == MODE:
            self.choose_mode(rnd() < 0.5)
        if policy is not None:
            while self.phase == PLAY:
                self.play(policy(self, rng))
        elif self.phase == PLAY:
            self._random_play(rnd)
        return self._scores()

    def _random_play(self, rnd: Callable[[], float]) -> None:
        """Random legal cards to the end of the deal: ``play`` and ``legal_mask``
        inlined over per-suit lists of each hand, as a search bot calls this thousands
        of times per decision."""
        table, fill = CARD_SLICES.table, CARD_SLICES.fill
        by_suit = [
            [list(table[k] or fill(k)) for k in (s << 13 | (h >> 13 * s & 0x1FFF) for s in _SUITS)]
            for h in self.hands
        ]
        counts = [h.bit_count() for h in self.hands]
        nxt, won, history = self.next, self.won, self.history
        trump = -1 if self.trump is None else self.trump
        # C10 (classic only): no trump lead before trump is broken, unless only trumps.
        broken = self.broken
        guard = trump >= 0 and not self.cfg.target and not broken
        turn, trick = self.turn, self.trick
        led, best, best_seat, best_trump = self.led, self.best, self.best_seat, self.best_trump
        in_trick, played = len(trick), self.tricks_played
        while True:
            suits = by_suit[turn]
            if in_trick and suits[led]:  # C9: follow suit
                lst = suits[led]
                card = lst.pop(int(rnd() * len(lst)))
            else:
                n = counts[turn]
                skip = suits[trump] if guard and not in_trick and len(suits[trump]) < n else None
                if skip is not None:
                    n -= len(skip)
                k = int(rnd() * n)
                for lst in suits:
                    if lst is skip:
                        continue
                    if k < len(lst):
                        break
                    k -= len(lst)
                card = lst.pop(k)
            counts[turn] -= 1
            suit = card // 13
            if not in_trick:
                led, best, best_seat, best_trump = suit, card, turn, suit == trump
            elif suit == trump:
                if not best_trump or card > best:
                    best, best_seat, best_trump = card, turn, True
            elif not best_trump and suit == led and card > best:
                best, best_seat = card, turn
            if history is not None:
                trick.append((turn, card))
            in_trick += 1
            if in_trick < SEATS:
                turn = nxt[turn]
                continue
            won[best_seat] += 1
            if best_trump:  # C10: a trump was played (it won)
                broken, guard = True, False
            if history is not None:
                history.append((self.leader, tuple(trick), best_seat))
                trick = []
            in_trick = 0
            played += 1
            turn = self.leader = best_seat
            if played == TRICKS:
                break
        self.hands = [0] * SEATS
        self.trick, self.tricks_played, self.broken = [], played, broken
        self.turn, self.led, self.best, self.best_seat = turn, led, best, best_seat
        self.best_trump = best_trump
        self.phase = OVER

    def _scores(self) -> tuple[int, ...]:
        cfg, won, bids = self.cfg, self.won, self.final_bids
        if cfg.target:
            top = max(bids)  # T6: a target of 0 and no trick scores the highest target
            table = _TARGET_SCORES[self.atas]
            return tuple(
                top if bids[s] == 0 and won[s] == 0 else table[bids[s]][won[s]]
                for s in range(SEATS)
            )
        table = cfg.classic[self.atas]
        return (
            table[bids[0] + 1][won[0]],
            table[bids[1] + 1][won[1]],
            table[bids[2] + 1][won[2]],
            table[bids[3] + 1][won[3]],
        )

    def __repr__(self) -> str:
        return (
            f"<Sim {PHASE_NAMES[self.phase]} trick {self.tricks_played + 1} "
            f"turn {self.turn} won {self.won}>"
        )


_new = object.__new__
_SUITS = (0, 1, 2, 3)


# T6 as a table, [atas][target][tricks] (a target is at most 10 + 10, T2).
_TARGET_SCORES = tuple(
    tuple(tuple(target_score(mode, t, w, 0) for w in range(14)) for t in range(21))
    for mode in (Mode.BAWAH, Mode.ATAS)
)

# T3's sort key, the target and the trump suit of every declaration (they are interned).
_DECLARED: dict[Declare, tuple[tuple[int, ...], int, int | None]] = {}


def _declared(d: Declare) -> tuple[tuple[int, ...], int, int | None]:
    found = _DECLARED.get(d)
    if found is None:
        found = _DECLARED[d] = (bidding.target_declaration_key(d), d.target, d.suit_for_trump)
    return found


# Per hand size: the index pairs (i, j), i < j, of two of its cards.
_PAIR_INDEX = tuple(tuple(itertools.combinations(range(n), 2)) for n in range(14))


def random_declaration(hand: int, rnd: Callable[[], float]) -> Declare:
    """A declaration drawn uniformly among the hand's legal ones (T2), without listing
    them: each single and each pair with two slots (SUM and SUBTRACT, or NO TRUF and
    nothing) is equally likely, and a slot that holds no valid declaration is drawn
    again."""
    cards = CARD_SLICES.of_mask(hand)
    n = len(cards)
    pairs = _PAIR_INDEX[n]
    while True:
        k = int(rnd() * (n + 2 * len(pairs)))
        if k < n:
            return bidding.SINGLES[cards[k]]
        i, j = pairs[(k - n) >> 1]
        valid = bidding.PAIRS[cards[i], cards[j]]
        slot = (k - n) & 1
        if slot < len(valid):
            return valid[slot]


def random_deal(rng: random.Random) -> list[int]:
    """Four hand masks, dealt as the referee deals (with the C2 redeal)."""
    return deal_from_seed(rng)[0]


# --------------------------------------------------------------------------- views


def _rules_of(view: SeatView, rules: TrufRules | None) -> TrufRules:
    if rules is not None:
        if rules.variant.value != view.variant:
            raise ValueError(f"the view is of variant {view.variant}, the rules of {rules.variant}")
        return rules
    return TrufRules(variant=view.variant)  # type: ignore[arg-type]


def from_view(view: SeatView, hands: Hands | Sequence[int], rules: TrufRules | None = None) -> Sim:
    """The ``Sim`` of the deal a view shows, with the hidden cards as in ``hands`` (from
    ``sample_hands``, or four masks when no face-down card is hidden). ``rules`` gives the
    scoring method (classic, C13); by default, the variant's defaults.

    In the bid phase no bid is made yet in the ``Sim`` (the others' bids are hidden
    until all four are revealed, C3/T2)."""
    if isinstance(hands, Hands):
        held, face_down = hands.held, dict(hands.face_down)
    else:
        held, face_down = tuple(hands), {}
    if len(held) != SEATS:
        raise ValueError(f"a deal has {SEATS} hands, not {len(held)}")
    own = mask_of(view.hand)
    if held[view.seat] != own:
        raise ValueError(f"hands[{view.seat}] is not the view's own hand")
    direction = -1 if view.direction == "ccw" else 1
    s = Sim.start(_rules_of(view, rules), held, direction)
    phase = _PHASE_OF_VIEW[view.phase]
    if phase == BID:
        return s
    assert view.bids is not None and view.high_bidder is not None
    s.bids = [b.card if isinstance(b, Bid) else b for b in view.bids]
    s.trump = view.trump
    s.high = view.high_bidder
    if phase == MODE:
        s.final_bids = tuple(
            d.target if isinstance(d, Declare) else VALUES[d.card] for d in view.bids
        )
        s.phase = MODE
        s.turn = s.high
        return s
    assert view.final_bids is not None
    s.final_bids = tuple(view.final_bids)
    s.atas = view.mode == Mode.ATAS
    s.phase = phase
    s.won = list(view.tricks_won)
    s.tricks_played = len(view.tricks)
    s.broken = view.trump_broken
    if phase == OVER:
        return s
    s.leader = s.turn = view.trick_leader if view.trick_leader is not None else s.high
    for pc in view.trick:
        card = pc.card if pc.card is not None else face_down.get(pc.seat)
        if card is None:
            raise ValueError(f"the face-down card of seat {pc.seat} is not given (C11)")
        s.hands[pc.seat] |= 1 << card  # put it back, then play it through the rules
        s.play(card)
    return s
