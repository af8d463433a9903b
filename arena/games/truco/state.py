"""One Truco match, hand by hand: the state machine behind ``legal_actions`` and ``apply``.

A hand deals three cards to every seat and is played as one ``Bout`` (the whole table),
or, every second hand at six seats, as three 1v1 duels one after another (R13). Each
decision is one seat's: play (with the calls and *al mazo* it may make first, R6),
answer a Truco or Envido call (R7, R8), or declare its envido (R9).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter
from typing import Any

from arena.core import stepwise
from arena.core.errors import DealError, RuleError
from arena.core.seats import alternating_teams, ring
from arena.core.seeding import rng
from arena.games.truco import calls
from arena.games.truco.actions import (
    MAZO,
    NO_QUIERO,
    QUIERO,
    SON_BUENAS,
    Action,
    Call,
    Declare,
    Mazo,
    Play,
    SonBuenas,
    sort_key,
)
from arena.games.truco.bout import Bout, TrucoPending, team_of
from arena.games.truco.calls import TRUCO_LADDER, EnvidoCall, TrucoCall
from arena.games.truco.cards import DECK, Card
from arena.games.truco.envido import beats, envido_cards, envido_score
from arena.games.truco.record import hand_record
from arena.games.truco.rules import TrucoRules
from arena.games.truco.tricks import hand_winner, trick_winner
from arena.games.truco.view import PlayView, TrickView, TrucoView

HAND_SIZE = 3  # ruling R3
_SORT_KEY = attrgetter("sort_key")


class Asked(StrEnum):
    PLAY = "play"
    ANSWER_TRUCO = "answer-truco"
    ANSWER_ENVIDO = "answer-envido"
    DECLARE = "declare"
    OVER = "over"


@dataclass(frozen=True)
class HandSpec:
    """A hand given rather than dealt from the seed (a replay, a test): every seat's
    three cards, and optionally the dealer."""

    hands: tuple[tuple[Card, ...], ...]
    dealer: int | None = None
    source: str = "given"


def first_dealer(seed: str, seats: int) -> int:
    """The first hand's dealer, drawn from the match seed (ruling R3)."""
    return rng(seed, "truco", "dealer").randrange(seats)


def duel_hand(hand_no: int, seats: int) -> bool:
    """Whether hand ``hand_no`` (from 1) is a hand of duels: at six seats every second
    hand, after a 3v3 hand (R13)."""
    return seats == 6 and hand_no % 2 == 0


def deal_passes(hand_no: int, seats: int) -> bool:
    """Whether the deal passes to the next seat before hand ``hand_no``: before every hand
    but the first (R3), except that the duel hand is dealt by the 3v3 hand's dealer (R13).
    The one rule for the match (``TrucoMatch``) and for a seeded hand's dealer (``dealer_at``)."""
    return hand_no > 1 and not duel_hand(hand_no, seats)


def dealer_at(seed: str, hand_no: int, seats: int, rotation: int = 0) -> int:
    """The dealer of seeded hand ``hand_no`` in a match keyed by ``seed``: the first is
    drawn from the seed (R3), and the deal passes as ``deal_passes`` says, whatever the
    play. At ``rotation`` (a duplicate match) every dealer is turned back by ``rotation``
    seats, so that seat s holds what seat s + rotation holds at rotation 0."""
    passes = sum(deal_passes(h, seats) for h in range(2, hand_no + 1))
    return (first_dealer(seed, seats) + passes - rotation) % seats


def seeded_hands(seed: str, hand_no: int, dealer: int, seats: int) -> list[tuple[Card, ...]]:
    """Hand ``hand_no``'s cards: shuffled from the match seed and dealt one card at a time
    from mano, the seat after ``dealer`` (R3)."""
    deck = list(DECK)
    rng(seed, "truco", "hand", hand_no).shuffle(deck)
    hands: list[list[Card]] = [[] for _ in range(seats)]
    for i in range(HAND_SIZE * seats):
        hands[(dealer + 1 + i) % seats].append(deck[i])
    return [tuple(h) for h in hands]


