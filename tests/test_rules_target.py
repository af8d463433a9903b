"""Target Truf (seed 002), one test or more per ruling T1..T7, on hand-built deals.

Every expected number is worked out by hand from the rulings, in the comment beside it.
The layouts (ONE_SUIT, SPLIT, BREAK) are described in ``tests/deals.py``.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from deals import (
    BREAK,
    ONE_SUIT,
    SPLIT,
    assert_refused,
    cards,
    choose,
    deal,
    declaration,
    declare_all,
    events_of,
    hands,
    is_c2_valid,
    last_scored,
    match,
    play,
    play_out,
    play_rest_of_deal,
)

from arena.core.cards import Card, Suit
from arena.games.truf import events as ev
from arena.games.truf.actions import BIDS, MODES, PLAYS, Declare, DeclareOp, Mode, declare
from arena.games.truf.rules import TrufRules, Variant
from arena.games.truf.state import TrufMatch
from arena.games.truf.view import PlayedCard


def c(code: str) -> Card:
    return Card.parse(code)


def plays(text: str) -> set[object]:
    return {PLAYS[card] for card in cards(text)}


def tmatch(*deals: object, **options: object) -> TrufMatch:
    return match(*deals, variant="target", **options)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- T1


def test_t1_a_target_match_is_six_deals_by_default() -> None:
    assert TrufRules(variant=Variant.TARGET).deals == 6
    m = TrufMatch(TrufRules(variant=Variant.TARGET), seed=3)
    play_out(m)
    started = events_of(m, ev.DealStarted)
    assert [s.deal for s in started] == [1, 2, 3, 4, 5, 6]
    assert len(events_of(m, ev.DealScored)) == 6 and m.is_over
    for s in started:  # as C1 and C2
        assert [len(h) for h in s.hands] == [13, 13, 13, 13]
        assert all(is_c2_valid(h) for h in s.hands)
    assert [s.direction for s in started] == ["ccw", "cw"] * 3  # as C6


def test_t1_the_number_of_deals_is_an_option() -> None:
    m = TrufMatch(TrufRules(variant=Variant.TARGET, deals=2), seed=1)
    play_out(m)
    assert len(events_of(m, ev.DealScored)) == 2


def test_t1_dealer_follows_c7() -> None:
    m = tmatch(deal(ONE_SUIT, 2), deal(ONE_SUIT, None), n_deals=2)
    declare_all(m, "TS", "KH", "2D", "JC")  # 12: bawah; see T6 for the scores
    play_rest_of_deal(m)
    assert m.totals == [-6, 10, -2, 10]
    assert m.dealer == 0  # the single lowest total
    assert m.view(1).direction == "cw"


# --------------------------------------------------------------------------- T2

# Seat 0 holds every card the validity table below needs.
T2_HAND = "AS KS QS 2S 3S 4S 5S 9S 2H 3H KH TC"

T2_VALID = [
    ("KS", 0),  # one card: its value, even 0
    ("AS", 1),
    ("3S+2S sum", 5),  # SUM valid at 5
    ("KS+5S sum", 5),
    ("3S+2S subtract", 1),  # SUBTRACT: 3 - 2, valid because 3 + 2 >= 5
    ("4S+AS subtract", 3),
    ("9S+2S subtract", 7),
    ("KS+9S subtract", 9),  # by value, not rank (house choice 8): 9 - 0, although K outranks 9
    ("4S+3H notruf", 7),  # NO TRUF valid at 7
    ("TC+KH notruf", 10),
]
T2_INVALID = [
    "3S+AS sum",  # 4 < 5
    "3S+AS subtract",  # 3 + 1 = 4 < 5
    "KS+QS subtract",  # 0 + 0 < 5
    "4S+2H notruf",  # 6 < 7
    "3S+2S notruf",  # one suit is not NO TRUF
    "4S+3H sum",  # two suits cannot SUM
    "4S+3H subtract",
    "4S+3H single",
    # one card used twice: 9S+9S would be SUM 18 (and SUBTRACT 0) were it two cards
    "9S+9S sum",
    "9S+9S subtract",
]


def t2_match() -> TrufMatch:
    return tmatch(hands(T2_HAND, "", "", ""))


@pytest.mark.parametrize(("text", "target"), T2_VALID)
def test_t2_valid_declaration_sets_its_target(text: str, target: int) -> None:
    m = t2_match()
    m.apply(0, declaration(text))
    for seat in (1, 2, 3):
        m.apply(seat, declare([next(x for x in m.view(seat).hand if x.value == 0)], "single"))
    if m.phase == "mode":
        choose(m, "atas")
    assert m.view(0).final_bids == (target, 0, 0, 0)


@pytest.mark.parametrize("text", T2_INVALID)
def test_t2_invalid_declaration_is_a_rule_error(text: str) -> None:
    m = t2_match()
    action = declaration(text)
    assert action not in m.legal_actions(0)
    assert_refused(m, 0, action, "T2")


def test_t2_a_declaration_of_two_cards_cannot_use_one_card_twice() -> None:
    """The engine refuses it itself, for an in-process bot; not only the wire decoder."""
    m = t2_match()
    err = assert_refused(m, 0, Declare((c("9S"), c("9S")), DeclareOp.SUM), "T2")
    assert "the two cards of a declaration must differ" in str(err)


def test_t2_subtract_is_higher_minus_lower_whatever_the_order() -> None:
    assert declaration("9S+2S subtract") == declaration("2S+9S subtract")
    m = t2_match()
    m.apply(0, Declare((c("2S"), c("9S")), DeclareOp.SUBTRACT))
    for seat in (1, 2, 3):
        m.apply(seat, declare([next(x for x in m.view(seat).hand if x.value == 0)], "single"))
    assert m.view(0).final_bids == (7, 0, 0, 0)


def test_t2_legal_actions_include_every_valid_kind_and_no_invalid_one() -> None:
    m = t2_match()
    legal = list(m.legal_actions(0))
    assert len(set(legal)) == len(legal)
    for text, _ in T2_VALID:
        assert declaration(text) in legal
    for text in T2_INVALID:
        assert declaration(text) not in legal
    # The whole list, from T2: every single; same-suit pairs summing to >= 5 as SUM and as
    # SUBTRACT (both have the same threshold); different-suit pairs summing to >= 7.
    hand = m.view(0).hand
    expected = {declare([x], "single") for x in hand}
    for a, b in combinations(hand, 2):
        if a.suit == b.suit and a.value + b.value >= 5:
            expected |= {declare([a, b], "sum"), declare([a, b], "subtract")}
        elif a.suit != b.suit and a.value + b.value >= 7:
            expected.add(declare([a, b], "notruf"))
    assert set(legal) == expected


def test_t2_a_declaration_uses_the_declarers_own_cards() -> None:
    m = t2_match()
    own = set(m.view(0).hand)
    foreign = next(x for x in m.view(1).hand if x.value >= 4 and x.suit != Suit.SPADES)
    assert foreign not in own
    assert_refused(m, 0, declare([foreign], "single"), "T2")
    assert_refused(m, 0, declare([c("9S"), foreign], "notruf"), "T2")


def test_t2_a_declaration_is_one_or_two_cards() -> None:
    m = t2_match()
    assert_refused(m, 0, Declare((c("2S"), c("3S"), c("4S")), DeclareOp.SUM), "T2")


def test_t2_all_declare_at_once_and_the_cards_go_back_into_the_hands() -> None:
    m = tmatch(ONE_SUIT)
    assert m.phase == "declare" and set(m.to_act()) == {0, 1, 2, 3}
    assert_refused(m, 0, BIDS[c("TS")], "T2")  # a classic bid is not a declaration
    for seat, text in [(3, "2C"), (1, "KH"), (0, "TS+3S sum")]:
        m.apply(seat, declaration(text))
        assert m.phase == "declare" and not events_of(m, ev.BidsRevealed)
    assert_refused(m, 1, declaration("QH"), "T2")  # once each
    m.apply(2, declaration("QD"))
    (revealed,) = events_of(m, ev.BidsRevealed)
    assert revealed.bids == tuple(declaration(t) for t in ("TS+3S sum", "KH", "QD", "2C"))
    for seat in range(4):
        assert m.view(seat).hand == tuple(sorted(ONE_SUIT[seat]))


# --------------------------------------------------------------------------- T3


def reveal(specs: tuple[str, ...], decls: tuple[str, ...]) -> ev.BidsRevealed:
    m = tmatch(hands(*specs))
    declare_all(m, *decls)
    (revealed,) = events_of(m, ev.BidsRevealed)
    for seat in range(4):
        view = m.view(seat)
        assert (view.high_bidder, view.trump) == (revealed.high_bidder, revealed.trump)
        assert view.no_truf == (revealed.trump is None)
    return revealed


def test_t3_highest_target_wins_and_its_suit_is_trump() -> None:
    # 11, 10, 5, 1
    revealed = reveal(("9S 2S", "TH", "5D", "AC"), ("9S+2S sum", "TH", "5D", "AC"))
    assert (revealed.high_bidder, revealed.trump) == (0, Suit.SPADES)


def test_t3_trump_declaration_beats_no_truf_at_equal_target() -> None:
    # 4S+3H NO TRUF is 7, 7D is 7: the trump declaration wins, though diamonds rank lowest.
    revealed = reveal(("4S 3H", "7D", "2C", "KH"), ("4S+3H notruf", "7D", "2C", "KH"))
    assert (revealed.high_bidder, revealed.trump) == (1, Suit.DIAMONDS)


@pytest.mark.parametrize(
    ("decls", "high"),
    [
        (("5D", "5C", "5H", "5S"), 3),  # spades first
        (("5D", "5C", "5H", "2S"), 2),  # then hearts
        (("5D", "5C", "2H", "2S"), 1),  # then clubs over diamonds (classic has D over C)
        (("5C", "5D", "2H", "2S"), 0),
    ],
)
def test_t3_among_trump_declarations_spades_hearts_clubs_diamonds(
    decls: tuple[str, ...], high: int
) -> None:
    revealed = reveal(decls, decls)
    assert revealed.high_bidder == high and revealed.trump == c(decls[high]).suit


@pytest.mark.parametrize(
    ("specs", "decls", "high"),
    [
        # 7S against AS + 6S = 7: the ace is the higher-ranked card (A high).
        (("7S", "AS 6S", "2H", "2D"), ("7S", "AS+6S sum", "2H", "2D"), 1),
        # 7S against 9S - 2S = 7: the nine outranks the seven.
        (("7S", "9S 2S", "2H", "2D"), ("7S", "9S+2S subtract", "2H", "2D"), 1),
        # 5S against 3S + 2S = 5: the five outranks the three.
        (("5S", "3S 2S", "2H", "2D"), ("5S", "3S+2S sum", "2H", "2D"), 0),
        # KS + 7S against AS + 6S, both 7: ace over king (rank, not value).
        (("KS 7S", "AS 6S", "2H", "2D"), ("KS+7S sum", "AS+6S sum", "2H", "2D"), 1),
    ],
)
def test_t3_same_suit_tie_goes_to_the_higher_ranked_card_ace_high(
    specs: tuple[str, ...], decls: tuple[str, ...], high: int
) -> None:
    revealed = reveal(specs, decls)
    assert revealed.high_bidder == high and revealed.trump == Suit.SPADES


@pytest.mark.parametrize(
    ("specs", "decls", "high"),
    [
        # 6D + 2C against 5S + 3H, both 8: the higher single value (6) wins, suits aside.
        (("6D 2C", "5S 3H", "2H", "3D"), ("6D+2C notruf", "5S+3H notruf", "2H", "3D"), 0),
        # 5C + 2D against 5D + 2S, both 7, both top 5: clubs over diamonds.
        (("5C 2D", "5D 2S", "2H", "3D"), ("5C+2D notruf", "5D+2S notruf", "2H", "3D"), 0),
        # 5C + 2S against 5H + 2D: hearts over clubs.
        (("5C 2S", "5H 2D", "2H", "3D"), ("5C+2S notruf", "5H+2D notruf", "2H", "3D"), 1),
        # 5S + 5D against 5H + 5C, both 10, both cards top: each side's better suit
        # counts, spades over hearts (a reading: T3 does not say which of two equal cards).
        (("5S 5D", "5H 5C", "2H", "3D"), ("5S+5D notruf", "5H+5C notruf", "2H", "3D"), 0),
    ],
)
def test_t3_no_truf_ties_go_to_the_higher_single_card_value_then_its_suit(
    specs: tuple[str, ...], decls: tuple[str, ...], high: int
) -> None:
    revealed = reveal(specs, decls)
    assert revealed.high_bidder == high
    assert revealed.trump is None  # a NO TRUF win: no trump this deal


# --------------------------------------------------------------------------- T4


def test_t4_total_above_13_is_atas_below_is_bawah_without_a_choice() -> None:
    m = tmatch(ONE_SUIT)
    declare_all(m, "TS", "9H", "KD", "2C")  # 21
    assert events_of(m, ev.ModeSet) == [ev.ModeSet(Mode.ATAS, (10, 9, 0, 2), False)]
    m = tmatch(ONE_SUIT)
    declare_all(m, "TS", "KH", "2D", "JC")  # 12
    assert events_of(m, ev.ModeSet) == [ev.ModeSet(Mode.BAWAH, (10, 0, 2, 0), False)]


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        # targets 10 0 3 0 unchanged; tricks 13 0 0 0.
        # atas: seat 0 over by 3: -3; seat 2 under by 3: -6; zero targets: +10.
        ("atas", (-3, 10, -6, 10)),
        # bawah: seat 0 over by 3: -6; seat 2 under by 3: -3.
        ("bawah", (-6, 10, -3, 10)),
    ],
)
def test_t4_total_13_the_t3_winner_chooses_and_targets_do_not_change(
    mode: str, expected: tuple[int, ...]
) -> None:
    m = tmatch(ONE_SUIT)
    declare_all(m, "TS", "KH", "3D", "QC")  # 10 + 0 + 3 + 0 = 13
    assert m.phase == "mode" and m.to_act() == (0,)
    assert set(m.legal_actions(0)) == {MODES[Mode.ATAS], MODES[Mode.BAWAH]}
    assert_refused(m, 2, MODES[Mode(mode)], "T4")
    choose(m, mode)
    assert events_of(m, ev.ModeSet) == [ev.ModeSet(Mode(mode), (10, 0, 3, 0), True)]
    assert m.view(1).final_bids == (10, 0, 3, 0)
    play_rest_of_deal(m)
    assert last_scored(m).tricks_won == (13, 0, 0, 0)
    assert last_scored(m).scores == expected


# --------------------------------------------------------------------------- T5


def test_t5_the_t3_winner_leads() -> None:
    m = tmatch(ONE_SUIT)  # dealer 0: seat 3 is first after the dealer
    declare_all(m, "2S", "KH", "TD", "3C")  # seat 2 wins with 10
    assert m.to_act() == (2,) and m.view(0).trick_leader == 2
    play(m, "2D")
    assert m.to_act() == (1,)  # counter-clockwise in deal 1


def test_t5_trumps_may_be_led_at_any_time_and_are_played_face_up() -> None:
    m = tmatch(BREAK)
    declare_all(m, "TS", "2H", "4D", "4C")  # seat 0 wins with 10: spades trump
    assert set(m.legal_actions(0)) == {PLAYS[card] for card in BREAK[0]}  # trumps too
    play(m, "TS")
    assert events_of(m, ev.CardPlayed) == [ev.CardPlayed(0, c("TS"), False)]
    for seat in range(4):
        assert m.view(seat).trick == (PlayedCard(0, c("TS"), False),)


def test_t5_must_follow_suit_if_you_can() -> None:
    m = tmatch(BREAK)
    declare_all(m, "TS", "2H", "4D", "4C")
    play(m, "TS")
    assert set(m.legal_actions(3)) == plays("2S 3S")
    assert_refused(m, 3, PLAYS[c("AC")], "T5")
    assert_refused(m, 2, PLAYS[c("AS")], "T5")  # not seat 2's turn


def test_t5_otherwise_any_card_and_the_highest_trump_wins() -> None:
    m = tmatch(BREAK)
    declare_all(m, "TS", "2H", "4D", "4C")
    play(m, "AH")
    assert set(m.legal_actions(3)) == {PLAYS[card] for card in BREAK[3]}
    play(m, "2S", "AS", "2H")  # both trumps face up; AS beats 2S and the led AH
    assert events_of(m, ev.TrickClosed)[-1].winner == 2
    assert not any(e.face_down for e in events_of(m, ev.CardPlayed))


def test_t5_no_truf_highest_card_of_the_led_suit_wins() -> None:
    m = tmatch(BREAK)
    declare_all(m, "TS+9H notruf", "2H", "4D", "4C")  # 19: NO TRUF wins
    view = m.view(3)
    assert view.trump is None and view.no_truf and view.high_bidder == 0
    play(m, "9H", "AC", "AS", "8H")  # spades are not trump; off-suit aces count for nothing
    assert events_of(m, ev.TrickClosed)[-1].winner == 0
    play(m, "KH", "2S", "QS", "2H")
    assert events_of(m, ev.TrickClosed)[-1].winner == 0
    assert not any(e.face_down for e in events_of(m, ev.CardPlayed))


# --------------------------------------------------------------------------- T6


def target_scores(layout: tuple[tuple[Card, ...], ...], decls: tuple[str, ...]) -> tuple[int, ...]:
    m = tmatch(layout)
    declare_all(m, *decls)
    play_rest_of_deal(m)
    scored = last_scored(m)
    assert scored.tricks_won == ((13, 0, 0, 0) if layout is ONE_SUIT else (11, 2, 0, 0))
    assert tuple(m.totals) == scored.scores
    return scored.scores


def test_t6_exact_scores_plus_target() -> None:
    # 13 + 0 + 0 + 2 = 15: atas. Seat 0 exact at 13: +13. Seats 1, 2: target 0, no trick:
    # + the highest target, 13. Seat 3 under by 2 in atas: -4.
    assert target_scores(ONE_SUIT, ("TS+3S sum", "KH", "QD", "2C")) == (13, 13, 13, -4)


def test_t6_exact_with_sum_and_subtract_on_split_tricks() -> None:
    # 11 + 2 + 0 + 4 = 17: atas; tricks 11 2 0 0. Seat 0 exact: +11; seat 1 exact (5 - 3):
    # +2; seat 2 target 0, no trick: +11; seat 3 under by 4 in atas: -8.
    assert target_scores(SPLIT, ("9S+2S sum", "5H+3H subtract", "KD", "4C")) == (11, 2, 11, -8)


def test_t6_atas_over_is_minus_diff_under_is_minus_twice_diff() -> None:
    # 10 + 9 + 0 + 2 = 21: atas. Seat 0 over by 3: -3. Seat 1 under by 9: -18.
    # Seat 2 target 0, no trick: +10. Seat 3 under by 2: -4.
    assert target_scores(ONE_SUIT, ("TS", "9H", "KD", "2C")) == (-3, -18, 10, -4)


def test_t6_bawah_over_is_minus_twice_diff_under_is_minus_diff() -> None:
    # 10 + 0 + 2 + 0 = 12: bawah. Seat 0 over by 3: -6. Seat 2 under by 2: -2.
    # Seats 1, 3 target 0, no trick: +10.
    assert target_scores(ONE_SUIT, ("TS", "KH", "2D", "JC")) == (-6, 10, -2, 10)


def test_t6_target_0_and_no_trick_scores_the_highest_target() -> None:
    # 17 + 0 + 0 + 2 = 19: atas. Seats 1 and 2 took nothing on target 0: +17 each,
    # the highest target of the deal (seat 0's SUM), not their own.
    scores = target_scores(ONE_SUIT, ("9S+8S sum", "KH", "QD", "2C"))
    assert scores[1:3] == (17, 17)


def test_t6_target_0_with_tricks_bawah_is_normal_penalty_and_2_more() -> None:
    # 10 + 0 + 0 + 2 = 12: bawah; tricks 11 2 0 0. Seat 0 over by 1: -2.
    # Seat 1 target 0 took 2: over by 2 in bawah is -4, and -2 more: -6.
    # Seat 2 target 0, no trick: +10. Seat 3 under by 2: -2.
    assert target_scores(SPLIT, ("TS", "KH", "KD", "2C")) == (-2, -6, 10, -2)


def test_t6_target_0_with_tricks_atas_is_normal_penalty_and_2_more() -> None:
    # 17 + 0 + 0 + 2 = 19: atas; tricks 11 2 0 0. Seat 0 under by 6: -12.
    # Seat 1 target 0 took 2: over by 2 in atas is -2, and -2 more: -4.
    # Seat 2 target 0, no trick: +17. Seat 3 under by 2: -4.
    assert target_scores(SPLIT, ("9S+8S sum", "KH", "KD", "2C")) == (-12, -4, 17, -4)


def test_t6_ignores_the_classic_scoring_options() -> None:
    m = tmatch(ONE_SUIT, scoring="2+3", multiplier=3)
    declare_all(m, "TS", "KH", "2D", "JC")
    play_rest_of_deal(m)
    assert last_scored(m).scores == (-6, 10, -2, 10)  # as T6, not C13


# --------------------------------------------------------------------------- T7


def test_t7_equal_totals_share_rank() -> None:
    m = tmatch(ONE_SUIT)
    declare_all(m, "TS", "KH", "2D", "JC")  # -6, +10, -2, +10 (see T6)
    play_rest_of_deal(m)
    assert m.is_over and m.totals == [-6, 10, -2, 10]
    ranks = list(m.ranks)
    assert ranks[1] == ranks[3] == 1
    assert 1 < ranks[2] < ranks[0]
    # T7/C14 leave the numbering open; ours (docs/results.md) is 1 + the number of seats
    # strictly ahead, so the two tied winners leave rank 2 empty
    assert ranks == [4, 1, 3, 1]
    (ended,) = events_of(m, ev.MatchEnded)
    assert list(ended.ranks) == ranks
