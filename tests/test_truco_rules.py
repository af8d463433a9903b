"""The Truco engine, ruling by ruling (R2, R3, R6..R13), on chosen hands.

Four seats, dealer 3, so seat 0 is mano and play goes 0, 1, 2, 3; team 0 is seats 0
and 2. Envidos of the hands below: seat 0 28, seat 1 9, seat 2 29, seat 3 31.
"""

from __future__ import annotations

import pytest
from truco_helpers import act, legal, match_with

from arena.core.errors import RuleError
from arena.games.truco.actions import Answer, Call, Declare
from arena.games.truco.rules import TrucoRules, TrucoRulesError
from arena.games.truco.state import TrucoMatch

FOUR = ("1E 7E 3C", "1B 7O 2C", "4C 5C 6E", "4B 5B 6B")
ENVIDO_CALLS = ["call envido", "call real-envido", "call falta-envido"]


def finish_hand(m: TrucoMatch) -> dict[str, object]:
    """Play the hand out with each seat's fallback; return its record."""
    while not m.finished:
        (seat,) = m.to_act()
        m.apply(seat, m.fallback_action(seat))
    return m.finished.pop(0)


def test_r2_teams_alternate_round_the_table() -> None:
    for seats in (2, 4, 6):
        m = TrucoMatch(TrucoRules(seats=seats))
        assert m.teams == (tuple(range(0, seats, 2)), tuple(range(1, seats, 2)))
    with pytest.raises(TrucoRulesError, match="R2"):
        TrucoRules(seats=3)
    with pytest.raises(TrucoRulesError, match="R11"):
        TrucoRules(points=20)


def test_r3_mano_is_after_the_dealer_and_becomes_the_next_dealer() -> None:
    m = match_with(*FOUR, dealer=1, more=1)
    assert m.to_act() == (2,) and m.mano == 2
    finish_hand(m)
    assert m.dealer == 2 and m.to_act() == (3,)


def test_r3_the_first_dealer_and_the_deal_come_from_the_match_seed() -> None:
    a, b = TrucoMatch(seed="s1"), TrucoMatch(seed="s1")
    assert a.dealer == b.dealer and a.dealt == b.dealt
    dealers = {TrucoMatch(seed=f"s{i}").dealer for i in range(40)}
    assert dealers == {0, 1, 2, 3}


def test_r6_only_the_seat_asked_may_act() -> None:
    m = match_with(*FOUR)
    assert m.to_act() == (0,)
    assert legal(m, 1) == []
    with pytest.raises(RuleError) as err:
        act(m, 1, "play 1B")
    assert err.value.ruling == "R6" and err.value.seat == 1


def test_r6_on_its_turn_a_seat_may_play_call_or_go_al_mazo() -> None:
    m = match_with(*FOUR)
    assert legal(m, 0) == ["play 3C", "play 7E", "play 1E", "call truco", *ENVIDO_CALLS, "mazo"]


def test_r6_the_answer_is_asked_of_the_first_seat_of_the_called_team_and_play_resumes() -> None:
    m = match_with(*FOUR)
    act(m, 0, "play 3C")
    act(m, 1, "call truco")
    assert m.to_act() == (2,)  # counting from the caller: seat 2 before seat 0
    act(m, 2, "quiero")
    assert m.to_act() == (1,)  # the seat whose turn it was still plays
    assert "call truco" not in legal(m, 1) and "play 1B" in legal(m, 1)


def test_r7_no_quiero_ends_the_hand_and_the_caller_scores_the_stake_before_the_call() -> None:
    m = match_with(*FOUR)
    act(m, 0, "call truco")
    act(m, 1, "no-quiero")
    record = m.finished.pop(0)
    assert record["points"] == [1, 0] and record["plays"][0]["ended"] == "no-quiero"
    assert m.scores == [1, 0] and m.totals == [1, 0, 1, 0]


def test_r7_a_raise_accepts_the_call_below_it() -> None:
    m = match_with(*FOUR)
    act(m, 0, "call truco")
    assert legal(m, 1)[:1] == ["call retruco"]
    act(m, 1, "call retruco")
    assert m.to_act() == (2,)
    assert legal(m, 2) == ["call vale-cuatro", "quiero", "no-quiero"]
    act(m, 2, "no-quiero")
    assert m.finished.pop(0)["points"] == [0, 2]


