"""TrueSkill ratings from match records: any seat count, teams, ties and disqualifications."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import pytest

from arena.standings.places import record_places
from arena.standings.ratings import (
    DEFAULT_PARAMS,
    PointScale,
    PointsEvidence,
    PointsTrueSkill,
    Rating,
    RatingError,
    RatingParams,
    Ratings,
    deal_ranks,
    gaussian_margins,
    prob_better,
    rating_ranks,
    settled,
)

PRIOR = Rating(25.0, 25.0 / 3)


def ranks_of(totals: Sequence[float]) -> list[int]:
    """Ruling C14: 1 + the number of seats with a strictly higher total."""
    return [1 + sum(o > t for o in totals) for t in totals]


def record(
    seats: Sequence[str],
    totals: Sequence[float],
    *,
    teams: Sequence[Sequence[int]] | None = None,
    ranks: Sequence[int] | None = None,
    disqualified: Sequence[bool] | None = None,
    forfeit: Sequence[bool] | None = None,
    round: int = 1,
    table: int = 1,
) -> dict[str, Any]:
    n = len(seats)
    return {
        "schema": 1,
        "game": "test",
        "match": f"r{round:04d}-t{table:02d}",
        "round": round,
        "table": table,
        "seats": list(seats),
        "teams": [list(t) for t in teams] if teams else [[s] for s in range(n)],
        "totals": list(totals),
        "ranks": list(ranks) if ranks else ranks_of(totals),
        "deals": 13,
        "exact": [0] * n,
        "faults": {k: [0] * n for k in ("timeout", "illegal", "disconnect")},
        "disqualified": list(disqualified) if disqualified else [False] * n,
        "forfeit": list(forfeit) if forfeit else [False] * n,
    }


def test_an_entrant_never_rated_has_the_prior_and_a_conservative_rating_of_zero() -> None:
    ratings = Ratings()
    assert ratings.rating("nobody") == PRIOR
    assert ratings.expose("nobody") == pytest.approx(0.0, abs=1e-9)
    assert "nobody" not in ratings


def test_expose_is_mu_minus_three_sigma() -> None:
    ratings = Ratings()
    ratings.rate_match(record(["a", "b", "c", "d"], [3, -5, 0, 12]))
    for name in "abcd":
        r = ratings.rating(name)
        assert ratings.expose(name) == pytest.approx(r.mu - 3 * r.sigma)


def test_the_winner_rises_the_loser_falls_and_every_sigma_shrinks() -> None:
    ratings = Ratings()
    ratings.rate_match(record(["random", "greedy", "planner", "tracker"], [3, -5, 0, 12]))
    mus = {n: ratings.rating(n).mu for n in ratings.names()}
    assert mus["tracker"] > mus["random"] > mus["planner"] > mus["greedy"]
    assert mus["tracker"] > PRIOR.mu > mus["greedy"]
    for name in ratings.names():
        assert ratings.rating(name).sigma < PRIOR.sigma


def test_equal_totals_are_a_draw_that_moves_tied_seats_alike() -> None:
    ratings = Ratings()
    ratings.rate_match(record(["a", "b", "c", "d"], [10, 10, 0, -4]))
    a, b = ratings.rating("a"), ratings.rating("b")
    # TrueSkill's message passing stops at a small delta, so "alike" is to ~1e-3
    assert a.mu == pytest.approx(b.mu, abs=1e-3)
    assert a.sigma == pytest.approx(b.sigma, abs=1e-3)
    assert a.mu > ratings.rating("c").mu > ratings.rating("d").mu


def test_a_two_seat_draw_between_equals_leaves_mu_alone_and_shrinks_sigma() -> None:
    ratings = Ratings()
    ratings.rate_match(record(["a", "b"], [7, 7]))
    for name in "ab":
        assert ratings.rating(name).mu == pytest.approx(PRIOR.mu, abs=1e-6)
        assert ratings.rating(name).sigma < PRIOR.sigma


def test_a_disqualified_seat_ranks_last_for_rating_even_with_the_best_total() -> None:
    rec = record(["a", "b", "c", "d"], [40, 5, 0, -3], disqualified=[True, False, False, False])
    assert rec["ranks"] == [1, 2, 3, 4]
    assert rating_ranks(rec) == [4, 1, 2, 3]
    ratings = Ratings()
    ratings.rate_match(rec)
    assert ratings.rating("a").mu < min(ratings.rating(n).mu for n in "bcd")


def test_disqualified_seats_keep_their_order_and_ties_among_themselves() -> None:
    rec = record(
        ["a", "b", "c", "d", "e"], [9, 9, 5, 5, 1], disqualified=[True, True, False, True, False]
    )
    # clean seats c (5) and e (1) first; then a, b tied on 9; then d on 5
    assert rating_ranks(rec) == [3, 3, 1, 5, 2]


def test_ties_among_clean_seats_stay_shared() -> None:
    rec = record(["a", "b", "c", "d"], [2, 2, 2, 30], disqualified=[False, False, False, True])
    assert rating_ranks(rec) == [1, 1, 1, 4]


@pytest.mark.parametrize("out", ["disqualified", "forfeit"])
def test_an_offenders_partner_keeps_its_teams_place_and_only_the_offender_is_rated(
    out: str,
) -> None:
    # issue 25: the offence punishes the offender (placed last), never its partner
    rec = record(["a", "b", "c", "d"], [20, 0, 20, 0], teams=[[0, 2], [1, 3]], ranks=[1, 3, 1, 3])
    rec[out] = [False, False, True, False]
    assert record_places(rec) == [1, 2, 3, 2]
    assert rating_ranks(rec) == [1, 2]
    ratings = Ratings()
    ratings.rate_match(rec)
    assert ratings.rating("c").mu < PRIOR.mu
    for name in "abd":  # not rated for the others: neither the partner nor the opponents
        assert ratings.rating(name) == Rating(PRIOR.mu, PRIOR.sigma)


def test_a_forfeiting_seat_ranks_last_for_rating_like_a_disqualified_one() -> None:
    rec = record(["a", "b", "c", "d"], [40, 5, 0, -3], forfeit=[True, False, False, False])
    assert rating_ranks(rec) == [4, 1, 2, 3]
    ratings = Ratings()
    ratings.rate_match(rec)
    assert ratings.rating("a").mu < min(ratings.rating(n).mu for n in "bcd")


def test_forfeiting_and_disqualified_seats_share_the_bottom_in_their_own_order() -> None:
    rec = record(
        ["a", "b", "c", "d", "e"],
        [9, 7, 5, 3, 1],
        disqualified=[False, True, False, False, False],
        forfeit=[True, False, False, True, False],
    )
    # clean c (5) and e (1) first; then a (9), b (7), d (3), whatever made them out
    assert rating_ranks(rec) == [3, 4, 1, 5, 2]


def test_a_team_takes_the_rank_of_its_best_seat() -> None:
    """Should partners ever be ranked apart, the team stands where its best seat does:
    a, c hold ranks 1 and 4, b, d ranks 2 and 3, so a and c's team is first."""
    rec = record(["a", "b", "c", "d"], [9, 5, 1, 3], teams=[[0, 2], [1, 3]], ranks=[1, 2, 4, 3])
    assert rating_ranks(rec) == [1, 2]
    ratings = Ratings()
    ratings.rate_match(rec)
    assert ratings.rating("a").mu == pytest.approx(ratings.rating("c").mu)
    assert ratings.rating("a").mu > PRIOR.mu > ratings.rating("b").mu


