"""Rulings R7 and R8 (the call ladders and their values) and R9 (envido scores)."""

from __future__ import annotations

import pytest
from truco_helpers import cards

from arena.games.truco.calls import (
    EnvidoCall,
    envido_accepted,
    envido_refused,
    falta_value,
    next_envido_calls,
    truco_refused,
    truco_stake,
)
from arena.games.truco.envido import EnvidoCount, beats, envido_score

E, RE, F = EnvidoCall.ENVIDO, EnvidoCall.REAL_ENVIDO, EnvidoCall.FALTA_ENVIDO


@pytest.mark.parametrize(("level", "accepted", "refused"), [(1, 2, 1), (2, 3, 2), (3, 4, 3)])
def test_r7_truco_ladder_values(level: int, accepted: int, refused: int) -> None:
    assert truco_stake(level) == accepted and truco_refused(level) == refused
    assert truco_stake(0) == 1


# The seed's table: sequence -> (accepted, refused).
SEED_TABLE = {
    (E,): (2, 1),
    (RE,): (3, 2),
    (E, E): (4, 3),
    (E, RE): (5, 4),
    (RE, RE): (6, 5),
    (E, E, RE): (7, 6),
}


@pytest.mark.parametrize(("seq", "values"), SEED_TABLE.items())
def test_r8_envido_sequences_are_worth_the_seed_table(
    seq: tuple[EnvidoCall, ...], values: tuple[int, int]
) -> None:
    assert (envido_accepted(seq, 99), envido_refused(seq, 99)) == values


def test_r8_only_the_seed_tables_sequences_may_follow() -> None:
    assert next_envido_calls(()) == (E, RE, F)
    assert next_envido_calls((E,)) == (E, RE, F)
    assert next_envido_calls((RE,)) == (RE, F)
    assert next_envido_calls((E, E)) == (RE, F)
    for seq in [(E, RE), (RE, RE), (E, E, RE)]:
        assert next_envido_calls(seq) == (F,)
    assert next_envido_calls((F,)) == ()
    assert next_envido_calls((E, RE, F)) == ()


def test_r8_falta_envido_is_what_the_leader_needs_and_replaces_the_sum() -> None:
    assert falta_value(30, [12, 25]) == 5
    assert falta_value(30, [31, 29]) == 1  # at least 1
    assert envido_accepted((E, E, RE, F), falta_value(30, [0, 27])) == 3


def test_r8_refused_falta_is_the_calls_before_plus_one_capped_at_its_worth() -> None:
    assert envido_refused((F,), 20) == 1
    assert envido_refused((E, RE, F), 20) == 6  # 2 + 3 + 1
    assert envido_refused((E, RE, F), 4) == 4  # capped at what Falta is worth


@pytest.mark.parametrize(
    ("hand", "score"),
    [
        ("6E 7E 1B", 33),  # the highest envido
        ("11O 5O 3C", 25),  # 0 + 5 + 20
        ("12C 10C 4B", 20),  # two court cards of one suit
        ("7E 6B 3C", 13),  # no suited pair: the best two cards (the seed's text)
        ("12E 11B 10C", 0),
        ("3E 5E 7E", 32),  # the best pair of three suited cards
    ],
)
def test_r9_envido_score_seed_count(hand: str, score: int) -> None:
    assert envido_score(cards(hand)) == score


def test_r9_traditional_count_takes_the_highest_single_card_without_a_suited_pair() -> None:
    assert envido_score(cards("7E 6B 3C"), EnvidoCount.TRADITIONAL) == 7
    assert envido_score(cards("7E 6E 3C"), EnvidoCount.TRADITIONAL) == 33


def test_r9_a_declaration_beats_by_points_then_by_closeness_to_mano() -> None:
    assert beats(27, 3, None)
    assert beats(28, 3, (27, 0))
    assert beats(27, 1, (27, 2))
    assert not beats(27, 2, (27, 1))
    assert not beats(26, 0, (27, 3))