def test_r7_vale_cuatro_may_only_be_accepted_or_refused() -> None:
    m = match_with(*FOUR)
    act(m, 0, "call truco")
    act(m, 1, "call retruco")
    act(m, 2, "call vale-cuatro")
    assert m.to_act() == (3,) and legal(m, 3) == ["quiero", "no-quiero"]
    act(m, 3, "quiero")
    assert m.view(0).current.stake == 4 and m.to_act() == (0,)
    assert "call truco" not in legal(m, 0) and "call vale-cuatro" not in legal(m, 0)
    assert finish_hand(m)["plays"][0]["truco"][1] == 4


def test_r7_only_the_accepting_team_may_raise_next() -> None:
    m = match_with(*FOUR)
    act(m, 0, "call truco")
    act(m, 1, "quiero")
    assert "call retruco" not in legal(m, 0)
    act(m, 0, "play 3C")
    assert "call retruco" in legal(m, 1)  # also at its very next decision
    assert m.view(0).current.raise_team == 1
    with pytest.raises(RuleError) as err:
        act(m, 1, "call truco")
    assert err.value.ruling == "R7"


def test_r8_envido_only_before_ones_first_card_and_once_a_hand() -> None:
    m = match_with(*FOUR)
    act(m, 0, "play 3C")
    assert "call envido" in legal(m, 1)
    act(m, 1, "call envido")
    act(m, 2, "no-quiero")
    assert [a for a in legal(m, 1) if "envido" in a] == []
    act(m, 1, "play 2C")
    act(m, 2, "play 4C")
    act(m, 3, "play 4B")
    assert m.to_act() == (0,)
    with pytest.raises(RuleError) as err:  # trick 2: everyone has played in trick 1
        act(m, 0, "call envido")
    assert err.value.ruling == "R8"
    assert finish_hand(m)["plays"][0]["envido"]["points"] == 1


def test_r8_envido_in_answer_to_the_first_truco_comes_first() -> None:
    # As in the seed's example: a seat of the called team that has not played yet
    # answers the Truco with an Envido.
    m = match_with(*FOUR)
    act(m, 0, "play 3C")
    act(m, 1, "call truco")
    assert legal(m, 2) == ["call retruco", *ENVIDO_CALLS, "quiero", "no-quiero"]
    act(m, 2, "call envido")
    assert m.to_act() == (3,)
    act(m, 3, "quiero")
    assert m.to_act() == (2,) and legal(m, 2) == ["declare 29"]  # the last caller first
    act(m, 2, "declare 29")
    act(m, 3, "declare 31")
    assert legal(m, 0) == ["son-buenas"]  # 28 does not beat 31
    act(m, 0, "son-buenas")
    assert m.to_act() == (2,) and legal(m, 2) == ["call retruco", "quiero", "no-quiero"]
    act(m, 2, "no-quiero")
    record = m.finished.pop(0)
    play = record["plays"][0]
    assert play["envido"]["points"] == 2 and play["envido"]["team"] == 1
    assert play["envido"]["shown"] == [3, ["5B", "6B"]]
    assert record["points"] == [0, 3]


def test_r8_no_envido_in_answer_to_a_retruco() -> None:
    m = match_with(*FOUR)
    act(m, 0, "call truco")
    act(m, 1, "call retruco")
    assert not any("envido" in a for a in legal(m, 2))


@pytest.mark.parametrize(
    ("calls", "refused"),
    [
        (["envido"], 1),
        (["real-envido"], 2),
        (["envido", "envido"], 3),
        (["envido", "real-envido"], 4),
        (["real-envido", "real-envido"], 5),
        (["envido", "envido", "real-envido"], 6),
        (["envido", "falta-envido"], 3),
    ],
)
def test_r8_refused_envido_scores_for_the_last_caller(calls: list[str], refused: int) -> None:
    m = match_with(*FOUR)
    for seat, call in enumerate(calls):  # each raise is answered by the next seat
        act(m, seat, f"call {call}")
    act(m, len(calls), "no-quiero")
    caller_team = (len(calls) - 1) % 2
    play = finish_hand(m)["plays"][0]
    assert play["envido"]["team"] == caller_team and play["envido"]["points"] == refused


