"""Playing one bot through a game's scripted edge cases (``arena check --game truco``,
``--game ruff``): each case is a match brought by scripted moves to the moment the bot's
seat must decide; the bot then plays its seat to the end of that deal while the arena's
seats answer by the game's script. Each answer is checked as the referee checks it in a
tournament. A game gives its cases and a ``Script``; everything else is here, once.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from arena.core.errors import RuleError
from arena.play.tournament import MatchContext
from arena.referee.check import Finding, Report, fault_text, table_id
from arena.referee.table import BotFault, refused, resolve


class CheckMatch(Protocol):
    """What the checker needs of a game's match (``arena.games.registry.Match`` has all of it)."""

    match_id: str
    finished: list[dict[str, Any]]

    @property
    def is_over(self) -> bool: ...
    def to_act(self) -> tuple[int, ...]: ...
    def legal_actions(self, seat: int) -> Sequence[Any]: ...
    def view(self, seat: int) -> Any: ...
    def apply(self, seat: int, action: Any) -> None: ...


class CheckCase(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def why(self) -> str: ...  # the ruling it exercises
    @property
    def seat(self) -> int: ...  # the bot's

    def start(self, match_id: str) -> Any:
        """The match at the moment the bot's seat is first asked."""
        ...


@dataclass(frozen=True)
class Script:
    """A game's side of the checker."""

    play: Callable[[Any, int], Any]  # the arena's seats: (match, seat) -> their action
    describe: Callable[[Any, int, int | None], str]  # the request in words (match, seat, rid)
    deal_of: Callable[[Any], int]  # the number of the deal in play
    finished_match: Callable[[], Any]  # a whole match, whose result the bot is sent
    deal_word: str = "deal"  # what the game calls a deal ("hand" in Truco)


async def ask(entrant: Any, m: CheckMatch, seat: int, script: Script) -> tuple[Any, str, str]:
    """One request: the bot's legal action, or None with the fault and the request."""
    legal = m.legal_actions(seat)
    ctx = MatchContext(m.match_id)
    request = ""
    try:
        answer = await entrant.decide(ctx=ctx, seat=seat, view=m.view(seat), legal=legal)
        request = script.describe(m, seat, entrant.last_request.get((m.match_id, seat)))
        action = resolve(answer, legal)
        try:
            copy.deepcopy(m).apply(seat, action)
        except RuleError as exc:
            raise refused(exc, action, legal) from None
    except BotFault as fault:
        rid = entrant.last_request.get((m.match_id, seat))
        request = request or script.describe(m, seat, rid)
        entrant.rejected(ctx=ctx, seat=seat, fault=fault, strikes=0)
        return None, f"{fault_text(fault)}: {fault.detail}", request
    return action, "", request


async def play_case(entrant: Any, m: CheckMatch, seat: int, label: str, script: Script) -> Finding:
    """Ask the bot at its seat, the script at the others', to the end of the deal."""
    deal, answers, first = script.deal_of(m), [], ""
    while not m.is_over and script.deal_of(m) == deal:
        (who,) = m.to_act()
        if who != seat:
            m.apply(who, script.play(m, who))
            continue
        action, fault, request = await ask(entrant, m, seat, script)
        if action is None:
            return Finding(label, False, fault, request)
        first = first or request  # the case's own request
        answers.append(str(action))
        m.apply(seat, action)
    if m.finished:
        ctx = MatchContext(m.match_id)
        await entrant.notify_deal(ctx=ctx, seat=seat, record=m.finished[-1])
    text = f"answered {answers[0]}" + (
        f", then {', '.join(answers[1:])} to the end of the {script.deal_word}"
        if len(answers) > 1
        else ""
    )
    return Finding(label, True, text, first)


async def check_cases(entrant: Any, cases: Sequence[CheckCase], script: Script) -> Report:
    """Ask ``entrant`` every case, then send it a match result and ask once more."""
    report = Report()
    n = 0
    for case in cases:
        n += 1
        finding = await play_case(entrant, case.start(table_id(n)), case.seat, label(case), script)
        report.findings.append(finding)
        if not finding.ok and finding.text.startswith("the bot disconnected"):
            return report
    done = script.finished_match()
    ctx = MatchContext(done.match_id)
    result = {"seats": list(done.names), "totals": done.totals, "ranks": done.ranks}
    await entrant.notify_match(ctx=ctx, seat=0, result=result)
    if cases:
        last = cases[-1]
        report.findings.append(
            await play_case(
                entrant,
                last.start(table_id(n + 1)),
                last.seat,
                f"a match result, then one more {script.deal_word}",
                script,
            )
        )
    return report


def label(case: CheckCase) -> str:
    return f"{case.name} ({case.why})"
