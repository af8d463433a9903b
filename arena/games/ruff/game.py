"""Ruff and Trump as an arena ``Game`` (``arena.games.registry``): table size, matches,
results stats."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.games.ruff.deal import DealSpec
from arena.games.ruff.replay import public_deal
from arena.games.ruff.rules import RuffRules
from arena.games.ruff.state import RuffMatch


@dataclass(frozen=True)
class RuffGame:
    """Ruff and Trump under a set of rules (F1, F2), optionally playing given deals first."""

    rules: RuffRules = field(default_factory=RuffRules)
    deals: tuple[DealSpec, ...] = ()
    name: str = "ruff"

    @property
    def table_size(self) -> int:
        return self.rules.seats

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.name, **self.rules.describe()}
        if self.deals:
            out["deals_file"] = {"deals": len(self.deals), "first": self.deals[0].source}
        return out

    def new_match(
        self, *, match_id: str, seed: str, names: Sequence[str], rotation: int = 0
    ) -> RuffMatch:
        """A match keyed by ``seed``; ``rotation`` turns its hands (``DuplicateGame``)."""
        return RuffMatch(
            self.rules, match_id=match_id, seed=seed, names=names, deals=self.deals,
            rotation=rotation,
        )  # fmt: skip

    def deal_summary(self, record: dict[str, Any]) -> dict[str, Any]:
        return public_deal(record)

    def match_stats(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Per-seat statistics for ``matches.jsonl`` (docs/results.md; each seat gets its
        side's figures, but ``rubs`` its own): deals, ruffs won, ruff and card points."""
        rules = self.rules
        sides = len(rules.teams)
        ruffs, ruff_points, card_points = [0] * sides, [0] * sides, [0] * sides
        rubs = [0] * rules.seats
        for rec in records:
            side = rules.side_of(rec["ruff_winner"])
            ruffs[side] += 1
            for s in range(sides):
                ruff_points[s] += rec["ruff_points"][s]
                card_points[s] += rec["card_points"][s]
            if rec["rubber"] is not None:
                rubs[rec["rubber"]] += 1
        of = [rules.side_of(s) for s in range(rules.seats)]
        return {
            "deals": len(records),
            "ruffs_won": [ruffs[of[s]] for s in range(rules.seats)],
            "ruff_points": [ruff_points[of[s]] for s in range(rules.seats)],
            "card_points": [card_points[of[s]] for s in range(rules.seats)],
            "rubs": rubs,
        }
