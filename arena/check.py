"""``arena check``: play one bot through the protocol's and the rules' edge cases.

The checker is a referee with one open seat. When a bot connects, it sends that bot a
scripted series of real decision requests, each taken from a real match at the moment
an edge case arises (found by playing seeded matches with scripted players, so the
series is the same every time): a void in the led suit, trump not yet broken, only
trumps in hand, a face-down trump lead, the mode choice at a total of 13, a bid of 0
shifted to -1, every kind of target declaration, the last trick; then a deal result and
a match result, and one more request to see that the bot is still answering.

Each request is at a table of its own (``check-01``, ``check-02``, ...: its table and
match id), so that a bot which keeps state per table, as the protocol invites, never
sees one table jump between unrelated positions or seats.

Each answer is checked as the referee checks it in a tournament (on time, for the open
request, readable, legal, of the right kind). Every problem is reported in plain words
with the request that caused it; the exit code says whether there were any.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import random
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from arena.faults import FaultKind
from arena.referee.table import BotFault, refused, resolve
from arena.tournament import MatchContext
from arena.truf.actions import Action, ChooseMode, Declare, DeclareOp, Mode, Play
from arena.truf.errors import RuleError
from arena.truf.rules import TrufRules, Variant
from arena.truf.state import Phase, TrufMatch

if TYPE_CHECKING:
    import grpc

    from arena.referee.server import Referee


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


@dataclass
class Finding:
    case: str
    ok: bool
    text: str  # what the bot did, or what went wrong and the request it was for
    request: str = ""


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


def table_id(n: int) -> str:
    """The table (and match) id of the ``n``th request of a check."""
    return f"check-{n:02d}"


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


def fault_text(fault: BotFault) -> str:
    """What a fault was, in plain words."""
    if fault.wrong_kind:
        return "an action of the wrong kind for this phase"
    return {
        FaultKind.TIMEOUT: "no answer in time",
        FaultKind.ILLEGAL: "an illegal answer",
        FaultKind.UNPARSEABLE: "an answer that cannot be read",
        FaultKind.WRONG_REQUEST: "an answer naming the wrong request",
        FaultKind.DISCONNECT: "the bot disconnected",
        FaultKind.CRASH: "the bot failed (its own error; see its output)",
    }.get(fault.kind, str(fault.kind))


@dataclass
class Report:
    findings: list[Finding] = field(default_factory=list)

    @property
    def failed(self) -> list[Finding]:
        return [f for f in self.findings if not f.ok]


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


# --------------------------------------------------------------------- the session


async def run_check(
    listen: str,
    *,
    decision_timeout: float,
    wait: float,
    say: Callable[[str], None],
    game: str = "truf",
) -> Report:
    """Serve one open seat on ``listen``, wait up to ``wait`` seconds for a bot, check it
    at ``game`` (``truf``, ``truco`` or ``ruff``: see ``arena.check_truco``,
    ``arena.check_ruff``)."""
    from arena.referee.host import wait_for_entrants
    from arena.referee.server import Referee, start_server
    from arena.run import split_listen
    from arena.signals import uninterrupted

    game_check: Callable[[Any], Awaitable[Report]]
    if game in ("truco", "ruff"):
        module = importlib.import_module(f"arena.check_{game}")
        game_cases = module.find_cases()
        checks = len(game_cases) + 1
        game_check = partial(module.check_bot, cases=game_cases)
    elif game == "truf":
        cases = find_cases()
        checks = len(cases) + 1
        game_check = partial(check_bot, cases=cases)
    else:
        raise ValueError(f"arena check plays truf, truco or ruff, not {game!r}")
    host, _ = split_listen(listen)
    referee = Referee(decision_timeout=decision_timeout, open_seats=1, game=game)
    server, port = await start_server(referee, listen)
    say(f"arena check is listening on {host}:{port}: start your bot with --connect {host}:{port}")
    try:
        await wait_for_entrants(referee, 1, [], wait, stop_on_refusal=True)
        referee.start()
        (entrant,) = referee.entrants
        say(
            f"{entrant.bot_name} {entrant.bot_version} connected; "
            f"{checks} checks, {decision_timeout:g} s per decision"
        )
        report = await game_check(entrant)
        await referee.goodbye("arena check is done")
        await referee.wait_all_gone(5.0)
        return report
    finally:  # stopped (Ctrl-C, SIGTERM): a bot still connected is told, not cut off
        await uninterrupted(_stop(referee, server))


async def _stop(referee: Referee, server: grpc.aio.Server) -> None:
    await referee.goodbye("arena check was stopped")  # a no-op for a bot already told
    await referee.wait_all_gone(5.0)
    await server.stop(1.0)
