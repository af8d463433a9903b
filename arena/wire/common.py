"""What the generated-class codecs (``arena.games.truco.wire``, ``arena.games.ruff.wire``) share."""

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


CODE_LIMIT = 8  # characters of a card code an error message repeats (' 10d ' is 5)


def card_error(code: str, exc: Exception) -> str:
    """Why ``code`` is not a card (``exc``'s message), without echoing (nor keeping) a
    bot's padding: a long code is shown by its length and its start."""
    if len(code) > CODE_LIMIT:
        return f"not a card code: {len(code)} characters, from {code[:CODE_LIMIT]!r}"
    return str(exc)
