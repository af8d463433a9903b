"""Partner rotation (arena/play/partners.py) in team games: every pair of entrants are partners
about equally often, seats stay balanced, and the scheduler's tables are unchanged."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.seats import alternating_teams
from arena.games.registry import make_game
from arena.games.truco.rules import TrucoRules
from arena.play.partners import rotate_partners
from arena.play.scheduler import Round, balance_report, schedule
from arena.play.tournament import TournamentPlan

PROPERTY = settings(max_examples=25, deadline=None, derandomize=True)

# Measured (4..13 entrants, tables of 4 and 6, seeds 1..3, 1..100 rounds in ten lengths,
# with ``_partner_deviation`` below): the worst pair is at most 2.2 partnerships away from
# its fair share ((t-1)/(k-1) of the tables it shares, t the team size), at 12 entrants, 6
# seats, 13 rounds; without rotation up to 66 (4 entrants, 4 seats, 100 rounds: the same two
# pairs every time). It does not grow with the rounds: every table moves the pairs furthest
# ahead of their share apart. The bound leaves a little room above the measured worst.
PARTNER_BOUND = 2.5
# Re-seating trades a little seat balance for partners: an entrant's seat counts spread by
# at most 2 (the scheduler alone gives at most 1 at these sizes).
SEAT_BOUND = 2


def _partner_deviation(rounds: list[Round], n: int, k: int) -> tuple[float, int]:
    """(the worst pair's distance from its fair share of partnerships, the spread of
    partnership counts among pairs)."""
    teams = alternating_teams(k)
    together = dict.fromkeys(itertools.combinations(range(n), 2), 0)
    partners = dict.fromkeys(together, 0)
    for rnd in rounds:
        for table in rnd.tables:
            for pair in itertools.combinations(sorted(table.seats), 2):
                together[pair] += 1
            for team in teams:
                for a, b in itertools.combinations(team, 2):
                    partners[tuple(sorted((table.seats[a], table.seats[b])))] += 1  # type: ignore[index]
    share = (len(teams[0]) - 1) / (k - 1)
    worst = max(abs(partners[p] - share * together[p]) for p in together)
    return worst, max(partners.values()) - min(partners.values())


@PROPERTY
@given(
    n=st.integers(4, 13),
    k=st.sampled_from((4, 6)),
    rounds=st.integers(1, 100),
    seed=st.integers(1, 3),
)
def test_every_pair_partners_within_the_bound_of_its_fair_share(
    n: int, k: int, rounds: int, seed: int
) -> None:
    if n < k:
        return
    plain = schedule(n, k, rounds, seed)
    rotated = rotate_partners(plain, n, alternating_teams(k))
    worst, _ = _partner_deviation(rotated, n, k)
    assert worst <= PARTNER_BOUND
    assert balance_report(rotated, n, k).seat_spread <= SEAT_BOUND
    # who meets whom, and who sits out, are the scheduler's, untouched
    for before, after in zip(plain, rotated, strict=True):
        assert before.sitting_out == after.sitting_out
        assert [sorted(t.seats) for t in before.tables] == [sorted(t.seats) for t in after.tables]
        assert [t.match_id for t in before.tables] == [t.match_id for t in after.tables]


@pytest.mark.parametrize(("n", "k"), [(4, 4), (6, 6)])
def test_a_full_table_rotates_partners_evenly_where_the_scheduler_alone_never_would(
    n: int, k: int
) -> None:
    plain = schedule(n, k, 60, 1)
    assert _partner_deviation(plain, n, k)[1] >= 30  # the same partners, match after match
    worst, spread = _partner_deviation(rotate_partners(plain, n, alternating_teams(k)), n, k)
    assert spread <= 1 and worst <= 1


def test_four_entrants_at_four_seats_meet_each_partner_a_third_of_the_time() -> None:
    rounds = rotate_partners(schedule(4, 4, 30, 7), 4, alternating_teams(4))
    counts: dict[frozenset[int], int] = {}
    for rnd in rounds:
        (table,) = rnd.tables
        for a, b in ((0, 2), (1, 3)):
            pair = frozenset((table.seats[a], table.seats[b]))
            counts[pair] = counts.get(pair, 0) + 1
    assert sorted(counts.values()) == [10] * 6


def test_a_truco_plan_rotates_partners_and_a_truf_plan_keeps_the_schedulers_seats() -> None:
    game = make_game("truco", rules=TrucoRules(seats=4))
    truco = TournamentPlan(game, list("abcd"), 30, "0" * 32)
    worst, spread = _partner_deviation(truco.schedule, 4, 4)
    assert spread <= 1 and worst <= 1
    truf = TournamentPlan(make_game("truf"), list("abcd"), 30, "0" * 32)
    assert truf.schedule == schedule(4, 4, 30, truf_seed(truf))


def truf_seed(plan: TournamentPlan) -> int:
    from arena.core.seeding import schedule_seed

    return schedule_seed(plan.secret)


def test_teams_of_one_only_balance_seats() -> None:
    rounds = rotate_partners(schedule(5, 2, 40, 3), 5, alternating_teams(2))
    assert balance_report(rounds, 5, 2).seat_spread <= 1


def test_a_ruff_double_plan_rotates_partners_and_a_single_plan_keeps_the_seats() -> None:
    from arena.games.ruff.rules import Form, RuffRules

    double = TournamentPlan(make_game("ruff"), list("abcd"), 30, "0" * 32)  # ruling F1
    worst, spread = _partner_deviation(double.schedule, 4, 4)
    assert spread <= 1 and worst <= 1
    single = make_game("ruff", rules=RuffRules(form=Form.SINGLE, seats=4))
    plan = TournamentPlan(single, list("abcd"), 30, "0" * 32)
    assert plan.schedule == schedule(4, 4, 30, truf_seed(plan))  # no partners to rotate
