"""The four kinds of Truf decision, as small immutable values.

``Bid`` (classic, C3), ``Declare`` (target, T2), ``ChooseMode`` (C5/T4) and
``Play`` (C8..C12, T5). Bids, plays and modes are interned: ``Play(card)`` always
returns the same object, so comparing and hashing them is cheap.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from arena.core.cards import CARDS, Card, SliceTable


class Mode(StrEnum):
    ATAS = "atas"  # take many tricks (C5/T4)
    BAWAH = "bawah"  # take few tricks


class DeclareOp(StrEnum):
    """How a target declaration's cards make a number, ruling T2."""

    SINGLE = "single"
    SUM = "sum"
    SUBTRACT = "subtract"
    NOTRUF = "notruf"


@dataclass(frozen=True, slots=True, order=True)
class Bid:
    """Classic bid: one card of the hand; its value is the bid (C3)."""

    card: Card
    kind = "bid"

    def __str__(self) -> str:
        return f"bid {self.card}"


@dataclass(frozen=True, slots=True, order=True)
class Play:
    """Play one card to the current trick."""

    card: Card
    kind = "play"

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True, slots=True, order=True)
class ChooseMode:
    """The high bidder's choice when the bids total exactly 13 (C5/T4)."""

    mode: Mode
    kind = "mode"

    def __str__(self) -> str:
        return f"mode {self.mode}"


@dataclass(frozen=True, slots=True)
class Declare:
    """Target declaration: one or two cards and how they combine (T2).

    ``cards`` are kept sorted, so two equal declarations compare equal. Validity
    (the thresholds of T2) is checked by the rules, not here.
    """

    cards: tuple[Card, ...]
    op: DeclareOp
    kind = "declare"

    @property
    def target(self) -> int:
        values = [c.value for c in self.cards]
        if self.op is DeclareOp.SUBTRACT:
            return max(values) - min(values)
        return sum(values)

    @property
    def suit_for_trump(self) -> int | None:
        """The suit this declaration makes trump if it wins, or None for NO TRUF."""
        return None if self.op is DeclareOp.NOTRUF else self.cards[0] // 13

    def sort_key(self) -> tuple[int, tuple[int, ...], int]:
        return (len(self.cards), tuple(int(c) for c in self.cards), _OP_ORDER[self.op])

    def __lt__(self, other: Declare) -> bool:
        return self.sort_key() < other.sort_key()

    def __str__(self) -> str:
        return f"declare {'+'.join(c.code for c in self.cards)} {self.op}"


_OP_ORDER = {DeclareOp.SINGLE: 0, DeclareOp.SUM: 1, DeclareOp.SUBTRACT: 2, DeclareOp.NOTRUF: 3}

Action = Bid | Declare | ChooseMode | Play

# Interned singletons: legal-action lists are built from these without allocating.
BIDS: tuple[Bid, ...] = tuple(Bid(c) for c in CARDS)
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in CARDS)
MODES: dict[Mode, ChooseMode] = {m: ChooseMode(m) for m in Mode}
MODE_CHOICES: tuple[ChooseMode, ...] = (MODES[Mode.ATAS], MODES[Mode.BAWAH])
BID_SLICES: SliceTable[Bid] = SliceTable(BIDS)  # mask -> sorted tuple of bids
PLAY_SLICES: SliceTable[Play] = SliceTable(PLAYS)  # mask -> sorted tuple of plays


def declare(cards: tuple[Card, ...] | list[Card], op: DeclareOp | str) -> Declare:
    """A declaration with its cards in canonical (sorted) order."""
    return Declare(tuple(sorted(cards)), DeclareOp(op))


def parse_action(text: str) -> Action:
    """Parse the text form used in logs and tests: ``play TD``, ``bid 7S``,
    ``mode atas``, ``declare 5S+4S sum``."""
    from arena.games.truf.errors import ActionFormatError

    words = text.split()
    try:
        if words[0] == "play" and len(words) == 2:
            return PLAYS[Card.parse(words[1])]
        if words[0] == "bid" and len(words) == 2:
            return BIDS[Card.parse(words[1])]
        if words[0] == "mode" and len(words) == 2:
            return MODES[Mode(words[1])]
        if words[0] == "declare" and len(words) == 3:
            return declare([Card.parse(w) for w in words[1].split("+")], words[2])
    except (ValueError, IndexError) as exc:
        raise ActionFormatError(f"cannot read action {text!r}: {exc}") from None
    raise ActionFormatError(
        f"cannot read action {text!r}: expected 'play <card>', 'bid <card>', "
        "'mode atas|bawah' or 'declare <card>[+<card>] single|sum|subtract|notruf'"
    )
