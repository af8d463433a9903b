"""The in-process play loop any game can use: one decision at a time, through the
game's own ``to_act``, ``legal_actions``, ``lazy_view``, ``apply`` and ``fallback_action``.

A game with a hand-tuned loop (Truf's ``TrufMatch.run``) keeps its own; this one is the
same contract (``arena.games.registry.Match.run``) with no game knowledge at all.
``StepwiseMatch`` is the base of the matches that use it (Truco's, Ruff's).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from arena.core.errors import AnswerIndexError

Decide = Callable[[Any, Sequence[Any]], Any]  # (view, legal) -> an action or its index


class Stepwise(Protocol):
    finished: list[dict[str, Any]]

    @property
    def is_over(self) -> bool: ...
    def to_act(self) -> tuple[int, ...]: ...
    def legal_actions(self, seat: int) -> Sequence[Any]: ...
    def lazy_view(self, seat: int) -> Any: ...
    def apply(self, seat: int, action: Any) -> None: ...
    def fallback_action(self, seat: int) -> Any: ...


def by_index(legal: Sequence[Any], index: int) -> Any:
    """The legal action an index answer names (a bot may answer with its index)."""
    if not 0 <= index < len(legal):
        raise AnswerIndexError(f"index {index} outside the {len(legal)} legal actions")
    return legal[index]


def run(
    match: Stepwise,
    acts: list[Decide | None],
    on_fault: Callable[[int, Exception], None],
    on_deal: Callable[[dict[str, Any]], None],
) -> int:
    """Play ``match`` to its end; return the number of decisions taken.

    ``acts[seat](view, legal)`` answers with an action or its index in ``legal``. A seat
    whose entry is None plays its fallback unasked. An answer that raises or is illegal
    goes to ``on_fault(seat, exc)`` (which may set ``acts[seat]`` to None) and the seat
    plays its fallback. Each finished deal's record goes to ``on_deal`` and leaves
    ``match.finished``.
    """
    decisions = 0
    finished = match.finished
    while not match.is_over:
        seats = match.to_act()
        if not seats:
            raise RuntimeError("the match is not over but no seat is to act")
        for seat in seats:
            if seat not in match.to_act():  # an earlier seat's action settled this one
                continue
            decisions += 1
            act = acts[seat]
            if act is None:
                match.apply(seat, match.fallback_action(seat))
                continue
            legal = match.legal_actions(seat)
            try:
                choice = act(match.lazy_view(seat), legal)
                if type(choice) is int:
                    choice = by_index(legal, choice)
                match.apply(seat, choice)
            except Exception as exc:  # a bot's bug is a fault, never a crash
                on_fault(seat, exc)
                match.apply(seat, match.fallback_action(seat))
        if finished:
            for record in finished:
                on_deal(record)
            finished.clear()
    return decisions


class StepwiseMatch(ABC):
    """What a game's match played one decision at a time shares (Truco's, Ruff's): the
    entrants' names, ``is_over`` and ``teams``, a whole view for in-process bots, and
    ``run`` through this module's loop. A game gives its rules in the abstract methods."""

    finished: list[dict[str, Any]]
    _winners: set[int] | None  # the winning sides, once the match is over
    _teams: tuple[tuple[int, ...], ...]

    @staticmethod
    def seat_names(names: Sequence[str] | None, seats: int, game: str) -> tuple[str, ...]:
        """The entrant at each seat (``seat0``... when not given); a ValueError unless
        there is one per seat."""
        out = tuple(names) if names is not None else tuple(f"seat{s}" for s in range(seats))
        if len(out) != seats:
            raise ValueError(f"this {game} table seats {seats} entrants, got {len(out)}")
        return out

    @property
    def is_over(self) -> bool:
        return self._winners is not None

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        return self._teams

    @abstractmethod
    def to_act(self) -> tuple[int, ...]: ...
    @abstractmethod
    def legal_actions(self, seat: int) -> Sequence[Any]: ...
    @abstractmethod
    def view(self, seat: int) -> Any: ...
    @abstractmethod
    def apply(self, seat: int, action: Any) -> None: ...
    @abstractmethod
    def fallback_action(self, seat: int) -> Any: ...

    def lazy_view(self, seat: int) -> Any:
        """The same as ``view(seat)``: these views are small enough to build whole."""
        return self.view(seat)

    def run(
        self,
        acts: list[Decide | None],
        on_fault: Callable[[int, Exception], None],
        on_deal: Callable[[dict[str, Any]], None],
    ) -> int:
        """Play to the end in-process (``run`` above); returns the decisions taken."""
        return run(self, acts, on_fault, on_deal)
