"""Rulings R1 (card order), R4 (a trick's winner, parda) and R5 (the hand's tricks)."""

from __future__ import annotations

import pytest
from truco_helpers import cards

from arena.games.truco.cards import DECK, Card
from arena.games.truco.tricks import hand_winner, trick_winner


def team(seat: int) -> int:
    return seat % 2


def test_r1_the_deck_has_forty_cards_without_eights_and_nines() -> None:
    assert len(DECK) == 40 and len(set(DECK)) == 40
    assert {c.rank for c in DECK} == {1, 2, 3, 4, 5, 6, 7, 10, 11, 12}


def test_r1_card_order_from_the_1_of_swords_down_to_the_4s() -> None:
    order = "1E 1B 7E 7O 3C 2C 1O 12C 11C 10C 7B 6C 5C 4C"
    strengths = [c.strength for c in cards(order)]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == 14


@pytest.mark.parametrize("pair", ["1O 1C", "7B 7C", "3E 3O", "12B 12C", "4E 4C"])
def test_r1_cards_of_equal_rank_in_the_order_are_equal(pair: str) -> None:
    a, b = cards(pair)
    assert a.strength == b.strength


def test_r1_card_codes_round_trip() -> None:
    for card in DECK:
        assert Card.parse(card.code) is card
    with pytest.raises(ValueError, match="Spanish-deck"):
        Card.parse("8E")


def test_r4_the_highest_card_wins_the_trick() -> None:
    assert trick_winner(list(zip([0, 1, 2, 3], cards("4C 1E 3C 2O"), strict=True)), team) == 1


def test_r4_highest_rank_held_by_both_teams_is_parda() -> None:
    assert trick_winner(list(zip([0, 1, 2, 3], cards("3C 3E 4C 5O"), strict=True)), team) is None


def test_r4_highest_rank_held_by_one_team_goes_to_its_first_seat() -> None:
    played = list(zip([0, 1, 2, 3], cards("3C 4E 3O 5O"), strict=True))
    assert trick_winner(played, team) == 0


@pytest.mark.parametrize(
    ("results", "winner"),
    [
        ([0], None),
        ([0, 0], 0),  # two tricks won
        ([0, 1], None),  # one each: trick 3 decides
        ([0, 1, 1], 1),
        ([None, 1], 1),  # trick 1 tied: the next untied trick decides
        ([None, None], None),
        ([None, None, 0], 0),
        ([None, None, None], 1),  # undecided after trick 3: mano's team (mano is team 1 here)
        ([0, None], None),  # trick 1 won, trick 2 tied: trick 3 decides (the seed's rule)
        ([0, None, 1], 1),
        ([0, None, None], 1),
        ([0, 1, None], 1),
    ],
)
def test_r5_who_wins_the_hands_tricks(results: list[int | None], winner: int | None) -> None:
    assert hand_winner(results, mano_team=1) == winner
