"""``arena check``: play one bot through the protocol's and the rules' edge cases.

The checker is a referee with one open seat. When a bot connects, it sends that bot a
scripted series of real decision requests, each taken from a real match at the moment
an edge case arises: the game's cases, in its folder (``arena/games/<game>/check.py``,
named by its registry entry's ``check``: Truf's void in the led suit, trump not yet
broken, ...); then a deal result and a match result, and one more request to see that
the bot is still answering.

Each request is at a table of its own (``check-01``, ``check-02``, ...: its table and
match id), so that a bot which keeps state per table, as the protocol invites, never
sees one table jump between unrelated positions or seats.

Each answer is checked as the referee checks it in a tournament (on time, for the open
request, readable, legal, of the right kind). Every problem is reported in plain words
with the request that caused it; the exit code says whether there were any.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from arena.games.registry import REGISTRY
from arena.play.faults import FaultKind
from arena.referee.table import BotFault

if TYPE_CHECKING:
    import grpc

    from arena.referee.server import Referee


@dataclass
class Finding:
    case: str
    ok: bool
    text: str  # what the bot did, or what went wrong and the request it was for
    request: str = ""


# --------------------------------------------------------------------- checking


def table_id(n: int) -> str:
    """The table (and match) id of the ``n``th request of a check."""
    return f"check-{n:02d}"


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
    at ``game`` (its cases: the module its registry entry's ``check`` names)."""
    from arena.play.run import split_listen
    from arena.play.signals import uninterrupted
    from arena.referee.host import wait_for_entrants
    from arena.referee.server import Referee, start_server

    checked = [name for name, entry in REGISTRY.items() if entry.check]
    if game not in checked:
        names = " or ".join(filter(None, (", ".join(checked[:-1]), checked[-1])))
        raise ValueError(f"arena check plays {names}, not {game!r}")
    # The game's cases: its find_cases() and check_bot(entrant, cases).
    module = importlib.import_module(REGISTRY[game].check)
    cases = module.find_cases()
    checks = len(cases) + 1
    game_check: Callable[[Any], Awaitable[Report]] = partial(module.check_bot, cases=cases)
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