def test_a_partnership_game_moves_partners_together() -> None:
    ratings = Ratings()
    ratings.rate_match(
        record(["a", "b", "c", "d"], [20, 0, 20, 0], teams=[[0, 2], [1, 3]], ranks=[1, 3, 1, 3])
    )
    a, b, c, d = (ratings.rating(n) for n in "abcd")
    assert a.mu == pytest.approx(c.mu) and b.mu == pytest.approx(d.mu)
    assert a.mu > PRIOR.mu > b.mu
    # two teams of two: the update differs from a four-way free-for-all
    solo = Ratings()
    solo.rate_match(record(["a", "b", "c", "d"], [20, 0, 19, 1]))
    assert solo.rating("a").mu != pytest.approx(a.mu)


def test_teams_of_unequal_sizes_can_be_rated() -> None:
    ratings = Ratings()
    ratings.rate_match(record(["a", "b", "c"], [5, 1, 5], teams=[[0, 2], [1]], ranks=[1, 3, 1]))
    assert ratings.rating("b").mu < PRIOR.mu < ratings.rating("a").mu


@pytest.mark.parametrize("seats", [2, 3, 5, 6])
def test_any_table_size_orders_mus_by_placement(seats: int) -> None:
    names = [f"bot{i}" for i in range(seats)]
    totals = [10 * (seats - i) for i in range(seats)]  # bot0 best
    ratings = Ratings()
    ratings.rate_match(record(names, totals))
    mus = [ratings.rating(n).mu for n in names]
    assert mus == sorted(mus, reverse=True)
    assert mus[0] > PRIOR.mu > mus[-1]


def test_an_entrant_always_winning_ends_on_top() -> None:
    rng = random.Random(7)
    field = ["ace", "b", "c", "d", "e", "f"]
    ratings = Ratings()
    records = []
    for m in range(200):
        seats = rng.sample(field, 4)
        if "ace" not in seats:
            seats[rng.randrange(4)] = "ace"
        totals = [100 if s == "ace" else rng.randint(-20, 20) for s in seats]
        records.append(record(seats, totals, round=m + 1))
    ratings.rate_all(records)
    ranked = sorted(field, key=ratings.expose, reverse=True)
    assert ranked[0] == "ace"
    assert ratings.expose("ace") > ratings.expose(ranked[1]) + 5


def test_rate_all_uses_schedule_order_not_completion_order() -> None:
    rng = random.Random(3)
    field = ["a", "b", "c", "d", "e"]
    records = []
    for rnd in range(1, 6):
        for tbl in (1, 2):
            seats = rng.sample(field, 4)
            records.append(record(seats, [rng.randint(-9, 9) for _ in seats], round=rnd, table=tbl))
    in_order = Ratings()
    for rec in records:
        in_order.rate_match(rec)
    for _ in range(5):
        shuffled = records[:]
        rng.shuffle(shuffled)
        again = Ratings()
        again.rate_all(shuffled)
        for name in field:
            assert again.rating(name).mu == pytest.approx(in_order.rating(name).mu, abs=1e-9)
            assert again.rating(name).sigma == pytest.approx(in_order.rating(name).sigma, abs=1e-9)


def test_the_environment_is_explicit_and_its_parameters_are_exposed() -> None:
    params = DEFAULT_PARAMS.as_dict()
    assert params["model"] == "trueskill"
    assert params["mu"] == pytest.approx(25.0)
    assert params["sigma"] == pytest.approx(25.0 / 3)
    assert params["beta"] == pytest.approx(25.0 / 6)
    assert params["tau"] == 0.0  # bots do not change during a tournament (issue 16)
    assert params["draw_probability"] == pytest.approx(0.02)
    assert params["unit"] == "points" and params["boards"] is False and params["margin"] == 0.0
    # a second environment with other settings does not disturb the first
    rec = record(["a", "b", "c", "d"], [1, 1, 0, 0])
    first = Ratings()
    Ratings(RatingParams(draw_probability=0.3)).rate_match(rec)
    first.rate_match(rec)
    reference = Ratings()
    reference.rate_match(rec)
    assert first.rating("a") == reference.rating("a")


def test_an_entrant_in_two_seats_cannot_be_rated() -> None:
    with pytest.raises(RatingError, match="two seats"):
        Ratings().rate_match(record(["a", "b", "a", "c"], [1, 2, 3, 4]))


