"""Truf's ``arena check`` cases: the protocol's and the rules' edge cases of Truf.

Each request is taken from a real match at the moment an edge case arises (found by
playing seeded matches with scripted players, so the series is the same every time): a
void in the led suit, trump not yet broken, only trumps in hand, a face-down trump lead,
the mode choice at a total of 13, a bid of 0 shifted to -1, every kind of target
declaration, the last trick; then a deal result and a match result, and one more request
to see that the bot is still answering. The checker itself (one open seat, the report)
is ``arena.referee.check``.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from arena.games.truf.actions import Action, ChooseMode, Declare, DeclareOp, Mode, Play
from arena.games.truf.errors import RuleError
from arena.games.truf.rules import TrufRules, Variant
from arena.games.truf.state import Phase, TrufMatch
from arena.play.faults import FaultKind
from arena.play.tournament import MatchContext
from arena.referee.check import Finding, Report, fault_text, table_id
from arena.referee.table import BotFault, refused, resolve


@dataclass
class Case:
    """One edge case: the match at the moment ``seat`` must decide."""

    name: str
    why: str  # the ruling or protocol point it exercises
    match: TrufMatch
    seat: int
    moves: tuple[tuple[int, Action], ...] = ()  # how the match came here from its seed

    def at_table(self, table_id: str) -> Case:
        """The same moment in a match of its own, whose match (and so table) id is
        ``table_id``: replayed from the seed, since the id is part of every view."""
        m = TrufMatch(self.match.rules, match_id=table_id, seed=self.match.seed)
        for seat, action in self.moves:
            m.apply(seat, action)
        return dataclasses.replace(self, match=m)


# --------------------------------------------------------------------- the cases


def _suit_of(card: int) -> int:
    return card // 13


def _void_in_led_suit(m: TrufMatch, seat: int) -> bool:
    v = m.view(seat)
    if m.phase is not Phase.PLAY or not v.trick or v.trick[0].card is None:
        return False
    led = v.trick[0].card // 13
    return not any(_suit_of(c) == led for c in v.hand) and len(v.hand) > 1


def _leads(m: TrufMatch, seat: int) -> bool:
    return m.phase is Phase.PLAY and not m.view(seat).trick


def _trump_not_broken(m: TrufMatch, seat: int) -> bool:
    v = m.view(seat)
    if not _leads(m, seat) or v.trump is None or v.trump_broken:
        return False
    suits = {_suit_of(c) for c in v.hand}
    return v.trump in suits and len(suits) > 1


def _only_trumps(m: TrufMatch, seat: int) -> bool:
    v = m.view(seat)
    if not _leads(m, seat) or v.trump is None or v.trump_broken:
        return False
    return len(v.hand) > 1 and all(_suit_of(c) == v.trump for c in v.hand)


def _face_down_lead(m: TrufMatch, seat: int) -> bool:
    v = m.view(seat)
    return m.phase is Phase.PLAY and bool(v.trick) and v.trick[0].card is None


def _mode_choice(m: TrufMatch, seat: int) -> bool:
    return m.phase is Phase.MODE


def _bid_zero_to_minus_one(m: TrufMatch, seat: int) -> bool:
    v = m.view(seat)
    return m.phase is Phase.PLAY and v.final_bids is not None and v.final_bids[seat] == -1


def _every_declaration(m: TrufMatch, seat: int) -> bool:
    if m.phase is not Phase.DECLARE:
        return False
    ops = {a.op for a in m.legal_actions(seat) if isinstance(a, Declare)}
    return ops == set(DeclareOp)


def _last_trick(m: TrufMatch, seat: int) -> bool:
    return m.phase is Phase.PLAY and len(m.view(seat).hand) == 1


CLASSIC_CASES: list[tuple[str, str, Callable[[TrufMatch, int], bool]]] = [
    ("void in the led suit", "C9: any card may be played", _void_in_led_suit),
    ("trump not yet broken", "C10: no trump lead before trump is broken", _trump_not_broken),
    ("only trumps in hand", "C10: then a trump may be led", _only_trumps),
    ("face-down trump lead", "C11: the hidden lead is a trump lead", _face_down_lead),
    ("a total of exactly 13", "C5: the high bidder chooses atas or bawah", _mode_choice),
    ("a bid of 0 shifted to -1", "C5: bawah moves every bid down by one", _bid_zero_to_minus_one),
    ("the last trick", "C8: one card left", _last_trick),
]
TARGET_CASES: list[tuple[str, str, Callable[[TrufMatch, int], bool]]] = [
    ("every kind of target declaration", "T2: single, sum, subtract, NO TRUF", _every_declaration),
]


def _puppet(m: TrufMatch, seat: int, rng: random.Random) -> Action:
    """The scripted players: random, but they keep their trumps (so trump stays
    unbroken long enough for the C10 cases) and choose bawah at 13 (for the C5 shift)."""
    legal = m.legal_actions(seat)
    if m.phase is Phase.MODE:
        return next(a for a in legal if isinstance(a, ChooseMode) and a.mode is Mode.BAWAH)
    trump = m.view(seat).trump
    if m.phase is Phase.PLAY and trump is not None:
        keep = [a for a in legal if isinstance(a, Play) and _suit_of(a.card) != trump]
        if keep:
            return rng.choice(keep)
    return rng.choice(legal)


def find_cases(limit: int = 400) -> list[Case]:
    """The edge cases in the order listed, each at the first moment seeded play reaches
    it (so always the same), each at a table of its own: ``check-01``, ``check-02``..."""
    order = [name for name, _, _ in CLASSIC_CASES + TARGET_CASES]
    found = sorted(_search(limit), key=lambda c: order.index(c.name))
    return [case.at_table(table_id(n)) for n, case in enumerate(found, 1)]


def _search(limit: int) -> Iterator[Case]:
    for variant, wanted in (("classic", CLASSIC_CASES), ("target", TARGET_CASES)):
        todo = list(wanted)
        for seed in range(limit):
            if not todo:
                break
            rng = random.Random(f"check:{variant}:{seed}")
            rules = TrufRules(variant=Variant(variant), deals=2)
            m = TrufMatch(rules, match_id=f"check-{variant}-{seed}", seed=f"check:{seed}")
            moves: list[tuple[int, Action]] = []
            while not m.is_over and todo:
                for seat in m.to_act():
                    for item in list(todo):
                        name, why, test = item
                        if test(m, seat):
                            todo.remove(item)
                            yield Case(name, why, copy.deepcopy(m), seat, tuple(moves))
                    action = _puppet(m, seat, rng)
                    m.apply(seat, action)
                    moves.append((seat, action))
        for name, why, _ in todo:  # never reached: a bug in the checker, not the bot
            raise RuntimeError(f"arena check could not set up the case {name!r} ({why})")


# --------------------------------------------------------------------- checking


def describe(case: Case, rid: int | None) -> str:
    v = case.match.view(case.seat)
    legal = case.match.legal_actions(case.seat)
    trick = ", ".join(
        f"seat {p.seat}: {'face down' if p.card is None else p.card.code}" for p in v.trick
    )
    parts = [
        f"{f'request {rid}' if rid else 'the request'}: seat {case.seat}, phase {v.phase}",
        f"hand {' '.join(c.code for c in v.hand)}",
    ]
    if v.trump is not None:
        parts.append(f"trump {'SHDC'[v.trump]}{'' if v.trump_broken else ' (not broken)'}")
    if trick:
        parts.append(f"open trick [{trick}]")
    parts.append(f"legal: {', '.join(str(a) for a in legal)}")
    return "; ".join(parts)


async def check_bot(entrant: Any, cases: Sequence[Case]) -> Report:
    """Ask ``entrant`` (a connected ``arena.referee.server.Entrant``) every case."""
    report = Report()

    async def ask(case: Case, label: str) -> bool:
        m, seat = case.match, case.seat
        legal = m.legal_actions(seat)
        ctx = MatchContext(m.match_id)
        try:
            answer = await entrant.decide(ctx=ctx, seat=seat, view=m.view(seat), legal=legal)
            action = resolve(answer, legal)
            try:
                copy.deepcopy(m).apply(seat, action)  # the case stays as it was for the next ask
            except RuleError as exc:
                raise refused(exc, action, legal) from None
        except BotFault as fault:
            rid = entrant.last_request.get((m.match_id, seat))
            what = fault_text(fault)
            entrant.rejected(ctx=ctx, seat=seat, fault=fault, strikes=0)
            report.findings.append(
                Finding(label, False, f"{what}: {fault.detail}", describe(case, rid))
            )
            return fault.kind is not FaultKind.DISCONNECT
        rid = entrant.last_request.get((m.match_id, seat))
        report.findings.append(Finding(label, True, f"answered {action}", describe(case, rid)))
        return True

    for case in cases:
        if not await ask(case, f"{case.name} ({case.why})"):
            break
    else:
        # Results need no answer; the bot must take them and go on answering.
        done = _a_finished_deal()
        ctx = MatchContext(done.match_id)
        for record in done.finished:
            await entrant.notify_deal(ctx=ctx, seat=0, record=record)
        result = {"seats": list(done.names), "totals": done.totals, "ranks": done.ranks,
                  "faults": {"timeout": [0] * 4, "illegal": [0] * 4}}  # fmt: skip
        await entrant.notify_match(ctx=ctx, seat=0, result=result)
        if cases:  # the last case again, at a table of its own
            again = cases[-1].at_table(table_id(len(cases) + 1))
            await ask(again, "deal and match results, then one more request")
    return report


def _a_finished_deal() -> TrufMatch:
    m = TrufMatch(TrufRules(deals=1), match_id="check-results", seed="check:results")
    rng = random.Random("check:results")
    while not m.is_over:
        for seat in m.to_act():
            m.apply(seat, rng.choice(m.legal_actions(seat)))
    return m
