"""The referee's table loop, transport-free: seats are test doubles of ``SeatLink``.

What each kind of bad answer becomes (a fault with the right kind, the fallback played,
the bot told why), and that good seats are never touched by a bad one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from arena.games.registry import TrufGame
from arena.games.truf.actions import MODES, Mode
from arena.games.truf.rules import TrufRules
from arena.play.tournament import MatchContext
from arena.referee.table import BotFault, play_remote_match


class Link:
    """Answers the first legal action, except where ``bad`` says otherwise."""

    def __init__(self, name: str, bad: Any = None) -> None:
        self.name = name
        self.bad = bad
        self.rejections: list[BotFault] = []
        self.deals = 0
        self.matches = 0

    async def decide(self, *, ctx: MatchContext, seat: int, view: Any, legal: Sequence[Any]) -> Any:
        if self.bad is not None:
            return self.bad(view, legal)
        return 0

    async def notify_deal(self, *, ctx: MatchContext, seat: int, record: dict[str, Any]) -> None:
        self.deals += 1

    async def notify_match(self, *, ctx: MatchContext, seat: int, result: dict[str, Any]) -> None:
        self.matches += 1

    def rejected(self, *, ctx: MatchContext, seat: int, fault: BotFault, strikes: int) -> None:
        self.rejections.append(fault)


def play(links: list[Link], strikes: int = 3) -> Any:
    game = TrufGame(TrufRules(deals=1))
    ctx = MatchContext("t-m1", seed="7")
    return asyncio.run(play_remote_match(game, links, ctx=ctx, strike_limit=strikes))


def first_legal_plays(deal: dict[str, Any], seat: int) -> None:
    """The seat's bid was its lowest card (the fallback) whatever it answered."""
    hand = deal["hands"][seat]
    assert deal["bids"][seat] == hand[0]


def test_an_action_of_the_wrong_kind_is_an_illegal_fault_told_as_wrong_kind() -> None:
    # C3: the bid phase takes a bid card; a mode choice is the wrong kind of action.
    bad = Link("modebot", bad=lambda view, legal: MODES[Mode.ATAS])
    links = [Link("a"), bad, Link("b"), Link("c")]
    out = play(links, strikes=100)
    (deal,) = out.deals
    first = deal["faults"][0]
    assert (first["seat"], first["kind"]) == (1, "illegal")
    assert "C3" in first["detail"]
    assert bad.rejections[0].wrong_kind
    first_legal_plays(deal, 1)
    assert all(not link.rejections for link in links if link is not bad)


def test_an_action_outside_the_legal_list_is_illegal_but_not_wrong_kind() -> None:
    # A card the seat does not hold: the right kind (a play or a bid) but not legal.
    def not_held(view: Any, legal: Sequence[Any]) -> Any:
        held = set(view.hand)
        card = next(c for c in range(52) if c not in held)
        return type(legal[0])(card)

    bad = Link("thief", bad=not_held)
    out = play([Link("a"), Link("b"), bad, Link("c")], strikes=100)
    (deal,) = out.deals
    assert deal["faults"] and all(f["kind"] == "illegal" for f in deal["faults"])
    assert all(f["seat"] == 2 for f in deal["faults"])
    assert not any(fault.wrong_kind for fault in bad.rejections)
    assert len(deal["tricks"]) == 13


def test_an_index_outside_the_list_is_illegal_and_k_strikes_disqualify() -> None:
    bad = Link("overflow", bad=lambda view, legal: len(legal))
    out = play([bad, Link("a"), Link("b"), Link("c")], strikes=3)
    (deal,) = out.deals
    assert [f["strikes"] for f in deal["faults"]] == [1, 2, 3]
    assert "outside the" in deal["faults"][0]["detail"]
    assert out.record["disqualified"] == [True, False, False, False]
    assert len(bad.rejections) == 3  # disqualified: never asked again


def test_every_seat_hears_every_deal_and_match_result() -> None:
    links = [Link(n) for n in "abcd"]
    out = play(links)
    assert [link.deals for link in links] == [len(out.deals)] * 4
    assert [link.matches for link in links] == [1] * 4
    assert not any(d["faults"] for d in out.deals)
