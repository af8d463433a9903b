"""What every seat may know (both variants): a view holds that knowledge and nothing more.

Its own hand; seat order, direction and dealer; cards played face up; bids once revealed;
trump and mode once set; tricks won; cumulative scores. Never another hand, an unrevealed
bid, or the rank of a face-down trump before its trick closes. A view is a function of
that knowledge alone: swapping two cards between two other seats' unseen holdings must
not change it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from deals import (
    BREAK,
    ONE_SUIT,
    bid_all,
    deal,
    declaration,
    declare_all,
    events_of,
    first_legal,
    hands,
    match,
    play,
    play_rest_of_deal,
)

from arena.core.cards import Card, Suit
from arena.games.truf import events as ev
from arena.games.truf.actions import BIDS, MODES, Bid, Declare, Mode, Play
from arena.games.truf.rules import TrufRules, Variant
from arena.games.truf.state import DealSpec, TrufMatch
from arena.games.truf.view import PlayedCard, SeatView


def c(code: str) -> Card:
    return Card.parse(code)


def cards_in(value: object) -> Iterator[Card]:
    """Every card anywhere inside a view (or any part of one)."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, Bid | Play):
        yield value.card
    elif isinstance(value, Declare):
        yield from value.cards
    elif isinstance(value, tuple | list):
        for item in value:
            yield from cards_in(item)


def swapped(hand_set: tuple[tuple[Card, ...], ...], a: str, b: str) -> tuple[tuple[Card, ...], ...]:
    """The same deal with cards ``a`` and ``b`` changing hands."""
    x, y = c(a), c(b)
    return tuple(tuple(y if k == x else x if k == y else k for k in h) for h in hand_set)


def known_to(m: TrufMatch, seat: int) -> set[Card]:
    """From the referee's log: the cards ``seat`` may know of in the current deal."""
    start = max(i for i, e in enumerate(m.events) if isinstance(e, ev.DealStarted))
    dealt: ev.DealStarted = m.events[start]  # type: ignore[assignment]
    known = set(dealt.hands[seat])
    open_trick: list[ev.CardPlayed] = []
    for e in m.events[start:]:
        if isinstance(e, ev.BidsRevealed):
            known |= set(cards_in(e.bids))
        elif isinstance(e, ev.CardPlayed):
            open_trick.append(e)
            if not e.face_down or e.seat == seat:
                known.add(e.card)
        elif isinstance(e, ev.TrickClosed):
            known |= {card for _, card in e.cards}
            open_trick = []
    return known


# ------------------------------------------------------------------ own hand only


@pytest.mark.parametrize("variant", ["classic", "target"])
def test_view_shows_own_hand_and_no_other(variant: str) -> None:
    m = match(BREAK, variant=variant)
    for seat in range(4):
        view = m.view(seat)
        assert view.seat == seat
        assert view.hand == tuple(sorted(BREAK[seat]))
        assert set(cards_in(view)) == set(BREAK[seat])


@pytest.mark.parametrize(
    "rules",
    [TrufRules(variant=Variant.CLASSIC, deals=2), TrufRules(variant=Variant.TARGET, deals=2)],
    ids=["classic", "target"],
)
def test_view_never_holds_a_card_the_seat_may_not_know(rules: TrufRules) -> None:
    for seed in range(4):
        m = TrufMatch(rules, seed=seed)
        while not m.is_over:
            for seat in range(4):
                view = m.view(seat)
                assert set(cards_in(view)) <= known_to(m, seat)
                assert set(view.hand) <= set(events_of(m, ev.DealStarted)[-1].hands[seat])
            m.apply(*first_legal(m))


# ------------------------------------------------------------------ swapping unseen cards


def drive_both(a: TrufMatch, b: TrufMatch, avoid: set[Card], watchers: tuple[int, ...]) -> int:
    """Apply the same actions to both matches (the first legal in both that touches no
    card of ``avoid``) and check the watchers' views agree after every step."""
    steps = 0
    while not a.is_over and a.deal_no == 1:
        for seat in watchers:
            assert a.view(seat) == b.view(seat), f"seat {seat} tells the deals apart"
        seat = a.to_act()[0]
        shared = [x for x in a.legal_actions(seat) if x in b.legal_actions(seat)]
        usable = [x for x in shared if not set(cards_in((x,))) & avoid]
        if not usable:
            break
        a.apply(seat, usable[0])
        b.apply(seat, usable[0])
        steps += 1
    return steps


@pytest.mark.parametrize("variant", ["classic", "target"])
def test_view_is_unchanged_when_two_other_seats_swap_unseen_cards(variant: str) -> None:
    other = swapped(BREAK, "9D", "2D")  # seat 2's 9D for seat 1's 2D
    a, b = match(BREAK, variant=variant), match(other, variant=variant)
    bids = ("TS", "2H", "4D", "4C")
    if variant == "classic":
        bid_all(a, *bids)
        bid_all(b, *bids)
    else:
        declare_all(a, *bids)
        declare_all(b, *bids)
    steps = drive_both(a, b, {c("9D"), c("2D")}, watchers=(0, 3))
    assert steps >= 20, steps  # well into the play before a swapped card had to show


