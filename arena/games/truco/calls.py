"""The two betting ladders: Truco (ruling R7) and Envido (ruling R8), with what each
sequence of calls is worth accepted and refused."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum


class TrucoCall(StrEnum):
    TRUCO = "truco"
    RETRUCO = "retruco"
    VALE_CUATRO = "vale-cuatro"

    @property
    def level(self) -> int:
        """1, 2 or 3: the stake accepted is ``level + 1``, refused ``level`` (R7)."""
        return TRUCO_LADDER.index(self) + 1


TRUCO_LADDER = (TrucoCall.TRUCO, TrucoCall.RETRUCO, TrucoCall.VALE_CUATRO)


def truco_stake(level: int) -> int:
    """ruling R7: the points the hand's tricks are worth with ``level`` accepted (0: none)."""
    return level + 1


def truco_refused(level: int) -> int:
    """ruling R7: what the calling team scores when the call to ``level`` is refused: the
    stake before the call."""
    return truco_stake(level - 1)


class EnvidoCall(StrEnum):
    ENVIDO = "envido"
    REAL_ENVIDO = "real-envido"
    FALTA_ENVIDO = "falta-envido"


E, RE, F = EnvidoCall.ENVIDO, EnvidoCall.REAL_ENVIDO, EnvidoCall.FALTA_ENVIDO

# ruling R8: the seed table's sequences; Falta Envido may end any of them, or stand alone.
ENVIDO_SEQUENCES: frozenset[tuple[EnvidoCall, ...]] = frozenset(
    {(), (E,), (RE,), (E, E), (E, RE), (RE, RE), (E, E, RE)}
)
_ACCEPTED = {E: 2, RE: 3}
_REFUSED = {E: 1, RE: 2, F: 1}


def next_envido_calls(calls: Sequence[EnvidoCall]) -> tuple[EnvidoCall, ...]:
    """The calls that may follow ``calls`` (ruling R8), in ladder order."""
    seq = tuple(calls)
    if seq and seq[-1] is F:
        return ()
    out = [c for c in (E, RE) if seq + (c,) in ENVIDO_SEQUENCES]
    return (*out, F)


def falta_value(target: int, scores: Sequence[int]) -> int:
    """ruling R8: Falta Envido is worth what the leading team needs, at least 1, counted
    from the scores at the start of the hand (R13: of the duel hand)."""
    return max(1, target - max(scores))


def envido_accepted(calls: Sequence[EnvidoCall], falta: int) -> int:
    """ruling R8: the sum of the calls; a Falta Envido replaces the sum."""
    if calls[-1] is F:
        return falta
    return sum(_ACCEPTED[c] for c in calls)


def envido_refused(calls: Sequence[EnvidoCall], falta: int) -> int:
    """ruling R8: the calls before the last, plus the last call's own refusal value; a
    refused Falta Envido is capped at what it would be worth accepted (house choice)."""
    before = sum(_ACCEPTED[c] for c in calls[:-1])
    value = before + _REFUSED[calls[-1]]
    return min(value, falta) if calls[-1] is F else value
