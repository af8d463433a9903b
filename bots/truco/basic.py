"""basic: Truco by fixed thresholds on its own cards and the tricks its team has won.

Envido: calls with 27 or more, raises to Real Envido with 30, accepts with 25 (a Falta
Envido with 29). Truco: calls with two cards of a 3 or better (or one, once its team has
won a trick), raises with two such cards, accepts with a 1 of coins/cups or better or a
trick won. Never bluffs, never goes al mazo; plays the cheapest card that beats the other
team, else its cheapest.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.bot import BaseBot
from arena.games.truco.actions import NO_QUIERO, QUIERO, SON_BUENAS, Action, Call, Declare, Play
from arena.games.truco.calls import EnvidoCall, TrucoCall
from arena.games.truco.envido import EnvidoCount, envido_score
from arena.games.truco.view import TrucoView
from bots.truco.reading import greedy_card


class Bot(BaseBot):
    name = "basic"
    version = "1.1"
    games = ("truco",)

    def act(self, view: TrucoView, legal: Sequence[Action]) -> Action | int:
        play = view.current
        envido = envido_score(view.dealt, EnvidoCount(view.envido_count))
        good = sum(c.strength >= 10 for c in view.cards)  # a 3 or a trump
        fair = sum(c.strength >= 8 for c in view.cards)  # a 1 of coins/cups or better
        won = sum(t.winner is not None and t.winner % 2 == view.team for t in play.tricks)
        calls = [a for a in legal if isinstance(a, Call)]
        truco = [a for a in calls if isinstance(a.call, TrucoCall)]
        if view.asked == "declare":
            return next((a for a in legal if isinstance(a, Declare)), SON_BUENAS)
        if view.asked == "answer-envido":
            if Call(EnvidoCall.REAL_ENVIDO) in legal and envido >= 30:
                return Call(EnvidoCall.REAL_ENVIDO)
            falta = EnvidoCall.FALTA_ENVIDO.value in play.envido_calls
            return QUIERO if envido >= (29 if falta else 25) else NO_QUIERO
        if envido >= 27 and Call(EnvidoCall.ENVIDO) in legal:
            return Call(EnvidoCall.ENVIDO)  # also instead of answering a first Truco
        if view.asked == "answer-truco":
            if truco and good >= 2:
                return truco[0]
            return QUIERO if fair >= 1 or won else NO_QUIERO
        if truco and (good >= 2 or (won and good >= 1)):
            return truco[0]
        return Play(greedy_card(view.seat, view.cards, play.trick))


if __name__ == "__main__":
    from arena.sdk import main

    main(Bot)
