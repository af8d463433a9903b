"""``arena check --game truco``: play one bot through Truco's edge cases.

Each case is a hand dealt from given cards (``HandSpec``) and brought by scripted moves
to the moment the bot's seat must decide: a Truco call it may raise, a Vale Cuatro to
answer (R7), an Envido called in answer to its team's Truco (R8), a Falta Envido to
answer (R8), the second trick after a tied first one (R4, R5), its turn after its
partner went al mazo (R10), and its duel in a six-seat duel hand (R13). From there the
bot plays its seat to the end of the hand, the arena's seats answering by script (the
weakest card, Quiero, the next Truco raise when there is one), so that it also shows it
plays on. Each case is at a table of its own (``check-01``...), as for Truf.
"""

from __future__ import annotations

from collections.abc import Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

from arena.games.truco.actions import MAZO, QUIERO, Action, Call, Declare, Play
from arena.games.truco.calls import EnvidoCall, TrucoCall
from arena.games.truco.cards import Card
from arena.games.truco.rules import TrucoRules
from arena.games.truco.state import HandSpec, TrucoMatch
from arena.referee.check import Report
from arena.referee.checkplay import Script, check_cases


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


def _hand(dealer: int, *hands: str) -> HandSpec:
    return HandSpec(tuple(_cards(h) for h in hands), dealer=dealer, source="check")


TRUCO, RETRUCO, VALE_CUATRO = (Call(c) for c in TrucoCall)
ENVIDO, FALTA = Call(EnvidoCall.ENVIDO), Call(EnvidoCall.FALTA_ENVIDO)


@dataclass(frozen=True)
class Case:
    """One edge case: a given hand, the scripted moves that bring it to the bot's seat,
    and (for the duel hand) how many hands the script plays first."""

    name: str
    why: str
    seats: int
    hands: tuple[HandSpec, ...]
    seat: int  # the bot's
    moves: tuple[tuple[int, Action], ...] = ()
    hand_no: int = 1  # the hand in which the bot is first asked

    def start(self, match_id: str) -> TrucoMatch:
        """The match at the moment the bot's seat is first asked."""
        m = TrucoMatch(TrucoRules(seats=self.seats), match_id=match_id, hands=self.hands)
        for seat, action in self.moves:
            m.apply(seat, action)
        while m.hand_no < self.hand_no or m.to_act() != (self.seat,):
            (seat,) = m.to_act()
            m.apply(seat, scripted(m, seat))
        return m


def scripted(m: TrucoMatch, seat: int) -> Action:
    """The arena's seats: raise a Truco when they can (so the bot meets Vale Cuatro),
    else Quiero, their true envido, their weakest card; never a call of their own."""
    legal = m.legal_actions(seat)
    if m.asked()[0].value == "answer-truco":
        raise_ = [a for a in legal if isinstance(a, Call) and isinstance(a.call, TrucoCall)]
        if raise_:
            return raise_[0]
    for action in legal:
        if isinstance(action, Play | Declare) or action == QUIERO:
            return action
    return legal[-1]  # son buenas


_TEAM_HAND = _hand(5, "4E 5E 6E", "4B 5B 6B", "4O 5O 6O", "4C 5C 6C", "7B 10E 11E", "7C 10B 11B")

