"""Bots for tests/test_check.py, run as processes: ``python -m arena.sdk checkbots:Broken``."""

from __future__ import annotations

from collections.abc import Sequence

from arena.bot import BaseBot
from arena.games.truf.actions import PLAYS, Action, Play
from arena.games.truf.view import SeatView


class Broken(BaseBot):
    """Plays the first legal action, except: it leads trump before trump is broken
    (against C10) and answers the mode choice with a card (the wrong kind, C5)."""

    name = "broken"
    version = "0.1"

    def act(self, view: SeatView, legal: Sequence[Action]) -> Action | int:
        if view.phase == "mode":
            return PLAYS[view.hand[0]]
        trumps = [c for c in view.hand if view.trump is not None and c.suit == view.trump]
        leading = view.phase == "play" and not view.trick
        if leading and trumps and not view.trump_broken and len(trumps) < len(view.hand):
            return Play(trumps[0])
        return 0


class Crashes(BaseBot):
    """Plays the first legal action, except that act() raises at the mode choice and when
    it leads: a bot whose own code fails on two checks (issue 25)."""

    name = "crashes"
    version = "0.1"

    def act(self, view: SeatView, legal: Sequence[Action]) -> Action | int:
        if view.phase == "mode" or (view.phase == "play" and not view.trick and view.tricks):
            raise RuntimeError("the author's bug")
        return 0
