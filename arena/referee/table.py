"""One table: drives a match between remote seats, whatever the transport.

Game-agnostic. The seats are ``SeatLink``s (the gRPC server's bot connections, or
test doubles); the game is an ``arena.games.registry.Game``. Simultaneous decisions (Truf's
bids) are asked of all seats at once. Every answer is checked by the game's
``apply``; any fault (timeout, bad answer, lost connection) is recorded and the
seat plays the game's fallback, so one bad bot never stops a match.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, Protocol

from arena.core.errors import RuleError
from arena.games.registry import Game
from arena.play.faults import FaultBook, FaultKind
from arena.play.tournament import MatchContext, MatchOutcome, finish_match, start_match


class BotFault(Exception):
    """A seat failed to give a usable answer."""

    def __init__(self, kind: FaultKind, detail: str, *, wrong_kind: bool = False) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail
        self.wrong_kind = wrong_kind  # an action, but not of a kind this phase takes


class SeatLink(Protocol):
    """The referee's handle on the bot sitting in one seat."""

    name: str

    async def decide(self, *, ctx: MatchContext, seat: int, view: Any, legal: Sequence[Any]) -> Any:
        """Ask for a decision; return the action or an index into ``legal``. Raises
        ``BotFault`` for a timeout, a malformed answer, or a lost connection."""
        ...

    async def notify_deal(
        self, *, ctx: MatchContext, seat: int, record: dict[str, Any]
    ) -> None: ...

    async def notify_match(
        self, *, ctx: MatchContext, seat: int, result: dict[str, Any]
    ) -> None: ...

    def rejected(self, *, ctx: MatchContext, seat: int, fault: BotFault, strikes: int) -> None:
        """Tell the bot why its answer was refused (best effort)."""
        ...


def resolve(answer: Any, legal: Sequence[Any]) -> Any:
    """The action an answer names: the action itself, or ``legal[index]`` for an index
    (a BotFault if the index is out of range)."""
    if type(answer) is int:
        if not 0 <= answer < len(legal):
            raise BotFault(
                FaultKind.ILLEGAL, f"index {answer} is outside the {len(legal)} legal actions"
            )
        return legal[answer]
    return answer


def refused(exc: RuleError, action: Any, legal: Sequence[Any]) -> BotFault:
    """The fault for an action the rules refused: illegal, and flagged as the wrong kind
    when no legal action is of its kind (a card during the mode choice, say)."""
    wrong_kind = type(action) not in {type(a) for a in legal}
    return BotFault(FaultKind.ILLEGAL, exc.detail, wrong_kind=wrong_kind)  # seat named by caller


async def play_remote_match(
    game: Game,
    links: Sequence[SeatLink],
    *,
    ctx: MatchContext,
    strike_limit: int = 3,
) -> MatchOutcome:
    names = [link.name for link in links]
    match = start_match(game, ctx, names)
    book = FaultBook(len(links), strike_limit)
    deals: list[dict[str, Any]] = []
    faults: list[dict[str, Any]] = []
    decisions = 0

    async def ask(seat: int) -> tuple[int, Any]:
        legal = match.legal_actions(seat)
        if not book.forfeit[seat] and getattr(links[seat], "forfeited", False):
            book.forfeit[seat] = True  # gone past the grace period: the fallback plays on
        if book.disqualified[seat] or book.forfeit[seat]:
            return seat, None
        try:
            answer = await links[seat].decide(
                ctx=ctx, seat=seat, view=match.view(seat), legal=legal
            )
            return seat, resolve(answer, legal)
        except BotFault as fault:
            return seat, fault

    while not match.is_over:
        pending = match.to_act()
        if len(pending) == 1:
            results = [await ask(pending[0])]
        else:
            results = list(await asyncio.gather(*(ask(s) for s in pending)))
        for seat, outcome in results:
            decisions += 1
            if outcome is None:  # disqualified or forfeit: the fallback plays the seat
                match.apply(seat, match.fallback_action(seat))
                continue
            if not isinstance(outcome, BotFault):
                try:
                    match.apply(seat, outcome)
                    continue
                except RuleError as exc:
                    outcome = refused(exc, outcome, match.legal_actions(seat))
            fallback = match.fallback_action(seat)
            request = getattr(links[seat], "request_id", None)
            entry = book.record(
                seat,
                outcome.kind,
                outcome.detail,
                deal=len(deals) + 1,
                decision=match.decision_number(),
                played=str(fallback),
                request=request(ctx, seat) if request is not None else None,
            )
            faults.append(entry)
            links[seat].rejected(ctx=ctx, seat=seat, fault=outcome, strikes=book.strikes[seat])
            match.apply(seat, fallback)
        if match.finished:
            for rec in match.finished:
                rec["faults"], faults = faults, []
                rec.update(ctx.labels())
                deals.append(rec)
                await asyncio.gather(
                    *(link.notify_deal(ctx=ctx, seat=s, record=rec) for s, link in enumerate(links))
                )
            match.finished.clear()
    finish = (game, ctx, names, match.totals, match.ranks, match.teams, deals, book)
    if ctx.uniform:  # --correct-random plays deals out (milliseconds each): off the loop
        record = await asyncio.to_thread(finish_match, *finish)
    else:
        record = finish_match(*finish)
    await asyncio.gather(
        *(link.notify_match(ctx=ctx, seat=s, result=record) for s, link in enumerate(links))
    )
    return MatchOutcome(record, deals, decisions)
