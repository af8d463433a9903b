"""Every Truco decision as a small immutable value with a text form that round-trips.

``Play(card)`` (R4), ``Call(kind)`` (a Truco or Envido call or raise, R7/R8),
``Answer(accept)`` (Quiero / No Quiero), ``Declare(points)`` and ``SonBuenas()`` (R9),
``Mazo()`` (R10).
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.core.errors import ActionFormatError
from arena.games.truco.calls import EnvidoCall, TrucoCall
from arena.games.truco.cards import Card


@dataclass(frozen=True, slots=True)
class Play:
    card: Card
    kind = "play"

    def __str__(self) -> str:
        return f"play {self.card.code}"


@dataclass(frozen=True, slots=True)
class Call:
    """A call, or a raise made in answer to one."""

    call: TrucoCall | EnvidoCall
    kind = "call"

    @property
    def is_envido(self) -> bool:
        return isinstance(self.call, EnvidoCall)

    def __str__(self) -> str:
        return f"call {self.call.value}"


@dataclass(frozen=True, slots=True)
class Answer:
    accept: bool  # True: Quiero
    kind = "answer"

    def __str__(self) -> str:
        return "quiero" if self.accept else "no-quiero"


@dataclass(frozen=True, slots=True)
class Declare:
    points: int
    kind = "declare"

    def __str__(self) -> str:
        return f"declare {self.points}"


@dataclass(frozen=True, slots=True)
class SonBuenas:
    kind = "son-buenas"

    def __str__(self) -> str:
        return "son-buenas"


@dataclass(frozen=True, slots=True)
class Mazo:
    kind = "mazo"

    def __str__(self) -> str:
        return "mazo"


Action = Play | Call | Answer | Declare | SonBuenas | Mazo

QUIERO = Answer(True)
NO_QUIERO = Answer(False)
SON_BUENAS = SonBuenas()
MAZO = Mazo()
_CALL_ORDER = (*TrucoCall, *EnvidoCall)


def sort_key(action: Action) -> tuple[int, int, int]:
    """Legal lists are sorted by this: plays (weakest first, R1), calls (Truco ladder,
    then Envido ladder), Quiero, No Quiero, declarations, son buenas, mazo."""
    if isinstance(action, Play):
        return (0, *action.card.sort_key)
    if isinstance(action, Call):
        return (1, _CALL_ORDER.index(action.call), 0)
    if isinstance(action, Answer):
        return (2, 0 if action.accept else 1, 0)
    if isinstance(action, Declare):
        return (3, action.points, 0)
    return (4, 0, 0) if isinstance(action, SonBuenas) else (5, 0, 0)


def parse_action(text: str) -> Action:
    """Read the text form: ``play 1E``, ``call truco``, ``call real-envido``, ``quiero``,
    ``no-quiero``, ``declare 27``, ``son-buenas``, ``mazo``."""
    words = text.split()
    try:
        if words == ["quiero"]:
            return QUIERO
        if words == ["no-quiero"]:
            return NO_QUIERO
        if words == ["son-buenas"]:
            return SON_BUENAS
        if words == ["mazo"]:
            return MAZO
        if len(words) == 2 and words[0] == "play":
            return Play(Card.parse(words[1]))
        if len(words) == 2 and words[0] == "call":
            name = words[1]
            return Call(
                TrucoCall(name) if name in TrucoCall._value2member_map_ else EnvidoCall(name)
            )
        if len(words) == 2 and words[0] == "declare" and words[1].isdigit():
            return Declare(int(words[1]))
    except ValueError as exc:
        raise ActionFormatError(f"cannot read Truco action {text!r}: {exc}") from None
    raise ActionFormatError(
        f"cannot read Truco action {text!r}: expected 'play <card>', 'call <truco|retruco|"
        "vale-cuatro|envido|real-envido|falta-envido>', 'quiero', 'no-quiero', "
        "'declare <points>', 'son-buenas' or 'mazo'"
    )
