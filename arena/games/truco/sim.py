"""A Truco simulator for search bots: one hand, from any point to its end, cheap to copy.

The referee's engine (``arena.games.truco.state``) keeps the match, builds views and writes the
replay log; a search bot needs only the rules of one hand, fast. A ``Sim`` is one hand
(the whole table's, or the three duels of a six-seat duel hand, R13): the calls and
answers of the Truco (R7) and the Envido (R8), the declarations (R9), al mazo (R10) and
the tricks (R4, R5), scored per team. Cards are ints, their index in ``DECK``; moves are
the engine's own action values (``Play``, ``Call``, ``QUIERO`` ...), so a bot's choice in
the simulator is the action it sends.

``legal()`` lists the moves of the seat asked, sorted as the engine sorts them;
``apply(move)`` checks and makes one; ``playout(rng, policy)`` plays to the end of the
hand and returns each team's points. For a bot: ``Sampler(view)`` draws the cards it
cannot see (``arena.games.truco.sampling``) and ``from_view(view, dealt)`` replays the hand so
far on them::

    sampler = Sampler(view)
    state = from_view(view, sampler.sample(rng))
    points = state.playout(rng)

``tests/test_truco_sim.py`` plays thousands of random hands at 2, 4 and 6 seats through
this module and the engine and asserts the same legal moves at every step and the same
points.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from arena.games.truco import calls as ladder
from arena.games.truco.actions import (
    MAZO,
    NO_QUIERO,
    QUIERO,
    SON_BUENAS,
    Action,
    Call,
    Declare,
    Play,
    sort_key,
)
from arena.games.truco.calls import TRUCO_LADDER, EnvidoCall, TrucoCall
from arena.games.truco.cards import DECK, Card
from arena.games.truco.envido import EnvidoCount
from arena.games.truco.rules import TrucoRules
from arena.games.truco.tricks import hand_winner
from arena.games.truco.view import TrucoView

__all__ = [
    "CARD_INDEX", "PLAYS", "Policy", "Sim", "envido_of", "from_view", "random_dealt",
]  # fmt: skip

HAND = 3  # ruling R3
CARD_INDEX = {card: i for i, card in enumerate(DECK)}
STRENGTH = tuple(c.strength for c in DECK)  # ruling R1
_ENVIDO_VALUE = tuple(c.envido_value for c in DECK)  # ruling R9
_SUIT = tuple(i // 10 for i in range(len(DECK)))  # DECK is suit by suit, 10 ranks each
PLAYS = tuple(Play(c) for c in DECK)
_TRUCO_CALLS = tuple(Call(c) for c in TRUCO_LADDER)
_ENVIDO_CALLS = {c: Call(c) for c in EnvidoCall}
_INTERNED: tuple[Action, ...] = (
        *PLAYS,
        *_TRUCO_CALLS,
        *_ENVIDO_CALLS.values(),
        QUIERO,
        NO_QUIERO,
        *(Declare(p) for p in range(40)),
        SON_BUENAS,
        MAZO,
    )  # fmt: skip
_KEY: dict[Action, tuple[int, int, int]] = {a: sort_key(a) for a in _INTERNED}

# What is asked, as small ints (as ``arena.games.truco.state.Asked``).
PLAY, ANSWER_TRUCO, ANSWER_ENVIDO, DECLARE, OVER = 0, 1, 2, 3, 4
ASKED_NAMES = ("play", "answer-truco", "answer-envido", "declare", "over")
# Envido states (as ``Bout.envido_state``).
E_NONE, E_CALLED, E_DECLARING, E_REFUSED, E_SETTLED = 0, 1, 2, 3, 4

Policy = Callable[["Sim", random.Random], Action]  # (state, rng) -> one of state.legal()


def envido_of(cards: Sequence[int], count: EnvidoCount = EnvidoCount.SEED) -> int:
    """ruling R9: a hand's envido, on its three dealt cards (``DECK`` indices)."""
    best, suited = -1, False
    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            a, b = cards[i], cards[j]
            same = _SUIT[a] == _SUIT[b]
            if suited and not same:
                continue
            points = _ENVIDO_VALUE[a] + _ENVIDO_VALUE[b] + (20 if same else 0)
            if same and not suited:
                best, suited = points, True
            elif points > best:
                best = points
    if not suited and count is EnvidoCount.TRADITIONAL:
        return max(_ENVIDO_VALUE[c] for c in cards)
    return best