def test_teams_that_do_not_split_the_seats_cannot_be_rated() -> None:
    with pytest.raises(RatingError, match="do not split seats"):
        Ratings().rate_match(record(["a", "b", "c"], [1, 2, 3], teams=[[0], [1]]))


@pytest.mark.parametrize(
    ("seats", "teams"),
    [(["a", "b", "c", "d"], [[0, 1, 2, 3]]), (["a"], [[0]])],
)
def test_a_match_of_one_team_cannot_be_rated(seats: list[str], teams: list[list[int]]) -> None:
    """Our RatingError, saying why, rather than whatever trueskill raises."""
    rec = record(seats, [1] * len(seats), teams=teams)
    with pytest.raises(RatingError, match="a match needs two teams to be rated"):
        Ratings().rate_match(rec)


def test_an_empty_team_cannot_be_rated() -> None:
    rec = record(["a", "b"], [1, 2], teams=[[0, 1], []])
    with pytest.raises(RatingError, match=r"include an empty team"):
        Ratings().rate_match(rec)


@pytest.mark.parametrize("key", ["ranks", "disqualified", "forfeit"])
def test_a_per_seat_list_of_the_wrong_length_cannot_be_rated(key: str) -> None:
    rec = record(["a", "b", "c"], [3, 2, 1])
    rec[key] = rec[key][:2]
    with pytest.raises(RatingError, match=f"match 'r0001-t01': {key} has 2 entries for 3 seats"):
        Ratings().rate_match(rec)


def test_a_record_without_seats_teams_or_ranks_cannot_be_rated() -> None:
    rec = record(["a", "b"], [1, 2])
    del rec["teams"], rec["ranks"]
    with pytest.raises(RatingError, match="the record has no teams, ranks"):
        Ratings().rate_match(rec)


# --- deal by deal (issue 16) --------------------------------------------------------


def with_deals(rec: dict[str, Any], points: Sequence[Sequence[int]]) -> dict[str, Any]:
    rec["deal_points"] = [list(p) for p in points]
    rec["totals"] = [sum(p[s] for p in points) for s in range(len(rec["seats"]))]
    rec["ranks"] = ranks_of(rec["totals"])
    return rec


def test_each_deal_is_ranked_so_many_small_wins_outweigh_one_big_one() -> None:
    """a takes three deals by a point; b takes one by ten and so the match: rated deal by
    deal, a rises above b; rated by the match alone, b is above a."""
    rec = with_deals(record(["a", "b"], [0, 0]), [[1, 0], [1, 0], [1, 0], [0, 10]])
    assert rec["ranks"] == [2, 1]
    by_deal = Ratings(RatingParams(unit="deal"))
    by_deal.rate_match(rec)
    assert by_deal.rating("a").mu > by_deal.rating("b").mu
    by_match = Ratings(RatingParams(unit="match"))
    by_match.rate_match(rec)
    assert by_match.rating("b").mu > by_match.rating("a").mu


def test_both_rates_the_deals_and_then_the_match() -> None:
    rec = with_deals(record(["a", "b"], [0, 0]), [[1, 0], [0, 3]])
    both = Ratings(RatingParams(unit="both", tau=0.0))
    both.rate_match(rec)
    by_hand = Ratings(RatingParams(unit="match", tau=0.0))
    for points in rec["deal_points"]:
        by_hand.rate_match({**record(["a", "b"], points), "deal_points": None})
    by_hand.rate_match({**rec, "deal_points": None})
    for name in "ab":
        assert both.rating(name).mu == pytest.approx(by_hand.rating(name).mu, abs=1e-9)


def test_a_match_with_a_disqualified_seat_is_rated_by_its_result_not_deal_by_deal() -> None:
    rec = with_deals(record(["a", "b"], [0, 0]), [[5, 0], [5, 0]])
    rec["disqualified"] = [True, False]
    ratings = Ratings(RatingParams(unit="deal"))
    ratings.rate_match(rec)
    assert (
        ratings.rating("b").mu > ratings.rating("a").mu
    )  # the fallback's points count for nothing


def test_a_record_without_deal_points_is_rated_as_a_match() -> None:
    rec = record(["a", "b", "c", "d"], [3, -5, 0, 12])
    by_deal, by_match = Ratings(RatingParams(unit="deal")), Ratings(RatingParams(unit="match"))
    by_deal.rate_match(rec)
    by_match.rate_match(rec)
    assert by_deal.rating("d") == by_match.rating("d")


def test_deal_points_of_the_wrong_shape_cannot_be_rated() -> None:
    rec = with_deals(record(["a", "b"], [0, 0]), [[1, 0]])
    rec["deal_points"] = [[1, 0, 0]]
    with pytest.raises(RatingError, match="deal_points must hold 2 points per deal"):
        Ratings(RatingParams(unit="deal")).rate_match(rec)


def test_with_tau_zero_sigma_keeps_shrinking() -> None:
    """Bots do not change during a tournament: without tau, sigma has no floor."""
    rng = random.Random(5)
    sigmas = {}
    for tau in (0.0, 25.0 / 300):
        ratings = Ratings(RatingParams(unit="match", tau=tau))
        for m in range(300):
            ratings.rate_match(record(["a", "b", "c", "d"], rng.sample(range(4), 4), round=m + 1))
        sigmas[tau] = ratings.rating("a").sigma
    assert sigmas[0.0] < 0.6 < sigmas[25.0 / 300]


# --- how sure the order is ----------------------------------------------------------


def test_prob_better_is_a_half_for_equals_and_symmetric() -> None:
    a, b = Rating(30.0, 2.0), Rating(27.0, 1.5)
    assert prob_better(PRIOR, PRIOR) == pytest.approx(0.5)
    assert prob_better(a, b) + prob_better(b, a) == pytest.approx(1.0)
    # (30 - 27) / sqrt(2^2 + 1.5^2) = 1.2 standard deviations: Phi(1.2) = 0.8849
    assert prob_better(a, b) == pytest.approx(0.8849, abs=1e-4)
    assert prob_better(Rating(26.0, 0.0), Rating(25.0, 0.0)) == 1.0