CASES: tuple[Case, ...] = (
    Case(
        "a Truco call, Retruco possible",
        "R7: Quiero, No Quiero or the next raise (a scripted Vale Cuatro follows a Retruco)",
        2,
        (_hand(1, "4E 5E 6E", "1E 1B 3C"),),
        1,
        ((0, TRUCO),),
    ),  # fmt: skip
    Case(
        "a Vale Cuatro to answer",
        "R7: only Quiero or No Quiero, for a stake of 4",
        4,
        (_hand(3, "4E 5E 6E", "3E 2B 7B", "4B 5B 6B", "1E 3O 2C"),),
        3,
        ((0, TRUCO), (1, RETRUCO), (2, VALE_CUATRO)),
    ),  # fmt: skip
    Case(
        "an Envido called in answer to Truco",
        "R8: the Envido is settled first, then the Truco is answered",
        4,
        (_hand(3, "4E 5E 6E", "7C 6C 1B", "3E 2E 12O", "4O 5O 6O"),),
        2,
        ((0, TRUCO), (1, ENVIDO)),
    ),  # fmt: skip
    Case(
        "a Falta Envido to answer",
        "R8: worth what the leading team needs; then the bot may declare (R9)",
        2,
        (_hand(1, "4E 5B 6O", "7C 6C 1E"),),
        1,
        ((0, FALTA),),
    ),  # fmt: skip
    Case(
        "the second trick after a tied first one",
        "R4: the tied trick's leader leads again; R5: the next trick decides",
        2,
        (_hand(1, "3E 4C 5O", "3B 7O 6E"),),
        1,
        ((0, Play(Card.parse("3E"))), (1, Play(Card.parse("3B"))), (0, Play(Card.parse("4C")))),
    ),  # fmt: skip
    Case(
        "a partner gone al mazo",
        "R10: play passes over the folded seat; its partner plays on",
        4,
        (_hand(3, "4E 5E 6E", "3E 2B 7B", "1E 3O 2C", "4B 5B 6B"),),
        2,
        ((0, MAZO), (1, Play(Card.parse("2B")))),
    ),  # fmt: skip
    Case(
        "a six-seat duel hand",
        "R13: three 1v1 duels in turn, each with its own Truco and Envido",
        6,
        (
            _TEAM_HAND,
            _hand(5, "1E 4E 5E", "1B 4B 5B", "7E 4O 5O", "3E 4C 5C", "3B 6E 7B", "3O 6B 7C"),
        ),
        2,
        hand_no=2,
    ),  # fmt: skip
)


def find_cases() -> list[Case]:
    """The cases in order; each is checked at a table of its own."""
    return list(CASES)


def describe(m: TrucoMatch, seat: int, rid: int | None) -> str:
    """The request, in plain words: who is asked what, with which cards and options."""
    v = m.view(seat)
    play = v.current
    parts = [
        f"{f'request {rid}' if rid else 'the request'}: seat {seat}, hand {v.hand_no} "
        f"({v.kind}), asked to {v.asked}",
        f"cards {' '.join(c.code for c in v.cards)}",
    ]
    if play.tricks:
        parts.append(
            "tricks "
            + ", ".join(
                f"[{' '.join(c.code for _, c in t.cards)}: "
                f"{'tied' if t.winner is None else f'seat {t.winner}'}]"
                for t in play.tricks
            )
        )
    if play.trick:
        parts.append(f"open trick [{', '.join(f'seat {s}: {c.code}' for s, c in play.trick)}]")
    if play.truco_call:
        parts.append(f"{play.truco_call} called")
    if play.envido_calls:
        parts.append(f"envido calls {' '.join(play.envido_calls)} ({play.envido_state})")
    if play.folded:
        parts.append(f"folded {', '.join(f'seat {s}' for s in play.folded)}")
    parts.append(f"legal: {', '.join(str(a) for a in m.legal_actions(seat))}")
    return "; ".join(parts)


def check_bot(entrant: Any, cases: Sequence[Case]) -> Coroutine[Any, Any, Report]:
    """Ask ``entrant`` every case, then send it a match result and ask once more."""
    return check_cases(entrant, cases, SCRIPT)


def _a_finished_match() -> TrucoMatch:
    m = TrucoMatch(TrucoRules(seats=2, points=15), match_id="check-results", seed="check")
    while not m.is_over:
        (seat,) = m.to_act()
        m.apply(seat, scripted(m, seat))
    return m


SCRIPT = Script(
    play=scripted,
    describe=describe,
    deal_of=lambda m: m.hand_no,
    finished_match=_a_finished_match,
    deal_word="hand",
)
