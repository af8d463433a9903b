"""Every Ruff and Trump decision as a small immutable value with a text form that
round-trips: ``Announce(number)`` (F4), ``Discard(cards)`` (the rubber's four, F5) and
``Play(card)`` (F7)."""

from __future__ import annotations

from dataclasses import dataclass

from arena.core.cards import CARDS, Card, CardError
from arena.core.errors import ActionFormatError
from arena.games.ruff.rules import RUB_CARDS


def as_card(card: object) -> Card:
    """The ``Card`` a bot means: a Card, its index 0..51 or its code; else an error."""
    if isinstance(card, Card):
        return card
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < len(CARDS):
        return CARDS[card]
    if isinstance(card, str):
        return Card.parse(card)
    raise ActionFormatError(f"not a card: {card!r}")


@dataclass(frozen=True, slots=True, order=True)
class Announce:
    """A seat's ruff announcement: 0 up to its true ruff (F4)."""

    number: int
    kind = "announce"

    def __str__(self) -> str:
        return f"announce {self.number}"


@dataclass(frozen=True, slots=True, order=True)
class Discard:
    """The rubber's four discards (F5), held in card order whatever order they are given."""

    cards: tuple[Card, ...]
    kind = "discard"

    def __post_init__(self) -> None:
        cards = tuple(sorted(as_card(c) for c in self.cards))
        if len(cards) != RUB_CARDS or len(set(cards)) != RUB_CARDS:
            raise ActionFormatError(
                f"a discard is {RUB_CARDS} different cards, not {' '.join(map(str, cards))!r}"
            )
        object.__setattr__(self, "cards", cards)

    @classmethod
    def of_sorted(cls, cards: tuple[Card, ...]) -> Discard:
        """A discard of four distinct ``Card``s already in card order, unchecked: how the
        engine builds the 1820 legal discards of a rub quickly."""
        out = object.__new__(cls)
        object.__setattr__(out, "cards", cards)
        return out

    def __str__(self) -> str:
        return "discard " + " ".join(c.code for c in self.cards)


@dataclass(frozen=True, slots=True, order=True)
class Play:
    """Play one card to the open trick (F7)."""

    card: Card
    kind = "play"

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", as_card(self.card))

    def __str__(self) -> str:
        return f"play {self.card.code}"


Action = Announce | Discard | Play

# The engine's legal lists reuse these: one Play per card, one Announce per number a ruff
# can reach (a whole suit with the turned card: 2 + ... + 10 + 3 x 10 + 11 = 95).
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in CARDS)
ANNOUNCES: tuple[Announce, ...] = tuple(Announce(n) for n in range(96))


def sort_key(action: Action) -> tuple[int, tuple[int, ...]]:
    """Legal lists are sorted by this: announcements by number, discards by their cards
    (in card order, ``arena.core.cards``), plays by card. Only one kind is ever legal at once."""
    if isinstance(action, Announce):
        return (0, (action.number,))
    if isinstance(action, Discard):
        return (1, tuple(action.cards))
    return (2, (action.card,))


def parse_action(text: str) -> Action:
    """Read the text form: ``announce 17``, ``discard TH 7D 2C 3C``, ``play AS``."""
    words = text.split()
    try:
        if len(words) == 2 and words[0] == "announce" and words[1].isdigit():
            return Announce(int(words[1]))
        if len(words) == 2 and words[0] == "play":
            return Play(Card.parse(words[1]))
        if len(words) == 1 + RUB_CARDS and words[0] == "discard":
            return Discard(tuple(Card.parse(w) for w in words[1:]))
    except (CardError, ActionFormatError) as exc:
        raise ActionFormatError(f"cannot read Ruff action {text!r}: {exc}") from None
    raise ActionFormatError(
        f"cannot read Ruff action {text!r}: expected 'announce <number>', "
        "'discard <card> <card> <card> <card>' or 'play <card>'"
    )
