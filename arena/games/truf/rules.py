"""The rules of one Truf match: the variant and its options (frozen, keyword-only).

Rule variants are parameters, not forks (as in OpenSpiel). Everything a house may
choose differently is a field here, with the rulings' choice as the default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Variant(StrEnum):
    CLASSIC = "classic"  # seeds 000/001, rulings C1..C14
    TARGET = "target"  # seed 002, rulings T1..T7


class ScoringMethod(StrEnum):
    """Classic scoring, ruling C13."""

    ONE = "1"
    TWO = "2"
    THREE = "3"
    TWO_THREE = "2+3"

    @property
    def zero_bonus(self) -> bool:
        return self in (ScoringMethod.TWO, ScoringMethod.TWO_THREE)

    @property
    def multiplies(self) -> bool:
        return self in (ScoringMethod.THREE, ScoringMethod.TWO_THREE)


class RulesError(ValueError):
    """Options that do not make a valid set of rules."""


DEFAULT_DEALS = {Variant.CLASSIC: 13, Variant.TARGET: 6}  # rulings C1, T1


@dataclass(frozen=True, kw_only=True)
class TrufRules:
    variant: Variant = Variant.CLASSIC
    scoring: ScoringMethod = ScoringMethod.ONE  # ruling C13: method 1 is the default
    multiplier: int = 2  # ruling C13, method 3
    deals: int = 0  # deals per match; 0 means the variant's default (C1: 13, T1: 6)
    zero_bonus: int = 5  # ruling C13, method 2
    seats: int = field(default=4, init=False)  # ruling C1: Truf is a four-seat game

    def __post_init__(self) -> None:
        object.__setattr__(self, "variant", Variant(self.variant))
        object.__setattr__(self, "scoring", ScoringMethod(self.scoring))
        if self.deals == 0:
            object.__setattr__(self, "deals", DEFAULT_DEALS[self.variant])
        if self.deals < 1:
            raise RulesError(f"deals per match must be at least 1, got {self.deals}")
        if self.multiplier < 1:
            raise RulesError(f"the scoring multiplier must be at least 1, got {self.multiplier}")

    @property
    def is_target(self) -> bool:
        return self.variant is Variant.TARGET

    def describe(self) -> dict[str, object]:
        """The rules as they are written into results files."""
        out: dict[str, object] = {"variant": self.variant.value, "deals": self.deals}
        if not self.is_target:
            out["scoring"] = {"method": self.scoring.value, "multiplier": self.multiplier}
        return out


def rules_text(described: Mapping[str, Any]) -> list[str]:
    """The rules of a results file's ``describe()`` as a reader says them: the report's
    subtitle ("classic variant", "13 deals a match", "scoring method 2")."""
    out = [f"{described.get('variant', 'classic')} variant"]
    if described.get("deals"):
        out.append(f"{described['deals']} deals a match")
    scoring = described.get("scoring")
    if isinstance(scoring, Mapping):
        method = scoring.get("method")
        multiplied = method in (ScoringMethod.THREE.value, ScoringMethod.TWO_THREE.value)
        times = f" × {scoring.get('multiplier')}" if multiplied else ""
        out.append(f"scoring method {method}{times} (C13)")
    return out
