"""Small helpers for the Truco tests: a match with chosen cards, actions from text."""

from __future__ import annotations

from arena.games.truco.actions import parse_action
from arena.games.truco.cards import Card
from arena.games.truco.rules import TrucoRules
from arena.games.truco.state import HandSpec, TrucoMatch

# Cards nobody's envido or tricks depend on, to fill hands a test does not care about.
FILLER = ["4C 5C 6C", "4B 5B 6B", "4O 5O 6O", "4E 5E 6E", "10C 11C 12C", "10B 11B 12B"]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


def match_with(
    *hands: str, dealer: int | None = None, more: int = 0, **options: object
) -> TrucoMatch:
    """A match whose first hand deals ``hands`` (one string per seat) with ``dealer``
    (default: the last seat, so seat 0 is mano); ``more`` further hands of filler."""
    seats = len(hands)
    rules = TrucoRules(seats=seats, **options)  # type: ignore[arg-type]
    first = HandSpec(tuple(cards(h) for h in hands), seats - 1 if dealer is None else dealer)
    filler = HandSpec(tuple(cards(h) for h in FILLER[:seats]))
    return TrucoMatch(rules, match_id="t", seed="t", hands=[first] + [filler] * more)


def act(match: TrucoMatch, seat: int, *texts: str) -> None:
    for text in texts:
        match.apply(seat, parse_action(text))


def legal(match: TrucoMatch, seat: int) -> list[str]:
    return [str(a) for a in match.legal_actions(seat)]
