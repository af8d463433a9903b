"""arena.games.truf.luck (issue 29 part 6): the value correction at the decisions of
seats that choose uniformly at random. What makes it safe to subtract is exact, so it is
tested exactly: each decision's term averages to zero over the options (all of them, or a
uniform draw of them), so no expected score moves; the deal is followed through the
simulator to the record's own scores; the same record gives the same correction. What it
removes is measured by bench/aivat.py, not asserted here."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

import pytest

from arena.core.seeding import seeded_secret
from arena.games.truf.luck import decision_term, luck, term
from arena.play.run import RunConfig, load_bots, make_plan
from arena.play.tournament import run_in_process


class Deals:
    """What run_in_process writes to: every deal record of the run."""

    def __init__(self) -> None:
        self.deals: list[dict[str, Any]] = []

    def write_match(self, record: Any, deals: Sequence[dict[str, Any]]) -> None:
        self.deals.extend(deals)


def _deals(variant: str, seed: int) -> list[dict[str, Any]]:
    """The deals of one round of the bundled field (tracker, planner, greedy, random)."""
    config = RunConfig(rounds=1, variant=variant, seed=seed, transport="in-process")
    secret = seeded_secret(seed)
    writer = Deals()
    run_in_process(make_plan(config, secret=secret), load_bots(config, secret), writer)  # type: ignore[arg-type]
    return writer.deals


def _random_seat(deal: dict[str, Any]) -> int:
    return list(deal["seats"]).index("random")


def test_a_decisions_terms_average_to_zero_over_its_options() -> None:
    """Uniform play picks each option equally often, so the terms averaged over which
    option was chosen are exactly zero for every seat, whatever the values."""
    rng = random.Random(5)
    for options in (2, 3, 13):
        values = [[rng.uniform(-30, 30) for _ in range(4)] for _ in range(options)]
        terms = [term(values, chosen) for chosen in range(options)]
        for seat in range(4):
            assert sum(t[seat] for t in terms) / options == pytest.approx(0.0, abs=1e-9)
        assert any(abs(x) > 1e-6 for x in terms[0])  # one draw is corrected, not zeroed


class Drawn(random.Random):
    """A Random whose ``sample`` returns one given draw, to list every draw in turn."""

    def __init__(self, others: list[int], draw: tuple[int, ...]) -> None:
        super().__init__(0)
        self.others, self.draw = others, draw

    def sample(self, population, k, *, counts=None):  # type: ignore[no-untyped-def,override]
        assert sorted(population) == self.others and k == len(self.draw)
        return list(self.draw)


def test_a_uniform_draw_of_the_options_keeps_the_average_at_zero() -> None:
    """``width``: the chosen option and a uniform draw of the others stand for all of
    them. Averaged over the chosen option and every draw, the term is still exactly zero;
    and only ``width`` options are valued."""
    rng = random.Random(9)
    n, width = 5, 3
    values = [[rng.uniform(-30, 30) for _ in range(4)] for _ in range(n)]
    total, count = [0.0] * 4, 0
    for chosen in range(n):
        others = [i for i in range(n) if i != chosen]
        for draw in itertools.combinations(others, width - 1):
            got = decision_term(range(n), chosen, values.__getitem__, width, Drawn(others, draw))
            total = [t + x for t, x in zip(total, got, strict=True)]
            count += 1
    assert all(t / count == pytest.approx(0.0, abs=1e-9) for t in total)
    valued: list[int] = []
    decision_term(range(n), 1, lambda i: valued.append(i) or values[i], width, rng)
    assert len(valued) == width and valued[0] == 1
    valued.clear()
    decision_term(range(n), 1, lambda i: valued.append(i) or values[i], 0, rng)
    assert valued == list(range(n))  # width 0: every option


@pytest.mark.parametrize("variant", ["classic", "target"])
def test_every_deal_is_followed_to_its_scores_and_corrected_the_same_each_time(
    variant: str,
) -> None:
    deals = _deals(variant, seed=3)[:5]
    corrections = [
        luck(d, [_random_seat(d)], decisions=("bid", "mode", "play"), samples=2) for d in deals
    ]
    assert any(any(abs(x) > 1e-9 for x in c) for c in corrections)
    assert (
        luck(deals[0], [_random_seat(deals[0])], decisions=("bid", "mode", "play"), samples=2)
        == corrections[0]
    )
    bad = dict(deals[0], scores=[s + 1 for s in deals[0]["scores"]])
    with pytest.raises(ValueError, match=r"deal 1: the simulator scores .* where the record has"):
        luck(bad, [_random_seat(bad)], samples=1)


@pytest.mark.parametrize(("variant", "seed", "number"), [("classic", 3, 11), ("target", 7, 3)])
def test_the_mode_choice_at_13_is_corrected_when_the_random_seat_makes_it(
    variant: str, seed: int, number: int
) -> None:
    """C5/T4: the high bidder at 13 chooses atas or bawah; the random seat chooses either
    with chance 1/2 (these seeds' deals have it so)."""
    deal = next(
        d for d in _deals(variant, seed) if d["match"] == "r0001-t01" and d["deal"] == number
    )
    seat = _random_seat(deal)
    assert deal["mode_chosen"] and deal["high_bidder"] == seat
    assert any(abs(x) > 1e-9 for x in luck(deal, [seat], decisions=("mode",)))


def test_no_term_without_a_random_seat_or_for_a_decision_it_faulted() -> None:
    """A fallback is no uniform choice: the decision a fault record names (its
    ``decision``: the bids are 1 to 4 in seat order) gets no term, the others keep theirs."""
    deal = _deals("classic", seed=4)[0]
    seat = _random_seat(deal)
    assert luck(deal, []) == [0.0] * 4
    bid = luck(deal, [seat], decisions=("bid",))
    assert any(abs(x) > 1e-9 for x in bid)
    at_bid = dict(deal, faults=[{"seat": seat, "kind": "timeout", "decision": seat + 1}])
    assert luck(at_bid, [seat], decisions=("bid",)) == [0.0] * 4
    later = dict(deal, faults=[{"seat": seat, "kind": "timeout", "decision": 30}])
    assert luck(later, [seat], decisions=("bid",)) == bid  # a card's fault: the bid stands
    other = dict(deal, faults=[{"seat": (seat + 1) % 4, "kind": "timeout", "decision": seat + 1}])
    assert luck(other, [seat]) == luck(deal, [seat])
    with pytest.raises(ValueError, match="no such decisions: \\['bids'\\]"):
        luck(deal, [seat], decisions=("bids",))


def test_a_deal_the_simulator_cannot_follow_gets_zeros_and_says_why() -> None:
    """GameEntry.deal_luck: the run records zeros (its points as played) and finishes;
    ``arena verify`` reports the why (tests/test_correct_random.py)."""
    from arena.games.registry import game_entry

    deal = _deals("classic", seed=4)[0]
    seat = _random_seat(deal)
    entry = game_entry("truf")
    values, why = entry.deal_luck(deal, [seat])
    assert why is None and values == [round(x, 6) for x in luck(deal, [seat])]
    bad = dict(deal, scores=[s + 1 for s in deal["scores"]])
    values, why = entry.deal_luck(bad, [seat])
    assert values == [0.0] * 4 and why is not None and "the simulator scores" in why