def test_the_order_is_settled_when_every_adjacent_pair_is_95_percent_sure() -> None:
    apart = [Rating(40.0, 1.0), Rating(35.0, 1.0), Rating(30.0, 1.0)]
    assert settled(apart)
    close = [Rating(40.0, 1.0), Rating(35.0, 1.0), Rating(34.0, 1.0)]
    assert not settled(close)  # 35 over 34: Phi(0.71) = 0.76
    assert settled([Rating(25.0, 8.0)])  # one entrant: nothing to order


# --- duplicate boards ---------------------------------------------------------------


def duplicate_block(points: Sequence[Sequence[int]]) -> list[dict[str, Any]]:
    """One block at one table, four rotations of one deal; ``points[r]`` per seat."""
    out = []
    for turn, pts in enumerate(points):
        rec = with_deals(record(["a", "b", "c", "d"], [0] * 4, round=turn + 1), [pts])
        rec["block"], rec["rotation"] = 1, turn
        out.append(rec)
    return out


def test_boards_compare_the_seats_that_held_the_same_hand() -> None:
    """Hand 0 scores 10 whoever holds it; a did best with every hand it held."""
    block = duplicate_block(
        [[10, 0, 0, 0], [0, 0, 0, 10], [0, 0, 10, 0], [0, 10, 0, 0]]  # hand 0 moves round
    )
    for rec in block:  # a, always in seat 0, takes a point more than the others would
        rec["deal_points"][0][0] += 1
    boards = Ratings(RatingParams(unit="deal", tau=0.0, boards=True))
    for rec in block[:3]:
        boards.rate_match(rec)
        assert boards.pending() and "a" not in boards  # the block waits for its last rotation
    boards.rate_match(block[3])
    assert boards.pending() == 0
    assert boards.rating("a").mu > max(boards.rating(n).mu for n in "bcd")


def test_a_block_cut_short_is_rated_deal_by_deal_at_the_end() -> None:
    block = duplicate_block([[3, 0, 0, 0], [0, 2, 0, 0]])
    boards = Ratings(RatingParams(unit="deal", tau=0.0, boards=True))
    boards.rate_all(block)
    deals = Ratings(RatingParams(unit="deal", tau=0.0))
    deals.rate_all(block)
    for name in "abcd":
        assert boards.rating(name) == deals.rating(name)


def test_a_margin_makes_a_close_deal_a_draw() -> None:
    rec = with_deals(record(["a", "b", "c", "d"], [0] * 4), [[5, 4, 1, -6]])
    assert deal_ranks(rec, 0) == [1, 2, 3, 4]
    assert deal_ranks(rec, 0, margin=2.0) == [1, 1, 3, 4]  # b within 2 of a; c 3 below b
    assert deal_ranks(rec, 0, margin=3.0) == [1, 1, 1, 4]  # a chain: c within 3 of b


# unit="points": each deal rated by its margins (the score-based TrueSkill, issue 16)

POINTS = RatingParams(unit="points", tau=0.0)


def solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """Gaussian elimination: the test's own linear algebra, independent of the package."""
    n = len(rhs)
    rows = [row[:] + [b] for row, b in zip(matrix, rhs, strict=True)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(rows[r][c]))
        rows[c], rows[pivot] = rows[pivot], rows[c]
        for r in range(n):
            if r != c:
                f = rows[r][c] / rows[c][c]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[c], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_a_margin_update_is_the_exact_gaussian_posterior(seats: int) -> None:
    """Skills x ~ N(mu, sigma^2), performances x + N(0, beta^2), and the differences of
    the performances observed: the posterior has a closed form (a Kalman update), which
    the factor graph must reproduce for every seat's mean and standard deviation."""
    rng = random.Random(seats)
    env = PointsTrueSkill(mu=25.0, sigma=25 / 3, beta=25 / 6, tau=0.0)
    mus = [rng.uniform(15, 35) for _ in range(seats)]
    sigmas = [rng.uniform(0.5, 8) for _ in range(seats)]
    perf = [rng.uniform(-10, 10) for _ in range(seats)]
    groups = [{i: env.create_rating(mus[i], sigmas[i])} for i in range(seats)]
    rated = env.rate_margins(groups, perf)
    beta2 = (25 / 6) ** 2
    # observed y_k = perf_k - perf_{k+1}; y = D p, cov(D p) = D (S + beta^2 I) D^T
    d = [[(j == k) - (j == k + 1) for j in range(seats)] for k in range(seats - 1)]
    cov = [
        [
            sum(d[a][j] * d[b][j] * (sigmas[j] ** 2 + beta2) for j in range(seats))
            for b in range(seats - 1)
        ]
        for a in range(seats - 1)
    ]
    innovation = [sum(d[k][j] * (perf[j] - mus[j]) for j in range(seats)) for k in range(seats - 1)]
    weights = solve(cov, innovation)
    for i in range(seats):
        gain = [d[k][i] * sigmas[i] ** 2 for k in range(seats - 1)]  # S D^T, row i
        mean = mus[i] + sum(g * w for g, w in zip(gain, weights, strict=True))
        var = sigmas[i] ** 2 - sum(g * x for g, x in zip(gain, solve(cov, gain), strict=True))
        assert rated[i][i].mu == pytest.approx(mean, abs=1e-6)
        assert rated[i][i].sigma == pytest.approx(math.sqrt(var), abs=1e-6)


def test_points_weigh_a_big_win_above_several_small_losses() -> None:
    """The converse of the deal ranks' test: b takes one deal by ten, a three by one;
    by points b, which took 7 more, is above a (deal ranks put a above)."""
    rec = with_deals(record(["a", "b"], [0, 0]), [[1, 0], [1, 0], [1, 0], [0, 10]])
    ratings = Ratings(POINTS)
    ratings.rate_match(rec)
    assert ratings.rating("b").mu > ratings.rating("a").mu


