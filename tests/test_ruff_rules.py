"""Ruff and Trump's rulings F1..F11, one at a time, on deals built for the purpose."""

from __future__ import annotations

import pytest
from ruff_helpers import announce_all, cards, cards_in, deal, match

from arena.core.cards import Card
from arena.core.errors import RuleError
from arena.games.ruff.actions import Announce, Discard, Play, parse_action
from arena.games.ruff.deal import check_deal, seeded_deal
from arena.games.ruff.reckoning import ruff_winner, shown_cards, suit_sums, true_ruff
from arena.games.ruff.rules import RuffRules, RuffRulesError
from arena.games.ruff.scoring import card_points, set_winners, side_ranks
from arena.games.ruff.state import Phase, RuffMatch

DOUBLE = RuffRules()
SINGLE3 = RuffRules(form="single", seats=3)


def test_f1_forms_and_seat_counts() -> None:  # ruling F1
    assert DOUBLE.teams == ((0, 2), (1, 3))
    assert RuffRules(form="single", seats=2).teams == ((0,), (1,))
    with pytest.raises(RuffRulesError, match="F1"):
        RuffRules(form="double", seats=3)
    with pytest.raises(RuffRulesError, match="F1"):
        RuffRules(form="single", seats=5)
    with pytest.raises(RuffRulesError, match="F1"):
        RuffRules(form="triple")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("seats", "alt", "hand", "head", "target"),
    [(4, False, 12, 4, 52), (3, False, 12, 16, 40), (2, False, 12, 28, 36),
     (4, True, 12, 4, 52), (3, True, 16, 4, 52), (2, True, 24, 4, 52)],
)  # fmt: skip
def test_f2_f9_deal_sizes_and_sets(
    seats: int, alt: bool, hand: int, head: int, target: int
) -> None:
    rules = RuffRules(form="single" if seats != 4 else "double", seats=seats, alt_deals=alt)
    assert (rules.hand_size, rules.head_size, rules.set_points) == (hand, head, target)
    hands, dealt_head = seeded_deal("k", 1, 0, rules)
    check_deal(hands, dealt_head, rules)  # ruling F2: one deck, every card once
    assert len(dealt_head) == head


def test_f2_deal_in_packets_of_four_from_eldest() -> None:
    hands, head = seeded_deal("k", 1, 2, DOUBLE)
    again = seeded_deal("k", 1, 2, DOUBLE)
    assert (hands, head) == again  # the match key alone decides the deal
    assert seeded_deal("k", 2, 2, DOUBLE) != (hands, head)


def test_f2_eldest_follows_the_dealer_and_the_deal_passes_clockwise() -> None:
    m = RuffMatch(DOUBLE, seed="s")
    first = m.dealer
    assert m.eldest == (first + 1) % 4 and m.to_act() == (m.eldest,)
    while m.deal_no == 1:
        (seat,) = m.to_act()
        m.apply(seat, m.fallback_action(seat))
    if not m.is_over:
        assert m.dealer == (first + 1) % 4


def test_f2_the_turned_card_is_the_heads_top_and_sets_trump() -> None:
    m = match(DOUBLE, deal(DOUBLE, head="7H"))
    assert m.turned == Card.parse("7H") and m.trump == 1
    assert all(m.view(s).turned == Card.parse("7H") for s in range(4))


def test_f3_ruff_values_and_the_turned_card_counts_for_trump_only() -> None:
    hand = cards("AS KS 2S TH 9H 5D")
    assert suit_sums(hand, Card.parse("QH")) == [11 + 10 + 2, 10 + 9 + 10, 5, 0]
    assert true_ruff(hand, Card.parse("QH")) == 29  # hearts with the turned queen
    assert true_ruff(hand, Card.parse("QC")) == 23  # spades; the queen is a club


