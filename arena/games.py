"""The one interface between the arena and a game's rules.

The referee, the scheduler, the ratings and the CLI know games only through
``Game`` and ``Match``: seat counts, teams, legal actions, views and replay records
all come from here, so Truco or Ruff & Trump can join as further ``Game``s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from arena.truco.game import TrucoGame
from arena.truco.rules import TrucoRules
from arena.truf.replay import public_deal
from arena.truf.rules import TrufRules
from arena.truf.state import DealSpec, TrufMatch


class Match(Protocol):
    """One play-through: what a runner needs of a game's state."""

    game: str
    num_seats: int
    totals: list[int]
    finished: list[dict[str, Any]]  # replay records of finished deals, popped by the runner

    @property
    def is_over(self) -> bool: ...
    @property
    def ranks(self) -> list[int]: ...
    @property
    def teams(self) -> tuple[tuple[int, ...], ...]: ...
    def to_act(self) -> tuple[int, ...]: ...
    def legal_actions(self, seat: int) -> Sequence[Any]: ...
    def view(self, seat: int) -> Any: ...
    def lazy_view(self, seat: int) -> Any:
        """The same view as ``view(seat)``, free to build its fields when first read
        (what in-process bots get)."""
        ...

    def apply(self, seat: int, action: Any) -> None: ...
    def fallback_action(self, seat: int) -> Any: ...
    def run(
        self,
        acts: list[Callable[[Any, Sequence[Any]], Any] | None],
        on_fault: Callable[[int, Exception], None],
        on_deal: Callable[[dict[str, Any]], None],
    ) -> int:
        """Play to the end in-process, as ``apply`` would step by step: ask
        ``acts[seat](lazy_view, legal)`` for each decision (None: the fallback, unasked),
        report a raising or illegal answer to ``on_fault`` and play the fallback, and pass
        each finished deal's record to ``on_deal``. Returns the decisions taken."""
        ...


class Game(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def table_size(self) -> int: ...
    def new_match(self, *, match_id: str, seed: str, names: Sequence[str]) -> Match: ...
    def describe(self) -> dict[str, Any]: ...
    def match_stats(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]: ...
    def deal_summary(self, record: dict[str, Any]) -> dict[str, Any]:
        """What a bot's ``deal_over`` hook gets: the public part of a deal's record."""
        ...


@dataclass(frozen=True)
class TrufGame:
    """Truf under a set of rules, optionally playing given deals (a deal file)."""

    rules: TrufRules = field(default_factory=TrufRules)
    deals: tuple[DealSpec, ...] = ()
    name: str = "truf"

    @property
    def table_size(self) -> int:
        return self.rules.seats

    def new_match(self, *, match_id: str, seed: str, names: Sequence[str]) -> TrufMatch:
        return TrufMatch(self.rules, match_id=match_id, seed=seed, names=names, deals=self.deals)

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


GAMES = ("truf", "truco")


def make_game(
    name: str = "truf",
    *,
    rules: TrufRules | TrucoRules | None = None,
    deals: Sequence[DealSpec] = (),
) -> Game:
    """The game ``name`` under ``rules`` (that game's rules class, or its defaults)."""
    if name == "truco":
        if deals:
            raise ValueError("deal files are Truf's; Truco deals from the match seed")
        if rules is not None and not isinstance(rules, TrucoRules):
            raise ValueError(f"Truco takes TrucoRules, not {type(rules).__name__}")
        return TrucoGame(rules or TrucoRules())
    if name != "truf":
        raise ValueError(f"unknown game {name!r}; this arena plays: {', '.join(GAMES)}")
    if rules is not None and not isinstance(rules, TrufRules):
        raise ValueError(f"Truf takes TrufRules, not {type(rules).__name__}")
    return TrufGame(rules or TrufRules(), tuple(deals))
