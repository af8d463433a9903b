"""The replay record of a finished Truco hand (``"game": "truco"``; the format:
``docs/results.md``). The match (``state``) builds it as each hand ends; ``replay``
reads records back and plays them through the engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from arena.core.records import envelope
from arena.games.truco.bout import Bout
from arena.games.truco.cards import codes

if TYPE_CHECKING:
    from arena.games.truco.state import TrucoMatch

SCHEMA = 1


def bout_record(b: Bout) -> dict[str, Any]:
    """One play of tricks (the table's, or one duel's)."""
    envido: dict[str, Any] | None = None
    if b.envido_calls:
        envido = {
            "calls": [c.value for c in b.envido_calls],
            "result": b.envido_state,  # "refused" or "settled"
            "declarations": [[s, p] for s, p in b.declarations],
            "team": None if b.envido_points is None else b.envido_points[0],
            "points": None if b.envido_points is None else b.envido_points[1],
            "shown": None if b.shown is None else [b.shown[0], codes(list(b.shown[1]))],
        }
    return {
        "seats": list(b.order),
        "mano": b.mano,
        "actions": [[s, str(a)] for s, a in b.log],
        "tricks": [
            {"leader": t.leader, "cards": [[s, c.code] for s, c in t.cards], "winner": t.winner}
            for t in b.tricks
        ],
        "ended": b.ended,
        "trick_winner": b.trick_winner,
        "stake": b.level + 1,
        "truco": None if b.truco_points is None else list(b.truco_points),
        "envido": envido,
        "folded": sorted(b.folded),
        "points": list(b.points()),
    }


def hand_record(match: TrucoMatch, points: Sequence[int]) -> dict[str, Any]:
    """The replay record of the hand ``match`` has just finished."""
    return {
        **envelope("truco", SCHEMA, match.match_id, match.hand_no, match.names),
        "target": match.rules.points,
        "envido_count": match.rules.envido_count.value,
        "teams": [list(t) for t in match.teams],
        "dealer": match.dealer,
        "mano": match.mano,
        "kind": match.kind,
        "source": match.source,
        "hands": [codes(list(h)) for h in match.dealt],
        "scores_before": list(match.scores_before),
        "plays": [bout_record(b) for b in match.bouts],
        "points": list(points),
        "scores": list(match.scores),
        "totals": list(match.totals),
        "faults": [],
    }
