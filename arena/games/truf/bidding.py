"""Who wins the bidding, and which target declarations are valid.

Classic: rulings C3 (bids), C4 (highest bid), C5 (mode). Target: T2 (validity),
T3 (highest declaration), T4 (mode).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from arena.core.cards import CARDS, VALUES, Card, cards_of
from arena.games.truf.actions import Bid, Declare, DeclareOp

# ruling C4: spades > hearts > diamonds > clubs (suit index S0 H1 D2 C3).
CLASSIC_SUIT_STRENGTH = (3, 2, 1, 0)
# ruling T3: spades > hearts > clubs > diamonds -- not the classic order.
TARGET_SUIT_STRENGTH = (3, 2, 0, 1)

SUM_MIN = 5  # ruling T2: SUM valid if a + b >= 5
SUBTRACT_MIN_SUM = 5  # ruling T2: SUBTRACT valid if a + b >= 5
NOTRUF_MIN = 7  # ruling T2: NO TRUF valid if a + b >= 7


def classic_bid_key(card: int) -> tuple[int, int, int]:
    """Sort key of a classic bid card: value, then suit (C4), then rank K > Q > J
    for the zero-valued court cards (C4, house choice). Distinct cards never tie."""
    return (VALUES[card], CLASSIC_SUIT_STRENGTH[card // 13], card % 13)


def classic_high_bidder(bids: Sequence[Bid]) -> int:
    """The seat whose bid card ranks highest (C4)."""
    return max(range(len(bids)), key=lambda s: classic_bid_key(bids[s].card))


def declaration_valid(decl: Declare) -> str | None:
    """None if the declaration is valid under T2, else the reason it is not."""
    cards, op = decl.cards, decl.op
    if len(cards) == 1:
        return None if op is DeclareOp.SINGLE else f"one card is declared as 'single', not '{op}'"
    if len(cards) != 2:
        return f"a declaration uses one or two cards, not {len(cards)}"
    a, b = cards
    if a == b:
        return "the two cards of a declaration must differ"
    total = VALUES[a] + VALUES[b]
    if a // 13 == b // 13:
        if op is DeclareOp.SUM:
            return None if total >= SUM_MIN else f"SUM {total} is below {SUM_MIN}"
        if op is DeclareOp.SUBTRACT:
            return (
                None
                if total >= SUBTRACT_MIN_SUM
                else f"SUBTRACT needs the two cards to sum to at least {SUBTRACT_MIN_SUM}, "
                f"they sum to {total}"
            )
        return f"two cards of one suit are declared 'sum' or 'subtract', not '{op}'"
    if op is not DeclareOp.NOTRUF:
        return f"two cards of different suits are declared 'notruf', not '{op}'"
    return None if total >= NOTRUF_MIN else f"NO TRUF {total} is below {NOTRUF_MIN}"


def _pair_declarations(a: Card, b: Card) -> tuple[Declare, ...]:
    """The valid declarations of the pair a < b, in canonical order (T2)."""
    total = VALUES[a] + VALUES[b]
    if a // 13 == b // 13:
        out = []
        if total >= SUM_MIN:
            out.append(Declare((a, b), DeclareOp.SUM))
        if total >= SUBTRACT_MIN_SUM:
            out.append(Declare((a, b), DeclareOp.SUBTRACT))
        return tuple(out)
    return (Declare((a, b), DeclareOp.NOTRUF),) if total >= NOTRUF_MIN else ()


SINGLES: tuple[Declare, ...] = tuple(Declare((c,), DeclareOp.SINGLE) for c in CARDS)
PAIRS: dict[tuple[int, int], tuple[Declare, ...]] = {
    (a, b): _pair_declarations(a, b) for a, b in combinations(CARDS, 2)
}


def legal_declarations(hand_mask: int) -> list[Declare]:
    """Every valid declaration a hand can make (T2), in canonical sorted order:
    singles, then pairs by their cards, SUM before SUBTRACT."""
    hand = cards_of(hand_mask)
    out = [SINGLES[c] for c in hand]
    pairs = PAIRS
    for a, b in combinations(hand, 2):
        out.extend(pairs[a, b])
    return out


def target_declaration_key(decl: Declare) -> tuple[int, int, int, int]:
    """Sort key of a declaration for T3: target; a trump declaration beats NO TRUF;
    trumps by suit (S > H > C > D) then the higher-ranked card held (A high);
    NO TRUF by the higher single card value, then that card's suit."""
    if decl.op is DeclareOp.NOTRUF:
        top = max(VALUES[c] for c in decl.cards)
        suit = max(TARGET_SUIT_STRENGTH[c // 13] for c in decl.cards if VALUES[c] == top)
        return (decl.target, 0, top, suit)
    return (
        decl.target,
        1,
        TARGET_SUIT_STRENGTH[decl.cards[0] // 13],
        max(c % 13 for c in decl.cards),
    )


def target_high_bidder(decls: Sequence[Declare]) -> int:
    """The seat whose declaration wins T3."""
    return max(range(len(decls)), key=lambda s: target_declaration_key(decls[s]))


def bid_card_codes(action: Bid | Declare) -> list[Card]:
    return [action.card] if isinstance(action, Bid) else list(action.cards)
