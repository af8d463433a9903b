"""Building Ruff deals for tests: name the cards that matter, the rest are filled in."""

from __future__ import annotations

from arena.core.cards import CARDS, Card
from arena.games.ruff.deal import DealSpec
from arena.games.ruff.rules import RuffRules
from arena.games.ruff.state import RuffMatch


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def deal(
    rules: RuffRules,
    hands: dict[int, str] | None = None,
    head: str = "",
    *,
    dealer: int = 0,
    filler: str = "",
) -> DealSpec:
    """A whole deal: ``hands[s]`` starts seat ``s``'s hand, ``head`` the head (its first
    card turned up); every hand and the head are filled from the rest of the deck in card
    order (``filler`` first, if given)."""
    hands = hands or {}
    given = [c for h in hands.values() for c in cards(h)] + cards(head)
    rest = [c for c in cards(filler) if c not in given]
    rest += [c for c in CARDS if c not in given and c not in rest]
    out = []
    for seat in range(rules.seats):
        mine = cards(hands.get(seat, ""))
        need = rules.hand_size - len(mine)
        mine, rest = mine + rest[:need], rest[need:]
        out.append(tuple(mine))
    top = cards(head)
    top += rest[: rules.head_size - len(top)]
    return DealSpec(tuple(out), tuple(top), dealer, "test")


def match(rules: RuffRules, *specs: DealSpec) -> RuffMatch:
    return RuffMatch(rules, match_id="t", seed="t", deals=specs)


def announce_all(m: RuffMatch, numbers: dict[int, int] | None = None) -> None:
    """Every seat announces, from eldest: ``numbers[seat]`` or its true ruff."""
    from arena.games.ruff.actions import Announce

    numbers = numbers or {}
    for _ in range(m.num_seats):
        (seat,) = m.to_act()
        m.apply(seat, Announce(numbers.get(seat, m.ruffs[seat])))


def cards_in(obj: object) -> list[Card]:
    """Every ``Card`` anywhere in a view (tuples, named tuples, nested)."""
    if isinstance(obj, Card):
        return [obj]
    if isinstance(obj, tuple | list):
        return [c for item in obj for c in cards_in(item)]
    return []
