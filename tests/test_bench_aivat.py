"""bench/aivat.py (issue 29 part 6): the correction at the random bot's decisions cannot
bias a result, it follows the replays exactly, and the bench prints its table. Not a goal
check: the variance it removes is the bench's to report (README), never a test's."""

from __future__ import annotations

import importlib.util
import random
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from procs import run_bench

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture(scope="module")
def aivat() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location("bench_aivat", BENCH / "aivat.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


def _one_round(aivat: ModuleType, variant: str, seed: int) -> ModuleType:
    from arena.core.seeding import seeded_secret
    from arena.play.run import RunConfig, load_bots, make_plan
    from arena.play.tournament import run_in_process

    config = RunConfig(rounds=1, variant=variant, seed=seed, transport="in-process")
    writer = aivat.DealWriter()
    secret = seeded_secret(seed)
    run_in_process(make_plan(config, secret=secret), load_bots(config, secret), writer)
    return writer


def test_a_decisions_terms_average_to_zero_over_its_options(aivat: ModuleType) -> None:
    """Uniform play picks each option equally often, so the terms, averaged over which
    option was chosen, are exactly zero for every seat: the correction keeps every
    expected score (no bias), whatever the values."""
    rng = random.Random(5)
    for options in (2, 3, 13):
        values = [[rng.uniform(-30, 30) for _ in range(4)] for _ in range(options)]
        terms = [aivat._term(values, chosen) for chosen in range(options)]
        for seat in range(4):
            assert sum(t[seat] for t in terms) / options == pytest.approx(0.0, abs=1e-9)
        assert terms[0] != [0.0] * 4  # one draw is corrected, not zeroed


def test_a_subset_of_the_options_keeps_the_average_at_zero(aivat: ModuleType) -> None:
    """``--width``: the chosen option and a uniform draw of the others stand for all of
    them. Averaged over the chosen option and over every draw, the term is still exactly
    zero; checked by listing every draw (a random.Random whose sample returns each)."""
    import itertools

    rng = random.Random(9)
    n, width = 5, 3
    values = [[rng.uniform(-30, 30) for _ in range(4)] for _ in range(n)]

    class Fixed(random.Random):
        """Draws ``draw`` from ``others``, as the bench's draw would with some luck."""

        def __init__(self, others: list[int], draw: tuple[int, ...]) -> None:
            super().__init__(0)
            self.others, self.draw = others, draw

        def sample(self, population, k, *, counts=None):  # type: ignore[no-untyped-def]
            assert sorted(population) == self.others and k == len(self.draw)
            return list(self.draw)

    total = [0.0] * 4
    count = 0
    for chosen in range(n):
        others = [i for i in range(n) if i != chosen]
        for draw in itertools.combinations(others, width - 1):
            fixed = Fixed(others, draw)
            term = aivat._decision(list(range(n)), chosen, values.__getitem__, width, fixed)
            total = [t + x for t, x in zip(total, term, strict=True)]
            count += 1
    assert all(t / count == pytest.approx(0.0, abs=1e-9) for t in total)
    seen: list[int] = []
    aivat._decision(list(range(n)), 1, lambda i: seen.append(i) or values[i], width, rng)
    assert len(seen) == width and seen[0] == 1  # only the chosen and width - 1 played out


@pytest.mark.parametrize("variant", ["classic", "target"])
def test_the_correction_replays_each_deal_and_repeats(aivat: ModuleType, variant: str) -> None:
    """Every deal of a real run is followed through the simulator to the replay's scores
    (``correction`` refuses a deal it cannot follow), the random seat's terms are not all
    zero, and the same deal gives the same correction."""
    writer = _one_round(aivat, variant, seed=3)
    deals = [d for match in writer.deals for d in match]
    assert deals and all("random" in d["seats"] for d in deals)
    terms = [aivat.correction(d, 2, ["bid", "play"], seed=i) for i, d in enumerate(deals[:4])]
    assert any(any(abs(t) > 1e-9 for t in term) for term in terms)
    assert aivat.correction(deals[0], 2, ["bid", "play"], seed=0) == terms[0]
    bad = dict(deals[0], scores=[s + 1 for s in deals[0]["scores"]])
    with pytest.raises(ValueError, match="the simulator scores"):
        aivat.correction(bad, 1, ["bid"], seed=0)


def test_the_aivat_bench_prints_its_table() -> None:
    out = run_bench("aivat.py", "--seeds", "2", "--rounds", "10", "--samples", "1",
                    "--true-order", "tracker,planner,greedy,random", timeout=300)  # fmt: skip
    assert out.returncode == 0, out.stderr
    said = out.stdout
    assert "classic, 2 seeds of 10 rounds, corrected at the random bot's bid" in said
    for pair in ("tracker − planner", "planner − greedy", "greedy − random"):
        assert re.search(rf"  {pair}: variance \d+\.\d\d → \d+\.\d\d, ratio \d\.\d{{3}} "
                         r"\[\d\.\d{3}, \d\.\d{3}\]; mean [+-]\d\.\d{3} → [+-]\d\.\d{3}, "
                         r"change [+-]\d\.\d{3} ± \d\.\d{3}", said), pair  # fmt: skip
    assert re.search(r"R= 10: [01]\.\d{3} \[[01]\.\d{3}, [01]\.\d{3}\]  [01]\.\d{3} ", said)
    assert re.search(r"play \d+\.\d\d ms a deal, correction \d+\.\d\d ms a deal", said)
