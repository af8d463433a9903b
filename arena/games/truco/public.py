"""What anyone may see of a finished Truco hand (``GameEntry.public_record``; ruling R14):
the hand's replay record with every card that no other seat saw hidden.

Public (R14): the cards played and each trick's winner, every call and answer, each
declared envido and *son buenas*, who folded, the cards the envido's winner showed (R9),
the dealer, mano, stakes and scores. Hidden: each seat's cards it never played nor
showed (a hand ended by *al mazo* or a refused call, a *son buenas* seat's envido cards),
and the fault details that name them. The shape: docs/ladder.md, "What is public".
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from arena.core.public import hide, played_by, public_faults


def public_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """A fresh copy of ``record`` (a Truco hand's replay record) with the hidden cards
    ``None``: each seat's hand keeps the cards it played or showed (R9, R14)."""
    seen: dict[int, set[str]] = {}
    for play in record["plays"]:  # the table's play, or each duel's (R13)
        for seat, cards in played_by(play["tricks"]).items():
            seen.setdefault(seat, set()).update(cards)
        for seat, action in play["actions"]:  # a card played into a trick cut short
            if action.startswith("play "):
                seen.setdefault(int(seat), set()).add(action[5:])
        envido = play.get("envido")
        if envido and envido.get("shown"):
            seat, cards = envido["shown"]  # the envido's winner shows its cards (R9)
            seen.setdefault(int(seat), set()).update(cards)
    out = copy.deepcopy(dict(record))
    out["hands"] = [hide(hand, seen.get(s, set())) for s, hand in enumerate(record["hands"])]
    out["faults"] = public_faults(record.get("faults", []))
    out["public"] = True
    return out