def test_view_cannot_tell_which_face_down_trump_was_played() -> None:
    other = swapped(BREAK, "2S", "QS")  # seat 3 ruffs with QS instead of 2S
    a, b = match(BREAK), match(other)
    for m in (a, b):
        bid_all(m, "TS", "2H", "4D", "4C")
    play(a, "AH", "2S")
    play(b, "AH", "QS")
    for seat in (0, 1):  # seats 2 and 3 hold the swapped cards
        assert a.view(seat) == b.view(seat)
    play(a, "4D")
    play(b, "4D")
    for seat in (0, 1):
        assert a.view(seat) == b.view(seat)
    play(a, "2H")
    play(b, "2H")  # the trick closes: now the trump shows
    assert a.view(0).tricks != b.view(0).tricks
    assert (3, c("2S")) in a.view(0).tricks[0].cards
    assert (3, c("QS")) in b.view(0).tricks[0].cards


# ------------------------------------------------------------------ bids


def test_bids_are_hidden_before_the_reveal_and_visible_after() -> None:
    a, b = match(BREAK), match(BREAK)
    a.apply(1, BIDS[c("2H")])
    b.apply(1, BIDS[c("8H")])  # a different, still hidden, bid
    for m in (a, b):
        m.apply(2, BIDS[c("4D")])
        m.apply(3, BIDS[c("4C")])
    for seat in (0, 2, 3):
        assert a.view(seat) == b.view(seat)
    for seat in range(4):
        view = a.view(seat)
        assert view.bids is None and view.bid_total is None and view.high_bidder is None
        assert view.trump is None and view.mode is None and view.final_bids is None
        assert c("4D") not in cards_in(view) or seat == 2
    assert a.view(0).to_act == (0,)
    a.apply(0, BIDS[c("TS")])
    for seat in range(4):
        view = a.view(seat)
        assert view.bids == tuple(BIDS[c(x)] for x in ("TS", "2H", "4D", "4C"))
        assert (view.bid_total, view.high_bidder, view.trump) == (20, 0, Suit.SPADES)
        assert (view.mode, view.final_bids) == (Mode.ATAS, (10, 2, 4, 4))


def test_declarations_are_hidden_before_the_reveal_and_visible_after() -> None:
    a, b = match(ONE_SUIT, variant="target"), match(ONE_SUIT, variant="target")
    a.apply(1, declaration("9H+2H sum"))
    b.apply(1, declaration("KH"))
    for m in (a, b):
        m.apply(2, declaration("2D"))
        m.apply(3, declaration("4C+3C subtract"))
    for seat in (0, 2, 3):
        assert a.view(seat) == b.view(seat)
        assert a.view(seat).bids is None
    a.apply(0, declaration("TS"))
    expected = tuple(declaration(t) for t in ("TS", "9H+2H sum", "2D", "4C+3C subtract"))
    for seat in range(4):
        view = a.view(seat)
        # targets 10 11 2 1 = 24: atas; seat 1 (11, hearts) wins T3
        assert view.bids == expected and view.final_bids == (10, 11, 2, 1)
        assert (view.high_bidder, view.trump, view.mode) == (1, Suit.HEARTS, Mode.ATAS)


# ------------------------------------------------------------------ face-down trumps


def test_face_down_trump_shows_no_card_to_others_and_the_card_to_its_owner() -> None:
    m = match(BREAK)
    bid_all(m, "TS", "2H", "4D", "4C")
    play(m, "AH", "2S", "4D")
    for seat in (0, 1, 2):
        trick = m.view(seat).trick
        assert trick[1] == PlayedCard(3, None, True)
        assert c("2S") not in cards_in(m.view(seat))
    assert m.view(3).trick[1] == PlayedCard(3, c("2S"), True)
    play(m, "2H")
    for seat in range(4):
        assert m.view(seat).tricks[0].cards[1] == (3, c("2S"))
        assert m.view(seat).trick == ()


def test_face_down_lead_is_read_as_a_trump_lead() -> None:
    m = match(BREAK)
    bid_all(m, "TS", "2H", "4D", "4C")
    play(m, "AH", "2S", "4D", "2H", "3S")  # seat 3 ruffed, then leads trump face down
    for seat in (0, 1, 2):
        assert m.view(seat).trick == (PlayedCard(3, None, True),)
        assert m.view(seat).led_suit == Suit.SPADES
    assert m.view(3).trick == (PlayedCard(3, c("3S"), True),)


def test_target_trumps_are_visible_face_up() -> None:
    m = match(BREAK, variant="target")
    declare_all(m, "TS", "2H", "4D", "4C")
    play(m, "AH", "2S")
    for seat in range(4):
        assert m.view(seat).trick[1] == PlayedCard(3, c("2S"), False)


# ------------------------------------------------------------------ thrown-in deals (C2)


