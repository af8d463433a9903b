"""Truco as an arena ``Game`` (``arena.games.registry``): table size, matches, results stats."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.games.truco.replay import public_hand
from arena.games.truco.rules import TrucoRules
from arena.games.truco.state import HandSpec, TrucoMatch


@dataclass(frozen=True)
class TrucoGame:
    """Truco under a set of rules (R2: 2, 4 or 6 seats; R11: to 30 or 15)."""

    rules: TrucoRules = field(default_factory=TrucoRules)
    hands: tuple[HandSpec, ...] = ()
    name: str = "truco"

    @property
    def table_size(self) -> int:
        return self.rules.seats

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.name, **self.rules.describe()}
        if self.hands:
            out["deals_file"] = {"deals": len(self.hands), "first": self.hands[0].source}
        return out

    def new_match(
        self, *, match_id: str, seed: str, names: Sequence[str], rotation: int = 0
    ) -> TrucoMatch:
        """A match keyed by ``seed``; ``rotation`` turns its hands (``DuplicateGame``)."""
        return TrucoMatch(
            self.rules, match_id=match_id, seed=seed, names=names, hands=self.hands,
            rotation=rotation,
        )  # fmt: skip

    def deal_summary(self, record: dict[str, Any]) -> dict[str, Any]:
        return public_hand(record)

    def match_stats(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Per-seat statistics for ``matches.jsonl`` (each seat gets its team's figures):
        hands played (``deals``), the points the other team scored (``points_against``:
        its own are ``totals``), the points its team took by Envido and by Truco, the
        Envido bets its team won, and the Truco calls its team made that were refused."""
        envido = [0, 0]
        truco = [0, 0]
        envidos_won = [0, 0]
        refused = [0, 0]
        for rec in records:
            for play in rec["plays"]:
                bet = play["envido"]
                if bet is not None and bet["team"] is not None:
                    envido[bet["team"]] += bet["points"]
                    envidos_won[bet["team"]] += 1
                if play["truco"] is not None:
                    truco[play["truco"][0]] += play["truco"][1]
                    if play["ended"] == "no-quiero":
                        refused[play["truco"][0]] += 1
        seats = range(self.rules.seats)
        final = records[-1]["scores"] if records else [0, 0]
        return {
            "deals": len(records),
            "points_against": [final[1 - s % 2] for s in seats],
            "envido_points": [envido[s % 2] for s in seats],
            "truco_points": [truco[s % 2] for s in seats],
            "envidos_won": [envidos_won[s % 2] for s in seats],
            "truco_refused": [refused[s % 2] for s in seats],
        }