def test_f4_announce_from_zero_to_the_true_ruff_in_turn_from_eldest() -> None:
    m = match(DOUBLE, deal(DOUBLE, dealer=3))
    assert m.to_act() == (0,)
    legal = m.legal_actions(0)
    assert legal == tuple(Announce(n) for n in range(m.ruffs[0] + 1))
    with pytest.raises(RuleError, match="F4"):
        m.apply(0, Announce(m.ruffs[0] + 1))  # more than the true ruff is not legal
    with pytest.raises(RuleError):
        m.apply(1, Announce(0))  # not its turn
    m.apply(0, Announce(0))
    assert m.legal_actions(1)[0] == Announce(0)  # not an auction: 0 is legal after 0


def test_f4_equal_announcements_go_to_the_first_and_all_zero_to_eldest() -> None:
    assert ruff_winner([(1, 20), (2, 25), (3, 25), (0, 10)]) == 2
    m = match(DOUBLE, deal(DOUBLE, dealer=3))
    announce_all(m, {0: 0, 1: 0, 2: 0, 3: 0})
    assert m.ruff_winner == 0 and m.scores == [12, 0]  # ruling F4: eldest; side 0 scores 12


def test_f5_the_trump_ace_holder_rubs_the_heads_top_four_and_discards_four() -> None:
    rules = SINGLE3
    spec = deal(rules, {2: "AH"}, head="7H 2S 3S 4S 5S", dealer=0)
    m = match(rules, spec)
    announce_all(m)
    assert m.phase is Phase.RUB and m.to_act() == (2,)
    v = m.view(2)
    assert v.rubber == 2 and v.taken == tuple(cards("7H 2S 3S 4S"))
    assert len(v.hand) == 16 and Card.parse("5S") not in v.hand  # the rest of the head is dead
    assert m.view(0).taken is None and m.view(0).rubber == 2  # ruling F11: the rubber alone
    assert len(m.legal_actions(2)) == 1820  # any four of the sixteen
    throw = Discard(tuple(cards("2S 3S 4S 7H")))
    with pytest.raises(RuleError, match="F5"):
        m.apply(2, Discard(tuple(cards("2S 3S 4S 5S"))))  # 5S is not in its hand
    m.apply(2, throw)
    assert m.view(2).discards == throw.cards and m.view(1).discards is None
    assert len(m.hand(2)) == 12 and m.phase is Phase.PLAY


@pytest.mark.parametrize(
    ("rules", "head"),
    [
        (SINGLE3, "AH 2S 3S 4S"),  # turned up
        (SINGLE3, "7H 2S 3S 4S 5S AH"),  # unseen and dead, below the top four
        (DOUBLE, "7H 2S AH 4S"),  # unseen among the top four: the dealer rubs it in
    ],
)
def test_f5_the_dealer_rubs_when_no_seat_holds_the_trump_ace(rules: RuffRules, head: str) -> None:
    m = match(rules, deal(rules, head=head, dealer=1))
    announce_all(m)
    assert m.rubber_seat == 1 and m.to_act() == (1,)
    in_top_four = head.split().index("AH") < 4
    assert (Card.parse("AH") in m.hand(1)) == in_top_four


def test_f6_the_ruff_shown_highest_first_until_it_reaches_the_number() -> None:
    hand = cards("AS KS 9S 2S TH")
    assert shown_cards(hand, Card.parse("3D"), 21) == (0, tuple(cards("AS KS")))
    assert shown_cards(hand, Card.parse("3D"), 0) == (0, ())  # 0 names the suit only
    # spades (32) and hearts with the turned king (10 + 10 + 11 = 31 -> add an ace: 32):
    tie = cards("AS KS 9S 2S TH AH")
    assert shown_cards(tie, Card.parse("KH"), 32)[0] == 0  # equal sums: spades first
    # in trump, the turned card last when the dealt cards fall short
    assert shown_cards(cards("TH 9H"), Card.parse("KH"), 25) == (1, tuple(cards("TH 9H KH")))


def test_f6_the_shown_ruff_is_public_after_the_rub_even_cards_since_discarded() -> None:
    rules = DOUBLE
    m = match(rules, deal(rules, {0: "AS KS QS JS", 1: "AH"}, head="2H", dealer=3))
    announce_all(m, {0: 30, 1: 0, 2: 0, 3: 0})
    assert m.ruff_winner == 0 and m.view(2).shown is None  # not before the rub
    assert m.rubber_seat == 1
    m.apply(1, m.fallback_action(1))
    shown = m.view(3).shown
    assert shown is not None and shown.seat == 0 and shown.cards == tuple(cards("AS KS QS"))