def test_views_after_a_deal_start_show_no_thrown_in_deal() -> None:
    seed = next(
        s
        for s in range(3000)
        if TrufMatch(TrufRules(deals=1), seed=s).events[0].redeals  # type: ignore[union-attr]
    )
    redealt = TrufMatch(TrufRules(deals=1), seed=seed)
    started = redealt.events[0]
    assert isinstance(started, ev.DealStarted) and started.redeals >= 1
    # The same final deal, given directly: nothing was ever thrown in here.
    given = TrufMatch(
        TrufRules(deals=1),
        seed=seed,
        deals=[DealSpec(started.hands, dealer=started.dealer, source="same hands")],
    )
    assert given.events[0].redeals == 0  # type: ignore[union-attr]
    assert not any("redeal" in field for field in SeatView._fields)
    while not redealt.is_over:
        for seat in range(4):
            assert redealt.view(seat) == given.view(seat)
        seat, action = first_legal(redealt)
        redealt.apply(seat, action)
        given.apply(seat, action)
    for seat in range(4):
        assert redealt.view(seat) == given.view(seat)


# ------------------------------------------------------------------ public facts


def test_view_shows_order_direction_dealer_tricks_won_and_totals() -> None:
    m = match(deal(ONE_SUIT, 1), deal(ONE_SUIT, None), n_deals=2)
    view = m.view(2)
    assert (view.dealer, view.direction, view.order) == (1, "ccw", (0, 3, 2, 1))
    assert view.deal == 1 and view.deals == 2 and view.names == ("seat0", "seat1", "seat2", "seat3")
    bid_all(m, "TS", "2H", "3D", "2C")  # atas: seat 0 takes all 13
    play(m, "2S", "2C", "2D", "2H")
    assert all(m.view(s).tricks_won == (1, 0, 0, 0) for s in range(4))
    play_rest_of_deal(m)
    view = m.view(3)
    assert view.deal == 2 and view.direction == "cw"
    assert view.totals == (3, -2, -3, -2) and view.tricks_won == (0, 0, 0, 0)
    assert view.dealer == 2  # lowest total (C7)
    assert view.hand == tuple(sorted(ONE_SUIT[3]))


def test_view_hides_trump_and_mode_until_set() -> None:
    m = match(hands("5S", "4H", "3D", "AC"))
    assert m.view(0).trump is None and m.view(0).mode is None
    bid_all(m, "5S", "4H", "3D", "AC")  # 13: the high bidder must choose
    view = m.view(1)
    assert view.trump == Suit.SPADES and view.mode is None and view.phase == "mode"
    assert m.legal_actions(0) == (MODES[Mode.ATAS], MODES[Mode.BAWAH])
    m.apply(0, MODES[Mode.BAWAH])
    # the high bidder's choice (C5), shown to every seat, not just some mode
    assert [m.view(s).mode for s in range(4)] == [Mode.BAWAH] * 4
    assert m.view(1).phase == "play" and m.view(1).to_act == (0,)


# ------------------------------------------------------------------ lazy views


@pytest.mark.parametrize(
    "rules",
    [TrufRules(variant=Variant.CLASSIC, deals=3), TrufRules(variant=Variant.TARGET, deals=3)],
    ids=["classic", "target"],
)
def test_lazy_view_is_the_view_of_its_moment_for_every_seat_and_decision(rules: TrufRules) -> None:
    """What in-process bots get (``lazy_view``, built when first read) equals ``view`` for
    every seat at every step, C11's owner case included, and does not change as play
    goes on: it is read only after the rest of the match has been played."""
    import random

    from arena.games.truf.view import LazyView

    for seed in range(3):
        m = TrufMatch(rules, seed=seed)
        rng = random.Random(seed)
        taken: list[tuple[object, SeatView]] = []
        owner_cases = 0
        while not m.is_over:
            for seat in range(4):
                lazy = m.lazy_view(seat)
                taken.append((lazy, m.view(seat)))
                owner_cases += not isinstance(lazy, LazyView)
            for seat in m.to_act():
                m.apply(seat, rng.choice(m.legal_actions(seat)))
        assert m.lazy_view(0) == m.view(0)  # the match's end, too
        for lazy, eager in taken:
            built = lazy.materialize() if isinstance(lazy, LazyView) else lazy
            assert lazy == eager and eager == built and type(built) is SeatView
            assert tuple(lazy) == tuple(eager)  # type: ignore[arg-type]
            assert lazy.seat == eager.seat and lazy.match_id == eager.match_id  # type: ignore[attr-defined]
            assert lazy.hand == eager.hand and lazy.led_suit == eager.led_suit  # type: ignore[attr-defined]
            assert hash(lazy) == hash(eager)
        if rules.variant is Variant.CLASSIC:
            assert owner_cases  # a face-down trump's owner gets the eager view (C11)


def test_a_lazy_view_cannot_be_changed() -> None:
    m = match(BREAK)
    view = m.lazy_view(0)
    with pytest.raises(AttributeError):
        view.hand = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        view.seat = 1  # type: ignore[misc]
    assert view.hand == tuple(sorted(BREAK[0]))