def test_a_wider_margin_moves_the_ratings_further() -> None:
    deals = [[2, 1, 0, -3], [0, 1, 2, -3], [1, 0, -1, 0]]
    narrow = with_deals(record(["a", "b", "c", "d"], [0] * 4), [*deals, [1, 0, 0, 0]])
    wide = with_deals(record(["a", "b", "c", "d"], [0] * 4), [*deals, [6, 0, 0, 0]])
    gaps = []
    for rec in (narrow, wide):
        ratings = Ratings(POINTS)
        ratings.rate_match(rec)
        gaps.append(ratings.rating("a").mu - ratings.rating("b").mu)
    assert 0 < gaps[0] < gaps[1]


@pytest.mark.parametrize("factor,shift", [(10.0, 0.0), (0.5, 0.0), (1.0, 7.0), (3.0, -2.0)])
def test_points_ratings_do_not_depend_on_the_games_unit_of_points(
    factor: float, shift: float
) -> None:
    """What a point is worth is learnt from the deals, so scaling every point (another
    game's scoring) or adding the same to every seat of a deal changes no rating."""
    rng = random.Random(5)
    base = [[rng.randint(-6, 6) for _ in range(4)] for _ in range(30)]
    scaled = [[p * factor + shift for p in deal] for deal in base]
    one = Ratings(POINTS)
    one.rate_match(with_deals(record(["a", "b", "c", "d"], [0] * 4), base))
    other = Ratings(POINTS)
    other.rate_match(with_deals(record(["a", "b", "c", "d"], [0] * 4), scaled))
    for name in "abcd":
        assert other.rating(name).mu == pytest.approx(one.rating(name).mu, abs=1e-6)
        assert other.rating(name).sigma == pytest.approx(one.rating(name).sigma, abs=1e-6)


def test_level_deals_keep_equals_level_and_shrink_sigma() -> None:
    """Once other deals have shown what a point is worth, level deals between equally
    rated entrants move no mean and shrink every sigma: an even result is no surprise."""
    ratings = Ratings(POINTS)
    ratings.rate_match(
        with_deals(record(["x", "y", "z"], [0] * 3), [[2, 0, -1], [-1, 2, 0], [0, -1, 2]])
    )
    ratings.rate_match({**with_deals(record(["a", "b", "c"], [0] * 3), [[1, 1, 1]] * 5),
                        "round": 2})  # fmt: skip
    for name in "abc":
        assert ratings.rating(name).mu == pytest.approx(25.0, abs=1e-9)
        assert ratings.rating(name).sigma < PRIOR.sigma


def test_nothing_is_rated_until_a_deal_shows_what_a_point_is_worth() -> None:
    ratings = Ratings(POINTS)
    ratings.rate_match(with_deals(record(["a", "b"], [0, 0]), [[0, 0], [3, 3]]))
    assert ratings.rating("a") == PRIOR and ratings.rating("b") == PRIOR
    ratings.rate_match({**with_deals(record(["a", "b"], [0, 0]), [[2, 0]]), "round": 2})
    assert ratings.rating("a").mu > 25.0 > ratings.rating("b").mu


def test_the_point_scale_reads_steady_gaps_as_skill_not_noise() -> None:
    """a is always 3 points above b, give or take one (the two seats' noise, +-1 each,
    cancelling here): the spread around each entrant's own mean, 1 for a deviation from
    the deal mean of two, is half a performance's variance: 2. The deviations themselves
    spread far wider (6.5), and weigh only as the prior's 20 degrees of freedom."""
    rng = random.Random(1)
    scale = PointScale()
    for _ in range(400):
        noise = rng.choice((-1.0, 1.0))
        scale.observe([["a"], ["b"]], [3.0 + noise, -noise])
    assert scale.variance() == pytest.approx((798 * 2 + 20 * 6.5) / 818, rel=0.03)
    assert scale.variance() < 2.2


def test_partners_move_together_by_their_teams_points() -> None:
    rec = with_deals(
        record(["a", "b", "c", "d"], [0] * 4, teams=[[0, 2], [1, 3]]),
        [[3, 0, 3, 0], [1, 0, 1, 0], [2, 0, 2, 0]],
    )
    ratings = Ratings(POINTS)
    ratings.rate_match(rec)
    for one, partner in ("ac", "bd"):
        assert ratings.rating(one).mu == pytest.approx(ratings.rating(partner).mu, abs=1e-9)
        assert ratings.rating(one).sigma == pytest.approx(ratings.rating(partner).sigma)
    assert ratings.rating("a").mu > ratings.rating("b").mu


def test_a_points_match_with_a_disqualified_seat_is_rated_by_its_result() -> None:
    rec = with_deals(record(["a", "b"], [0, 0]), [[5, 0], [5, 0]])
    rec["disqualified"] = [True, False]
    ratings = Ratings(POINTS)
    ratings.rate_match(rec)
    assert ratings.rating("b").mu > ratings.rating("a").mu


def test_points_ratings_of_equal_entrants_are_calibrated() -> None:
    """Two equally skilled entrants with Gaussian deal points: the leaderboard's
    P(>next) must be a probability, not a verdict. After 40 deals it exceeds 0.95 in
    about 5% of tournaments (a scale read too small would make it far more, too large
    far less); and between entrants 0.5 points a deal apart, it is above 0.5 most often."""
    rng = random.Random(16)
    sure = 0
    right = 0
    runs = 300
    for _ in range(runs):
        equal = Ratings(POINTS)
        apart = Ratings(POINTS)
        equal.rate_match(
            with_deals(record(["a", "b"], [0, 0]), [[rng.gauss(0, 2), rng.gauss(0, 2)]
                                                     for _ in range(40)])
        )  # fmt: skip
        apart.rate_match(
            with_deals(record(["a", "b"], [0, 0]), [[rng.gauss(0.5, 2), rng.gauss(0, 2)]
                                                     for _ in range(40)])
        )  # fmt: skip
        sure += prob_better(equal.rating("a"), equal.rating("b")) > 0.95
        right += prob_better(apart.rating("a"), apart.rating("b")) > 0.5
    assert 0.02 * runs <= sure <= 0.09 * runs
    assert right >= 0.7 * runs


