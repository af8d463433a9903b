"""The rules of one Ruff and Trump match: frozen, keyword-only options (F1, F2, F9)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from arena.core.cards import NUM_CARDS


class Form(StrEnum):
    DOUBLE = "double"  # ruling F1: partners opposite, seats 0+2 against 1+3
    SINGLE = "single"  # every seat for itself


SEAT_COUNTS = (4, 3, 2)  # ruling F1 (single only; double is 4)
HAND = 12  # ruling F2: the seed's main deal
ALT_HAND = {4: 12, 3: 16, 2: 24}  # ruling F2: the seed's alternative deals (a 4-card head)
SET_POINTS = {4: 52, 3: 40, 2: 36}  # ruling F9, the 12-card deals
ALT_SET_POINTS = 52  # ruling F9, the alternative deals
RUFF_POINTS = 12  # ruling F4
RUB_CARDS = 4  # ruling F5


class RuffRulesError(ValueError):
    """Options that do not make a valid set of Ruff and Trump rules."""


@dataclass(frozen=True, kw_only=True)
class RuffRules:
    form: Form = Form.DOUBLE  # ruling F1
    seats: int = 4  # ruling F1: 4 in double; 4, 3 or 2 in single
    alt_deals: bool = False  # ruling F2: 16 cards each at 3 seats, 24 at 2 (nothing at 4)

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "form", Form(self.form))
        except ValueError:
            raise RuffRulesError(
                f"Ruff and Trump is played double or single, not {self.form!r} (F1)"
            ) from None
        if self.seats not in SEAT_COUNTS:
            raise RuffRulesError(
                f"Ruff and Trump is played by 4, 3 or 2 seats, not {self.seats} (F1)"
            )
        if self.form is Form.DOUBLE and self.seats != 4:
            raise RuffRulesError(
                f"the double form is four seats in two partnerships; {self.seats} seats "
                "play the single form (F1)"
            )

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat (F2)."""
        return ALT_HAND[self.seats] if self.alt_deals else HAND

    @property
    def head_size(self) -> int:
        """Cards left as the head after the deal (F2): 4, or 16 / 28 in the main deals."""
        return NUM_CARDS - self.seats * self.hand_size

    @property
    def set_points(self) -> int:
        """Points that win the set, and so the match (F9)."""
        return ALT_SET_POINTS if self.alt_deals else SET_POINTS[self.seats]

    @property
    def par(self) -> int:
        """Cards a side must take in tricks before each further card scores a point (F8):
        twice the hand in double, the hand in single."""
        return self.hand_size * (2 if self.form is Form.DOUBLE else 1)

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The sides, by seat: two partnerships in double (F1), every seat alone in single."""
        if self.form is Form.DOUBLE:
            return ((0, 2), (1, 3))
        return tuple((s,) for s in range(self.seats))

    def side_of(self, seat: int) -> int:
        """The index in ``teams`` of ``seat``'s side."""
        return seat % 2 if self.form is Form.DOUBLE else seat

    def describe(self) -> dict[str, object]:
        """The rules as they are written into results files."""
        return {
            "form": self.form.value,
            "seats": self.seats,
            "alt_deals": self.alt_deals,
            "hand_size": self.hand_size,
            "set": self.set_points,
        }


def rules_text(described: Mapping[str, Any]) -> list[str]:
    """The rules of a results file's ``describe()`` as a reader says them: the report's
    subtitle ("double form", "4 seats", "12 cards each", "set of 52")."""
    form = described.get("form", Form.DOUBLE.value)
    out = [f"{form} form (F1)", f"{described.get('seats', 4)} seats"]
    if described.get("alt_deals"):
        out.append("the alternative deal (F2)")
    if "hand_size" in described:
        out.append(f"{described['hand_size']} cards each")
    if "set" in described:
        out.append(f"set of {described['set']} points (F9)")
    return out
