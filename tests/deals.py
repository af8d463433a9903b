"""Hand-built deals and small drivers for the rule tests.

``hands("AS KS", "", "TD", "")`` gives four 13-card hands: each seat keeps the cards
its spec names, and the rest of the deck is dealt out in a fixed order so that every
hand still passes ruling C2 (at least one A/K/Q/J and at least one numeral).

Two layouts recur because their play is forced whatever the seats choose:

* ``ONE_SUIT``: seat 0 holds every spade, 1 every heart, 2 every diamond, 3 every
  club. Whoever holds the trump suit (the high bidder, since every bid comes from the
  bidder's own suit) wins all 13 tricks: it either leads trump or ruffs every lead.
* ``SPLIT``: seat 0 holds 2S..KS and 2H, seat 1 AS and 3H..AH, seat 2 the diamonds,
  seat 3 the clubs. With spades trump and seat 0 the high bidder, seat 1 wins exactly
  two tricks (the one in which it plays AS, the one in which seat 0 must follow with
  2H) and seat 0 the other eleven, in both variants and whatever the order of play.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

import pytest

from arena.core.cards import CARDS, Card
from arena.games.truf import events as ev
from arena.games.truf.actions import BIDS, MODES, PLAYS, Action, Declare, Mode, declare
from arena.games.truf.errors import RuleError
from arena.games.truf.rules import TrufRules, Variant
from arena.games.truf.state import DealSpec, TrufMatch

RANKS = "23456789TJQKA"
E = TypeVar("E")


def cards(text: str) -> tuple[Card, ...]:
    """``"AS 10H 2c"`` -> the cards, in the order written."""
    return tuple(Card.parse(code) for code in text.split())


def suit(letter: str, ranks: str = RANKS) -> str:
    """Codes of ``ranks`` (default all 13) of one suit: ``suit("S", "AKQ")`` is ``"AS KS QS"``."""
    return " ".join(rank + letter for rank in ranks)


def is_c2_valid(hand: Iterable[Card]) -> bool:
    """Ruling C2, from the text: not all numerals and not all A/K/Q/J."""
    hand = list(hand)
    court = [c for c in hand if c.code[0] in "AKQJ"]
    return 0 < len(court) < len(hand)


def hands(*specs: str) -> tuple[tuple[Card, ...], ...]:
    """Four hands of 13 from four short specs; the rest of the deck fills them.

    Filling is deterministic: a hand that lacks a court card (or a numeral) first gets
    the lowest one left, then the remaining cards go round the hands in deck order.
    """
    if len(specs) != 4:
        raise ValueError(f"four specs, one per seat, not {len(specs)}")
    out = [list(cards(spec)) for spec in specs]
    used = [c for hand in out for c in hand]
    if len(used) != len(set(used)):
        raise ValueError(f"a card is named twice in {specs}")
    left = [c for c in CARDS if c not in used]
    for hand in out:
        for wanted_court in (True, False):
            has = any((c.code[0] in "AKQJ") == wanted_court for c in hand)
            if not has and len(hand) < 13:
                pick = next(c for c in left if (c.code[0] in "AKQJ") == wanted_court)
                hand.append(pick)
                left.remove(pick)
    seat = 0
    for card in left:
        while len(out[seat]) >= 13:
            seat = (seat + 1) % 4
        out[seat].append(card)
        seat = (seat + 1) % 4
    for number, hand in enumerate(out):
        if len(hand) != 13 or not is_c2_valid(hand):
            raise ValueError(f"specs {specs} cannot make a C2-valid hand {number}: {hand}")
    return tuple(tuple(hand) for hand in out)


ONE_SUIT = hands(suit("S"), suit("H"), suit("D"), suit("C"))
BREAK = hands(
    "AH KH QH JH TH 9H TS 9S 8S 7S 6S 5S 4S",
    "8H 7H 6H 5H 4H 3H 2H KS JS 3C 2C 3D 2D",
    "AS QS AD KD QD JD TD 9D 8D 7D 6D 5D 4D",
    "2S 3S AC KC QC JC TC 9C 8C 7C 6C 5C 4C",
)
"""For trump leads (C10, C11, T5): seat 0 holds hearts and spades, seats 2 and 3 hold
spades but no hearts, seat 1 follows hearts. Classic bids TS 2H 4D 4C (20, atas) make
seat 0 the high bidder with spades trump; seat 0 then has to lead a heart."""

SPLIT = hands(
    suit("S", "23456789TJQK") + " 2H",
    "AS " + suit("H", "3456789TJQKA"),
    suit("D"),
    suit("C"),
)


def deal(hand_set: Sequence[Sequence[Card]], dealer: int | None = 0) -> DealSpec:
    return DealSpec(hands=tuple(tuple(h) for h in hand_set), dealer=dealer, source="test")


def match(
    *deals: Sequence[Sequence[Card]] | DealSpec,
    variant: str = "classic",
    dealer: int | None = 0,
    n_deals: int = 1,
    **options: Any,
) -> TrufMatch:
    """A match over the given deals (hand sets use ``dealer``; DealSpecs keep theirs)."""
    specs = [d if isinstance(d, DealSpec) else deal(d, dealer) for d in deals]
    rules = TrufRules(variant=Variant(variant), deals=n_deals, **options)
    return TrufMatch(rules, seed=0, deals=specs)


def declaration(text: str) -> Declare:
    """``"TS"`` (single), ``"9S+2S sum"``, ``"5H+3H subtract"``, ``"4S+3H notruf"``."""
    words = text.split()
    if len(words) == 1:
        return declare(cards(words[0]), "single")
    return declare(cards(words[0].replace("+", " ")), words[1])


def bid_all(m: TrufMatch, *codes: str) -> None:
    """Seat s bids ``codes[s]`` (classic, C3)."""
    for seat, code in enumerate(codes):
        m.apply(seat, BIDS[Card.parse(code)])


def declare_all(m: TrufMatch, *texts: str) -> None:
    """Seat s declares ``texts[s]`` (target, T2)."""
    for seat, text in enumerate(texts):
        m.apply(seat, declaration(text))


def choose(m: TrufMatch, mode: str) -> None:
    (seat,) = m.to_act()
    m.apply(seat, MODES[Mode(mode)])


def play(m: TrufMatch, *codes: str) -> None:
    """Each card in turn, by whichever seat is to play."""
    for code in codes:
        (seat,) = m.to_act()
        m.apply(seat, PLAYS[Card.parse(code)])


def first_legal(m: TrufMatch) -> tuple[int, Action]:
    seat = m.to_act()[0]
    return seat, m.legal_actions(seat)[0]


def play_rest_of_deal(m: TrufMatch) -> None:
    """Play the current deal to its end, each seat playing its first legal card."""
    deal_no = m.deal_no
    while m.phase == "play" and m.deal_no == deal_no:
        m.apply(*first_legal(m))


def play_out(m: TrufMatch) -> None:
    """Play the whole match, every seat taking its first legal action."""
    while not m.is_over:
        m.apply(*first_legal(m))


def events_of(m: TrufMatch, kind: type[E]) -> list[E]:
    return [e for e in m.events if isinstance(e, kind)]


def last_scored(m: TrufMatch) -> ev.DealScored:
    return events_of(m, ev.DealScored)[-1]


def assert_refused(m: TrufMatch, seat: int, action: Action, *rulings: str) -> RuleError:
    """``action`` is refused with a RuleError that cites one of ``rulings`` and names
    the seat, the action and the ruling; the refusal changes nothing."""
    before = (len(m.events), m.phase, m.to_act(), [m.view(s) for s in range(4)])
    with pytest.raises(RuleError) as info:
        m.apply(seat, action)
    err = info.value
    text = str(err)
    assert err.ruling in rulings, f"{text!r} cites {err.ruling}, expected one of {rulings}"
    assert err.seat == seat and err.action == action
    assert f"seat {seat}" in text and str(action) in text and err.ruling in text
    assert (len(m.events), m.phase, m.to_act(), [m.view(s) for s in range(4)]) == before
    return err
