"""One Truf match, deal by deal: the state machine behind ``legal_actions`` and ``apply``.

Phases per deal: ``bid`` (classic, C3) or ``declare`` (target, T2), all seats at
once; ``mode`` when the bids total exactly 13 (C5/T4); then ``play`` (13 tricks).
Hands are 52-bit masks; see ``arena.cards``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from arena.cards import CARDS, VALUES, Card, cards_of, mask_of
from arena.truf import bidding, scoring
from arena.truf.actions import (
    BIDS,
    MODE_CHOICES,
    PLAYS,
    Action,
    Bid,
    ChooseMode,
    Declare,
    Mode,
    Play,
)
from arena.truf.errors import DealError, RuleError
from arena.truf.events import (
    BidMade,
    BidsRevealed,
    CardPlayed,
    DealScored,
    DealStarted,
    Event,
    MatchEnded,
    ModeChosen,
    ModeSet,
    TrickClosed,
)
from arena.truf.rules import TrufRules
from arena.truf.tricks import legal_play_mask, trick_winner
from arena.truf.view import PlayedCard, SeatView, Trick

SEATS = 4  # ruling C1
HAND_SIZE = 13
TRICKS = 13
COURT_MASK = mask_of(c for c in CARDS if c.is_court)
NUMERAL_MASK = ~COURT_MASK & ((1 << 52) - 1)


class Phase(StrEnum):
    BID = "bid"
    DECLARE = "declare"
    MODE = "mode"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True)
class DealSpec:
    """A deal given rather than dealt from the seed (a deal file, or a replay)."""

    hands: tuple[tuple[Card, ...], ...]
    dealer: int | None = None
    source: str = "given"


def needs_redeal(hands: Sequence[int]) -> bool:
    """Ruling C2: a hand of only numerals, or only A/K/Q/J, throws the deal in."""
    return any(not h & COURT_MASK or not h & NUMERAL_MASK for h in hands)


def check_deal(hands: Sequence[Sequence[int]]) -> None:
    """Raise DealError unless ``hands`` are four hands of 13 distinct cards that C2 accepts."""
    if len(hands) != SEATS:
        raise DealError(f"a deal has {SEATS} hands, this one has {len(hands)}")
    seen = 0
    for seat, hand in enumerate(hands):
        if len(hand) != HAND_SIZE:
            raise DealError(f"hand {seat} has {len(hand)} cards, not {HAND_SIZE} (ruling C1)")
        for card in hand:
            if seen >> card & 1:
                raise DealError(f"card {CARDS[card]} appears twice (hand {seat})")
            seen |= 1 << card
    masks = [mask_of(h) for h in hands]
    for seat, m in enumerate(masks):
        if not m & COURT_MASK:
            raise DealError(f"hand {seat} holds only numeral cards; it must be redealt (ruling C2)")
        if not m & NUMERAL_MASK:
            raise DealError(f"hand {seat} holds only A, K, Q and J; it must be redealt (ruling C2)")


def deal_from_seed(rng: random.Random) -> tuple[list[int], int]:
    """Shuffle and deal 13 each until no hand breaks C2. Returns masks and redeals."""
    deck = list(range(52))
    redeals = 0
    while True:
        rng.shuffle(deck)
        hands = [mask_of(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(SEATS)]
        if not needs_redeal(hands):
            return hands, redeals
        redeals += 1  # C2: thrown in and dealt again by the same dealer


def direction_of(deal: int) -> int:
    """C6: deal 1 is counter-clockwise (-1), alternating every deal."""
    return -1 if deal % 2 == 1 else 1


class TrufMatch:
    """A match of ``rules.deals`` deals between four seats.

    Drive it with ``to_act()``, ``legal_actions(seat)``, ``view(seat)`` and
    ``apply(seat, action)`` until ``is_over``. Every step appends to ``events``;
    each finished deal is also summarised in ``deal_events`` (see ``replay``).
    """

    game = "truf"
    num_seats = SEATS

    def __init__(
        self,
        rules: TrufRules | None = None,
        *,
        match_id: str = "m1",
        seed: int | str = 0,
        names: Sequence[str] | None = None,
        deals: Sequence[DealSpec] | None = None,
    ) -> None:
        self.rules = rules or TrufRules()
        self.match_id = match_id
        self.seed = seed
        self.names = tuple(names) if names is not None else tuple(f"seat{s}" for s in range(SEATS))
        if len(self.names) != SEATS:
            raise ValueError(f"Truf seats {SEATS} entrants, got {len(self.names)}")
        self._given = tuple(deals) if deals else ()
        self._target = self.rules.is_target
        self._face_down = not self._target  # C11 is classic only; T5 plays trumps face up
        self._bid_phase = Phase.DECLARE if self._target else Phase.BID
        self.events: list[Event] = []
        self.totals = [0] * SEATS
        self.deal_no = 0
        self.dealer = random.Random(f"truf:{seed}:dealer").randrange(SEATS)  # C7, deal 1
        self.phase = Phase.BID
        self._start_deal()

    # ----------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """Truf is every seat for itself."""
        return tuple((s,) for s in range(SEATS))

    @property
    def ranks(self) -> list[int]:
        return scoring.ranks_of(self.totals)

    def to_act(self) -> tuple[int, ...]:
        """Seats whose decision is awaited now; during bidding, all that have not bid."""
        if self.phase is Phase.PLAY or self.phase is Phase.MODE:
            return (self._turn,)
        if self.phase is Phase.OVER:
            return ()
        return tuple(s for s in range(SEATS) if self._bids[s] is None)

    def decision_kind(self, seat: int) -> str:
        return self.phase.value if seat in self.to_act() else "none"

    def legal_actions(self, seat: int) -> list[Action]:
        """Sorted legal actions of ``seat``; empty when it is not to act."""
        phase = self.phase
        if phase is Phase.PLAY:
            if seat != self._turn:
                return []
            return [PLAYS[c] for c in cards_of(self._legal_mask())]
        if phase is Phase.BID or phase is Phase.DECLARE:
            if self._bids[seat] is not None:
                return []
            if self._target:
                cached = self._declarations[seat]
                if cached is None:
                    cached = self._declarations[seat] = bidding.legal_declarations(self._hands[seat])
                return list(cached)
            return [BIDS[c] for c in cards_of(self._hands[seat])]
        if phase is Phase.MODE and seat == self._turn:
            return list(MODE_CHOICES)
        return []

    def fallback_action(self, seat: int) -> Action:
        """The documented fallback for a seat that fails to decide: its first legal action
        (the lowest card by suit S, H, D, C then rank; atas for the mode choice)."""
        legal = self.legal_actions(seat)
        if not legal:
            raise RuleError(seat, "fallback", "C8", "this seat has no decision to make")
        return legal[0]

    def hand(self, seat: int) -> tuple[Card, ...]:
        cached = self._hand_cache[seat]
        if cached is None:
            cached = self._hand_cache[seat] = tuple(cards_of(self._hands[seat]))
        return cached

    def view(self, seat: int) -> SeatView:
        """Everything ``seat`` may know now, and nothing more."""
        revealed = self._revealed
        trick: tuple[PlayedCard, ...]
        if self._face_down:
            trick = tuple(
                PlayedCard(s, None if fd and s != seat else c, fd) for s, c, fd in self._trick_view
            )
        else:
            trick = tuple(PlayedCard(s, c, fd) for s, c, fd in self._trick_view)
        return SeatView(
            "truf",
            self.rules.variant.value,
            self.match_id,
            self.deal_no,
            self.rules.deals,
            seat,
            self.names,
            self.dealer,
            "ccw" if self._dir < 0 else "cw",
            self._order,
            self.phase.value,
            self.to_act(),
            self.hand(seat),
            self._revealed_bids if revealed else None,
            self._bid_total if revealed else None,
            self._high if revealed else None,
            self._trump if revealed else None,
            self._no_truf,
            self._mode,
            self._final_bids,
            self._closed,
            self._leader if self.phase is Phase.PLAY else None,
            trick,
            self._broken,
            tuple(self._won),
            self._totals_before,
        )

    # ----------------------------------------------------------------- actions

    def apply(self, seat: int, action: Action) -> None:
        """Apply one seat's action, or raise ``RuleError`` naming seat, action and ruling."""
        phase = self.phase
        if phase is Phase.PLAY:
            self._play(seat, action)
        elif phase is Phase.BID or phase is Phase.DECLARE:
            self._bid(seat, action)
        elif phase is Phase.MODE:
            self._choose_mode(seat, action)
        else:
            raise RuleError(seat, action, "C1" if not self._target else "T1", "the match is over")

    def _r(self, classic: str, target: str) -> str:
        return target if self._target else classic

    def _bid(self, seat: int, action: Action) -> None:
        ruling = self._r("C3", "T2")
        if not 0 <= seat < SEATS:
            raise RuleError(seat, action, ruling, f"there is no seat {seat}")
        if self._bids[seat] is not None:
            raise RuleError(seat, action, ruling, "this seat has already bid in this deal")
        hand = self._hands[seat]
        if self._target:
            if not isinstance(action, Declare):
                raise RuleError(seat, action, ruling, "the declare phase takes a declaration")
            for card in action.cards:
                if not hand >> card & 1:
                    raise RuleError(seat, action, ruling, f"{card} is not in this seat's hand")
            reason = bidding.declaration_valid(action)
            if reason is not None:
                raise RuleError(seat, action, ruling, f"invalid declaration: {reason}")
        else:
            if type(action) is not Bid:
                raise RuleError(seat, action, ruling, "the bid phase takes a bid card")
            if not hand >> action.card & 1:
                raise RuleError(seat, action, ruling, f"{action.card} is not in this seat's hand")
        self._bids[seat] = action
        self.events.append(BidMade(seat, action))
        if all(b is not None for b in self._bids):
            self._reveal()

    def _reveal(self) -> None:
        bids = tuple(b for b in self._bids if b is not None)
        if self._target:
            decls = [b for b in bids if isinstance(b, Declare)]
            high = bidding.target_high_bidder(decls)  # T3
            trump = decls[high].suit_for_trump
            values = [d.target for d in decls]
        else:
            plain = [b for b in bids if isinstance(b, Bid)]
            high = bidding.classic_high_bidder(plain)  # C4
            trump = plain[high].card // 13
            values = [VALUES[b.card] for b in plain]
        total = sum(values)
        self._revealed = True
        self._revealed_bids = bids
        self._bid_total = total
        self._high = high
        self._trump = trump
        self._no_truf = trump is None
        self._bid_values = values
        self.events.append(BidsRevealed(bids, high, trump, total))
        if total == 13:  # C5/T4: the high bidder must choose; never chosen for it
            self.phase = Phase.MODE
            self._turn = high
            return
        self._set_mode(Mode.ATAS if total > 13 else Mode.BAWAH, chosen=False)

    def _choose_mode(self, seat: int, action: Action) -> None:
        ruling = self._r("C5", "T4")
        if seat != self._turn:
            raise RuleError(seat, action, ruling, f"only the high bidder, seat {self._turn}, chooses")
        if type(action) is not ChooseMode:
            raise RuleError(seat, action, ruling, "the mode phase takes a choice of atas or bawah")
        self.events.append(ModeChosen(seat, action.mode))
        self._set_mode(action.mode, chosen=True)

    def _set_mode(self, mode: Mode, *, chosen: bool) -> None:
        values = self._bid_values
        if chosen and not self._target:
            shift = 1 if mode is Mode.ATAS else -1  # C5: every bid moves by one
            values = [v + shift for v in values]
        self._mode = mode
        self._final_bids = tuple(values)
        self.events.append(ModeSet(mode, self._final_bids, chosen))
        self.phase = Phase.PLAY
        self._leader = self._turn = self._high  # C8/T5: the high bidder leads trick 1
        self._legal_cache = -1

    def _legal_mask(self) -> int:
        legal = self._legal_cache
        if legal < 0:
            hand = self._hands[self._turn]
            led = self._trick[0][1] // 13 if self._trick else None
            legal = self._legal_cache = legal_play_mask(
                hand, led, self._trump, self._broken, self._target
            )
        return legal

    def _play(self, seat: int, action: Action) -> None:
        if seat != self._turn:
            raise RuleError(
                seat, action, self._r("C8", "T5"), f"it is seat {self._turn}'s turn to play"
            )
        if type(action) is not Play:
            raise RuleError(seat, action, self._r("C8", "T5"), "the play phase takes a card")
        card = action.card
        bit = 1 << card
        hand = self._hands[seat]
        if not hand & bit:
            raise RuleError(seat, action, self._r("C9", "T5"), f"{card} is not in this seat's hand")
        if not self._legal_mask() & bit:
            if self._trick:
                led = self._trick[0][1] // 13
                raise RuleError(
                    seat, action, self._r("C9", "T5"),
                    f"must follow the led suit {'SHDC'[led]}"
                    + (" (a face-down lead is a trump lead, C11)" if self._face_down
                       and led == self._trump else ""),
                )
            raise RuleError(
                seat, action, "C10", "trump may not be led until trump is broken"
            )
        self._hands[seat] = hand ^ bit
        self._hand_cache[seat] = None
        face_down = self._face_down and card // 13 == self._trump  # C11
        self._trick.append((seat, card))
        self._trick_view = (*self._trick_view, (seat, card, face_down))
        self.events.append(CardPlayed(seat, card, face_down))
        self._legal_cache = -1
        if len(self._trick) < SEATS:
            self._turn = self._next[seat]
            return
        self._close_trick()

    def _close_trick(self) -> None:
        cards = tuple(self._trick)
        winner = trick_winner(cards, self._trump)  # C12/T5
        self._won[winner] += 1
        trump = self._trump
        if trump is not None and not self._broken:
            self._broken = any(c // 13 == trump for _, c in cards)  # C10
        number = len(self._closed) + 1
        self.events.append(TrickClosed(number, self._leader, cards, winner))
        self._closed = (*self._closed, Trick(self._leader, cards, winner))
        self._trick = []
        self._trick_view = ()
        if number == TRICKS:
            self._score_deal()
        else:
            self._leader = self._turn = winner  # C8: the winner leads the next trick

    def _score_deal(self) -> None:
        rules = self.rules
        mode = self._mode
        assert mode is not None and self._final_bids is not None
        if self._target:
            top = max(self._final_bids)
            scores = tuple(
                scoring.target_score(mode, t, w, top)
                for t, w in zip(self._final_bids, self._won, strict=True)
            )
        else:
            scores = tuple(
                scoring.classic_score(
                    mode, b, w, rules.scoring, rules.multiplier, rules.zero_bonus
                )
                for b, w in zip(self._final_bids, self._won, strict=True)
            )
        for s in range(SEATS):
            self.totals[s] += scores[s]
        self.events.append(DealScored(self.deal_no, tuple(self._won), scores, tuple(self.totals)))
        if self.deal_no >= rules.deals:
            self.phase = Phase.OVER
            self._totals_before = tuple(self.totals)
            self.events.append(MatchEnded(tuple(self.totals), tuple(self.ranks)))
            return
        self._start_deal()

    # ----------------------------------------------------------------- dealing

    def _next_dealer(self, direction: int) -> int:
        """C7: lowest cumulative score; a tie goes to the tied seat that comes first
        after the previous dealer in the new deal's direction."""
        low = min(self.totals)
        seat = self.dealer
        for _ in range(SEATS):
            seat = (seat + direction) % SEATS
            if self.totals[seat] == low:
                return seat
        raise AssertionError("unreachable: some seat holds the lowest total")

    def _start_deal(self) -> None:
        self.deal_no += 1
        deal = self.deal_no
        direction = direction_of(deal)
        if deal > 1:
            self.dealer = self._next_dealer(direction)
        given = self._given[(deal - 1) % len(self._given)] if self._given else None
        if given is not None:
            hands = [mask_of(h) for h in given.hands]
            if given.dealer is not None:
                self.dealer = given.dealer
            redeals, source = 0, given.source
        else:
            hands, redeals = deal_from_seed(random.Random(f"truf:{self.seed}:deal:{deal}"))
            source = "seed"
        self._dir = direction
        self._next = tuple((s + direction) % SEATS for s in range(SEATS))
        first = (self.dealer + direction) % SEATS
        self._order = tuple((first + i * direction) % SEATS for i in range(SEATS))
        self._hands = hands
        self._hand_cache: list[tuple[Card, ...] | None] = [None] * SEATS
        self._declarations: list[list[Declare] | None] = [None] * SEATS
        self._bids: list[Bid | Declare | None] = [None] * SEATS
        self._revealed = False
        self._revealed_bids: tuple[Bid | Declare, ...] = ()
        self._bid_total = 0
        self._bid_values: list[int] = []
        self._high = 0
        self._trump: int | None = None
        self._no_truf = False
        self._mode: Mode | None = None
        self._final_bids: tuple[int, ...] | None = None
        self._turn = -1
        self._leader = -1
        self._trick: list[tuple[int, Card]] = []
        self._trick_view: tuple[tuple[int, Card, bool], ...] = ()
        self._closed: tuple[Trick, ...] = ()
        self._broken = False
        self._won = [0] * SEATS
        self._legal_cache = -1
        self._totals_before = tuple(self.totals)
        self.phase = self._bid_phase
        self.events.append(
            DealStarted(
                deal,
                self.dealer,
                "ccw" if direction < 0 else "cw",
                tuple(tuple(cards_of(h)) for h in hands),
                redeals,
                source,
            )
        )

