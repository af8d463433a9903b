"""Random legal playouts at 2, 4 and 6 seats: the API stays consistent and the scores
follow the rulings (R5, R7, R8, R11), checked against oracles written here."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.core.errors import RuleError
from arena.games.truco.actions import (
    MAZO,
    NO_QUIERO,
    QUIERO,
    SON_BUENAS,
    Call,
    Declare,
    Play,
    sort_key,
)
from arena.games.truco.calls import EnvidoCall, TrucoCall
from arena.games.truco.cards import DECK
from arena.games.truco.rules import TrucoRules
from arena.games.truco.state import TrucoMatch

SETTINGS = settings(
    max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)

# Oracle for R8, from the seed's table and the ruling's text.
ACCEPTED = {"envido": 2, "real-envido": 3}
REFUSED = {"envido": 1, "real-envido": 2, "falta-envido": 1}


def envido_oracle(calls: list[str], result: str, target: int, before: list[int]) -> int:
    falta = max(1, target - max(before))
    if result == "settled":
        return falta if calls[-1] == "falta-envido" else sum(ACCEPTED[c] for c in calls)
    refused = sum(ACCEPTED[c] for c in calls[:-1]) + REFUSED[calls[-1]]
    return min(refused, falta) if calls[-1] == "falta-envido" else refused


def illegal_probes(m: TrucoMatch, seat: int) -> list[Any]:
    """Actions to try that ``seat`` may not take now (some of them may be legal)."""
    mine = m.hand(seat)
    others = [c for c in DECK if c not in mine]
    return [
        Play(others[0]),
        QUIERO,
        NO_QUIERO,
        SON_BUENAS,
        MAZO,
        Declare(99),
        Call(TrucoCall.VALE_CUATRO),
        Call(EnvidoCall.FALTA_ENVIDO),
        "play 1E",
        None,
    ]


def check_record(rec: dict[str, Any], m: TrucoMatch) -> None:
    points = [0, 0]
    for play in rec["plays"]:
        # R7: the tricks' points are the accepted stake, or on No Quiero the stake before
        # the call, which the record's "stake" (the accepted level) is too.
        team, truco = play["truco"]
        assert truco == play["stake"]
        points[team] += truco
        if play["ended"] == "tricks":
            assert team == play["trick_winner"]
        envido = play["envido"]
        if envido is not None:
            calls = envido["calls"]
            want = envido_oracle(calls, envido["result"], rec["target"], rec["scores_before"])
            assert envido["points"] == want
            points[envido["team"]] += want
        assert sum(play["points"]) == truco + (envido["points"] if envido else 0)
    assert rec["points"] == points
    assert rec["scores"] == [rec["scores_before"][t] + points[t] for t in (0, 1)]
    assert rec["totals"] == [rec["scores"][s % 2] for s in range(len(rec["seats"]))]


def playout(seats: int, seed: int, points: int = 30) -> TrucoMatch:
    m = TrucoMatch(TrucoRules(seats=seats, points=points), match_id=f"p{seed}", seed=str(seed))
    rng = random.Random(seed)
    records: list[dict[str, Any]] = []
    while not m.is_over:
        seats_to_act = m.to_act()
        assert len(seats_to_act) == 1
        (seat,) = seats_to_act
        legal = m.legal_actions(seat)
        assert legal, "a seat asked to act always has a legal action"
        assert list(legal) == sorted(legal, key=sort_key) and len(set(legal)) == len(legal)
        for other in range(seats):
            assert other == seat or m.legal_actions(other) == ()
        assert m.fallback_action(seat) in legal
        if rng.random() < 0.1:
            for action in legal:  # apply accepts every legal action
                copy.deepcopy(m).apply(seat, action)
        if rng.random() < 0.2:
            before = m.view(seat)
            for probe in illegal_probes(m, seat):
                if probe not in legal:
                    with pytest.raises(RuleError):
                        m.apply(seat, probe)
            with pytest.raises(RuleError):
                m.apply((seat + 1) % seats, legal[0])
            assert m.view(seat) == before  # a refused action changes nothing
        m.apply(seat, rng.choice(legal))
        for rec in m.finished:
            check_record(rec, m)
            records.append(rec)
        m.finished.clear()
    # R11: the game ends at the end of the first hand where a team is at or above the
    # target with more points (or after 10 tied hands there).
    for rec in records[:-1]:
        a, b = rec["scores"]
        assert max(a, b) < m.rules.points or a == b
    a, b = records[-1]["scores"]
    assert max(a, b) >= m.rules.points
    assert m.to_act() == () and m.legal_actions(0) == ()
    if a != b:
        assert m.ranks == [1 if s % 2 == (0 if a > b else 1) else 2 for s in range(seats)]
    return m


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_playouts_two_seats(seed: int) -> None:
    playout(2, seed)


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_playouts_four_seats(seed: int) -> None:
    playout(4, seed, points=15)


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_playouts_six_seats(seed: int) -> None:
    m = playout(6, seed)
    assert m.hand_no >= 1
