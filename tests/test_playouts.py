"""Random-playout properties over thousands of deals, in both variants.

Each property is checked against an oracle written here from the rulings, not
against the engine's own helpers.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.core.cards import CARDS, VALUES, Card
from arena.games.truf.actions import BIDS, MODE_CHOICES, PLAYS, Bid, Declare, Play
from arena.games.truf.errors import RuleError
from arena.games.truf.rules import TrufRules
from arena.games.truf.state import TrufMatch

SETTINGS = settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
RULES = [
    TrufRules(variant="classic", deals=13),
    TrufRules(variant="classic", scoring="2+3", multiplier=3, deals=13),
    TrufRules(variant="target", deals=13),
]


def oracle_plays(m: TrufMatch, seat: int) -> set[Card]:
    """C9/C10/T5 from scratch, using only the seat's hand and the public trick."""
    view = m.view(seat)
    hand = list(view.hand)
    trump = view.trump
    if view.trick:
        led = view.led_suit
        follow = [c for c in hand if c.suit == led]
        return set(follow or hand)
    if view.variant == "target" or trump is None or view.trump_broken:
        return set(hand)
    non_trump = [c for c in hand if c.suit != trump]
    return set(non_trump or hand)


def oracle_declarations(hand: list[Card]) -> set[tuple[tuple[int, ...], str]]:
    """T2 from scratch."""
    out = {((int(c),), "single") for c in hand}
    for i, a in enumerate(hand):
        for b in hand[i + 1 :]:
            total = a.value + b.value
            pair = (int(min(a, b)), int(max(a, b)))
            if a.suit == b.suit:
                if total >= 5:
                    out.add((pair, "sum"))
                    out.add((pair, "subtract"))
            elif total >= 7:
                out.add((pair, "notruf"))
    return out


def illegal_samples(m: TrufMatch, seat: int, rng: random.Random) -> list[object]:
    """A few actions that are not in the seat's legal list."""
    legal = set(m.legal_actions(seat))
    pool: list[object] = [a for a in (*PLAYS, *BIDS, *MODE_CHOICES) if a not in legal]
    return rng.sample(pool, 3)


def play_deals(rules: TrufRules, seed: int, deals: int, check: bool = True) -> TrufMatch:
    rules = TrufRules(
        variant=rules.variant, scoring=rules.scoring, multiplier=rules.multiplier, deals=deals
    )
    m = TrufMatch(rules, seed=seed)
    rng = random.Random(seed)
    while not m.is_over:
        for seat in m.to_act():
            legal = m.legal_actions(seat)
            assert legal, f"seat {seat} is to act but has no legal action"
            assert list(legal) == sorted(legal, key=_key), "legal actions are not sorted"
            if check:
                _check_decision(m, seat, legal, rng)
            m.apply(seat, rng.choice(legal))
    return m


def _key(a: object) -> object:
    return a.sort_key() if isinstance(a, Declare) else a


def _check_decision(m: TrufMatch, seat: int, legal: tuple[object, ...], rng: random.Random) -> None:
    phase = m.phase
    hand = list(m.view(seat).hand)
    if phase == "play":
        assert {a.card for a in legal if isinstance(a, Play)} == oracle_plays(m, seat)
        assert len(legal) == len(set(legal))
    elif phase == "bid":
        assert {a.card for a in legal if isinstance(a, Bid)} == set(hand)
    elif phase == "declare":
        got = {
            (tuple(int(c) for c in a.cards), a.op.value) for a in legal if isinstance(a, Declare)
        }
        assert got == oracle_declarations(hand)
    # No illegal action applies, and a refused one changes nothing.
    before = len(m.events)
    for bad in illegal_samples(m, seat, rng):
        with pytest.raises(RuleError):
            m.apply(seat, bad)  # type: ignore[arg-type]
    others = [s for s in range(4) if s not in m.to_act()]
    if others and legal:
        with pytest.raises(RuleError):
            m.apply(others[0], legal[0])  # type: ignore[arg-type]
    assert len(m.events) == before
    # Every legal action applies (checked on a copy, at some decisions).
    if rng.random() < 0.03:
        for action in legal:
            copy.deepcopy(m).apply(seat, action)  # type: ignore[arg-type]


@pytest.mark.parametrize("rules", RULES, ids=["classic", "classic-2+3", "target"])
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_every_legal_action_applies_and_no_illegal_one_does(rules: TrufRules, seed: int) -> None:
    play_deals(rules, seed, deals=2)


@pytest.mark.parametrize("rules", RULES, ids=["classic", "classic-2+3", "target"])
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_a_deal_is_13_tricks_of_4_cards_from_the_dealt_hands(rules: TrufRules, seed: int) -> None:
    m = play_deals(rules, seed, deals=10, check=False)
    for rec in m.finished:
        hands = [{Card.parse(c) for c in h} for h in rec["hands"]]
        assert all(len(h) == 13 for h in hands)
        assert set().union(*hands) == set(CARDS)
        assert len(rec["tricks"]) == 13
        played: set[Card] = set()
        leader = rec["high_bidder"]
        step = -1 if rec["direction"] == "ccw" else 1
        for trick in rec["tricks"]:
            assert trick["leader"] == leader  # C8
            seats = [s for s, _ in trick["cards"]]
            assert seats == [(leader + i * step) % 4 for i in range(4)]  # C6
            for s, code in trick["cards"]:
                card = Card.parse(code)
                assert card in hands[s], f"seat {s} played {code} it was not dealt"
                assert card not in played
                played.add(card)
            leader = trick["winner"]
        assert played == set(CARDS)
        assert sum(rec["tricks_won"]) == 13