class _Bout:
    """One play of tricks with its own Truco and Envido (``arena.games.truco.bout.Bout``)."""

    __slots__ = (
        "order", "turn", "folded", "results", "trick", "closed", "level", "raise_team",
        "truco_call", "ecalls", "ecaller", "eanswerer", "estate", "declarer", "spoken",
        "best", "epoints", "tpoints", "ended",
    )  # fmt: skip

    def __init__(self, order: tuple[int, ...]) -> None:
        self.order = order
        self.turn = order[0]
        self.folded = 0  # bit per seat (R10)
        self.results: list[int | None] = []  # each closed trick's team, None: tie (R5)
        self.trick: list[tuple[int, int]] = []
        self.closed = 0  # closed tricks
        self.level = 0  # the accepted Truco level (R7)
        self.raise_team: int | None = None
        self.truco_call: tuple[int, int, int] | None = None  # (level, caller, answerer)
        self.ecalls: list[EnvidoCall] = []
        self.ecaller = -1
        self.eanswerer = -1
        self.estate = E_NONE
        self.declarer = -1
        self.spoken: list[int] = []  # seats that declared or said son buenas, in order
        self.best: tuple[int, int, int] | None = None  # (points, distance, seat)
        self.epoints: tuple[int, int] | None = None  # (team, points)
        self.tpoints: tuple[int, int] | None = None
        self.ended = False

    def copy(self) -> _Bout:
        b = _new(_Bout)
        b.order = self.order
        b.turn = self.turn
        b.folded = self.folded
        b.results = self.results[:]
        b.trick = self.trick[:]
        b.closed = self.closed
        b.level = self.level
        b.raise_team = self.raise_team
        b.truco_call = self.truco_call
        b.ecalls = self.ecalls[:]
        b.ecaller = self.ecaller
        b.eanswerer = self.eanswerer
        b.estate = self.estate
        b.declarer = self.declarer
        b.spoken = self.spoken[:]
        b.best = self.best
        b.epoints = self.epoints
        b.tpoints = self.tpoints
        b.ended = self.ended
        return b

    def after(self, seat: int) -> tuple[int, ...]:
        order = self.order
        i = order.index(seat)
        return order[i + 1 :] + order[:i]

    def first_of_team(self, seat: int, team: int) -> int:
        """ruling R6: who answers a call: the first seat of ``team`` not folded."""
        folded = self.folded
        for s in self.after(seat):
            if s % 2 == team and not folded >> s & 1:
                return s
        raise AssertionError(f"team {team} has no seat left in play")

    def active(self, team: int) -> list[int]:
        folded = self.folded
        return [s for s in self.order if s % 2 == team and not folded >> s & 1]


_new = object.__new__