def test_r8_accepted_falta_envido_is_worth_the_game() -> None:
    m = match_with(*FOUR, more=1)
    act(m, 0, "call falta-envido")
    assert legal(m, 1) == ["quiero", "no-quiero"]  # no raise after Falta Envido
    act(m, 1, "quiero")
    act(m, 0, "declare 28")
    act(m, 1, "son-buenas")
    act(m, 3, "declare 31")
    act(m, 2, "son-buenas")
    finish_hand(m)
    assert m.is_over and m.scores[1] >= 30 and m.ranks == [2, 1, 2, 1]


def test_r9_a_seat_passed_over_while_its_team_was_best_is_asked_later() -> None:
    m = match_with(*FOUR)
    act(m, 0, "call envido")
    act(m, 1, "quiero")
    assert legal(m, 0) == ["declare 28"]
    with pytest.raises(RuleError) as err:
        act(m, 0, "declare 33")  # a false number is not legal
    assert err.value.ruling == "R9"
    act(m, 0, "declare 28")
    act(m, 1, "son-buenas")
    assert m.to_act() == (3,)  # seat 2 passed over: its team is best
    act(m, 3, "declare 31")
    assert m.to_act() == (2,)  # ... and asked now that it is not
    assert legal(m, 2) == ["son-buenas"]
    act(m, 2, "son-buenas")
    assert m.to_act() == (0,)
    assert m.view(1).current.declarations == ((0, 28), (1, None), (3, 31), (2, None))


def test_r9_a_seat_asked_to_declare_is_told_so_whatever_else_it_sends() -> None:
    # An outside attack sent a Truco call when a declaration was asked and was told the
    # call was "not the next Truco raise" (R7): the reason is that a declaration is asked.
    m = match_with(*FOUR)
    act(m, 0, "call envido")
    act(m, 1, "quiero")
    for wrong in ("call vale-cuatro", "call truco", "call envido", "play 3C", "quiero", "mazo"):
        with pytest.raises(RuleError) as err:
            act(m, 0, wrong)
        assert err.value.ruling == "R9", wrong
        assert "asked to declare its envido (or say son buenas)" in str(err.value), wrong
        assert "legal now: declare 28" in str(err.value), wrong
    with pytest.raises(RuleError) as err:
        act(m, 0, "son-buenas")  # the first to declare must give a number
    assert err.value.ruling == "R9" and "son buenas is not possible now" in str(err.value)


def test_r8_a_seat_asked_to_answer_the_envido_is_told_so_whatever_else_it_sends() -> None:
    m = match_with(*FOUR)
    act(m, 0, "call envido")
    for wrong in ("call truco", "call vale-cuatro", "play 3C", "mazo", "declare 28"):
        with pytest.raises(RuleError) as err:
            act(m, 1, wrong)
        assert err.value.ruling == "R8", wrong
        assert "asked to answer the Envido" in str(err.value), wrong


def test_r9_equal_envidos_go_to_the_seat_closer_to_mano() -> None:
    m = match_with("7E 10E 1B", "7O 12O 2B")
    act(m, 0, "play 1B")
    act(m, 1, "call envido")
    act(m, 0, "quiero")
    act(m, 1, "declare 27")
    assert legal(m, 0) == ["declare 27", "son-buenas"]
    act(m, 0, "declare 27")
    envido = finish_hand(m)["plays"][0]["envido"]
    assert envido["team"] == 0 and envido["shown"] == [0, ["7E", "10E"]]


def test_r9_the_traditional_count_is_an_option() -> None:
    m = match_with("7E 6B 3C", "12O 11O 4B", envido_count="traditional")
    act(m, 0, "call envido")
    act(m, 1, "quiero")
    assert legal(m, 0) == ["declare 7"]


def test_r10_al_mazo_passes_play_and_answers_over_the_folded_seat() -> None:
    m = match_with(*FOUR)
    act(m, 0, "mazo")
    assert m.to_act() == (1,)
    act(m, 1, "call truco")
    assert m.to_act() == (2,)
    act(m, 2, "quiero")
    act(m, 1, "play 2C")
    act(m, 2, "play 4C")
    act(m, 3, "play 4B")
    assert m.to_act() == (1,)  # three cards close the trick; its winner leads
    act(m, 1, "play 7O")
    act(m, 2, "mazo")  # the whole team has folded: team 1 takes the accepted stake
    record = m.finished.pop(0)
    assert record["points"] == [0, 2] and record["plays"][0]["folded"] == [0, 2]


