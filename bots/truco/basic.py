"""basic: Truco by fixed thresholds on its own cards. It calls Envido with 28 or more and
accepts with 25 or more (a Falta Envido with 29); calls Truco with two cards of a 3 or
better and accepts with one card of a 1 of coins/cups or better; never raises, never
bluffs, never goes al mazo; plays the cheapest card that beats the other team, else its
cheapest."""

from __future__ import annotations

from collections.abc import Sequence

from arena.bot import BaseBot
from arena.truco.actions import NO_QUIERO, QUIERO, SON_BUENAS, Action, Call, Declare, Play
from arena.truco.calls import EnvidoCall, TrucoCall
from arena.truco.envido import EnvidoCount, envido_score
from arena.truco.view import TrucoView
from bots.truco.reading import greedy_card


class Bot(BaseBot):
    name = "basic"
    version = "1.0"

    def act(self, view: TrucoView, legal: Sequence[Action]) -> Action | int:  # type: ignore[override]
        envido = envido_score(view.dealt, EnvidoCount(view.envido_count))
        good = sum(c.strength >= 10 for c in view.cards)  # a 3 or a trump
        fair = sum(c.strength >= 8 for c in view.cards)  # a 1 of coins/cups or better
        if view.asked == "declare":
            return next((a for a in legal if isinstance(a, Declare)), SON_BUENAS)
        if view.asked == "answer-envido":
            falta = EnvidoCall.FALTA_ENVIDO.value in view.current.envido_calls
            return QUIERO if envido >= (29 if falta else 25) else NO_QUIERO
        if view.asked == "answer-truco":
            return QUIERO if fair >= 1 else NO_QUIERO
        if envido >= 28 and Call(EnvidoCall.ENVIDO) in legal:
            return Call(EnvidoCall.ENVIDO)
        truco = [a for a in legal if isinstance(a, Call) and isinstance(a.call, TrucoCall)]
        if truco and good >= 2:
            return truco[0]
        return Play(greedy_card(view.seat, view.cards, view.current.trick))
