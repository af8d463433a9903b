"""What one Truco seat may know (ruling R14): the only thing a bot ever sees.

Its own cards; every card played and each trick's winner or tie; every call and answer,
the stake and which team may raise next; every declared envido and *son buenas*; who
folded; dealer and mano; both team scores, the target and the layout; the envido cards
shown at the end of a duel (R9). Never another seat's unplayed cards.
"""

from __future__ import annotations

from typing import NamedTuple

from arena.games.truco.actions import Action
from arena.games.truco.cards import Card


class TrickView(NamedTuple):
    leader: int
    cards: tuple[tuple[int, Card], ...]  # (seat, card) in play order
    winner: int | None  # the seat credited (R4); None for a tie (parda)


class PlayView(NamedTuple):
    """One play of tricks: the whole table's hand, or one duel of a six-seat duel hand."""

    seats: tuple[int, ...]  # its seats in play order from mano
    mano: int
    log: tuple[tuple[int, Action], ...]  # every action in it, in order: (seat, action)
    tricks: tuple[TrickView, ...]  # closed tricks
    trick: tuple[tuple[int, Card], ...]  # the open trick
    stake: int  # the accepted Truco stake (R7)
    truco_call: str | None  # a Truco call awaiting its answer
    raise_team: int | None  # the team that may raise next; None: either (R7)
    envido_calls: tuple[str, ...]
    envido_state: str  # "none", "called", "declaring", "refused", "settled"
    declarations: tuple[tuple[int, int | None], ...]  # (seat, points or None: son buenas)
    folded: tuple[int, ...]
    points: tuple[int, int] | None  # each team's points, once this play is over
    shown: tuple[int, tuple[Card, ...]] | None  # R9: the envido winner's cards, once over


class TrucoView(NamedTuple):
    game: str  # "truco"
    match_id: str
    hand_no: int  # 1-based
    seat: int
    names: tuple[str, ...]
    teams: tuple[tuple[int, ...], ...]  # R2: seats 0, 2, 4 are team 0
    target: int  # R11
    envido_count: str  # R9: "seed" or "traditional" (the rules are public)
    scores: tuple[int, int]  # team scores before this hand
    dealer: int
    kind: str  # "team", or "duels" (R13)
    to_act: tuple[int, ...]
    asked: str  # "play", "answer-truco", "answer-envido", "declare" or "over"
    cards: tuple[Card, ...]  # this seat's unplayed cards, weakest first
    dealt: tuple[Card, ...]  # this seat's three cards as dealt
    plays: tuple[PlayView, ...]  # this hand's plays so far, the current one last

    @property
    def team(self) -> int:
        return self.seat % 2

    @property
    def current(self) -> PlayView:
        return self.plays[-1]