def test_r10_a_folded_seat_takes_no_part_in_a_later_envido() -> None:
    m = match_with(*FOUR)
    act(m, 0, "mazo")
    act(m, 1, "call envido")
    act(m, 2, "quiero")
    act(m, 1, "declare 9")
    act(m, 2, "declare 29")
    act(m, 3, "declare 31")
    assert m.to_act() == (1,) and m.view(1).current.envido_state == "settled"


def test_r11_equal_scores_at_the_target_play_on_then_share_rank_1() -> None:
    for tied_hands, over in ((10, False), (1, True)):
        m = match_with(*FOUR, more=1, tied_hands=tied_hands)
        m.scores[:] = [29, 29]
        act(m, 0, "call envido")
        act(m, 1, "no-quiero")
        act(m, 0, "play 3C")
        act(m, 1, "call truco")
        act(m, 2, "no-quiero")
        assert m.scores == [30, 30] and m.is_over is over
        assert m.ranks == [1, 1, 1, 1]


def test_r11_points_are_added_at_the_end_of_the_hand_and_15_is_an_option() -> None:
    m = match_with(*FOUR, points=15, more=1)
    act(m, 0, "call falta-envido")
    act(m, 1, "quiero")
    act(m, 0, "declare 28")
    act(m, 1, "son-buenas")
    act(m, 3, "declare 31")
    assert m.scores == [0, 0]  # not yet: at the end of the hand
    act(m, 2, "son-buenas")
    finish_hand(m)
    assert m.scores == [1, 15] and m.is_over  # 15 for the Falta; seat 0 takes the tricks


def test_r12_the_winning_teams_seats_share_rank_1() -> None:
    m = match_with("1E 7E 3C", "4B 5B 6B", more=0, points=15)
    m.scores[:] = [14, 0]
    act(m, 0, "call truco")
    act(m, 1, "no-quiero")
    assert m.is_over and m.ranks == [1, 2]


SIX = ("1E 7E 3C", "1B 7O 2C", "4C 5C 6C", "4B 5B 6B", "4O 5O 6O", "4E 5E 6E")


def test_r13_six_seats_alternate_a_team_hand_and_three_duels() -> None:
    m = match_with(*SIX, dealer=5, more=3)
    records = [finish_hand(m) for _ in range(4)]
    assert [r["kind"] for r in records] == ["team", "duels", "team", "duels"]
    assert [r["dealer"] for r in records] == [5, 5, 0, 0]  # one dealer deals both kinds
    assert [p["seats"] for p in records[0]["plays"]] == [[0, 1, 2, 3, 4, 5]]
    assert [p["seats"] for p in records[1]["plays"]] == [[0, 3], [1, 4], [2, 5]]
    assert [p["seats"] for p in records[3]["plays"]] == [[1, 4], [2, 5], [3, 0]]


def test_r13_each_duel_has_its_own_calls_and_earlier_duels_are_public() -> None:
    m = match_with(*SIX, dealer=5, more=1)
    finish_hand(m)
    before = list(m.scores)
    act(m, 0, "call envido")
    act(m, 3, "no-quiero")
    act(m, 0, "play 6C")
    act(m, 3, "play 4E")
    act(m, 0, "call truco")
    act(m, 3, "no-quiero")  # duel 1 over: team 0 +1 Truco, +1 Envido
    assert m.to_act() == (1,) and "call envido" in legal(m, 1)
    assert m.scores == before  # the duels' points are added after the third
    seen = m.view(4).plays[0]
    assert [c.code for _, c in seen.tricks[0].cards] == ["6C", "4E"]
    assert seen.points == (2, 0)
    while m.view(0).hand_no == 2:
        (seat,) = m.to_act()
        m.apply(seat, m.fallback_action(seat))
    record = m.finished.pop(0)
    assert record["plays"][0]["points"] == [2, 0]
    assert m.scores == [before[0] + record["points"][0], before[1] + record["points"][1]]


def test_r6_an_action_equal_to_a_legal_one_is_taken_in_its_canonical_form() -> None:
    m = match_with(*FOUR)
    m.apply(0, Call("truco"))  # type: ignore[arg-type]
    m.apply(1, Call("envido"))  # type: ignore[arg-type]
    m.apply(2, Answer(1))  # type: ignore[arg-type]
    m.apply(1, Declare(9.0))  # type: ignore[arg-type]
    assert [str(a) for _, a in m.bout.log] == ["call truco", "call envido", "quiero", "declare 9"]
