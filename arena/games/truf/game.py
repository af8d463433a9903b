"""Truf as an arena ``Game`` (``arena.core.game``): table size, matches, results stats."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.games.truf.replay import public_deal
from arena.games.truf.rules import TrufRules
from arena.games.truf.state import DealSpec, TrufMatch


@dataclass(frozen=True)
class TrufGame:
    """Truf under a set of rules, optionally playing given deals (a deal file)."""

    rules: TrufRules = field(default_factory=TrufRules)
    deals: tuple[DealSpec, ...] = ()
    name: str = "truf"

    @property
    def table_size(self) -> int:
        return self.rules.seats

    def new_match(
        self, *, match_id: str, seed: str, names: Sequence[str], rotation: int = 0
    ) -> TrufMatch:
        """A match keyed by ``seed``; ``rotation`` turns its hands (``DuplicateGame``)."""
        return TrufMatch(
            self.rules,
            match_id=match_id,
            seed=seed,
            names=names,
            deals=self.deals,
            rotation=rotation,
        )

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.name, **self.rules.describe()}
        if self.deals:
            out["deals_file"] = {"deals": len(self.deals), "first": self.deals[0].source}
        return out

    def deal_summary(self, record: dict[str, Any]) -> dict[str, Any]:
        return public_deal(record)

    def match_stats(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Per-seat statistics for ``matches.jsonl``: deals played and exact bids."""
        seats = self.rules.seats
        exact = [0] * seats
        for rec in records:
            for s in range(seats):
                if rec["tricks_won"][s] == rec["final_bids"][s]:
                    exact[s] += 1
        return {"deals": len(records), "exact": exact}
