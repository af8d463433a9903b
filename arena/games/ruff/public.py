"""What anyone may see of a finished Ruff and Trump deal (``GameEntry.public_record``;
ruling F11): the deal's replay record with every card that no other seat saw hidden.

Public (F11): the dealer and eldest, the turned-up trump, every announcement, the ruff's
winner, who rubbed, the shown ruff (F6, its dealt cards even when since discarded), every
card played and each trick's winner, the points and scores. Hidden: the head's unseen
cards (only the turned card stays), the rubber's discards (in ``discards`` and in its
``discard`` action), which of the rubber's dealt cards it kept (every card it played may
have come from the head, so its dealt hand shows only the shown ruff's cards), every
seat's true ruff (``ruffs``: only the announcements were heard), a deal's cards when the
set ended at the ruff (F9), and the fault details that name a seat's cards or true ruff.
The shape: docs/ladder.md, "What is public".
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from arena.core.public import HIDDEN, hide, played_by, public_faults


def public_action(action: str) -> str:
    """An action as the other seats saw it: a discard without its cards (F5)."""
    return "discard" if action.startswith("discard ") else action


def public_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """A fresh copy of ``record`` (a Ruff and Trump deal's replay record) with the hidden
    cards ``None`` (F5, F6, F11)."""
    rubber = record["rubber"]
    played = played_by(record["tricks"])
    shown = record["shown"]
    hands = []
    for s, hand in enumerate(record["hands"]):
        # The rubber's plays may be head cards: they show nothing of its dealt hand (F5).
        seen = set() if s == rubber else set(played.get(s, ()))
        if shown is not None and shown["seat"] == s:
            seen.update(shown["cards"])  # F6: every seat saw these dealt cards
        hands.append(hide(hand, seen))
    out = copy.deepcopy(dict(record))
    out["hands"] = hands
    out["head"] = hide(record["head"], {record["turned"]})  # F2: only the turned card
    if record["discards"] is not None:
        out["discards"] = [HIDDEN] * len(record["discards"])
    out["actions"] = [[seat, public_action(action)] for seat, action in record["actions"]]
    out["ruffs"] = [HIDDEN] * len(record["ruffs"])  # F3's true ruff: never told (F11)
    out["faults"] = public_faults(record.get("faults", []), public_action)
    out["public"] = True
    return out
