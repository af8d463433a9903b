"""One play of tricks with its own Truco and Envido: the whole table's hand, or one
1v1 duel of a six-seat duel hand (ruling R13). Public state only: the cards in the
seats' hands are the match's (``arena.games.truco.state``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from arena.games.truco.actions import Action
from arena.games.truco.calls import EnvidoCall
from arena.games.truco.cards import Card
from arena.games.truco.view import TrickView


def team_of(seat: int) -> int:
    """ruling R2: teams alternate round the table; seats 0, 2, 4 are team 0."""
    return seat % 2


@dataclass(frozen=True)
class TrucoPending:
    """A Truco call (or raise) to ``level`` awaiting ``answerer``'s answer (R7)."""

    level: int
    caller: int
    answerer: int


@dataclass
class Bout:
    order: tuple[int, ...]  # its seats in play order from mano
    turn: int
    log: list[tuple[int, Action]] = field(default_factory=list)
    folded: set[int] = field(default_factory=set)
    tricks: list[TrickView] = field(default_factory=list)
    results: list[int | None] = field(default_factory=list)  # each trick's team, None: tie
    trick: list[tuple[int, Card]] = field(default_factory=list)
    level: int = 0  # the accepted Truco level (R7): 0 none, 1 Truco, 2 Retruco, 3 Vale Cuatro
    raise_team: int | None = None  # who may raise next; None: either team (nothing accepted)
    truco_call: TrucoPending | None = None
    envido_calls: list[EnvidoCall] = field(default_factory=list)
    envido_caller: int | None = None  # the last seat to call or raise the Envido
    envido_answerer: int | None = None
    envido_state: str = "none"  # "called", "declaring", "refused", "settled"
    declarer: int | None = None
    declarations: list[tuple[int, int | None]] = field(default_factory=list)
    best: tuple[int, int, int] | None = None  # (points, distance from mano, seat)
    envido_points: tuple[int, int] | None = None  # (team, points)
    truco_points: tuple[int, int] | None = None  # (team, points)
    trick_winner: int | None = None  # the team that won the tricks (R5), if played out
    ended: str | None = None  # "tricks", "no-quiero" or "mazo"
    shown: tuple[int, tuple[Card, ...]] | None = None  # R9: the envido winner's cards

    @property
    def mano(self) -> int:
        return self.order[0]

    @property
    def done(self) -> bool:
        return self.ended is not None

    def distance(self, seat: int) -> int:
        """How far after mano ``seat`` plays (R9's tie-break)."""
        return self.order.index(seat)

    def after(self, seat: int) -> list[int]:
        """The bout's other seats in play order, starting after ``seat``."""
        i = self.order.index(seat)
        return [*self.order[i + 1 :], *self.order[:i]]

    def first_of_team(self, seat: int, team: int) -> int:
        """ruling R6: the first seat of ``team`` that has not folded, counting from
        ``seat`` in play order (who answers a call)."""
        for s in self.after(seat):
            if team_of(s) == team and s not in self.folded:
                return s
        raise AssertionError(f"team {team} has no seat left in play")

    def active(self, team: int) -> list[int]:
        return [s for s in self.order if team_of(s) == team and s not in self.folded]

    def points(self) -> tuple[int, int]:
        out = [0, 0]
        for scored in (self.truco_points, self.envido_points):
            if scored is not None:
                out[scored[0]] += scored[1]
        return (out[0], out[1])
