"""What the generated-class codecs (``arena.wire.truco``, ``arena.wire.ruff``) share."""

from __future__ import annotations

from typing import Any


def enum_name(enum: Any, number: int) -> str:
    """The name of ``number`` in the generated ``enum``, for an error message; "the unknown
    value N" when it has none."""
    try:
        return str(enum.Name(number))
    except ValueError:
        return f"the unknown value {number}"


def check_seat(view: Any, *, match_id: str, seat: int) -> None:
    """``ValueError`` unless the decoded ``view`` is of the request's match and seat."""
    if (view.match_id, view.seat) != (match_id, seat):
        raise ValueError(
            f"the view is of match {view.match_id!r} seat {view.seat}, the request of "
            f"match {match_id!r} seat {seat}"
        )
