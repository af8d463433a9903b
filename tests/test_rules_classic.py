"""Classic Truf (seeds 000/001), one test or more per ruling C1..C14, on hand-built deals.

Every expected number is worked out by hand from the rulings, in the comment beside it.
The layouts (ONE_SUIT, SPLIT, BREAK) are described in ``tests/deals.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from deals import (
    BREAK,
    ONE_SUIT,
    SPLIT,
    assert_refused,
    bid_all,
    cards,
    choose,
    deal,
    events_of,
    hands,
    is_c2_valid,
    last_scored,
    match,
    play,
    play_out,
    play_rest_of_deal,
    suit,
)

from arena.core.cards import CARDS, Card, Suit, mask_of
from arena.games.truf import events as ev
from arena.games.truf.actions import BIDS, MODES, PLAYS, Mode
from arena.games.truf.dealsfile import load_deals
from arena.games.truf.errors import DealError
from arena.games.truf.rules import TrufRules
from arena.games.truf.state import DealSpec, TrufMatch, check_deal, needs_redeal
from arena.games.truf.view import PlayedCard


def plays(text: str) -> set[object]:
    return {PLAYS[c] for c in cards(text)}


def c(code: str) -> Card:
    return Card.parse(code)


# --------------------------------------------------------------------------- C1


def test_c1_four_seats_get_13_cards_each_and_a_match_is_13_deals() -> None:
    assert TrufRules().deals == 13
    m = TrufMatch(TrufRules(), seed=7)
    play_out(m)
    started = events_of(m, ev.DealStarted)
    assert [s.deal for s in started] == list(range(1, 14))
    for s in started:
        assert [len(h) for h in s.hands] == [13, 13, 13, 13]
        assert sorted(card for h in s.hands for card in h) == list(CARDS)
    assert len(events_of(m, ev.DealScored)) == 13
    assert [t.number for t in events_of(m, ev.TrickClosed)] == list(range(1, 14)) * 13
    assert m.is_over and len(events_of(m, ev.MatchEnded)) == 1


def test_c1_nothing_may_be_played_once_the_match_is_over() -> None:
    m = match(ONE_SUIT)
    bid_all(m, "TS", "2H", "3D", "2C")
    play_rest_of_deal(m)
    assert m.is_over and m.to_act() == ()
    assert all(not m.legal_actions(s) for s in range(4))
    assert_refused(m, 0, PLAYS[c("2S")], "C1")


def test_c1_a_given_deal_with_a_short_hand_is_refused() -> None:
    short = (ONE_SUIT[0][:12], *ONE_SUIT[1:])
    with pytest.raises(DealError):
        TrufMatch(TrufRules(), deals=[deal(short)])


# --------------------------------------------------------------------------- C2

ALL_NUMERALS = cards(suit("S", "23456789T") + " 2H 3H 4H 5H")
ALL_COURTS = cards("AS KS QS JS AH KH QH JH AD KD QD JD AC")


def with_first_hand(first: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    """``first`` for seat 0; the other 39 cards dealt round to seats 1..3."""
    rest = [card for card in CARDS if card not in first]
    return (first, *(tuple(rest[i::3]) for i in range(3)))


def test_c2_all_numeral_hand_is_redealt() -> None:
    bad = with_first_hand(ALL_NUMERALS)
    assert all(is_c2_valid(h) for h in bad[1:])  # only seat 0's hand is at fault
    assert needs_redeal([mask_of(h) for h in bad])
    with pytest.raises(DealError, match="C2"):
        check_deal(bad)


def test_c2_all_court_hand_is_redealt_and_the_ace_counts_as_a_court_card() -> None:
    bad = with_first_hand(ALL_COURTS)  # four aces among the thirteen
    assert all(is_c2_valid(h) for h in bad[1:])
    assert needs_redeal([mask_of(h) for h in bad])
    with pytest.raises(DealError, match="C2"):
        check_deal(bad)


@pytest.mark.parametrize(
    "first",
    [
        cards(suit("S", "23456789T") + " 2H 3H 4H AH"),  # twelve numerals and an ace
        cards("AS KS QS JS AH KH QH JH AD KD QD JD 2C"),  # twelve court cards and a two
    ],
    ids=["numerals-and-one-ace", "courts-and-one-numeral"],
)
def test_c2_one_card_of_the_other_kind_keeps_the_deal(first: tuple[Card, ...]) -> None:
    good = with_first_hand(first)
    assert not needs_redeal([mask_of(h) for h in good])
    check_deal(good)
    m = match(good)
    assert m.view(0).hand == tuple(sorted(first))


def test_c2_a_deal_file_that_breaks_c2_is_refused_naming_the_deal(tmp_path: Path) -> None:
    good = [[card.code for card in h] for h in ONE_SUIT]
    bad = [[card.code for card in h] for h in with_first_hand(ALL_NUMERALS)]
    path = tmp_path / "deals.jsonl"
    path.write_text(json.dumps({"hands": good}) + "\n" + json.dumps({"hands": bad}) + "\n")
    with pytest.raises(DealError, match="line 2") as info:
        load_deals(path)
    assert "C2" in str(info.value)


def test_c2_a_given_deal_that_breaks_c2_is_refused() -> None:
    bad = with_first_hand(ALL_NUMERALS)
    with pytest.raises(DealError, match="C2"):
        TrufMatch(TrufRules(), deals=[DealSpec(bad, 0, "given")])


def first_seed_with_a_redeal(deals: int, *, later: bool = False) -> int:
    for seed in range(3000):
        m = TrufMatch(TrufRules(deals=deals), seed=seed)
        if later:
            play_out(m)
        started = events_of(m, ev.DealStarted)
        if any(s.redeals for s in started[1 if later else 0 :]):
            return seed
    raise AssertionError("no seed with a thrown-in deal; the search range is too small")


def test_c2_a_thrown_in_seeded_deal_is_dealt_again_into_valid_hands() -> None:
    seed = first_seed_with_a_redeal(1)
    m = TrufMatch(TrufRules(deals=1), seed=seed)
    started = m.events[0]
    assert isinstance(started, ev.DealStarted) and started.redeals >= 1
    assert all(is_c2_valid(h) and len(h) == 13 for h in started.hands)
    assert started.dealer == m.dealer  # same dealer; later deals: see the C7 seeded test
    assert [m.view(s).hand for s in range(4)] == [tuple(sorted(h)) for h in started.hands]


# --------------------------------------------------------------------------- C3


def test_c3_all_four_seats_bid_at_once_in_any_order() -> None:
    m = match(ONE_SUIT)
    assert m.phase == "bid" and set(m.to_act()) == {0, 1, 2, 3}
    for seat in range(4):  # any one card of the bidder's own hand
        assert set(m.legal_actions(seat)) == {BIDS[card] for card in ONE_SUIT[seat]}
    for seat, code in [(2, "3D"), (0, "TS"), (3, "2C")]:
        assert seat in m.to_act()
        m.apply(seat, BIDS[c(code)])
        assert m.phase == "bid" and not events_of(m, ev.BidsRevealed)
    assert m.to_act() == (1,)
    m.apply(1, BIDS[c("2H")])
    (revealed,) = events_of(m, ev.BidsRevealed)
    assert revealed.bids == tuple(BIDS[c(x)] for x in ("TS", "2H", "3D", "2C"))


def test_c3_a_bid_is_a_card_of_the_bidders_own_hand() -> None:
    m = match(ONE_SUIT)
    assert_refused(m, 0, BIDS[c("AH")], "C3")  # seat 1 holds the hearts


def test_c3_each_seat_bids_once() -> None:
    m = match(ONE_SUIT)
    m.apply(0, BIDS[c("TS")])
    assert not m.legal_actions(0)
    assert_refused(m, 0, BIDS[c("9S")], "C3")


def test_c3_the_bid_phase_takes_only_bids() -> None:
    m = match(ONE_SUIT)
    assert_refused(m, 0, PLAYS[c("2S")], "C3")
    assert_refused(m, 0, MODES[Mode.ATAS], "C3")


def test_c3_a_bid_is_worth_its_cards_value() -> None:
    m = match(hands("AS", "KH", "TD", "7C"))
    bid_all(m, "AS", "KH", "TD", "7C")
    (revealed,) = events_of(m, ev.BidsRevealed)
    assert revealed.total == 18  # A = 1, K = 0, 10, 7
    assert m.view(0).final_bids == (1, 0, 10, 7)  # atas, no shift


def test_c3_bid_cards_go_back_into_the_hands() -> None:
    m = match(ONE_SUIT)
    bid_all(m, "TS", "2H", "3D", "2C")
    for seat in range(4):
        assert m.view(seat).hand == tuple(sorted(ONE_SUIT[seat]))
    play(m, "TS")  # the high bidder leads its own bid card


# --------------------------------------------------------------------------- C4


def reveal(*bids: str) -> ev.BidsRevealed:
    m = match(hands(*bids))
    bid_all(m, *bids)
    (revealed,) = events_of(m, ev.BidsRevealed)
    for seat in range(4):
        view = m.view(seat)
        assert (view.high_bidder, view.trump) == (revealed.high_bidder, revealed.trump)
    return revealed


@pytest.mark.parametrize(
    ("bids", "high", "trump"),
    [
        (("2S", "9H", "5D", "AC"), 1, Suit.HEARTS),  # 9 is the highest value
        (("KS", "QH", "AD", "JC"), 2, Suit.DIAMONDS),  # ace = 1 beats the court cards' 0
        (("9S", "TH", "9D", "9C"), 1, Suit.HEARTS),  # the ten is the highest bid card
    ],
)
def test_c4_highest_value_makes_the_high_bidder_and_its_suit_is_trump(
    bids: tuple[str, ...], high: int, trump: Suit
) -> None:
    revealed = reveal(*bids)
    assert (revealed.high_bidder, revealed.trump) == (high, trump)


@pytest.mark.parametrize(
    ("bids", "high"),
    [
        (("7C", "7D", "7H", "7S"), 3),  # spades first
        (("7C", "7D", "7H", "2S"), 2),  # then hearts
        (("7C", "7D", "2H", "2S"), 1),  # then diamonds, then clubs
        (("7D", "7C", "2H", "2S"), 0),
    ],
)
def test_c4_tie_on_value_goes_to_higher_suit_spades_first(bids: tuple[str, ...], high: int) -> None:
    revealed = reveal(*bids)
    assert revealed.high_bidder == high
    assert revealed.trump == c(bids[high]).suit


@pytest.mark.parametrize(
    ("bids", "high"),
    [
        (("JS", "QS", "KS", "JH"), 2),  # K > Q > J within one suit
        (("JD", "QD", "JC", "QC"), 1),  # suit first (D > C), then Q > J
        (("KH", "JS", "QH", "QS"), 3),  # spades beat the king of hearts; Q > J
        (("KC", "QC", "JC", "JD"), 3),  # the jack of diamonds beats the king of clubs
    ],
)
def test_c4_zero_value_ties_break_king_queen_jack(bids: tuple[str, ...], high: int) -> None:
    revealed = reveal(*bids)
    assert revealed.total == 0
    assert revealed.high_bidder == high and revealed.trump == c(bids[high]).suit


# --------------------------------------------------------------------------- C5


def test_c5_total_above_13_is_atas_and_the_bids_stand() -> None:
    m = match(ONE_SUIT)
    bid_all(m, "TS", "2H", "3D", "2C")  # 17
    assert events_of(m, ev.ModeSet) == [ev.ModeSet(Mode.ATAS, (10, 2, 3, 2), False)]
    assert not events_of(m, ev.ModeChosen) and m.phase == "play"


def test_c5_total_below_13_is_bawah_and_the_bids_stand() -> None:
    m = match(ONE_SUIT)
    bid_all(m, "TS", "KH", "QD", "2C")  # 12
    assert events_of(m, ev.ModeSet) == [ev.ModeSet(Mode.BAWAH, (10, 0, 0, 2), False)]
    assert m.phase == "play"


@pytest.mark.parametrize(("mode", "final"), [("atas", (6, 5, 4, 2)), ("bawah", (4, 3, 2, 0))])
def test_c5_total_13_high_bidder_must_choose_and_all_bids_shift(
    mode: str, final: tuple[int, ...]
) -> None:
    m = match(hands("5S", "4H", "3D", "AC"))
    bid_all(m, "5S", "4H", "3D", "AC")  # 5 + 4 + 3 + 1 = 13, as in the seed's example
    assert m.phase == "mode" and m.to_act() == (0,)
    assert set(m.legal_actions(0)) == {MODES[Mode.ATAS], MODES[Mode.BAWAH]}
    assert all(not m.legal_actions(s) for s in (1, 2, 3))
    assert_refused(m, 1, MODES[Mode(mode)], "C5")  # only the high bidder chooses
    assert_refused(m, 0, PLAYS[c("5S")], "C5")  # no play before the choice
    choose(m, mode)
    assert events_of(m, ev.ModeChosen) == [ev.ModeChosen(0, Mode(mode))]
    assert events_of(m, ev.ModeSet) == [ev.ModeSet(Mode(mode), final, True)]
    for seat in range(4):
        assert (m.view(seat).mode, m.view(seat).final_bids) == (mode, final)


def test_c5_zero_bid_can_become_minus_one() -> None:
    m = match(ONE_SUIT)
    bid_all(m, "TS", "3H", "KD", "QC")  # 10 + 3 + 0 + 0 = 13
    choose(m, "bawah")
    assert m.view(2).final_bids == (9, 2, -1, -1)


def test_c5_the_choice_is_never_made_for_the_high_bidder() -> None:
    m = match(ONE_SUIT)
    bid_all(m, "TS", "3H", "KD", "QC")  # 13
    assert m.phase == "mode" and m.to_act() == (0,)
    assert not events_of(m, ev.ModeSet)
    for seat in range(4):
        assert m.view(seat).mode is None and m.view(seat).final_bids is None
    for seat in (1, 2, 3):
        assert_refused(m, seat, MODES[Mode.BAWAH], "C5")
    assert m.phase == "mode"


# --------------------------------------------------------------------------- C6


def test_c6_direction_alternates_starting_counter_clockwise() -> None:
    m = match(ONE_SUIT, n_deals=3)  # dealer 0 every deal
    expected = {
        1: ("ccw", (3, 2, 1, 0), [0, 3, 2, 1]),
        2: ("cw", (1, 2, 3, 0), [0, 1, 2, 3]),
        3: ("ccw", (3, 2, 1, 0), [0, 3, 2, 1]),
    }
    for number, (direction, order, first_trick) in expected.items():
        assert m.deal_no == number
        bid_all(m, "TS", "2H", "3D", "2C")  # seat 0 is high bidder and leads (C8)
        for seat in range(4):
            assert (m.view(seat).direction, m.view(seat).order) == (direction, order)
        seen = []
        for _ in range(4):
            (seat,) = m.to_act()
            seen.append(seat)
            m.apply(seat, m.legal_actions(seat)[0])
        assert seen == first_trick
        play_rest_of_deal(m)
    assert [s.direction for s in events_of(m, ev.DealStarted)] == ["ccw", "cw", "ccw"]


# --------------------------------------------------------------------------- C7


def test_c7_first_dealer_is_chosen_by_the_match_seed() -> None:
    dealers = {seed: TrufMatch(TrufRules(), seed=seed).dealer for seed in range(40)}
    assert dealers == {seed: TrufMatch(TrufRules(), seed=seed).dealer for seed in range(40)}
    assert set(dealers.values()) == {0, 1, 2, 3}
    m = TrufMatch(TrufRules(), seed=11)
    assert m.events[0].dealer == m.view(2).dealer == dealers[11]  # type: ignore[union-attr]
    given = match(ONE_SUIT, dealer=None)  # a given deal without a dealer: the seed chooses
    assert given.dealer == dealers[0]


def test_c7_next_dealer_is_the_seat_with_the_lowest_total() -> None:
    m = match(deal(ONE_SUIT, 0), deal(ONE_SUIT, None), n_deals=2)
    bid_all(m, "TS", "2H", "3D", "2C")  # 17: atas
    play_rest_of_deal(m)
    # Seat 0 took all 13 tricks: 13 - 10 = +3; the others took none: -2, -3, -2.
    assert m.totals == [3, -2, -3, -2]
    assert m.dealer == 2 and m.view(0).dealer == 2
    assert events_of(m, ev.DealStarted)[-1].dealer == 2


@pytest.mark.parametrize(("previous", "expected"), [(0, 1), (1, 3), (2, 3), (3, 1)])
def test_c7_next_dealer_is_lowest_total_tie_goes_first_after_previous_dealer_in_new_direction(
    previous: int, expected: int
) -> None:
    m = match(deal(ONE_SUIT, previous), deal(ONE_SUIT, None), n_deals=2)
    bid_all(m, "TS", "3H", "2D", "3C")  # 18: atas
    play_rest_of_deal(m)
    # +3, -3, -2, -3: seats 1 and 3 tie. Deal 2 is clockwise, so from the previous
    # dealer count 1 seat on at a time (s + 1) and take the first tied seat.
    assert m.totals == [3, -3, -2, -3]
    assert m.view(0).direction == "cw"
    assert m.dealer == expected


def test_c7_tie_in_a_counter_clockwise_deal_is_broken_counter_clockwise() -> None:
    m = match(deal(ONE_SUIT, 0), deal(ONE_SUIT, None), deal(ONE_SUIT, None), n_deals=3)
    bid_all(m, "TS", "3H", "2D", "3C")
    play_rest_of_deal(m)
    assert m.totals == [3, -3, -2, -3] and m.dealer == 1  # clockwise from 0: seat 1
    bid_all(m, "TS", "2H", "3D", "2C")  # +3, -2, -3, -2
    play_rest_of_deal(m)
    # 6, -5, -5, -5: seats 1, 2, 3 tie. Deal 3 is counter-clockwise: from seat 1, the
    # seats come 0, 3, 2; seat 3 is the first tied one (clockwise would give seat 2).
    assert m.totals == [6, -5, -5, -5]
    assert m.view(0).direction == "ccw"
    assert m.dealer == 3


def test_c7_every_later_dealer_of_a_seeded_match_follows_the_rule() -> None:
    seeds = [0, 1, 2, first_seed_with_a_redeal(13, later=True)]
    for seed in seeds:
        m = TrufMatch(TrufRules(), seed=seed)
        play_out(m)
        started = events_of(m, ev.DealStarted)
        scored = events_of(m, ev.DealScored)
        for k in range(1, 13):
            step = -1 if started[k].direction == "ccw" else 1
            totals, previous = scored[k - 1].totals, started[k - 1].dealer
            seats = [(previous + step * i) % 4 for i in range(1, 5)]
            assert started[k].dealer == next(s for s in seats if totals[s] == min(totals))
    assert any(s.redeals for s in started[1:])  # the last seed redealt a later deal


def test_c7_the_dealer_has_no_other_role() -> None:
    for dealer in range(4):
        m = match(SPLIT, dealer=dealer)
        bid_all(m, "TS", "3H", "KD", "2C")
        assert m.to_act() == (0,)  # the high bidder leads, wherever the dealer sits
        play_rest_of_deal(m)
        assert last_scored(m).tricks_won == (11, 2, 0, 0)


# --------------------------------------------------------------------------- C8


def test_c8_high_bidder_leads_first_trick_then_winner_leads() -> None:
    m = match(SPLIT)  # dealer 0: seat 3 is first after the dealer, but seat 0 bids highest
    bid_all(m, "TS", "3H", "KD", "2C")  # 15: atas, seat 0 high with TS
    assert m.to_act() == (0,) and m.view(2).trick_leader == 0
    play(m, "2H", "2C", "2D", "3H")  # seat 1's heart is the highest of the led suit
    trick = events_of(m, ev.TrickClosed)[-1]
    assert (trick.leader, trick.winner) == (0, 1)
    assert m.to_act() == (1,) and m.view(3).trick_leader == 1
    play(m, "4H", "2S", "3C", "3D")  # seat 0 ruffs
    assert events_of(m, ev.TrickClosed)[-1].winner == 0
    assert m.to_act() == (0,)


def test_c8_only_the_seat_to_play_may_play() -> None:
    m = match(SPLIT)
    bid_all(m, "TS", "3H", "KD", "2C")
    assert not m.legal_actions(3)
    assert_refused(m, 3, PLAYS[c("2C")], "C8")
    play(m, "2H")
    assert_refused(m, 1, PLAYS[c("3H")], "C8")  # seat 3 plays next (counter-clockwise)


# --------------------------------------------------------------------------- C9


def test_c9_must_follow_suit() -> None:
    m = match(SPLIT)
    bid_all(m, "TS", "3H", "KD", "2C")
    play(m, "2H", "2C", "2D")
    assert m.to_act() == (1,)
    assert set(m.legal_actions(1)) == plays(suit("H", "3456789TJQKA"))
    assert_refused(m, 1, PLAYS[c("AS")], "C9")


def test_c9_a_seat_that_cannot_follow_may_play_any_card_including_trump() -> None:
    m = match(BREAK)
    bid_all(m, "TS", "2H", "4D", "4C")  # spades trump
    play(m, "AH")
    assert set(m.legal_actions(3)) == {PLAYS[card] for card in BREAK[3]}  # 2S 3S and clubs
    play(m, "2S")
    assert set(m.legal_actions(2)) == {PLAYS[card] for card in BREAK[2]}  # AS QS, diamonds
    play(m, "9D")
    assert set(m.legal_actions(1)) == plays("8H 7H 6H 5H 4H 3H 2H")


# --------------------------------------------------------------------------- C10


def test_c10_trump_may_not_be_led_until_broken() -> None:
    m = match(BREAK)
    bid_all(m, "TS", "2H", "4D", "4C")
    assert set(m.legal_actions(0)) == plays("AH KH QH JH TH 9H")
    assert_refused(m, 0, PLAYS[c("TS")], "C10")
    play(m, "AH", "AC", "4D", "2H")  # no trump in this trick: still unbroken
    assert events_of(m, ev.TrickClosed)[-1].winner == 0
    assert not m.view(0).trump_broken
    assert set(m.legal_actions(0)) == plays("KH QH JH TH 9H")
    assert_refused(m, 0, PLAYS[c("4S")], "C10")


def test_c10_leader_with_only_trumps_may_lead_trump() -> None:
    m = match(ONE_SUIT)
    bid_all(m, "TS", "2H", "3D", "2C")
    assert not m.view(0).trump_broken
    assert set(m.legal_actions(0)) == plays(suit("S"))
    play(m, "2S")


def test_c10_ruff_breaks_trump() -> None:
    m = match(BREAK)
    bid_all(m, "TS", "2H", "4D", "4C")
    play(m, "AH", "2S", "4D", "2H")  # seat 3, void in hearts, ruffs
    assert events_of(m, ev.TrickClosed)[-1].winner == 3
    assert all(m.view(s).trump_broken for s in range(4))
    assert set(m.legal_actions(3)) == {PLAYS[card] for card in BREAK[3] if card != c("2S")}
    play(m, "3S")  # seat 3 still holds clubs, yet may lead trump now


def test_c10_discarded_trump_breaks_trump() -> None:
    m = match(BREAK)
    bid_all(m, "TS", "2H", "4D", "4C")
    play(m, "AH", "2S", "AS", "2H")  # seat 3's trump is overtrumped: it wins nothing
    assert events_of(m, ev.TrickClosed)[-1].winner == 2
    assert m.view(2).trump_broken
    assert PLAYS[c("QS")] in m.legal_actions(2)  # seat 2 holds diamonds too
    play(m, "QS")


def test_c10_trump_is_unbroken_again_in_the_next_deal() -> None:
    m = match(BREAK, n_deals=2)
    bid_all(m, "TS", "2H", "4D", "4C")
    play(m, "AH", "2S", "4D", "2H")
    play_rest_of_deal(m)
    assert m.deal_no == 2 and not m.view(0).trump_broken
    bid_all(m, "TS", "2H", "4D", "4C")
    assert set(m.legal_actions(0)) == plays("AH KH QH JH TH 9H")


# --------------------------------------------------------------------------- C11


def test_c11_every_trump_is_played_face_down() -> None:
    m = match(BREAK)
    bid_all(m, "TS", "2H", "4D", "4C")
    play(m, "AH", "2S", "4D", "2H", "3S", "AS")
    assert [tuple(e) for e in events_of(m, ev.CardPlayed)] == [
        (0, c("AH"), False),
        (3, c("2S"), True),
        (2, c("4D"), False),
        (1, c("2H"), False),
        (3, c("3S"), True),
        (2, c("AS"), True),
    ]


def test_c11_face_down_trump_hidden_from_others_until_trick_closes() -> None:
    m = match(BREAK)
    bid_all(m, "TS", "2H", "4D", "4C")
    play(m, "AH", "2S")
    hidden = (PlayedCard(0, c("AH"), False), PlayedCard(3, None, True))
    for seat in (0, 1, 2):
        assert m.view(seat).trick == hidden
    assert m.view(3).trick == (PlayedCard(0, c("AH"), False), PlayedCard(3, c("2S"), True))
    play(m, "4D")
    assert m.view(1).trick == (*hidden, PlayedCard(2, c("4D"), False))
    play(m, "2H")  # the fourth card: all revealed, trick decided
    for seat in range(4):
        view = m.view(seat)
        assert view.trick == ()
        assert view.tricks[0].cards == ((0, c("AH")), (3, c("2S")), (2, c("4D")), (1, c("2H")))
        assert view.tricks[0].winner == 3


def test_c11_face_down_lead_obliges_following_trump() -> None:
    m = match(BREAK)
    bid_all(m, "TS", "2H", "4D", "4C")
    play(m, "AH", "2S", "4D", "2H")  # seat 3 ruffs, breaks trump and leads next
    play(m, "3S")
    view = m.view(2)
    assert view.trick == (PlayedCard(3, None, True),) and view.led_suit == Suit.SPADES
    assert set(m.legal_actions(2)) == plays("AS QS")
    err = assert_refused(m, 2, PLAYS[c("5D")], "C9", "C11")
    assert "C11" in str(err)
    play(m, "QS")
    assert set(m.legal_actions(1)) == plays("KS JS")
    play(m, "JS")
    assert set(m.legal_actions(0)) == plays("TS 9S 8S 7S 6S 5S 4S")  # hearts held, not legal


# --------------------------------------------------------------------------- C12


def test_c12_highest_trump_wins_over_the_led_suit() -> None:
    m = match(BREAK)
    bid_all(m, "TS", "2H", "4D", "4C")
    play(m, "AH", "2S", "AS", "2H")
    assert events_of(m, ev.TrickClosed)[-1].winner == 2  # AS over 2S; the led AH loses


def test_c12_highest_trump_wins_ace_high() -> None:
    m = match(BREAK)
    bid_all(m, "TS", "2H", "4D", "4C")
    play(m, "AH", "2S", "4D", "2H", "3S", "AS", "KS", "TS")
    assert events_of(m, ev.TrickClosed)[-1].winner == 2  # A > K > 10 > 3


def test_c12_without_trump_highest_card_of_the_led_suit_wins() -> None:
    m = match(BREAK)
    bid_all(m, "TS", "2H", "4D", "4C")
    play(m, "9H", "AC", "AD", "8H")  # off-suit aces, no trump: 9H beats 8H
    assert events_of(m, ev.TrickClosed)[-1].winner == 0
    m = match(SPLIT)
    bid_all(m, "TS", "3H", "KD", "2C")
    play(m, "2H", "KC", "AD", "3H")  # the follower's 3H beats the led 2H
    assert events_of(m, ev.TrickClosed)[-1].winner == 1


# --------------------------------------------------------------------------- C13


def scores(
    layout: tuple[tuple[Card, ...], ...],
    bids: tuple[str, ...],
    mode: str | None = None,
    **options: Any,
) -> tuple[int, ...]:
    m = match(layout, **options)
    bid_all(m, *bids)
    if mode is not None:
        choose(m, mode)
    play_rest_of_deal(m)
    scored = last_scored(m)
    expected_tricks = (13, 0, 0, 0) if layout is ONE_SUIT else (11, 2, 0, 0)
    assert scored.tricks_won == expected_tricks
    assert tuple(m.totals) == scored.scores == scored.totals
    return scored.scores


def test_c13_method_1_is_the_default() -> None:
    assert TrufRules().scoring == "1"
    # atas, bids 10 2 3 2, tricks 13 0 0 0: d = tricks - bid.
    assert scores(ONE_SUIT, ("TS", "2H", "3D", "2C")) == (3, -2, -3, -2)


def test_c13_method_1_bawah_d_is_bid_minus_tricks_and_exact_scores_0() -> None:
    # bawah, bids 10 0 0 2: 10 - 13 = -3; 0 - 0 = 0 (exact); 2 - 0 = 2.
    assert scores(ONE_SUIT, ("TS", "KH", "QD", "2C"), scoring="1") == (-3, 0, 0, 2)


def test_c13_method_1_split_tricks() -> None:
    # atas (15), bids 10 3 0 2, tricks 11 2 0 0: +1, -1, 0, -2.
    assert scores(SPLIT, ("TS", "3H", "KD", "2C")) == (1, -1, 0, -2)


def test_c13_scores_use_the_bids_as_shifted_by_c5() -> None:
    # 10 + 1 + 0 + 2 = 13; atas: bids 11 2 1 3; tricks 13 0 0 0: +2, -2, -1, -3.
    assert scores(ONE_SUIT, ("TS", "AH", "KD", "2C"), "atas") == (2, -2, -1, -3)
    # bawah: bids 9 0 -1 1: 9 - 13 = -4, 0, -1 - 0 = -1, +1.
    assert scores(ONE_SUIT, ("TS", "AH", "KD", "2C"), "bawah") == (-4, 0, -1, 1)


def test_c13_method_2_zero_bid_and_no_trick_in_bawah_scores_5() -> None:
    # bawah, bids 10 0 0 2: seats 1 and 2 bid 0 and took nothing.
    assert scores(ONE_SUIT, ("TS", "KH", "QD", "2C"), scoring="2") == (-3, 5, 5, 2)


def test_c13_method_2_bid_1_cut_to_0_counts_for_5_bid_cut_to_minus_1_does_not() -> None:
    # 13 -> bawah: bids 9 0 -1 1. Seat 1's 1 became 0: +5. Seat 2's 0 became -1: -1.
    assert scores(ONE_SUIT, ("TS", "AH", "KD", "2C"), "bawah", scoring="2") == (-4, 5, -1, 1)


def test_c13_method_2_gives_no_bonus_in_atas() -> None:
    # atas (17), bids 10 0 5 2: seat 1 bid 0, took 0: d = 0, no bonus.
    assert scores(ONE_SUIT, ("TS", "KH", "5D", "2C"), scoring="2") == (3, 0, -5, -2)


def test_c13_method_2_exact_nonzero_bid_scores_0() -> None:
    # 10 + 3 + 0 + 0 = 13 -> bawah: bids 9 2 -1 -1; tricks 11 2 0 0.
    # 9 - 11 = -2; seat 1 exact at 2: 0 (the bonus is for 0 only); -1, -1.
    assert scores(SPLIT, ("TS", "3H", "KD", "KC"), "bawah", scoring="2") == (-2, 0, -1, -1)


def test_c13_method_3_multiplies_a_positive_d() -> None:
    # bawah, bids 10 0 0 2: -3, 0, 0, 2 x 2 = 4.
    assert scores(ONE_SUIT, ("TS", "KH", "QD", "2C"), scoring="3") == (-3, 0, 0, 4)
    # atas, bids 10 2 3 2: 3 x 2 = 6; negatives stay as they are.
    assert scores(ONE_SUIT, ("TS", "2H", "3D", "2C"), scoring="3") == (6, -2, -3, -2)
    assert scores(ONE_SUIT, ("TS", "2H", "3D", "2C"), scoring="3", multiplier=3) == (
        9,
        -2,
        -3,
        -2,
    )
    # atas (15) on SPLIT: +1 x 2 = 2, -1, 0, -2.
    assert scores(SPLIT, ("TS", "3H", "KD", "2C"), scoring="3") == (2, -1, 0, -2)


def test_c13_method_2_plus_3_the_5_replaces_the_score_and_is_not_multiplied() -> None:
    # bawah, bids 10 0 0 2: -3, +5, +5, 2 x 2 = 4.
    assert scores(ONE_SUIT, ("TS", "KH", "QD", "2C"), scoring="2+3") == (-3, 5, 5, 4)
    assert scores(ONE_SUIT, ("TS", "KH", "QD", "2C"), scoring="2+3", multiplier=3) == (
        -3,
        5,
        5,
        6,
    )
    # 13 -> bawah: bids 9 0 -1 1: -4, +5 (cut to 0), -1 (cut to -1), 1 x 2 = 2.
    assert scores(ONE_SUIT, ("TS", "AH", "KD", "2C"), "bawah", scoring="2+3") == (-4, 5, -1, 2)


def test_c13_scores_add_up_over_the_match() -> None:
    m = match(ONE_SUIT, n_deals=2)
    bid_all(m, "TS", "2H", "3D", "2C")  # atas: +3 -2 -3 -2
    play_rest_of_deal(m)
    bid_all(m, "TS", "KH", "QD", "2C")  # bawah: -3 0 0 +2
    play_rest_of_deal(m)
    assert [s.scores for s in events_of(m, ev.DealScored)] == [(3, -2, -3, -2), (-3, 0, 0, 2)]
    assert m.totals == [0, -2, -3, 0]


# --------------------------------------------------------------------------- C14


def test_c14_equal_totals_share_rank() -> None:
    m = match(ONE_SUIT)
    bid_all(m, "TS", "KH", "QD", "2C")  # bawah: -3, 0, 0, +2
    play_rest_of_deal(m)
    assert m.totals == [-3, 0, 0, 2]
    ranks = list(m.ranks)
    assert ranks[3] == 1  # highest total first
    assert ranks[1] == ranks[2]  # equal totals share a rank
    assert 1 < ranks[1] < ranks[0]
    # C14 leaves the numbering open; ours (docs/results.md) is 1 + the number of seats
    # strictly ahead, so the two tied seats leave rank 3 empty
    assert ranks == [4, 2, 2, 1]
    (ended,) = events_of(m, ev.MatchEnded)
    assert ended.totals == (-3, 0, 0, 2) and list(ended.ranks) == ranks


def test_c14_all_equal_totals_all_rank_first() -> None:
    m = match(ONE_SUIT, n_deals=2)
    bid_all(m, "KS", "KH", "KD", "KC")  # 0: bawah, KS high: 0 - 13 = -13; 0, 0, 0
    play_rest_of_deal(m)
    bid_all(m, "4S", "4H", "4D", "4C")  # 16: atas, 4S high: 13 - 4 = +9; -4, -4, -4
    play_rest_of_deal(m)
    assert m.totals == [-4, -4, -4, -4]
    assert list(m.ranks) == [1, 1, 1, 1]


def test_c3_a_bid_that_names_no_card_is_refused_and_a_plain_int_card_is_the_card() -> None:
    from arena.games.truf.actions import Bid, ChooseMode

    m = match(ONE_SUIT)
    for bad in ("AS", 52, -1, True, None):
        assert_refused(m, 0, Bid(bad), "C3")  # type: ignore[arg-type]
    m.apply(0, Bid(int(c("TS"))))  # type: ignore[arg-type]
    assert m.view(0).bids is None and events_of(m, ev.BidMade)[0].action is BIDS[c("TS")]
    bid_all_but_first = ("3H", "KD", "QC")
    for seat, code in enumerate(bid_all_but_first, start=1):
        m.apply(seat, BIDS[c(code)])
    assert m.phase == "mode"  # 10 + 3 + 0 + 0
    assert_refused(m, 0, ChooseMode("sideways"), "C5")  # type: ignore[arg-type]
    assert m.phase == "mode"


def test_c8_a_play_that_names_no_card_is_refused() -> None:
    from arena.games.truf.actions import Play

    m = match(ONE_SUIT)
    bid_all(m, "TS", "9H", "KD", "QC")  # 19: atas, seat 0 leads
    for bad in ("2S", 99, 2.0):
        assert_refused(m, 0, Play(bad), "C8")  # type: ignore[arg-type]
    m.apply(0, Play(int(c("2S"))))  # type: ignore[arg-type]
    assert m.view(0).trick[0].card is c("2S")  # the owner sees its face-down trump (C11)


def test_c5_a_mode_choice_made_by_hand_with_a_plain_string_counts_as_that_mode() -> None:
    from arena.games.truf.actions import ChooseMode

    for text, final in (("atas", (11, 4, 1, 1)), ("bawah", (9, 2, -1, -1))):
        m = match(ONE_SUIT)
        bid_all(m, "TS", "3H", "KD", "QC")  # 13: seat 0 chooses
        m.apply(0, ChooseMode(text))  # type: ignore[arg-type]
        assert m.view(1).mode is Mode(text) and m.view(1).final_bids == final