class Sim:
    """One hand of Truco, from any point to its end. Mutable; ``copy()`` is cheap.

    Public fields (read them, do not write them): ``seats``, ``dealt`` (each seat's three
    cards as ``DECK`` indices, in dealt order), ``hands`` (the unplayed ones), ``envido``
    (each seat's envido score, R9), ``points`` (each team's points from this hand's
    finished plays), ``cur`` (the play in progress: 0, or 0..2 in a duel hand) and
    ``bout`` (its state: ``level``, ``trick``, ``results``, ``ecalls`` ...).
    """

    __slots__ = (
        "seats", "falta", "count", "dealt", "hands", "envido", "orders", "cur", "bout",
        "points", "over",
    )  # fmt: skip

    seats: int
    falta: int
    count: EnvidoCount
    dealt: list[tuple[int, ...]]
    hands: list[list[int]]
    envido: list[int]
    orders: tuple[tuple[int, ...], ...]
    cur: int
    bout: _Bout
    points: list[int]
    over: bool

    @classmethod
    def start(
        cls,
        rules: TrucoRules,
        dealt: Sequence[Sequence[int]],
        dealer: int,
        *,
        duels: bool = False,
        scores: Sequence[int] = (0, 0),
    ) -> Sim:
        """A fresh hand: ``dealt`` are each seat's three cards (``DECK`` indices),
        ``duels`` the six-seat duel hand (R13), ``scores`` the teams' scores before it
        (Falta Envido counts from them, R8)."""
        n = rules.seats
        if len(dealt) != n:
            raise ValueError(f"a {n}-seat hand deals {n} hands, not {len(dealt)}")
        s = _new(cls)
        s.seats = n
        s.falta = ladder.falta_value(rules.points, scores)
        s.count = rules.envido_count
        s.dealt = [tuple(h) for h in dealt]
        s.hands = [list(h) for h in dealt]
        s.envido = [envido_of(h, rules.envido_count) for h in s.dealt]
        mano = (dealer + 1) % n  # ruling R3
        if duels:  # ruling R13: each seat against the one opposite, from dealer + 1
            s.orders = tuple(((dealer + i) % n, (dealer + i + 3) % n) for i in (1, 2, 3))
        else:
            s.orders = (tuple((mano + i) % n for i in range(n)),)
        s.cur = 0
        s.bout = _Bout(s.orders[0])
        s.points = [0, 0]
        s.over = False
        return s

    def copy(self) -> Sim:
        s = _new(Sim)
        s.seats = self.seats
        s.falta = self.falta
        s.count = self.count
        s.dealt = self.dealt
        s.hands = [h[:] for h in self.hands]
        s.envido = self.envido
        s.orders = self.orders
        s.cur = self.cur
        s.bout = self.bout.copy()
        s.points = self.points[:]
        s.over = self.over
        return s

    # ----------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.over

    def asked(self) -> tuple[int, int]:
        """What is asked now (``PLAY`` ... ``OVER``), and of which seat (R6)."""
        if self.over:
            return OVER, -1
        b = self.bout
        if b.eanswerer >= 0:
            return ANSWER_ENVIDO, b.eanswerer
        if b.declarer >= 0:
            return DECLARE, b.declarer
        if b.truco_call is not None:
            return ANSWER_TRUCO, b.truco_call[2]
        return PLAY, b.turn

    def to_act(self) -> tuple[int, ...]:
        asked, seat = self.asked()
        return () if asked == OVER else (seat,)

    def legal(self, seat: int | None = None) -> list[Action]:
        """The moves of the seat asked (or of ``seat``: none unless it is asked), sorted
        as the engine sorts them (``arena.games.truco.actions.sort_key``)."""
        asked, who = self.asked()
        if asked == OVER or seat not in (None, who):
            return []
        out = self._legal(asked, who)
        out.sort(key=_KEY.__getitem__)
        return out

    def _legal(self, asked: int, seat: int) -> list[Action]:
        b = self.bout
        if asked == PLAY:  # ruling R6: a card, or first a call or al mazo
            out: list[Action] = [PLAYS[c] for c in self.hands[seat]]
            if b.level < 3 and b.raise_team in (None, seat % 2):
                out.append(_TRUCO_CALLS[b.level])  # ruling R7
            if b.estate == E_NONE and not b.closed:  # ruling R8
                out += [_ENVIDO_CALLS[c] for c in ladder.next_envido_calls(())]
            out.append(MAZO)  # ruling R10
            return out
        if asked == ANSWER_TRUCO:
            pending = b.truco_call
            assert pending is not None
            out = [QUIERO, NO_QUIERO]
            if pending[0] < 3:
                out.append(_TRUCO_CALLS[pending[0]])  # ruling R7: the next raise
            if self._envido_in_answer(b, seat, pending[0]):
                out += [_ENVIDO_CALLS[c] for c in ladder.next_envido_calls(())]
            return out
        if asked == ANSWER_ENVIDO:  # ruling R8
            nxt = ladder.next_envido_calls(b.ecalls)
            return [QUIERO, NO_QUIERO, *(_ENVIDO_CALLS[c] for c in nxt)]
        out = []  # DECLARE, ruling R9
        points = self.envido[seat]
        best = b.best
        if best is None or points > best[0] or (points == best[0] and self._dist(seat) < best[1]):
            out.append(Declare(points))
        if b.spoken:  # the last caller declares first and may not say son buenas
            out.append(SON_BUENAS)
        return out

    def _dist(self, seat: int) -> int:
        return self.bout.order.index(seat)

    @staticmethod
    def _envido_in_answer(b: _Bout, seat: int, level: int) -> bool:
        """ruling R8: Envido instead of answering the first Truco call."""
        if b.estate != E_NONE or level != 1 or b.closed:
            return False
        played = {s for s, _ in b.trick}
        return any(s not in played for s in b.active(seat % 2))

    # ----------------------------------------------------------------- moves

    def apply(self, move: Action, seat: int | None = None) -> None:
        """Make ``move`` for the seat asked (``seat``, if given, must be it); a
        ValueError says why a move is not legal."""
        asked, who = self.asked()
        if asked == OVER:
            raise ValueError("the hand is over")
        if seat not in (None, who):
            raise ValueError(f"seat {who} is asked to {ASKED_NAMES[asked]}, not seat {seat}")
        if move not in self._legal(asked, who):
            raise ValueError(f"seat {who} may not {move} now (asked to {ASKED_NAMES[asked]})")
        self.step(move)

    def step(self, move: Action) -> None:
        """Make ``move`` for the seat asked, unchecked (take it from ``legal()``)."""
        asked, seat = self.asked()
        b = self.bout
        if asked == PLAY:
            if isinstance(move, Play):
                self._play(b, seat, CARD_INDEX[move.card])
            elif isinstance(move, Call):
                if isinstance(move.call, TrucoCall):
                    b.truco_call = (move.call.level, seat, b.first_of_team(seat, 1 - seat % 2))
                else:
                    self._call_envido(b, seat, move.call)
            else:  # al mazo, ruling R10
                b.folded |= 1 << seat
                team = seat % 2
                if not b.active(team):
                    b.tpoints = (1 - team, ladder.truco_stake(b.level))
                    b.ended = True
                else:
                    self._advance(b, seat)
        elif asked == ANSWER_TRUCO:
            pending = b.truco_call
            assert pending is not None
            if isinstance(move, Call):
                if isinstance(move.call, EnvidoCall):
                    self._call_envido(b, seat, move.call)  # ruling R8: Envido first
                else:  # ruling R7: a raise accepts the call below it
                    b.level = pending[0]
                    b.truco_call = (move.call.level, seat, b.first_of_team(seat, 1 - seat % 2))
            elif move == QUIERO:
                b.level = pending[0]
                b.raise_team = seat % 2
                b.truco_call = None
            else:  # ruling R7: refused, the hand ends
                b.tpoints = (pending[1] % 2, ladder.truco_refused(pending[0]))
                b.truco_call = None
                b.ended = True
        elif asked == ANSWER_ENVIDO:
            if isinstance(move, Call):
                self._call_envido(b, seat, move.call)  # a raise (R8)
            elif move == QUIERO:  # ruling R9: the last caller declares first
                b.eanswerer = -1
                b.estate = E_DECLARING
                b.declarer = b.ecaller
            else:
                b.eanswerer = -1
                b.estate = E_REFUSED
                b.epoints = (b.ecaller % 2, ladder.envido_refused(b.ecalls, self.falta))
        else:
            self._declare(b, seat, move)
        if b.ended:
            self._next_bout(b)

    def _call_envido(self, b: _Bout, seat: int, call: object) -> None:
        assert isinstance(call, EnvidoCall)
        b.ecalls.append(call)
        b.ecaller = seat
        b.estate = E_CALLED
        b.eanswerer = b.first_of_team(seat, 1 - seat % 2)  # ruling R6

    def _declare(self, b: _Bout, seat: int, move: Action) -> None:
        b.spoken.append(seat)
        if isinstance(move, Declare):
            b.best = (move.points, self._dist(seat), seat)
        # ruling R9: round in play order from the seat that spoke last
        assert b.best is not None
        best_team = b.best[2] % 2
        folded = b.folded
        b.declarer = next(
            (
                s
                for s in b.after(seat)
                if s not in b.spoken and not folded >> s & 1 and s % 2 != best_team
            ),
            -1,
        )
        if b.declarer < 0:
            b.estate = E_SETTLED
            b.epoints = (best_team, ladder.envido_accepted(b.ecalls, self.falta))

    def _play(self, b: _Bout, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        b.trick.append((seat, card))
        self._advance(b, seat)

    def _advance(self, b: _Bout, seat: int) -> None:
        """After ``seat`` played or folded: the next seat of the trick, or close it."""
        trick, folded = b.trick, b.folded
        played = 0
        for s, _ in trick:
            played |= 1 << s
        for s in b.after(seat):
            if not (folded | played) >> s & 1:
                b.turn = s
                return
        self._close_trick(b)

    def _close_trick(self, b: _Bout) -> None:
        trick = b.trick
        leader = trick[0][0]
        top = max(STRENGTH[c] for _, c in trick)  # ruling R4
        holders = [s for s, c in trick if STRENGTH[c] == top]
        teams = {s % 2 for s in holders}
        winner = holders[0] if len(teams) == 1 else None
        b.results.append(None if winner is None else winner % 2)
        b.trick = []
        b.closed += 1
        decided = hand_winner(b.results, b.order[0] % 2)  # ruling R5
        if decided is not None:
            b.tpoints = (decided, ladder.truco_stake(b.level))
            b.ended = True
            return
        nxt = leader if winner is None else winner  # ruling R4
        if b.folded >> nxt & 1:  # ruling R10: pass over folded seats
            nxt = next(s for s in b.after(nxt) if not b.folded >> s & 1)
        b.turn = nxt

    def _next_bout(self, b: _Bout) -> None:
        for scored in (b.tpoints, b.epoints):
            if scored is not None:
                self.points[scored[0]] += scored[1]
        if self.cur + 1 < len(self.orders):
            self.cur += 1
            self.bout = _Bout(self.orders[self.cur])
        else:
            self.over = True

    # ----------------------------------------------------------------- playouts

    def playout(self, rng: random.Random, policy: Policy | None = None) -> tuple[int, int]:
        """Play the hand to its end and return each team's points for it. Every move is
        ``policy(state, rng)``, or (no policy) a random legal move, al mazo excepted
        while another move is possible (a random fold ends most hands at once)."""
        while not self.over:
            if policy is not None:
                self.step(policy(self, rng))
                continue
            asked, seat = self.asked()
            moves = self._legal(asked, seat)
            if asked == PLAY:
                moves.pop()  # MAZO is last
            self.step(moves[int(rng.random() * len(moves))])
        return (self.points[0], self.points[1])

    def __repr__(self) -> str:
        asked, seat = self.asked()
        where = f"play {self.cur + 1}/{len(self.orders)}"
        return f"<truco Sim {where} {ASKED_NAMES[asked]} seat {seat}>"


def random_dealt(rng: random.Random, seats: int) -> list[tuple[int, ...]]:
    """Every seat's three cards (``DECK`` indices) from a fresh shuffle."""
    cards = rng.sample(range(len(DECK)), HAND * seats)
    return [tuple(cards[HAND * s : HAND * s + HAND]) for s in range(seats)]


def rules_of(view: TrucoView) -> TrucoRules:
    """The rules a view shows (R2, R9, R11; the tied-hands limit plays no part in a hand)."""
    return TrucoRules(seats=len(view.names), points=view.target, envido_count=view.envido_count)  # type: ignore[arg-type]


def from_view(view: TrucoView, dealt: Sequence[Sequence[int | Card]]) -> Sim:
    """The ``Sim`` of the hand a view shows, with every seat's dealt cards as in ``dealt``
    (from ``Sampler.sample``; the view's own seat must get its own cards): the hand is
    started and every action in the view replayed on it."""
    cards = [[c if isinstance(c, int) else CARD_INDEX[c] for c in h] for h in dealt]
    if sorted(cards[view.seat]) != sorted(CARD_INDEX[c] for c in view.dealt):
        raise ValueError(f"dealt[{view.seat}] is not the view's own hand")
    s = Sim.start(
        rules_of(view), cards, view.dealer, duels=view.kind == "duels", scores=view.scores
    )
    for play in view.plays:
        for seat, action in play.log:
            s.apply(action, seat)
    return s