def test_the_evidence_gives_the_exact_posterior_of_a_gap() -> None:
    """PointsEvidence against the Gaussian model written out whole: skills s ~ N(0, p^2 I),
    team points y = M s + e, e ~ N(0, diag(v * team size)), seen up to a shift common to the deal
    (flat prior on the shift, so only the differences of y count). The test builds the
    posterior from the differences' likelihood with its own linear algebra. (One noise v
    for every table make-up, ``weighted=False``: the leaderboard's evidence weighs each
    make-up by its own measured noise, see the next test.)"""
    rng = random.Random(7)
    names = ["a", "b", "c", "d", "e"]
    prior = 3.0
    seat_variance = 2.5
    evidence = PointsEvidence(weighted=False)
    info = [[0.0] * 5 for _ in range(5)]
    vector = [0.0] * 5
    for _ in range(12):
        seats = rng.sample(names, rng.choice((2, 3, 4)))
        size = rng.choice((1, 2)) if len(seats) == 4 else 1
        teams = [seats[i : i + size] for i in range(0, len(seats), size)]
        points = [rng.uniform(-5, 5) for _ in teams]
        noise = [seat_variance * len(team) for team in teams]
        evidence.observe(teams, points)
        # differences against the last team: d = D y, cov D diag(noise) D^T
        t = len(teams)
        cov = [
            [noise[-1] + (noise[i] if i == j else 0.0) for j in range(t - 1)] for i in range(t - 1)
        ]
        rows = []  # D M, one row per difference, over the five entrants
        for i in range(t - 1):
            row = [0.0] * 5
            for n in teams[i]:
                row[names.index(n)] += 1.0
            for n in teams[-1]:
                row[names.index(n)] -= 1.0
            rows.append(row)
        diffs = [points[i] - points[-1] for i in range(t - 1)]
        for x in range(5):
            col = solve(cov, [rows[i][x] for i in range(t - 1)])  # cov^-1 (DM)_x
            vector[x] += sum(c * d for c, d in zip(col, diffs, strict=True))
            for y in range(5):
                info[x][y] += sum(col[i] * rows[i][y] for i in range(t - 1))
    precision = [
        [info[x][y] + (1 / prior**2 if x == y else 0.0) for y in range(5)] for x in range(5)
    ]
    mean = solve(precision, vector)
    for a, b in (("a", "b"), ("c", "e"), ("d", "a")):
        ia, ib = names.index(a), names.index(b)
        gap = [(i == ia) - (i == ib) for i in range(5)]
        spread = solve(precision, [float(g) for g in gap])
        z = (mean[ia] - mean[ib]) / math.sqrt(spread[ia] - spread[ib])
        expected = 0.5 * math.erfc(-z / math.sqrt(2))
        assert evidence.prob_better(a, b, seat_variance, prior) == pytest.approx(expected, abs=1e-9)


def _two_seat_field(seed: int, weighted: bool) -> tuple[float, float, dict[str, float]]:
    """A simulated single-handed field of four, two tables of two each round, five deals a
    match: skills a 0, b 0.5, c 1, d 3; a deal's margin has noise 1 between a, b and c
    and 6 wherever d (a random bot's draws) sits. Returns the estimate of b - a, its
    variance and the estimates."""
    rng = random.Random(seed)
    skill = {"a": 0.0, "b": 0.5, "c": 1.0, "d": 3.0}
    evidence = PointsEvidence(weighted=weighted)
    for _ in range(60):
        names = rng.sample(sorted(skill), 4)
        for table in (names[:2], names[2:]):
            noise = 6.0 if "d" in table else 1.0
            for _ in range(5):
                margin = skill[table[0]] - skill[table[1]] + rng.gauss(0.0, noise)
                evidence.observe([[table[0]], [table[1]]], [margin / 2, -margin / 2])
            evidence.close()
    gap, variance, _ = evidence.gap("b", "a", 1.0, 100.0)
    return gap, variance, evidence.estimates(1.0, 100.0)


def test_the_evidence_weighs_each_table_make_up_by_its_own_noise() -> None:
    """Feasible generalised least squares (``PointsEvidence._fitted``): the make-ups
    without the noisy entrant count for more (each seat's noise fitted from its
    matches), so the gap b - a is found about twice as precisely as with one noise for
    all, stays unbiased, and its shown variance (the sandwich, weights included) is the
    spread the estimates really have over seeds."""
    runs = [(_two_seat_field(seed, True), _two_seat_field(seed, False)) for seed in range(150)]
    weighted = [w[0] for w, _ in runs]
    plain = [p[0] for _, p in runs]

    def spread(xs: list[float]) -> float:
        mean = sum(xs) / len(xs)
        return math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))

    assert spread(weighted) < 0.7 * spread(plain)
    assert abs(sum(weighted) / len(weighted) - 0.5) < 3 * spread(weighted) / math.sqrt(len(runs))
    shown = math.sqrt(sum(w[1] for w, _ in runs) / len(runs))
    assert 0.85 < shown / spread(weighted) < 1.15
    # the order of the field is kept: each run's estimates rank d > c > b > a or close to it
    assert sum(
        sorted(w[2], key=w[2].__getitem__) == ["a", "b", "c", "d"] for w, _ in runs
    ) >= 0.9 * len(runs)


