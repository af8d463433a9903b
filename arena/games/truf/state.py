"""One Truf match, deal by deal: the state machine behind ``legal_actions`` and ``apply``.

Phases per deal: ``bid`` (classic, C3) or ``declare`` (target, T2), all seats at
once; ``mode`` when the bids total exactly 13 (C5/T4); then ``play`` (13 tricks).
Hands are 52-bit masks; see ``arena.core.cards``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from arena.core.cards import CARDS, SUIT_LETTERS, VALUES, Card, cards_of, mask_of
from arena.core.errors import AnswerIndexError
from arena.core.seeding import rng
from arena.games.truf import bidding, scoring
from arena.games.truf.actions import (
    BID_SLICES,
    BIDS,
    MODE_CHOICES,
    PLAY_SLICES,
    Action,
    Bid,
    ChooseMode,
    Declare,
    DeclareOp,
    Mode,
    Play,
    declare,
)
from arena.games.truf.errors import DealError, RuleError
from arena.games.truf.events import (
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
from arena.games.truf.record import deal_record
from arena.games.truf.rules import TrufRules
from arena.games.truf.tricks import legal_play_mask, trick_winner
from arena.games.truf.view import LazyView, PlayedCard, SeatView, Trick

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


# The phases as module names: reading an Enum member off its class costs several times
# a global read, and these are read on every decision.
_BID, _DECLARE, _MODE, _PLAY, _OVER = Phase.BID, Phase.DECLARE, Phase.MODE, Phase.PLAY, Phase.OVER


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


def deal_from_seed(gen: random.Random) -> tuple[list[int], int]:
    """Shuffle and deal 13 each until no hand breaks C2. Returns masks and redeals."""
    rnd = gen.random
    redeals = 0
    while True:
        # A uniform shuffle: order the deck by 52 random keys (C-speed, unlike shuffle()).
        keys = [rnd() for _ in range(52)]
        deck = sorted(range(52), key=keys.__getitem__)
        hands = [mask_of(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(SEATS)]
        if not needs_redeal(hands):
            return hands, redeals
        redeals += 1  # C2: thrown in and dealt again by the same dealer


def first_dealer(key: str) -> int:
    """C7: the dealer of deal 1, drawn with the match key (``arena.core.seeding.match_key``)."""
    return rng(key, "truf", "dealer").randrange(SEATS)


def seeded_deal(key: str, deal: int) -> tuple[list[int], int]:
    """Deal ``deal`` of the match with this key: hand masks and C2 redeals."""
    return deal_from_seed(rng(key, "truf", "deal", deal))


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

    # Per-deal state, reset by _start_deal (declared here for the type checker).
    _hands: list[int]  # card bitmasks per seat
    _declarations: list[tuple[Declare, ...] | None]
    _bids: list[Bid | Declare | None]
    _bid_values: list[int]
    _high: int
    _trump: int | None
    _mode: Mode | None
    _final_bids: tuple[int, ...] | None
    _turn: int
    _leader: int
    _leader_pub: int | None
    _trick: list[tuple[int, Card]]
    _trick_pub: tuple[PlayedCard, ...]
    _trick_owned: int
    _led: int | None
    _closed: tuple[Trick, ...]
    _broken: bool
    _won: list[int]
    _won_t: tuple[int, ...]
    _legal_cache: int
    _totals_before: tuple[int, ...]
    _bid_info: tuple[object, ...]
    _deal_start: int
    _pub: tuple[Any, ...] | None  # see _snapshot

    def __init__(
        self,
        rules: TrufRules | None = None,
        *,
        match_id: str = "m1",
        seed: int | str = 0,
        names: Sequence[str] | None = None,
        deals: Sequence[DealSpec] | None = None,
        rotation: int = 0,
    ) -> None:
        self.rules = rules or TrufRules()
        # Duplicate deals: seat s holds what seat s + rotation holds in the seed's deal,
        # and the first dealer turns with the hands (arena.games.registry.DuplicateGame).
        self.rotation = rotation % SEATS
        self.match_id = match_id
        self.seed = seed
        self.names = tuple(names) if names is not None else tuple(f"seat{s}" for s in range(SEATS))
        if len(self.names) != SEATS:
            raise ValueError(f"Truf seats {SEATS} entrants, got {len(self.names)}")
        self._given = tuple(deals) if deals else ()
        for spec in self._given:  # C1/C2: a given deal must be one the dealer could deal
            try:
                check_deal(spec.hands)
            except DealError as exc:
                raise DealError(f"deal {spec.source}: {exc}") from None
            if spec.dealer is not None and not 0 <= spec.dealer < SEATS:
                raise DealError(f"deal {spec.source}: dealer {spec.dealer} is not a seat")
        self._target = self.rules.is_target
        self._face_down = not self._target  # C11 is classic only; T5 plays trumps face up
        self._bid_phase = _DECLARE if self._target else _BID
        self.events: list[Event] = []
        # Replay records of finished deals, oldest first; a runner pops them as they come.
        self.finished: list[dict[str, Any]] = []
        self.totals = [0] * SEATS
        self.deal_no = 0
        # ``seed`` is the match key (arena.core.seeding): secret unless the run gave --seed.
        self.dealer = (first_dealer(str(seed)) - self.rotation) % SEATS
        self.phase = _BID
        self._pub = None
        self._start_deal()

    # ----------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """Truf is every seat for itself."""
        return tuple((s,) for s in range(SEATS))

    @property
    def ranks(self) -> list[int]:
        return scoring.ranks_of(self.totals)

    def to_act(self) -> tuple[int, ...]:
        """Seats whose decision is awaited now; during bidding, all that have not bid."""
        phase = self.phase
        if phase is _PLAY or phase is _MODE:
            return _ONE[self._turn]
        if phase is _OVER:
            return ()
        return tuple(s for s in range(SEATS) if self._bids[s] is None)

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Sorted legal actions of ``seat`` (cards by suit S, H, D, C then rank;
        declarations by size, cards, then op); empty when it is not to act."""
        phase = self.phase
        if phase is _PLAY:
            if seat != self._turn:
                return ()
            legal = self._legal_cache
            return PLAY_SLICES.of_mask(legal if legal >= 0 else self._new_legal_mask())
        if phase is _BID or phase is _DECLARE:
            if self._bids[seat] is not None:
                return ()
            if self._target:
                cached = self._declarations[seat]
                if cached is None:
                    cached = self._declarations[seat] = tuple(
                        bidding.legal_declarations(self._hands[seat])
                    )
                return cached
            return BID_SLICES.of_mask(self._hands[seat])
        if phase is _MODE and seat == self._turn:
            return MODE_CHOICES
        return ()

    def fallback_action(self, seat: int) -> Action:
        """The documented fallback for a seat that fails to decide: its first legal action
        (the lowest card by suit S, H, D, C then rank; atas for the mode choice)."""
        legal = self.legal_actions(seat)
        if not legal:
            raise RuleError(seat, "fallback", "C8", "this seat has no decision to make")
        return legal[0]

    def hand(self, seat: int) -> tuple[Card, ...]:
        return cards_of(self._hands[seat])

    def decision_number(self) -> int:
        """The 1-based number, within this deal, of the decision being made now (what a
        fault record names, docs/results.md): the bids (declarations) in the order the
        seats are asked, then the mode choice when there is one, then the cards in play
        order."""
        phase = self.phase
        if phase is _BID or phase is _DECLARE:
            return 1 + sum(b is not None for b in self._bids)
        if phase is _MODE:
            return SEATS + 1
        chosen = self._bid_info[1] == 13  # C5/T4: the mode was chosen, a decision
        return 1 + SEATS + chosen + SEATS * len(self._closed) + len(self._trick)

    def view(self, seat: int) -> SeatView:
        """Everything ``seat`` may know now, and nothing more.

        Built from tuples the match keeps up to date as it goes (the deal's constants,
        the revealed bids, the open trick), so a view costs one tuple build.
        """
        pub = self._pub or self._snapshot()
        return _make_view(pub, seat, self.hand(seat), self._trick_seen_by(seat))

    def lazy_view(self, seat: int) -> SeatView:
        """The same view as ``view(seat)``, built only when the bot first reads a field
        other than ``seat`` or ``match_id`` (a ``MatchView``; see ``LazyView``). It
        keeps what the seat may know now, however the match goes on."""
        if self._trick_owned >> seat & 1:  # C11: its own face-down card; see MatchView
            return self.view(seat)
        pub = self._pub or self._snapshot()
        return MatchView(pub, seat, self._hands[seat])  # type: ignore[return-value]

    def _snapshot(self) -> tuple[Any, ...]:
        """The public state every seat's view shares, kept until the next ``apply``."""
        pub = self._pub = (
            self._head,
            self._deal_info,
            self.phase,
            _ONE[self._turn] if self.phase is _PLAY else self.to_act(),
            self._bid_info,
            self._closed,
            self._leader_pub,
            self._trick_pub,
            self._broken,
            self._won_t,
            self._totals_before,
        )
        return pub

    def _trick_seen_by(self, seat: int) -> tuple[PlayedCard, ...]:
        """The open trick as ``seat`` sees it: C11, only the owner sees its face-down card."""
        trick = self._trick_pub
        if self._trick_owned >> seat & 1:
            trick = tuple(
                p if p.seat != seat else p._replace(card=self._trick[i][1])
                for i, p in enumerate(trick)
            )
        return trick

    # ----------------------------------------------------------------- actions

    def apply(self, seat: int, action: Action) -> None:
        """Apply one seat's action, or raise ``RuleError`` naming seat, action and ruling."""
        phase = self.phase
        if phase is _PLAY:
            self._play(seat, action)
        elif phase is _BID or phase is _DECLARE:
            self._bid(seat, action)
        elif phase is _MODE:
            self._choose_mode(seat, action)
        else:
            raise RuleError(seat, action, self._r("C1", "T1"), "the match is over")
        self._pub = None  # the views' shared state is stale now (a refused action keeps it)

    def run(
        self,
        acts: list[Decide | None],
        on_fault: Callable[[int, Exception], None],
        on_deal: Callable[[dict[str, Any]], None],
    ) -> int:
        """Play the match to its end in-process; return the number of decisions.

        ``acts[seat](view, legal)`` answers each of the seat's decisions with an action
        or its index in ``legal``; the view is a ``lazy_view``. A seat whose entry is
        None plays its fallback without being asked. An answer that raises, or is not
        legal, goes to ``on_fault(seat, exc)`` (``RuleError`` names the ruling) and the
        seat plays its fallback; ``on_fault`` may set ``acts[seat]`` to None. Each
        finished deal's replay record goes to ``on_deal`` and leaves ``finished``.

        These are ``apply``'s checks, events and records: the play phase runs here in
        one loop that checks a card against the turn's legal mask, and hands whatever
        that check does not accept to ``apply``'s own check, for the ruling it breaks.
        """
        decisions = 0
        finished = self.finished
        while (phase := self.phase) is not _OVER:
            if phase is _PLAY:
                decisions += self._run_play(acts, on_fault)
            else:
                seats = self.to_act()
                if not seats:
                    raise RuntimeError(f"match {self.match_id}: {phase} phase, no seat to act")
                for seat in seats:  # the bids, all at once (C3/T2), or the mode choice
                    decisions += 1
                    options = self.legal_actions(seat)
                    act = acts[seat]
                    if act is None:
                        self.apply(seat, options[0])
                        continue
                    try:
                        choice = act(self.lazy_view(seat), options)
                        if type(choice) is int:
                            choice = _by_index(options, choice)
                        self.apply(seat, choice)
                    except Exception as exc:
                        on_fault(seat, exc)
                        self.apply(seat, options[0])
            if finished:
                for record in finished:
                    on_deal(record)
                finished.clear()
        return decisions

    def _run_play(
        self, acts: list[Decide | None], on_fault: Callable[[int, Exception], None]
    ) -> int:
        """``run`` for one deal's play phase (C8..C12, T5): until the deal is scored."""
        decisions = 0
        of_mask = PLAY_SLICES.of_mask
        while self.phase is _PLAY:
            seat = self._turn
            mask = self._legal_cache
            if mask < 0:
                mask = self._new_legal_mask()
            legal = of_mask(mask)
            decisions += 1
            act = acts[seat]
            if act is None:
                self._accept(seat, legal[0].card)
                continue
            try:
                choice = act(self.lazy_view(seat), legal)
                if type(choice) is int:
                    choice = _by_index(legal, choice)
                card = choice.card if type(choice) is Play else None
                if type(card) is not Card or not mask >> card & 1:
                    self._play(seat, choice)  # raises the RuleError, or plays an int card
                    continue
            except Exception as exc:  # a bot's bug is a fault, never a crash
                on_fault(seat, exc)
                self._accept(seat, legal[0].card)  # the fallback
                continue
            self._accept(seat, card)
        return decisions

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
            if not isinstance(action.cards, tuple | list) or action.op not in _OP_SET:
                raise RuleError(seat, action, ruling, "not a declaration: cards and an op")
            for card in action.cards:
                if type(card) is not Card and (type(card) is not int or card not in _CARD_SET):
                    raise RuleError(seat, action, ruling, f"{card!r} is not a card")
                if not hand >> card & 1:
                    raise RuleError(seat, action, ruling, f"{card} is not in this seat's hand")
            action = declare([CARDS[c] for c in action.cards], action.op)  # canonical form
            reason = bidding.declaration_valid(action)
            if reason is not None:
                raise RuleError(seat, action, ruling, f"invalid declaration: {reason}")
        else:
            if type(action) is not Bid:
                raise RuleError(seat, action, ruling, "the bid phase takes a bid card")
            if type(action.card) is not Card and (
                type(action.card) is not int or action.card not in _CARD_SET
            ):
                raise RuleError(seat, action, ruling, f"{action.card!r} is not a card")
            action = BIDS[action.card]  # the interned bid (a plain int card becomes a Card)
            if not hand >> action.card & 1:
                raise RuleError(seat, action, ruling, f"{action.card} is not in this seat's hand")
        self._bids[seat] = action
        self.events.append(BidMade(seat, action))
        if None not in self._bids:
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
        self._high = high
        self._trump = trump
        self._bid_values = values
        self._bid_info = (bids, total, high, trump, trump is None, None, None)
        self.events.append(BidsRevealed(bids, high, trump, total))
        if total == 13:  # C5/T4: the high bidder must choose; never chosen for it
            self.phase = _MODE
            self._turn = high
            return
        self._set_mode(Mode.ATAS if total > 13 else Mode.BAWAH, chosen=False)

    def _choose_mode(self, seat: int, action: Action) -> None:
        ruling = self._r("C5", "T4")
        if seat != self._turn:
            raise RuleError(
                seat, action, ruling, f"only the high bidder, seat {self._turn}, chooses"
            )
        if type(action) is not ChooseMode or action.mode not in _MODE_SET:
            raise RuleError(seat, action, ruling, "the mode phase takes a choice of atas or bawah")
        mode = Mode(action.mode)  # ChooseMode("atas") made by hand counts as Mode.ATAS
        self.events.append(ModeChosen(seat, mode))
        self._set_mode(mode, chosen=True)

    def _set_mode(self, mode: Mode, *, chosen: bool) -> None:
        values = self._bid_values
        if chosen and not self._target:
            shift = 1 if mode is Mode.ATAS else -1  # C5: every bid moves by one
            values = [v + shift for v in values]
        self._mode = mode
        self._final_bids = tuple(values)
        self._bid_info = self._bid_info[:5] + (mode, self._final_bids)
        self.events.append(ModeSet(mode, self._final_bids, chosen))
        self.phase = _PLAY
        self._leader = self._turn = self._leader_pub = self._high  # C8/T5: high bidder leads
        self._legal_cache = -1

    def _new_legal_mask(self) -> int:
        """The turn's legal cards (C9/C10, T5), kept in ``_legal_cache`` until the next
        play; callers read the cache first (-1: not computed)."""
        legal = self._legal_cache = legal_play_mask(
            self._hands[self._turn], self._led, self._trump, self._broken, self._target
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
        if type(card) is not Card and (type(card) is not int or card not in _CARD_SET):
            raise RuleError(seat, action, self._r("C8", "T5"), f"{card!r} is not a card")
        legal = self._legal_cache
        if legal < 0:
            legal = self._new_legal_mask()
        if not legal >> card & 1:
            self._refuse_play(seat, action, self._hands[seat])
        self._accept(seat, CARDS[card])  # the interned card

    def _accept(self, seat: int, card: Card) -> None:
        """Play ``card``, which the caller has checked is legal for the seat to act."""
        self._hands[seat] ^= 1 << card
        self._legal_cache = -1
        self._pub = None
        trick = self._trick
        trick.append((seat, card))
        suit = card // 13
        if self._led is None:
            self._led = suit
        if self._face_down and suit == self._trump:  # C11: trumps go face down
            self._trick_pub += (_tuple_new(PlayedCard, (seat, None, True)),)
            self._trick_owned |= 1 << seat
            self.events.append(_tuple_new(CardPlayed, (seat, card, True)))
        else:
            self._trick_pub += (_tuple_new(PlayedCard, (seat, card, False)),)
            self.events.append(_tuple_new(CardPlayed, (seat, card, False)))
        if len(trick) < SEATS:
            self._turn = self._next[seat]
        else:
            self._close_trick()

    def _refuse_play(self, seat: int, action: Action, hand: int) -> None:
        """Raise the RuleError that says why a play is not legal."""
        card = action.card if isinstance(action, Play) else 0
        if not hand >> card & 1:
            raise RuleError(seat, action, self._r("C9", "T5"), f"{card} is not in this seat's hand")
        if self._trick:
            led = self._trick[0][1] // 13
            face_down_lead = self._face_down and led == self._trump
            raise RuleError(
                seat,
                action,
                self._r("C9", "T5"),
                f"must follow the led suit {SUIT_LETTERS[led]}"
                + (" (a face-down lead is a trump lead, C11)" if face_down_lead else ""),
            )
        raise RuleError(seat, action, "C10", "trump may not be led until trump is broken")

    def _close_trick(self) -> None:
        cards = tuple(self._trick)
        trump = self._trump
        winner = trick_winner(cards, trump)  # C12/T5
        self._won[winner] += 1
        self._won_t = tuple(self._won)
        if trump is not None and not self._broken:  # C10: broken by a trump played
            (_, c0), (_, c1), (_, c2), (_, c3) = cards
            self._broken = trump in (c0 // 13, c1 // 13, c2 // 13, c3 // 13)
        number = len(self._closed) + 1
        self.events.append(TrickClosed(number, self._leader, cards, winner))
        self._closed += (Trick(self._leader, cards, winner),)  # C11: all revealed now
        self._trick = []
        self._trick_pub = ()
        self._trick_owned = 0
        self._led = None
        if number == TRICKS:
            self._score_deal()
        else:
            self._leader = self._turn = self._leader_pub = winner  # C8: winner leads next

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
                scoring.classic_score(mode, b, w, rules.scoring, rules.multiplier, rules.zero_bonus)
                for b, w in zip(self._final_bids, self._won, strict=True)
            )
        for s in range(SEATS):
            self.totals[s] += scores[s]
        self.events.append(DealScored(self.deal_no, self._won_t, scores, tuple(self.totals)))
        self.finished.append(
            deal_record(rules, self.match_id, self.names, self.events[self._deal_start :])
        )
        if self.deal_no >= rules.deals:
            self.phase = _OVER
            self._totals_before = tuple(self.totals)
            self._leader_pub = None
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
            hands, redeals = seeded_deal(str(self.seed), deal)
            hands = hands[self.rotation :] + hands[: self.rotation]
            source = "seed"
        self._dir = direction
        self._next = tuple((s + direction) % SEATS for s in range(SEATS))
        first = (self.dealer + direction) % SEATS
        order = tuple((first + i * direction) % SEATS for i in range(SEATS))
        self._hands = hands
        self._declarations = [None] * SEATS
        self._bids = [None] * SEATS
        self._bid_values = []
        self._high = 0
        self._trump = None
        self._mode = None
        self._final_bids = None
        self._turn = -1
        self._leader = -1
        self._leader_pub = None
        self._trick = []
        self._led = None  # the open trick's suit (a face-down lead is trump, C11)
        self._trick_pub = ()
        self._trick_owned = 0  # seats with a face-down card in the open trick (bits)
        self._closed = ()
        self._broken = False
        self._won = [0] * SEATS
        self._won_t = tuple(self._won)
        self._legal_cache = -1
        self._totals_before = tuple(self.totals)
        # The view's constant parts: see SeatView's field order.
        self._head = ("truf", self.rules.variant.value, self.match_id, deal, self.rules.deals)
        self._deal_info = (self.names, self.dealer, "ccw" if direction < 0 else "cw", order)
        self._bid_info = (None, None, None, None, False, None, None)
        self.phase = self._bid_phase
        self._deal_start = len(self.events)
        self.events.append(
            DealStarted(
                deal,
                self.dealer,
                "ccw" if direction < 0 else "cw",
                tuple(cards_of(h) for h in hands),
                redeals,
                source,
            )
        )


_ONE = tuple((s,) for s in range(SEATS))
_CARD_SET = frozenset(range(52))  # plain ints 0..51 also name cards (Card is an int)
_MODE_SET = frozenset(Mode)
_OP_SET = frozenset(DeclareOp)
_tuple_new = tuple.__new__

Decide = Callable[[Any, Sequence[Any]], Any]  # (view, legal) -> an action or its index


def _by_index(legal: Sequence[Action], index: int) -> Action:
    """The legal action an index answer names (a bot may answer with its index)."""
    if not 0 <= index < len(legal):
        raise AnswerIndexError(f"index {index} outside the {len(legal)} legal actions")
    return legal[index]


# Positions in the snapshot tuple (see TrufMatch._snapshot).
_PUB_TRICK = 7


def _make_view(
    pub: tuple[Any, ...], seat: int, hand: tuple[Card, ...], trick: tuple[PlayedCard, ...]
) -> SeatView:
    """A ``SeatView`` from a match snapshot: its shared state, the seat and what is the
    seat's own (its hand, and the open trick with its face-down card shown to it)."""
    head, info, phase, to_act, bid_info, closed, leader, _, broken, won, totals = pub
    return _tuple_new(
        SeatView,
        (*head, seat, *info, phase, to_act, hand, *bid_info)
        + (closed, leader, trick, broken, won, totals),
    )


class MatchView(LazyView):
    """What ``TrufMatch.lazy_view`` gives in-process bots: a view that builds its
    ``SeatView`` when a field other than ``seat`` or ``match_id`` is first read.

    It holds the match's snapshot of the moment (immutable tuples), never the match, so
    it does not change as play goes on. Only a seat with no face-down card of its own
    in the open trick gets one (C11: that card needs the seat's own copy of the trick).
    """

    __slots__ = ("_pub", "_seat", "_hand", "_view")

    def __init__(self, pub: tuple[Any, ...], seat: int, hand: int) -> None:
        self._pub = pub
        self._seat = seat
        self._hand = hand
        self._view: SeatView | None = None

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def match_id(self) -> str:
        match_id: str = self._pub[0][2]
        return match_id

    def materialize(self) -> SeatView:
        view = self._view
        if view is None:
            pub = self._pub
            view = self._view = _make_view(pub, self._seat, cards_of(self._hand), pub[_PUB_TRICK])
        return view


def _field(index: int) -> property:
    return property(
        lambda self: self.materialize()[index], doc=f"SeatView.{SeatView._fields[index]}"
    )


for _i, _name in enumerate(SeatView._fields):
    if _name not in ("seat", "match_id"):
        setattr(MatchView, _name, _field(_i))
del _i, _name
