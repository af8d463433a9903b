"""What anyone may see of a finished Truf deal (``GameEntry.public_record``; the rulings'
"What every seat may know"): the deal's replay record with what no other seat saw hidden.

Every one of a seat's 13 cards is played face up or turned up when its trick closes
(C1, C11), and the bids or declarations are revealed (C3, T2), so once a deal is over its
hands are public: they are kept, each card only if the tricks show that seat playing it
(all of them, in a finished deal). Hidden: ``redeals``, the deals thrown in before this
one (C2: never shown to bots), and the fault details that name a seat's cards. The
shape: docs/ladder.md, "What is public".
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from arena.core.public import HIDDEN, hide, played_by, public_faults


def public_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """A fresh copy of ``record`` (a Truf deal's replay record) holding only what every
    seat saw by the deal's end."""
    played = played_by(record["tricks"])
    out = copy.deepcopy(dict(record))
    out["hands"] = [hide(hand, played.get(s, set())) for s, hand in enumerate(record["hands"])]
    out["redeals"] = HIDDEN  # C2: bots never see a thrown-in deal
    out["faults"] = public_faults(record.get("faults", []))
    out["public"] = True
    return out
