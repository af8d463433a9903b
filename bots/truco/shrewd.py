"""shrewd: Truco by estimated chances. It deals the cards it has not seen out at random
(keeping every declaration as made) to estimate how often its team wins the tricks and
the Envido, then calls, raises, accepts or refuses where that pays in expected points,
bluffs a Truco now and then, and plays the card whose rollouts win most often."""

from __future__ import annotations

import random
from collections.abc import Sequence

from arena.bot import BaseBot
from arena.games.truco.actions import NO_QUIERO, QUIERO, SON_BUENAS, Action, Call, Declare, Play
from arena.games.truco.calls import EnvidoCall, TrucoCall, envido_refused, falta_value
from arena.games.truco.view import TrucoView
from bots.truco.reading import deals, envido_chance, envido_worth, trick_chance, truco_level

SAMPLES = 30
ENVIDO_AT = 0.66  # calls the Envido when its team has the best envido this often
REAL_ENVIDO_AT = 0.85
TRUCO_AT = 0.72  # calls the Truco when its team wins the tricks this often
RAISE_AT = 0.8  # answers a call by raising it when its team wins this often


class Bot(BaseBot):
    name = "shrewd"
    version = "1.0"
    games = ("truco",)

    def __init__(self, seed: int | str = 0, bluff: float = 0.1) -> None:
        self.seed = seed
        self.bluff = bluff

    def act(self, view: TrucoView, legal: Sequence[Action]) -> Action | int:
        play = view.current
        # Its choices are a function of the seed and the position, never of play order.
        rng = random.Random(
            f"{self.seed}:{view.match_id}:{view.hand_no}:{view.seat}:{len(play.log)}"
        )
        calls = [a for a in legal if isinstance(a, Call)]
        envido_calls = [a for a in calls if isinstance(a.call, EnvidoCall)]
        truco_calls = [a for a in calls if isinstance(a.call, TrucoCall)]
        if view.asked == "declare":
            return next((a for a in legal if isinstance(a, Declare)), SON_BUENAS)
        if view.asked == "answer-envido":
            p = envido_chance(view, rng, SAMPLES, strong=_caller(view, envido=True))
            return self._answer(
                p,
                envido_worth(view, play.envido_calls),
                _envido_refused(view),
                envido_calls,
                raise_at=RAISE_AT,
            )
        if envido_calls:  # before its first card, or instead of answering a first Truco
            p = envido_chance(view, rng, SAMPLES)
            if p > REAL_ENVIDO_AT and len(envido_calls) > 1:
                return envido_calls[1]  # Real Envido
            if p > ENVIDO_AT:
                return envido_calls[0]
        # The same deals for every estimate of this decision; an opponent who has called
        # the Truco is read as holding a good card.
        samples = deals(view, rng, SAMPLES, strong=_caller(view, envido=False))
        if view.asked == "answer-truco":
            p = trick_chance(view, samples)
            assert play.truco_call is not None
            level = truco_level(play.truco_call)
            return self._answer(p, level + 1, level, truco_calls, raise_at=RAISE_AT)
        cards = [a for a in legal if isinstance(a, Play)]
        if truco_calls:
            p = trick_chance(view, samples)
            if p > TRUCO_AT or (rng.random() < self.bluff and play.tricks and p > 0.3):
                return truco_calls[0]
        if len(cards) == 1:
            return cards[0]
        chances = [trick_chance(view, samples, first=a.card) for a in cards]
        best = max(chances)
        return next(a for a, c in zip(cards, chances, strict=True) if c == best)  # cheapest

    @staticmethod
    def _answer(
        p: float, accepted: int, refused: int, raises: list[Call], raise_at: float
    ) -> Action:
        """Accept when the expected points beat refusing; raise when clearly ahead."""
        if p > raise_at and raises and raises[0].call is not EnvidoCall.FALTA_ENVIDO:
            return raises[0]
        return QUIERO if (2 * p - 1) * accepted > -refused else NO_QUIERO


def _caller(view: TrucoView, *, envido: bool) -> int | None:
    """The last seat of the other team to call the Envido (or the Truco) in this play."""
    for seat, action in reversed(view.current.log):
        if isinstance(action, Call) and action.is_envido == envido and seat % 2 != view.team:
            return seat
    return None


def _envido_refused(view: TrucoView) -> int:
    seq = [EnvidoCall(c) for c in view.current.envido_calls]
    return envido_refused(seq, falta_value(view.target, view.scores))


if __name__ == "__main__":
    from arena.sdk import main

    main(Bot)
