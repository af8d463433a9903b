"""The replay record of a finished Ruff and Trump deal (``"game": "ruff"``; the format:
``docs/results.md``). The match (``state``) builds it as each deal ends; ``replay``
reads records back and plays them through the engine."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.core.cards import SUIT_LETTERS, codes
from arena.core.records import envelope

if TYPE_CHECKING:
    from arena.games.ruff.state import RuffMatch

SCHEMA = 1


def deal_record(m: RuffMatch) -> dict[str, Any]:
    """The replay record of the deal ``m`` has just finished."""
    shown = m.shown
    return {
        **envelope("ruff", SCHEMA, m.match_id, m.deal_no, m.names),
        "form": m.rules.form.value,
        "alt_deals": m.rules.alt_deals,
        "set": m.rules.set_points,
        "teams": [list(t) for t in m.teams],
        "dealer": m.dealer,
        "eldest": m.eldest,
        "source": m.source,
        "hands": [codes(h) for h in m.dealt],
        "head": codes(m.head),
        "turned": m.turned.code,
        "trump": SUIT_LETTERS[m.trump],
        "ruffs": list(m.ruffs),
        "actions": [[s, str(a)] for s, a in m.actions],
        "announcements": [[s, n] for s, n in m.announcements],
        "ruff_winner": m.ruff_winner,
        "rubber": m.rubber_seat,
        "discards": None if m.discards is None else codes(m.discards),
        "shown": None
        if shown is None
        else {"seat": shown.seat, "suit": SUIT_LETTERS[shown.suit], "cards": codes(shown.cards)},
        "tricks": [
            {"leader": t.leader, "cards": [[s, c.code] for s, c in t.cards], "winner": t.winner}
            for t in m.tricks
        ],
        "ended": m.ended,
        "cards_won": list(m.cards_won),
        "ruff_points": list(m.ruff_points),
        "card_points": list(m.card_points),
        "points": [r + c for r, c in zip(m.ruff_points, m.card_points, strict=True)],
        "scores_before": list(m.scores_before),
        "scores": list(m.scores),
        "totals": list(m.totals),
        "faults": [],
    }