def test_make_up_weights_are_the_field_noise_over_their_own() -> None:
    """A make-up's weight (``PointsEvidence.weights``) is above 1 where its seats' deals
    vary less than the field's, below 1 where more, and every weight is 1 before the
    evidence has more units than entrants."""
    evidence = PointsEvidence()
    rng = random.Random(3)
    for match in range(40):
        table = [["a"], ["b"]] if match % 2 else [["a"], ["c"]]
        noise = 1.0 if match % 2 else 5.0
        for _ in range(4):
            margin = rng.gauss(0.0, noise)
            evidence.observe(table, [margin / 2, -margin / 2])
        evidence.close()
        if match == 0:
            assert evidence.weights(1.0, 10.0) == {}
    weights = evidence.weights(1.0, 10.0)
    index = evidence.index
    quiet = weights[((index["a"],), (index["b"],))]
    loud = weights[((index["a"],), (index["c"],))]
    assert quiet > 1.0 > loud


def test_p_better_uses_every_deal_and_is_calibrated() -> None:
    """The leaderboard's P(>next) for points ratings (Ratings.prob_better): between equal
    entrants above 0.95 in about 5% of tournaments, between entrants 0.5 points a deal apart
    above 0.95 far more often than the two marginal ratings alone would say."""
    rng = random.Random(61)
    runs = 200
    sure_equal = sure_apart = sure_marginal = 0
    for _ in range(runs):
        equal = Ratings(POINTS)
        apart = Ratings(POINTS)
        four = ["a", "b", "c", "d"]
        equal.rate_match(
            with_deals(record(four, [0] * 4), [[rng.gauss(0, 2) for _ in four] for _ in range(40)])
        )
        apart.rate_match(
            with_deals(
                record(four, [0] * 4),
                [[rng.gauss(0.5, 2), rng.gauss(0, 2), rng.gauss(0, 2), rng.gauss(0, 2)]
                 for _ in range(40)],
            )
        )  # fmt: skip
        sure_equal += equal.prob_better("a", "b") > 0.95
        sure_apart += apart.prob_better("a", "b") > 0.95
        sure_marginal += prob_better(apart.rating("a"), apart.rating("b")) > 0.95
    assert 0.02 * runs <= sure_equal <= 0.09 * runs
    assert sure_apart > 1.3 * sure_marginal
    # 0.5 a deal, 40 deals, sd of a gap 2.83: z = 1.12, so P > 0.95 in about 31% of runs
    assert 0.2 * runs <= sure_apart <= 0.45 * runs


def test_settled_asks_every_adjacent_pair() -> None:
    ratings = Ratings(POINTS)
    deals = [[3.0, 0.0, -3.0] for _ in range(30)]
    ratings.rate_match(with_deals(record(["a", "b", "c"], [0] * 3), deals))
    assert ratings.settled(["a", "b", "c"])
    assert not ratings.settled(["b", "a", "c"])


def test_above_the_limit_p_better_comes_from_the_two_ratings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rec = with_deals(record(["a", "b", "c"], [0] * 3), [[2, 0, -1], [1, 0, -2], [0, 1, -1]])
    ratings = Ratings(POINTS)
    ratings.rate_match(rec)
    exact = ratings.prob_better("a", "b")
    monkeypatch.setattr(PointsEvidence, "LIMIT", 2)
    marginal = prob_better(ratings.rating("a"), ratings.rating("b"))
    assert ratings.prob_better("a", "b") == marginal != pytest.approx(exact)
    by_ranks = Ratings(RatingParams(unit="both", tau=0.0))
    by_ranks.rate_match(rec)
    assert by_ranks.prob_better("a", "b") == prob_better(by_ranks.rating("a"), by_ranks.rating("b"))


@pytest.mark.parametrize("sizes", [(2, 2), (2, 2, 2), (3, 3)])
def test_a_margin_update_between_teams_is_the_exact_gaussian_posterior(
    sizes: tuple[int, ...],
) -> None:
    """A team's performance is the sum of its seats' (noise size * beta^2): the observed
    differences of the team sums give each seat's posterior in closed form."""
    rng = random.Random(len(sizes) * 10 + sizes[0])
    env = PointsTrueSkill(mu=25.0, sigma=25 / 3, beta=25 / 6, tau=0.0)
    seats = sum(sizes)
    mus = [rng.uniform(15, 35) for _ in range(seats)]
    sigmas = [rng.uniform(0.5, 8) for _ in range(seats)]
    teams, start = [], 0
    for size in sizes:
        teams.append(list(range(start, start + size)))
        start += size
    perf = [rng.uniform(-10, 10) for _ in teams]
    groups = [{i: env.create_rating(mus[i], sigmas[i]) for i in team} for team in teams]
    rated = env.rate_margins(groups, perf)
    beta2 = (25 / 6) ** 2
    t = len(teams)
    # y_k = T_k - T_{k+1}, T = sum of the team's skills + noise of variance size * beta^2
    rows = [[(i in teams[k]) - (i in teams[k + 1]) for i in range(seats)] for k in range(t - 1)]
    noise = [len(team) * beta2 for team in teams]
    cov = [
        [
            sum(rows[a][i] * rows[b][i] * sigmas[i] ** 2 for i in range(seats))
            + (noise[a] if a == b else 0.0)
            + (noise[a + 1] if a == b else 0.0)
            - (noise[a + 1] if b == a + 1 else 0.0)
            - (noise[b + 1] if a == b + 1 else 0.0)
            for b in range(t - 1)
        ]
        for a in range(t - 1)
    ]
    innovation = [
        perf[k] - perf[k + 1] - sum(rows[k][i] * mus[i] for i in range(seats)) for k in range(t - 1)
    ]
    weights = solve(cov, innovation)
    for team_index, team in enumerate(teams):
        for i in team:
            gain = [rows[k][i] * sigmas[i] ** 2 for k in range(t - 1)]
            mean = mus[i] + sum(g * w for g, w in zip(gain, weights, strict=True))
            var = sigmas[i] ** 2 - sum(g * x for g, x in zip(gain, solve(cov, gain), strict=True))
            assert rated[team_index][i].mu == pytest.approx(mean, abs=1e-6)
            assert rated[team_index][i].sigma == pytest.approx(math.sqrt(var), abs=1e-6)


