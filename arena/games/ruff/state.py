"""One Ruff and Trump match, deal by deal: the state machine behind ``legal_actions`` and
``apply``.

A deal: the hands and the head, the turned-up trump (F2); each seat announces its ruff in
turn from eldest (F3, F4), and the winner's side scores 12 at once (F9: that may end the
match); the trump ace's holder, else the dealer, rubs the head and discards four (F5); the
ruff is shown (F6); the tricks are played (F7) and the cards counted (F8).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from arena.core import stepwise
from arena.core.cards import Card
from arena.core.errors import DealError, RuleError
from arena.core.tricks import follow_suit, trick_winner
from arena.games.ruff.actions import ANNOUNCES, PLAYS, Action, Announce, Discard, Play
from arena.games.ruff.deal import DealSpec, check_deal, dealer_at, seeded_deal
from arena.games.ruff.reckoning import rubber, ruff_winner, shown_cards, true_ruff
from arena.games.ruff.record import deal_record
from arena.games.ruff.rules import RUB_CARDS, RUFF_POINTS, RuffRules
from arena.games.ruff.scoring import card_points, set_winners, side_ranks
from arena.games.ruff.view import RuffView, ShownRuff, Trick


class Phase(StrEnum):
    ANNOUNCE = "announce"
    RUB = "rub"
    PLAY = "play"
    OVER = "over"


class RuffMatch(stepwise.StepwiseMatch):
    """One set (F9) between the sides of ``rules``. Drive it with ``to_act()``,
    ``legal_actions(seat)``, ``view(seat)`` and ``apply(seat, action)`` until ``is_over``;
    each finished deal's replay record is appended to ``finished``."""

    game = "ruff"
    # The state of the deal in play (set by ``_start_deal``):
    actions: list[tuple[int, Action]]
    announcements: list[tuple[int, int]]
    ruff_winner: int | None
    rubber_seat: int | None
    taken: tuple[Card, ...] | None
    discards: tuple[Card, ...] | None
    shown: ShownRuff | None
    tricks: list[Trick]
    trick: list[tuple[int, Card]]

    def __init__(
        self,
        rules: RuffRules | None = None,
        *,
        match_id: str = "m1",
        seed: str = "0",
        names: Sequence[str] | None = None,
        deals: Sequence[DealSpec] = (),
        scores: Sequence[int] = (),
        rotation: int = 0,
    ) -> None:
        """``deals``: the first deals, given (a deals file, a replay); ``scores``: each
        side's score at the start, when not 0 (a check case, a test); ``rotation``: a
        duplicate match's (``arena.core.game.DuplicateGame``)."""
        self.rules = rules or RuffRules()
        n = self.num_seats = self.rules.seats
        self.match_id = match_id
        self.seed = str(seed)
        self.names = self.seat_names(names, n, "Ruff")
        for spec in deals:
            try:
                check_deal(spec.hands, spec.head, self.rules)
            except DealError as exc:
                raise DealError(f"deal {spec.source}: {exc}") from None
        self._given = tuple(deals)
        self._teams = self.rules.teams  # ruling F1
        self._side = [self.rules.side_of(s) for s in range(n)]
        self.scores = list(scores) or [0] * len(self._teams)  # per side
        if len(self.scores) != len(self._teams):
            raise ValueError(f"{len(self._teams)} sides, {len(self.scores)} starting scores")
        self.totals = [self.scores[self._side[s]] for s in range(n)]  # per seat: its side's
        self.finished: list[dict[str, Any]] = []
        self.deal_no = 0
        # Duplicate deals: seat s holds what seat s + rotation holds in the seed's deal.
        # Turning the first dealer is enough: a deal's deck comes from the seed and the
        # deal's number alone, each deal is dealt from the seat after its dealer, and the
        # dealer passes clockwise whatever the play (F2), so every deal turns alike.
        self.rotation = rotation % n
        self.dealer = dealer_at(self.seed, 1, n, self.rotation)  # ruling F2
        self._winners: set[int] | None = None
        self._legal: tuple[Action, ...] | None = None
        self._start_deal()

    # ----------------------------------------------------------------- queries

    @property
    def winners(self) -> set[int] | None:
        """The sides that won the set, once over (F9)."""
        return self._winners

    @property
    def ranks(self) -> list[int]:
        """Per seat, its side's rank (ruling F10)."""
        by_side = side_ranks(self.scores, self._winners)
        return [by_side[self._side[s]] for s in range(self.num_seats)]

    @property
    def eldest(self) -> int:
        return (self.dealer + 1) % self.num_seats  # ruling F2

    @property
    def trump(self) -> int:
        return self.turned // 13

    def side_of(self, seat: int) -> int:
        return self._side[seat]

    def to_act(self) -> tuple[int, ...]:
        return () if self.phase is Phase.OVER else (self.turn,)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s cards now, in card order."""
        return tuple(sorted(self._hands[seat]))

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every action ``seat`` may take now, sorted (``actions.sort_key``); empty when it
        is not asked."""
        if self.phase is Phase.OVER or seat != self.turn:
            return ()
        if self._legal is None:
            self._legal = self._legal_now(seat)
        return self._legal

    def _legal_now(self, seat: int) -> tuple[Action, ...]:
        if self.phase is Phase.ANNOUNCE:  # ruling F4: 0 up to the true ruff, whatever came before
            return ANNOUNCES[: self.ruffs[seat] + 1]
        if self.phase is Phase.RUB:  # ruling F5: any four of the sixteen
            combos = itertools.combinations(self.hand(seat), RUB_CARDS)
            return tuple(map(Discard.of_sorted, combos))
        led = self.trick[0][1] // 13 if self.trick else None  # ruling F7
        return tuple(PLAYS[c] for c in follow_suit(self.hand(seat), led))

    def decision_number(self) -> int:
        """The 1-based number, within this deal, of the decision being made now (what a
        fault record names, docs/results.md): its place in the deal's ``actions``."""
        return len(self.actions) + 1

    def fallback_action(self, seat: int) -> Action:
        """The documented fallback for a seat that fails to decide (docs/rules.md, Ruff 4):
        its true ruff when announcing; its four lowest-ranked cards outside trump (then the
        lowest trumps) when rubbing; its lowest-ranked legal card when playing; equal ranks
        in suit order S, H, D, C (card order breaks the tie)."""
        legal = self.legal_actions(seat)
        if not legal:
            raise RuleError(seat, "fallback", "F4", "this seat has no decision to make")
        if self.phase is Phase.RUB:
            trump = self.trump
            order = sorted(self._hands[seat], key=lambda c: (c // 13 == trump, c % 13, c))
            return Discard(tuple(order[:RUB_CARDS]))
        if self.phase is Phase.ANNOUNCE:
            return legal[-1]
        return min(legal, key=lambda a: (a.card % 13, a.card) if isinstance(a, Play) else (0, 0))

    def view(self, seat: int) -> RuffView:
        """Everything ``seat`` may know now (ruling F11), and nothing more."""
        is_rubber = seat == self.rubber_seat
        return RuffView(
            game="ruff",
            match_id=self.match_id,
            deal=self.deal_no,
            seat=seat,
            names=self.names,
            form=self.rules.form.value,
            teams=self._teams,
            set_points=self.rules.set_points,
            hand_size=self.rules.hand_size,
            dealer=self.dealer,
            eldest=self.eldest,
            phase=self.phase.value,
            to_act=self.to_act(),
            hand=self.hand(seat),
            dealt=tuple(sorted(self.dealt[seat])),
            turned=self.turned,
            trump=self.trump,
            announcements=tuple(self.announcements),
            ruff_winner=self.ruff_winner,
            rubber=self.rubber_seat,
            taken=self.taken if is_rubber else None,  # ruling F11: the rubber alone
            discards=self.discards if is_rubber else None,
            shown=self.shown,
            tricks=tuple(self.tricks),
            trick=tuple(self.trick),
            cards_won=tuple(self.cards_won),
            scores=tuple(self.scores),
        )

    # ----------------------------------------------------------------- actions

    def apply(self, seat: int, action: Action) -> None:
        """Apply one seat's action, or raise ``RuleError`` naming seat, action and ruling."""
        if self.phase is Phase.OVER:
            raise RuleError(seat, action, "F9", "the match is over")
        if seat != self.turn:
            raise RuleError(
                seat, action, "F4", f"seat {self.turn} is asked to {self.phase.value}, not {seat}"
            )
        self._check(seat, action)
        self._legal = None
        self.actions.append((seat, action))
        if isinstance(action, Announce):
            self._announce(seat, action.number)
        elif isinstance(action, Discard):
            self._discard(seat, action.cards)
        else:
            assert isinstance(action, Play)
            self._play(seat, action.card)

    def _check(self, seat: int, action: object) -> None:
        """Raise the RuleError that says why ``action`` is not legal now, if it is not."""
        phase = self.phase
        if phase is Phase.ANNOUNCE:
            if isinstance(action, Announce) and 0 <= action.number <= self.ruffs[seat]:
                return
            ruling, reason = (
                "F4",
                (f"announce a number from 0 to this seat's true ruff, {self.ruffs[seat]}"),
            )
        elif phase is Phase.RUB:
            if isinstance(action, Discard) and set(action.cards) <= set(self._hands[seat]):
                return
            ruling, reason = "F5", "discard four cards of this seat's hand (with the head's)"
        else:
            legal = self.legal_actions(seat)
            if isinstance(action, Play) and action in legal:
                return
            ruling = "F7"
            if isinstance(action, Play) and action.card in self._hands[seat]:
                reason = f"must follow the led suit {'SHDC'[self.trick[0][1] // 13]}"
            elif isinstance(action, Play):
                reason = f"{action.card} is not in this seat's hand"
            else:
                reason = "play a card"
            reason += "; legal now: " + ", ".join(str(a) for a in legal)
        raise RuleError(seat, action, ruling, f"not legal when asked to {phase.value}: {reason}")

    def _announce(self, seat: int, number: int) -> None:
        self.announcements.append((seat, number))
        if len(self.announcements) < self.num_seats:
            self.turn = (seat + 1) % self.num_seats  # ruling F4: clockwise from eldest
            return
        winner = self.ruff_winner = ruff_winner(self.announcements)  # ruling F4
        side = self._side[winner]
        self.ruff_points[side] = RUFF_POINTS
        self.scores[side] += RUFF_POINTS  # ruling F9: scored as soon as announcing ends
        self._sync_totals()
        if set_winners(self.scores, self.rules.set_points) is not None:
            self.ended = "ruff"  # ruling F9: no rub, no showing, no play
            self._end_deal()
            return
        self.rubber_seat = rubber(self.dealt, self.trump, self.dealer)  # ruling F5
        self.taken = self.head[:RUB_CARDS]
        self._hands[self.rubber_seat] += self.taken
        self.phase = Phase.RUB
        self.turn = self.rubber_seat

    def _discard(self, seat: int, cards: tuple[Card, ...]) -> None:
        self.discards = cards
        for card in cards:
            self._hands[seat].remove(card)  # ruling F5: out of play, for no one
        winner = self.ruff_winner
        assert winner is not None
        number = dict(self.announcements)[winner]
        suit, shown = shown_cards(self.dealt[winner], self.turned, number)  # ruling F6
        self.shown = ShownRuff(winner, suit, shown)
        self.phase = Phase.PLAY
        self.turn = self.eldest  # ruling F7

    def _play(self, seat: int, card: Card) -> None:
        self._hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < self.num_seats:
            self.turn = (seat + 1) % self.num_seats
            return
        cards = tuple(self.trick)
        winner = trick_winner(cards, self.trump)  # ruling F7
        self.tricks.append(Trick(cards[0][0], cards, winner))
        self.cards_won[self._side[winner]] += len(cards)
        self.trick = []
        self.turn = winner
        if self._hands[winner]:
            return
        self.card_points = card_points(self.cards_won, self.rules.par)  # ruling F8
        for side, points in enumerate(self.card_points):
            self.scores[side] += points
        self._sync_totals()
        self.ended = "played"
        self._end_deal()

    def _sync_totals(self) -> None:
        self.totals = [self.scores[self._side[s]] for s in range(self.num_seats)]

    # ----------------------------------------------------------------- deals

    def _end_deal(self) -> None:
        self.finished.append(deal_record(self))
        self._winners = set_winners(self.scores, self.rules.set_points)  # ruling F9
        if self._winners is None:
            self.dealer = (self.dealer + 1) % self.num_seats  # ruling F2: clockwise
            self._start_deal()
        else:
            self.phase = Phase.OVER

    def _start_deal(self) -> None:
        self.deal_no += 1
        given = self._given[self.deal_no - 1] if self.deal_no <= len(self._given) else None
        if given is not None:
            if given.dealer is not None:
                self.dealer = given.dealer
            hands, head = [tuple(h) for h in given.hands], tuple(given.head)
            self.source = given.source
        else:
            hands, head = seeded_deal(self.seed, self.deal_no, self.dealer, self.rules)
            self.source = "seed"
        sides = len(self._teams)
        self.dealt = hands
        self.head = head
        self.turned = head[0]  # ruling F2: the head's top card, face up
        self._hands = [list(h) for h in hands]
        self.ruffs = [true_ruff(h, self.turned) for h in hands]  # ruling F3
        self.scores_before = list(self.scores)
        self.actions = []
        self.announcements = []
        self.ruff_winner = None
        self.rubber_seat = None
        self.taken = None
        self.discards = None
        self.shown = None
        self.tricks = []
        self.trick = []
        self.cards_won = [0] * sides
        self.ruff_points = [0] * sides
        self.card_points = [0] * sides
        self.ended = ""
        self.phase = Phase.ANNOUNCE
        self.turn = self.eldest  # ruling F4: eldest announces first
        self._legal = None

    @property
    def cards_in_play(self) -> int:
        """The cards the tricks of a played deal hold: every seat's hand (F5: the rubber's
        discards and the head's unrubbed cards are out of play)."""
        return self.num_seats * self.rules.hand_size


__all__ = ["DealSpec", "Phase", "RuffMatch"]