def check_hands(hands: Sequence[Sequence[Card]], seats: int) -> None:
    """Raise DealError unless ``hands`` are ``seats`` hands of three distinct deck cards."""
    if len(hands) != seats:
        raise DealError(f"a {seats}-seat hand deals {seats} hands, this one has {len(hands)}")
    seen: set[Card] = set()
    for seat, hand in enumerate(hands):
        if len(hand) != HAND_SIZE:
            raise DealError(f"hand {seat} has {len(hand)} cards, not {HAND_SIZE} (ruling R3)")
        for card in hand:
            if card not in DECK:
                raise DealError(f"hand {seat}: {card!r} is not a Spanish-deck card")
            if card in seen:
                raise DealError(f"card {card} appears twice (hand {seat})")
            seen.add(card)


class TrucoMatch(stepwise.StepwiseMatch):
    """A game to ``rules.points`` between two teams (R11). Drive it with ``to_act()``,
    ``legal_actions(seat)``, ``view(seat)`` and ``apply(seat, action)`` until
    ``is_over``; each finished hand's replay record is appended to ``finished``."""

    game = "truco"

    def __init__(
        self,
        rules: TrucoRules | None = None,
        *,
        match_id: str = "m1",
        seed: str = "0",
        names: Sequence[str] | None = None,
        hands: Sequence[HandSpec] = (),
        rotation: int = 0,
    ) -> None:
        """``hands``: the first hands, given (a deals file, a replay); ``rotation``: a
        duplicate match's (``arena.core.game.DuplicateGame``)."""
        self.rules = rules or TrucoRules()
        n = self.num_seats = self.rules.seats
        self.match_id = match_id
        self.seed = str(seed)
        self.names = self.seat_names(names, n, "Truco")
        for spec in hands:
            try:
                check_hands(spec.hands, n)
            except DealError as exc:
                raise DealError(f"hand {spec.source}: {exc}") from None
        self._given = tuple(hands)
        self._kind = "team"
        self._teams = alternating_teams(n)  # ruling R2
        self.scores = [0, 0]  # per team
        self.totals = [0] * n  # per seat: its team's score (what results files rate)
        self.finished: list[dict[str, Any]] = []
        self.hand_no = 0
        # Duplicate deals: seat s holds what seat s + rotation holds in the seed's hand.
        # Turning the first dealer is enough: a hand's deck comes from the seed and the
        # hand's number alone, it is dealt from mano (the seat after the dealer), and the
        # deal passes by the hand's number whatever the play (R3, R13), so every hand
        # (and every six-seat duel pairing, which follows the dealer) turns alike.
        self.rotation = rotation % n
        self.dealer = dealer_at(self.seed, 1, n, self.rotation)  # ruling R3
        self._tied = 0  # hands in a row ended tied at or above the target (R11)
        self._winners: set[int] | None = None  # the winning team(s), once over
        self._legal: tuple[Action, ...] | None = None
        self._start_hand()

    # ----------------------------------------------------------------- queries

    @property
    def ranks(self) -> list[int]:
        """ruling R12: the winning team's seats rank 1, the other's 2 (a shared game, or
        equal scores while in play, rank both 1)."""
        winners = self._winners
        if winners is None:
            a, b = self.scores
            winners = {0, 1} if a == b else {0 if a > b else 1}
        return [1 if team_of(s) in winners else 2 for s in range(self.num_seats)]

    @property
    def bout(self) -> Bout:
        return self._bouts[self._cur]

    def asked(self) -> tuple[Asked, int]:
        """What is asked now, and of which seat (R6)."""
        if self._winners is not None:
            return Asked.OVER, -1
        b = self._bouts[self._cur]
        if b.envido_answerer is not None:
            return Asked.ANSWER_ENVIDO, b.envido_answerer
        if b.declarer is not None:
            return Asked.DECLARE, b.declarer
        if b.truco_call is not None:
            return Asked.ANSWER_TRUCO, b.truco_call.answerer
        return Asked.PLAY, b.turn

    def to_act(self) -> tuple[int, ...]:
        asked, seat = self.asked()
        return () if asked is Asked.OVER else (seat,)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s unplayed cards, weakest first."""
        return tuple(sorted(self._hands[seat], key=_SORT_KEY))

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every action ``seat`` may take now, sorted (see ``actions.sort_key``); empty
        when it is not asked."""
        asked, who = self.asked()
        if seat != who:
            return ()
        if self._legal is None:
            self._legal = tuple(sorted(self._legal_now(asked, seat), key=sort_key))
        return self._legal

    def _legal_now(self, asked: Asked, seat: int) -> list[Action]:
        b = self.bout
        if asked is Asked.PLAY:  # ruling R6: a card, or first a call or al mazo
            out: list[Action] = [Play(c) for c in self._hands[seat]]
            if b.level < len(TRUCO_LADDER) and b.raise_team in (None, team_of(seat)):
                out.append(Call(TRUCO_LADDER[b.level]))  # ruling R7
            if b.envido_state == "none" and not b.tricks:  # ruling R8: before its first card
                out += [Call(c) for c in calls.next_envido_calls(())]
            out.append(MAZO)  # ruling R10
            return out
        if asked is Asked.ANSWER_TRUCO:
            pending = b.truco_call
            assert pending is not None
            out = [QUIERO, NO_QUIERO]
            if pending.level < len(TRUCO_LADDER):
                out.append(Call(TRUCO_LADDER[pending.level]))  # ruling R7: the next raise
            if self._envido_in_answer(b, seat, pending):
                out += [Call(c) for c in calls.next_envido_calls(())]
            return out
        if asked is Asked.ANSWER_ENVIDO:  # ruling R8
            return [QUIERO, NO_QUIERO, *(Call(c) for c in calls.next_envido_calls(b.envido_calls))]
        # Asked.DECLARE, ruling R9: the true score if it beats the best, or son buenas
        points = envido_score(self._dealt[seat], self.rules.envido_count)
        out = []
        if beats(points, b.distance(seat), b.best[:2] if b.best else None):
            out.append(Declare(points))
        if b.declarations:  # the last caller declares first and may not say son buenas
            out.append(SON_BUENAS)
        return out

    def _envido_in_answer(self, b: Bout, seat: int, pending: TrucoPending) -> bool:
        """ruling R8: Envido instead of answering the first Truco call, while trick 1 is
        open and a seat of the answering team has neither played nor folded."""
        if b.envido_state != "none" or pending.level != 1 or b.tricks:
            return False
        played = {s for s, _ in b.trick}
        return any(s not in played for s in b.active(team_of(seat)))

    def decision_number(self) -> int:
        """The 1-based number, within this hand, of the decision being made now (what a
        fault record names, docs/results.md): its place in the hand's ``plays`` logs,
        read one bout after the other."""
        return 1 + sum(len(b.log) for b in self._bouts[: self._cur + 1])

    def fallback_action(self, seat: int) -> Action:
        """The documented fallback for a seat that fails to decide (docs/rules.md): its
        weakest card when playing (never a call, never al mazo); Quiero to a call (the
        cards decide, so a bluff against a faulting seat gains nothing; it never raises);
        its true envido when that is legal, else son buenas."""
        legal = self.legal_actions(seat)
        if not legal:
            raise RuleError(seat, "fallback", "R6", "this seat has no decision to make")
        for action in legal:
            if isinstance(action, Play | Declare) or action == QUIERO:
                return action
        return legal[-1]  # son buenas: the only other answer to a declaration turn

    def view(self, seat: int) -> TrucoView:
        """Everything ``seat`` may know now (R14), and nothing more."""
        asked, who = self.asked()
        plays = (*self._done_views, self._play_view(self._bouts[self._cur]))
        return TrucoView(
            game="truco",
            match_id=self.match_id,
            hand_no=self.hand_no,
            seat=seat,
            names=self.names,
            teams=self._teams,
            target=self.rules.points,
            envido_count=self.rules.envido_count.value,
            scores=(self._before[0], self._before[1]),
            dealer=self.dealer,
            kind=self._kind,
            to_act=() if asked is Asked.OVER else (who,),
            asked=asked.value,
            cards=self.hand(seat),
            dealt=self._dealt[seat],
            plays=plays,
        )

    @staticmethod
    def _play_view(b: Bout) -> PlayView:
        pending = b.truco_call
        return PlayView(
            seats=b.order,
            mano=b.mano,
            log=tuple(b.log),
            tricks=tuple(b.tricks),
            trick=tuple(b.trick),
            stake=calls.truco_stake(b.level),
            truco_call=None if pending is None else TRUCO_LADDER[pending.level - 1].value,
            raise_team=b.raise_team,
            envido_calls=tuple(c.value for c in b.envido_calls),
            envido_state=b.envido_state,
            declarations=tuple(b.declarations),
            folded=tuple(sorted(b.folded)),
            points=b.points() if b.done else None,
            shown=b.shown if b.done else None,  # ruling R9: shown at the end of the play
        )

    # ----------------------------------------------------------------- actions

    def apply(self, seat: int, action: Action) -> None:
        """Apply one seat's action, or raise ``RuleError`` naming seat, action and ruling."""
        asked, who = self.asked()
        if asked is Asked.OVER:
            raise RuleError(seat, action, "R11", "the match is over")
        if seat != who:
            raise RuleError(seat, action, "R6", f"seat {who} is asked to {asked.value}, not {seat}")
        legal = self.legal_actions(seat)
        if action not in legal:
            raise self._refusal(seat, action, asked, legal)
        # The engine's own equal action: Call("truco") or Declare(27.0) compare equal to
        # Call(TrucoCall.TRUCO) and Declare(27), and the log must hold the canonical ones.
        action = legal[legal.index(action)]
        self._legal = None
        b = self.bout
        b.log.append((seat, action))
        if asked is Asked.PLAY:
            self._on_turn(b, seat, action)
        elif asked is Asked.ANSWER_TRUCO:
            self._answer_truco(b, seat, action)
        elif asked is Asked.ANSWER_ENVIDO:
            self._answer_envido(b, seat, action)
        else:
            self._declare(b, seat, action)
        if b.done:
            self._next_bout()

    def _refusal(
        self, seat: int, action: object, asked: Asked, legal: Sequence[Action]
    ) -> RuleError:
        """The RuleError that says why ``action`` is not legal now."""
        ruling = {
            Asked.PLAY: "R6",
            Asked.ANSWER_TRUCO: "R7",
            Asked.ANSWER_ENVIDO: "R8",
            Asked.DECLARE: "R9",
        }[asked]
        reason = f"not legal when asked to {asked.value}"
        if asked is Asked.DECLARE:  # R9: only a number or son buenas answers a declaration
            if isinstance(action, Declare):
                reason = "a declaration must be the seat's true envido and beat the best so far"
            elif isinstance(action, SonBuenas):
                reason = "son buenas is not possible now"
            else:
                reason = "the seat is asked to declare its envido (or say son buenas), nothing else"
        elif asked is Asked.ANSWER_ENVIDO and not (
            isinstance(action, Call) and isinstance(action.call, EnvidoCall)
        ):  # R8: an Envido called is answered before anything else of the hand goes on
            reason = "the seat is asked to answer the Envido (quiero, no-quiero or a raise) first"
        elif isinstance(action, Play) and asked is Asked.PLAY:
            ruling, reason = "R4", f"{action.card} is not in this seat's hand"
        elif isinstance(action, Call) and isinstance(action.call, TrucoCall):
            ruling, reason = "R7", "not the next Truco raise this team may make"
        elif isinstance(action, Call) and isinstance(action.call, EnvidoCall):
            ruling = "R8"
            reason = "no Envido call or raise is possible now (one a play, before one's first card)"
        elif isinstance(action, Mazo) and asked is not Asked.PLAY:
            ruling, reason = "R10", "al mazo is only possible on one's turn to play"
        options = ", ".join(str(a) for a in legal)
        return RuleError(seat, action, ruling, f"{reason}; legal now: {options}")

    def _on_turn(self, b: Bout, seat: int, action: Action) -> None:
        if isinstance(action, Play):
            self._hands[seat].remove(action.card)
            b.trick.append((seat, action.card))
            self._advance(b, seat)
        elif isinstance(action, Call) and isinstance(action.call, TrucoCall):
            answerer = b.first_of_team(seat, 1 - team_of(seat))  # ruling R6
            b.truco_call = TrucoPending(action.call.level, seat, answerer)
        elif isinstance(action, Call):
            self._call_envido(b, seat, action.call)
        else:  # Mazo, ruling R10
            b.folded.add(seat)
            team = team_of(seat)
            if not b.active(team):  # the whole team folded: the others take the stake
                b.truco_points = (1 - team, calls.truco_stake(b.level))
                b.ended = "mazo"
            else:
                self._advance(b, seat)

    def _call_envido(self, b: Bout, seat: int, call: Any) -> None:
        assert isinstance(call, EnvidoCall)
        b.envido_calls.append(call)
        b.envido_caller = seat
        b.envido_state = "called"
        b.envido_answerer = b.first_of_team(seat, 1 - team_of(seat))  # ruling R6

    def _answer_truco(self, b: Bout, seat: int, action: Action) -> None:
        pending = b.truco_call
        assert pending is not None
        if isinstance(action, Call) and isinstance(action.call, EnvidoCall):
            self._call_envido(b, seat, action.call)  # ruling R8: the Envido comes first
        elif isinstance(action, Call) and isinstance(action.call, TrucoCall):
            b.level = pending.level  # ruling R7: a raise accepts the call below it
            answerer = b.first_of_team(seat, 1 - team_of(seat))
            b.truco_call = TrucoPending(action.call.level, seat, answerer)
        elif action == QUIERO:
            b.level = pending.level
            b.raise_team = team_of(seat)  # ruling R7: only the accepting team raises next
            b.truco_call = None
        else:  # No Quiero: the hand ends, the caller's team scores the stake before the call
            b.truco_points = (team_of(pending.caller), calls.truco_refused(pending.level))
            b.truco_call = None
            b.ended = "no-quiero"

    def _answer_envido(self, b: Bout, seat: int, action: Action) -> None:
        falta = calls.falta_value(self.rules.points, self._before)
        if isinstance(action, Call):
            self._call_envido(b, seat, action.call)  # a raise (R8)
        elif action == QUIERO:  # ruling R9: the last caller declares first
            b.envido_answerer = None
            b.envido_state = "declaring"
            b.declarer = b.envido_caller
        else:
            assert b.envido_caller is not None
            b.envido_answerer = None
            b.envido_state = "refused"
            b.envido_points = (
                team_of(b.envido_caller),
                calls.envido_refused(b.envido_calls, falta),
            )

    def _declare(self, b: Bout, seat: int, action: Action) -> None:
        if isinstance(action, Declare):
            b.declarations.append((seat, action.points))
            b.best = (action.points, b.distance(seat), seat)
        else:
            b.declarations.append((seat, None))
        # ruling R9: round in play order from the seat that spoke last, to the first seat
        # that has not spoken, has not folded, and whose team is not best.
        spoken = {s for s, _ in b.declarations}
        assert b.best is not None
        best_team = team_of(b.best[2])
        b.declarer = next(
            (
                s
                for s in b.after(seat)
                if s not in spoken and s not in b.folded and team_of(s) != best_team
            ),
            None,
        )
        if b.declarer is None:
            falta = calls.falta_value(self.rules.points, self._before)
            winner = b.best[2]
            b.envido_state = "settled"
            b.envido_points = (team_of(winner), calls.envido_accepted(b.envido_calls, falta))
            b.shown = (winner, envido_cards(self._dealt[winner], self.rules.envido_count))

    def _advance(self, b: Bout, seat: int) -> None:
        """After ``seat`` played or folded: the next seat of the trick, or close it."""
        played = {s for s, _ in b.trick}
        waiting = [s for s in b.after(seat) if s not in b.folded and s not in played]
        if waiting:
            b.turn = waiting[0]
        else:
            self._close_trick(b)

    def _close_trick(self, b: Bout) -> None:
        cards = tuple(b.trick)
        leader = cards[0][0]
        winner = trick_winner(cards, team_of)  # ruling R4
        b.tricks.append(TrickView(leader, cards, winner))
        b.results.append(None if winner is None else team_of(winner))
        b.trick = []
        decided = hand_winner(b.results, team_of(b.mano))  # ruling R5
        if decided is not None:
            b.trick_winner = decided
            b.truco_points = (decided, calls.truco_stake(b.level))
            b.ended = "tricks"
            return
        nxt = leader if winner is None else winner  # ruling R4: after a tie, the same leader
        b.turn = nxt if nxt not in b.folded else self._next_active(b, nxt)

    @staticmethod
    def _next_active(b: Bout, seat: int) -> int:
        return next(s for s in b.after(seat) if s not in b.folded)  # ruling R10: pass over

    # ----------------------------------------------------------------- hands

    def _next_bout(self) -> None:
        self._done_views.append(self._play_view(self._bouts[self._cur]))
        if self._cur + 1 < len(self._bouts):
            self._cur += 1
            return
        self._end_hand()

    def _end_hand(self) -> None:
        points = [0, 0]
        for b in self._bouts:
            a, c = b.points()
            points[0] += a
            points[1] += c
        for t in (0, 1):  # ruling R11: added at the end of the hand
            self.scores[t] += points[t]
        self.totals = [self.scores[team_of(s)] for s in range(self.num_seats)]
        self.finished.append(hand_record(self, points))
        a, c = self.scores
        target = self.rules.points
        if max(a, c) >= target and a != c:
            self._winners = {0 if a > c else 1}  # ruling R11
        elif a == c >= target:
            self._tied += 1  # ruling R11: equal at the target: another hand, at most 10
            if self._tied >= self.rules.tied_hands:
                self._winners = {0, 1}
        if self._winners is None:
            self._start_hand()

    def _start_hand(self) -> None:
        n = self.num_seats
        self.hand_no += 1
        if deal_passes(self.hand_no, n):
            self.dealer = (self.dealer + 1) % n  # ruling R3 (R13: after the duel hand)
        given = self._given[self.hand_no - 1] if self.hand_no <= len(self._given) else None
        if given is not None:
            if given.dealer is not None:
                self.dealer = given.dealer
            dealt = [tuple(h) for h in given.hands]
            self.source = given.source
        else:
            dealt = self._deal()
            self.source = "seed"
        self._dealt = dealt
        self._hands = [list(h) for h in dealt]
        self._before = (self.scores[0], self.scores[1])
        d = self.dealer
        mano = (d + 1) % n  # ruling R3
        if duel_hand(self.hand_no, n):  # ruling R13
            self._kind = "duels"
            pairs = [((d + i) % n, (d + i + 3) % n) for i in (1, 2, 3)]
            self._bouts = [Bout(order=p, turn=p[0]) for p in pairs]
        else:
            self._kind = "team"
            self._bouts = [Bout(order=ring(mano, n), turn=mano)]
        self._cur = 0
        self._done_views: list[PlayView] = []  # the views of this hand's finished plays
        self._legal = None

    def _deal(self) -> list[tuple[Card, ...]]:
        return seeded_hands(self.seed, self.hand_no, self.dealer, self.num_seats)

    @property
    def mano(self) -> int:
        return (self.dealer + 1) % self.num_seats

    @property
    def kind(self) -> str:
        return self._kind

    @property
    def bouts(self) -> list[Bout]:
        return self._bouts

    @property
    def dealt(self) -> list[tuple[Card, ...]]:
        return self._dealt

    @property
    def scores_before(self) -> tuple[int, int]:
        return self._before