def test_f7_follow_suit_else_any_card_and_the_highest_trump_wins() -> None:
    rules = DOUBLE
    void_in_spades = "3H 4D 2D 3D 5D 6D 7D 8D 9D TD JD QD"
    clubs = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"
    spec = deal(rules, {0: "2S", 1: void_in_spades, 2: "AS", 3: "5S"}, head="9H AH", dealer=3,
                filler=clubs)  # fmt: skip
    m = match(rules, spec)
    announce_all(m)
    assert m.to_act() == (3,)  # ruling F5: the trump ace lies in the head: the dealer rubs
    keep = set(cards("5S AH"))
    m.apply(3, Discard(tuple([c for c in m.hand(3) if c not in keep][:4])))
    assert m.to_act() == (0,)  # ruling F7: eldest leads
    m.apply(0, Play(Card.parse("2S")))
    assert {a.card for a in m.legal_actions(1)} == set(m.hand(1))  # type: ignore[union-attr]
    m.apply(1, Play(Card.parse("3H")))  # void in spades: a trump
    m.apply(2, Play(Card.parse("AS")))
    with pytest.raises(RuleError, match="F7"):
        m.apply(3, Play(Card.parse("AH")))  # must follow spades
    m.apply(3, Play(Card.parse("5S")))
    assert m.tricks[-1].winner == 1 and m.to_act() == (1,)  # the trump wins and leads


def test_f8_card_points_above_the_par() -> None:
    assert card_points([28, 20], 24) == [4, 0]  # the seed's example
    assert card_points([14, 12, 10], 12) == [2, 0, 0]
    assert RuffRules(form="single", seats=3, alt_deals=True).par == 16


def test_f9_the_set_ends_at_the_ruff_before_rub_and_play() -> None:
    rules = DOUBLE
    m = match(rules, deal(rules, dealer=3))
    m.scores = [45, 30]  # a side 7 short: the ruff's 12 reach the set
    announce_all(m, {1: 0, 2: 0, 3: 0})  # seat 0 (eldest) its true ruff
    assert m.is_over and m.scores == [57, 30] and m.ranks == [1, 2, 1, 2]
    rec = m.finished[-1]
    assert rec["ended"] == "ruff" and rec["rubber"] is None and rec["tricks"] == []


def test_f9_two_sides_past_the_set_higher_total_wins_equal_share() -> None:
    assert set_winners([53, 55, 10], 52) == {1}
    assert set_winners([53, 53, 10], 52) == {0, 1}
    assert set_winners([51, 50], 52) is None


def test_f10_ranks() -> None:
    assert side_ranks([60, 20, 20], {0}) == [1, 2, 2]
    assert side_ranks([55, 55, 30], {0, 1}) == [1, 1, 3]
    assert side_ranks([52, 10, 30, 30], {0}) == [1, 4, 2, 2]


def test_f11_the_view_holds_no_other_seats_cards() -> None:
    m = RuffMatch(DOUBLE, seed="v")
    v = m.view(0)
    assert set(v.hand) == set(m.dealt[0])
    seen = set(cards_in(v))
    assert seen == set(m.dealt[0]) | {m.turned}  # not even a partner's


def test_actions_round_trip_their_text() -> None:
    for action in (Announce(17), Discard(tuple(cards("TH 2C 7D 3C"))), Play(Card.parse("AS"))):
        assert parse_action(str(action)) == action
    assert str(Discard(tuple(cards("TH 2C 7D 3C")))) == "discard TH 7D 2C 3C"
    with pytest.raises(ValueError, match="cannot read Ruff action"):
        parse_action("discard 2C 2C 3C 4C")
    # a bot may name a card by its index or code; the action holds the Card either way
    assert Play(0) == Play("2S") == Play(Card.parse("2S"))  # type: ignore[arg-type]
    assert str(Play(0)) == "play 2S"  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a card"):
        Play(52)  # type: ignore[arg-type]
