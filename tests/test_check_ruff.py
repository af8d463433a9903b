"""``arena check --game ruff``'s cases, in-process: each brings its deal to the edge case
it names (F4, F5, F7, F9), and a bundled bot passes them all while a bot that answers
illegally is reported with the request. (Over gRPC, the same cases run once the referee
plays Ruff: tests/test_check_truco.py shows the path for Truco.)"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest

from arena.core.cards import CARDS, Rank
from arena.games.ruff.actions import Play
from arena.games.ruff.check import CASES, find_cases
from arena.games.ruff.check import check_bot as check_ruff_bot
from arena.games.ruff.state import Phase
from arena.referee.table import BotFault
from bots.ruff.sharp import Bot as Sharp


class InProcess:
    """An entrant of the checker that asks a Python bot directly."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.last_request: dict[tuple[str, int], int] = {}
        self.faults: list[BotFault] = []
        self.deals = 0
        self.results = 0

    async def decide(self, *, ctx: Any, seat: int, view: Any, legal: Sequence[Any]) -> Any:
        self.last_request[(ctx.match_id, seat)] = len(self.last_request) + 1
        return self.bot.act(view, legal)

    def rejected(self, *, ctx: Any, seat: int, fault: BotFault, strikes: int) -> None:
        self.faults.append(fault)

    async def notify_deal(self, *, ctx: Any, seat: int, record: Any) -> None:
        self.deals += 1

    async def notify_match(self, *, ctx: Any, seat: int, result: Any) -> None:
        self.results += 1


def case(name: str) -> Any:
    return next(c for c in CASES if c.name.startswith(name))


def test_each_case_reaches_the_moment_it_names() -> None:
    zeros = case("announcing after three").start("c1")
    assert zeros.phase is Phase.ANNOUNCE and [n for _, n in zeros.announcements] == [0, 0, 0]
    tie = case("announcing after an announcement equal").start("c2")
    assert tie.announcements[0][1] == tie.ruffs[3]  # ruling F4: the bot cannot win it
    turned = case("the dealer rubs: the turned").start("c3")
    assert turned.turned.rank == Rank.ACE and turned.rubber_seat == turned.dealer == 2
    unseen = case("the dealer rubs: the trump ace lies").start("c4")
    assert unseen.rubber_seat == unseen.dealer and all(
        not any(c.rank == Rank.ACE and c.suit == unseen.trump for c in h) for h in unseen.dealt
    )  # ruling F5: nobody holds it
    void = case("a void in the led suit").start("c5")
    led = void.trick[0][1].suit
    assert not any(c.suit == led for c in void.hand(1)) and len(void.legal_actions(1)) == 12
    ending = case("announcing when").start("c6")
    assert min(ending.scores) + 12 >= ending.rules.set_points  # whoever wins it ends the set


def test_a_bundled_bot_passes_every_ruff_check() -> None:
    entrant = InProcess(Sharp())
    report = asyncio.run(check_ruff_bot(entrant, find_cases()))
    assert not report.failed, report.failed
    assert len(report.findings) == len(CASES) + 1 and entrant.results == 1
    assert entrant.deals == len(CASES) + 1  # every case is played to the end of its deal


class PlaysAForeignCard:
    def act(self, view: Any, legal: Sequence[Any]) -> Any:
        first = legal[0]
        if isinstance(first, Play):
            return Play(next(c for c in CARDS if c not in view.hand))
        return first


@pytest.mark.parametrize("name", ["a void in the led suit"])
def test_an_illegal_answer_is_reported_with_the_request(name: str) -> None:
    entrant = InProcess(PlaysAForeignCard())
    report = asyncio.run(check_ruff_bot(entrant, [case(name)]))
    (bad, *_) = report.failed
    assert bad.case.startswith(name) and "an illegal answer" in bad.text
    assert "asked to play" in bad.request and "open trick [seat 0: 2S" in bad.request