def test_points_rate_teams_of_unequal_size_by_places() -> None:
    """A pair against a single seat: sums of two skills against one, which a deal's
    common shift cannot absorb. Such a match is rated by its places."""
    rec = with_deals(record(["a", "b", "c"], [0] * 3, teams=[[0, 1], [2]]), [[1, 1, 0]] * 6)
    points = Ratings(POINTS)
    points.rate_match(rec)
    places = Ratings(RatingParams(unit="match", tau=0.0))
    places.rate_match(rec)
    for name in "abc":
        assert points.rating(name) == places.rating(name)


def factor_graph_margins(
    teams: Sequence[Sequence[tuple[float, float]]],
    performances: Sequence[float],
    *,
    beta: float,
    tau: float = 0.0,
) -> list[list[tuple[float, float]]]:
    """``gaussian_margins`` through the ``trueskill`` package's factor graph (the path the
    ratings took before issue 29): the reference the closed form must match."""
    env = PointsTrueSkill(mu=25.0, sigma=25 / 3, beta=beta, tau=tau)
    groups = [
        {(k, i): env.create_rating(mu, sigma) for i, (mu, sigma) in enumerate(team)}
        for k, team in enumerate(teams)
    ]
    rated = env.rate_margins(groups, performances)
    return [
        [(rated[k][k, i].mu, rated[k][k, i].sigma) for i in range(len(team))]
        for k, team in enumerate(teams)
    ]


@pytest.mark.parametrize(
    "sizes", [(1, 1), (1, 1, 1), (1, 1, 1, 1), (1,) * 6, (2, 2), (2, 2, 2), (3, 3)]
)
@pytest.mark.parametrize("tau", [0.0, 25 / 300])
def test_the_closed_form_margin_update_equals_the_factor_graph(
    sizes: tuple[int, ...], tau: float
) -> None:
    """Issue 29: the points update is done in closed form (``gaussian_margins``); the
    ``trueskill`` factor graph it replaced must give the same means and sigmas."""
    rng = random.Random(sum(sizes) * 7 + len(sizes))
    for _ in range(20):
        teams = [[(rng.uniform(10, 40), rng.uniform(0.3, 9)) for _ in range(n)] for n in sizes]
        perf = [rng.uniform(-12, 12) for _ in sizes]
        fast = gaussian_margins(teams, perf, beta=25 / 6, tau=tau)
        slow = factor_graph_margins(teams, perf, beta=25 / 6, tau=tau)
        for fast_team, slow_team in zip(fast, slow, strict=True):
            for (mu, sigma), (ref_mu, ref_sigma) in zip(fast_team, slow_team, strict=True):
                assert mu == pytest.approx(ref_mu, abs=1e-5)
                assert sigma == pytest.approx(ref_sigma, abs=1e-5)


def test_a_whole_run_rates_the_same_in_closed_form_and_through_the_factor_graph(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hundreds of deals of four seats (and of two teams of two), rated with each path:
    every entrant's mu and sigma agree to 1e-4 at the end."""
    rng = random.Random(29)
    skill = {"a": 1.0, "b": 0.6, "c": 0.0, "d": -1.5}
    records = []
    for r in range(1, 31):
        seats = rng.sample(list(skill), 4)
        deals = [[skill[n] + rng.gauss(0, 3) for n in seats] for _ in range(13)]
        teams = [[0, 1], [2, 3]] if r % 3 == 0 else None
        records.append(with_deals(record(seats, [0] * 4, teams=teams, round=r), deals))
    fast = Ratings(POINTS)
    fast.rate_all(records)
    monkeypatch.setattr("arena.standings.ratings.gaussian_margins", factor_graph_margins)
    slow = Ratings(POINTS)
    slow.rate_all(records)
    for name in skill:
        assert fast.rating(name).mu == pytest.approx(slow.rating(name).mu, abs=1e-4)
        assert fast.rating(name).sigma == pytest.approx(slow.rating(name).sigma, abs=1e-4)


def test_a_disqualification_costs_the_estimate_what_it_costs_mu() -> None:
    """The leaderboard's sort (``Ratings.estimate``) reads the points of every deal at
    once, but matches rated by places (here a disqualified seat, ranked last) are not
    points: they move the estimate by what they moved mu. The best player, disqualified in
    most matches, sinks below the honest entrants that mu puts above it (how far a
    disqualification sinks a seat is the places rating's business); with no such match
    the estimate is the evidence's alone."""
    rng = random.Random(25)
    skill = {"a": 1.0, "b": 0.5, "c": 0.0, "d": -0.5}
    honest, faulty = [], []
    for r in range(1, 13):
        seats = list(skill)
        deals = [[skill[n] + rng.gauss(0, 2) for n in seats] for _ in range(13)]
        rec = with_deals(record(seats, [0] * 4, round=r), deals)
        honest.append(rec)
        out = r % 4 != 1  # a disqualified in 9 of 12 matches
        faulty.append({**rec, "disqualified": [out, False, False, False]})
    clean = Ratings(POINTS)
    clean.rate_all(honest)
    assert clean.ranked(skill)[0] == "a"
    assert clean._by_points is None  # nothing rated by places: one track
    cheat = Ratings(POINTS)
    cheat.rate_all(faulty)
    ranked = cheat.ranked(skill)
    assert ranked.index("a") > ranked.index("b") and ranked.index("a") > ranked.index("c")
    assert cheat._by_points is not None
    assert cheat._placed == {"a"}  # only the offender's estimate carries its penalty
    variance = cheat._scale.variance()
    per_unit = math.sqrt(variance) / cheat.params.beta
    points = cheat._evidence.estimates(variance, cheat.params.sigma * per_unit)
    for name in "bcd":  # the honest seats are placed by their points alone
        assert cheat.estimate(name) == pytest.approx(cheat.params.mu + points[name] / per_unit)
    assert all(cheat.prob_better(x, y) >= 0.5 for x, y in zip(ranked, ranked[1:], strict=False))