def expected_classic(rec: dict[str, object], method: str, mult: int) -> list[int]:
    out = []
    for bid, won in zip(rec["final_bids"], rec["tricks_won"], strict=True):  # type: ignore[call-overload]
        d = won - bid if rec["mode"] == "atas" else bid - won
        if method in ("2", "2+3") and rec["mode"] == "bawah" and bid == 0 and won == 0:
            out.append(5)
        elif method in ("3", "2+3") and d > 0:
            out.append(d * mult)
        else:
            out.append(d)
    return out


def expected_target(rec: dict[str, object]) -> list[int]:
    top = max(rec["final_bids"])  # type: ignore[type-var]
    out = []
    for t, w in zip(rec["final_bids"], rec["tricks_won"], strict=True):  # type: ignore[call-overload]
        if t == 0 and w == 0:
            out.append(top)
        elif t == w:
            out.append(t)
        else:
            diff = abs(w - t)
            if rec["mode"] == "atas":
                pen = diff if w > t else 2 * diff
            else:
                pen = 2 * diff if w > t else diff
            out.append(-pen - (2 if t == 0 else 0))
    return out


@pytest.mark.parametrize("rules", RULES, ids=["classic", "classic-2+3", "target"])
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_scores_follow_the_formulas(rules: TrufRules, seed: int) -> None:
    m = play_deals(rules, seed, deals=10, check=False)
    totals = [0, 0, 0, 0]
    for rec in m.finished:
        if rules.is_target:
            assert rec["final_bids"] == [  # T2: targets as declared
                sum(VALUES[Card.parse(c)] for c in b["cards"])
                if b["op"] != "subtract"
                else abs(VALUES[Card.parse(b["cards"][0])] - VALUES[Card.parse(b["cards"][1])])
                for b in rec["bids"]
            ]
            assert rec["scores"] == expected_target(rec)
        else:
            raw = [VALUES[Card.parse(c)] for c in rec["bids"]]
            shift = 0
            if sum(raw) == 13:
                shift = 1 if rec["mode"] == "atas" else -1  # C5
            else:
                assert rec["mode"] == ("atas" if sum(raw) > 13 else "bawah")
            assert rec["final_bids"] == [b + shift for b in raw]
            assert rec["scores"] == expected_classic(rec, rules.scoring.value, rules.multiplier)
        totals = [t + s for t, s in zip(totals, rec["scores"], strict=True)]
        assert rec["totals"] == totals
    assert m.ranks == [1 + sum(o > t for o in totals) for t in totals]  # C14


def unseen_by(m: TrufMatch, viewer: int) -> list[list[Card]]:
    """For each seat, the cards it holds that ``viewer`` has not seen: not revealed as a
    bid, and not chosen as a still-hidden bid (which would make the swapped state
    impossible)."""
    shown: set[int] = set()
    for b in m.view(viewer).bids or ():
        shown.update([b.card] if isinstance(b, Bid) else b.cards)
    for b in m._bids:
        if b is not None:
            shown.update([b.card] if isinstance(b, Bid) else b.cards)
    return [[c for c in m.hand(seat) if c not in shown] for seat in range(4)]


def swapped(m: TrufMatch, a: int, ca: Card, b: int, cb: Card) -> TrufMatch:
    """A copy of the match in which seats a and b exchanged cards ca and cb."""
    twin = copy.deepcopy(m)
    twin._hands[a] ^= (1 << ca) | (1 << cb)
    twin._hands[b] ^= (1 << ca) | (1 << cb)
    twin._declarations = [None] * 4
    twin._legal_cache = -1
    return twin


def deal_states(variant: str, seed: int) -> Iterator[TrufMatch]:
    """One random deal, yielded before each decision (the same match, moving on)."""
    m = TrufMatch(TrufRules(variant=variant, deals=1), seed=seed)
    rng = random.Random(seed)
    while not m.is_over:
        yield m
        seat = m.to_act()[0]
        m.apply(seat, rng.choice(m.legal_actions(seat)))


def swappable(m: TrufMatch) -> list[tuple[int, int, int]]:
    """(viewer, a, b): two seats other than the viewer, each holding a card it has not seen."""
    out = []
    for viewer in range(4):
        unseen = unseen_by(m, viewer)
        others = [s for s in range(4) if s != viewer and unseen[s]]
        out += [(viewer, a, b) for a, b in itertools.permutations(others, 2)]
    return out


@pytest.mark.parametrize("variant", ["classic", "target"])
@settings(max_examples=150, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), data=st.data())
def test_a_view_does_not_change_when_other_seats_swap_unseen_cards(
    variant: str, seed: int, data: st.DataObject
) -> None:
    # Drawn only among the points of the deal where such a swap exists (late in a deal a
    # seat may hold nothing unseen), so that every example checks a swap.
    points = [i for i, m in enumerate(deal_states(variant, seed)) if swappable(m)]
    stop = data.draw(st.sampled_from(points), label="decisions played")
    m = next(itertools.islice(deal_states(variant, seed), stop, None))
    viewer, a, b = data.draw(st.sampled_from(swappable(m)), label="viewer, a, b")
    unseen = unseen_by(m, viewer)
    ca = data.draw(st.sampled_from(unseen[a]), label="a's card")
    cb = data.draw(st.sampled_from(unseen[b]), label="b's card")
    twin = swapped(m, a, ca, b, cb)
    assert twin.hand(a) != m.hand(a) and twin.hand(b) != m.hand(b)
    assert twin.view(viewer) == m.view(viewer)
    assert twin.legal_actions(viewer) == m.legal_actions(viewer)
