"""What anyone may see of a finished deal's replay record: the helpers each game's
``public_record`` (``GameEntry.public_record``) shares.

A public record keeps the replay record's shape (docs/ladder.md, "What is public"), so
the report's viewers step through it, with every card no other seat saw replaced by
``None`` (``HIDDEN``): a hand keeps its length, its seen cards first, sorted by their
codes, and its hidden ones after them, so that neither where a card was dealt nor the
order in which it was dealt (which the table never saw, and which breaks Truco's envido
ties) says anything about the unseen ones.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

HIDDEN = None  # a card no other seat saw, in a public record


def hide(cards: Sequence[str], seen: Collection[str]) -> list[str | None]:
    """``cards`` with those not in ``seen`` hidden: the seen ones first, sorted by code
    (their dealt order is not public), then one ``HIDDEN`` per unseen card (its position
    would tell how it ranks)."""
    kept: list[str | None] = sorted(c for c in cards if c in seen)
    return kept + [HIDDEN] * (len(cards) - len(kept))


def public_faults(
    faults: Iterable[Mapping[str, Any]], action: Callable[[str], str] = str
) -> list[dict[str, Any]]:
    """A deal's fault entries without their ``detail``: a refusal's detail lists the
    faulting seat's legal actions, its own cards among them (or, in Ruff, its true ruff),
    which only that seat was told. The kind and the decision stay, and the action played
    in its place (the fallback) as the other seats saw it: ``action`` of it (Ruff's
    fallback discard is played face down)."""
    return [
        {**f, "detail": None, "played": None if f.get("played") is None else action(f["played"])}
        for f in faults
    ]  # a fault from before ``played`` was recorded has none to show


def played_by(tricks: Iterable[Mapping[str, Any]]) -> dict[int, set[str]]:
    """Per seat, the cards it played in these tricks (``{"cards": [[seat, code], ...]}``):
    every seat saw them face up once the trick closed."""
    out: dict[int, set[str]] = {}
    for trick in tricks:
        for seat, code in trick["cards"]:
            out.setdefault(int(seat), set()).add(str(code))
    return out
