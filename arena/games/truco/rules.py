"""The rules of one Truco match: frozen, keyword-only options (house choices included)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arena.games.truco.envido import EnvidoCount

SEAT_COUNTS = (2, 4, 6)  # ruling R2
TARGETS = (30, 15)  # ruling R11


class TrucoRulesError(ValueError):
    """Options that do not make a valid set of Truco rules."""


@dataclass(frozen=True, kw_only=True)
class TrucoRules:
    seats: int = 4  # ruling R2: 2, 4 or 6
    points: int = 30  # ruling R11: the target, 30 or 15
    envido_count: EnvidoCount = EnvidoCount.SEED  # ruling R9: the seed's count by default
    tied_hands: int = 10  # ruling R11: hands in a row tied at or above the target, then shared

    def __post_init__(self) -> None:
        if self.seats not in SEAT_COUNTS:
            raise TrucoRulesError(f"Truco is played by 2, 4 or 6 seats, not {self.seats} (R2)")
        if self.points not in TARGETS:
            raise TrucoRulesError(f"a Truco game is to 30 or 15 points, not {self.points} (R11)")
        object.__setattr__(self, "envido_count", EnvidoCount(self.envido_count))
        if self.tied_hands < 1:
            raise TrucoRulesError(f"tied_hands must be at least 1, got {self.tied_hands}")

    def describe(self) -> dict[str, object]:
        """The rules as they are written into results files."""
        return {
            "seats": self.seats,
            "points": self.points,
            "envido_count": self.envido_count.value,
            "tied_hands": self.tied_hands,  # R11's house limit, so an audit can apply it
        }


def rules_text(described: Mapping[str, Any]) -> list[str]:
    """The rules of a results file's ``describe()`` as a reader says them: the report's
    subtitle ("4 seats", "to 30 points", "envido: the seed's count")."""
    count = {
        EnvidoCount.SEED.value: "envido: the seed's count (R9)",
        EnvidoCount.TRADITIONAL.value: "envido: the traditional count (R9)",
    }
    out = [f"{described.get('seats', 4)} seats", f"to {described.get('points', 30)} points"]
    if "envido_count" in described:
        envido = described["envido_count"]
        out.append(count.get(str(envido), f"envido count {envido}"))
    if "tied_hands" in described:
        out.append(f"shared after {described['tied_hands']} tied hands at the target (R11)")
    return out
