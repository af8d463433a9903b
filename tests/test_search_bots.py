"""The search bots of Truco and Ruff (``bots.truco.pimc``, ``bots.ruff.pimc``) and what they
share (``bots.searching``). Their strength is measured by bench/truco_strength.py and
bench/ruff_strength.py, never asserted here; these tests check that they play legal whole
matches in every seat count and form, repeat exactly with ``samples``, and are bundled
but no default entrant."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena.games.registry import game_entry, make_game
from arena.games.ruff.rules import RuffRules
from arena.games.truco.rules import TrucoRules
from arena.play.tournament import MatchContext, play_match
from bots import bundled_module
from bots.ruff.pimc import Bot as RuffPimc
from bots.ruff.pimc import discard_candidates
from bots.searching import SearchOptions, Tally, decision_rng, search
from bots.truco import bot_class
from bots.truco.pimc import Bot as TrucoPimc


def play(game: str, rules: Any, bots: list[Any], match: str) -> dict[str, Any]:
    names = [f"s{i}" for i in range(len(bots))]
    out = play_match(
        make_game(game, rules=rules), bots, ctx=MatchContext(match, seed=match), names=names
    )
    return out.record


def no_faults(record: dict[str, Any]) -> bool:
    return all(n == 0 for counts in record["faults"].values() for n in counts)


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_truco_pimc_plays_legal_whole_matches(seats: int) -> None:
    bots = [
        TrucoPimc(seed=s, samples=3) if s % 2 == 0 else bot_class("shrewd")() for s in range(seats)
    ]
    record = play("truco", TrucoRules(seats=seats, points=15), bots, f"truco-pimc-{seats}")
    assert no_faults(record)


@pytest.mark.parametrize(
    "rules",
    [RuffRules(), RuffRules(form="single", seats=3), RuffRules(form="single", seats=2)],  # type: ignore[arg-type]
    ids=["double", "single-3", "single-2"],
)
def test_ruff_pimc_plays_legal_whole_matches(rules: RuffRules) -> None:
    from bots.ruff.sharp import Bot as Sharp

    bots = [RuffPimc(seed=s, samples=2) if s % 2 == 0 else Sharp() for s in range(rules.seats)]
    record = play("ruff", rules, bots, f"ruff-pimc-{rules.seats}")
    assert no_faults(record)


def _choices(match: Any, bot: Any, most: int) -> list[str]:
    """The first ``most`` actions of ``match`` with ``bot`` in every seat, each checked
    to be one of the legal actions."""
    out = []
    while not match.is_over and len(out) < most:
        (seat,) = match.to_act()
        legal = match.legal_actions(seat)
        picked = bot.act(match.view(seat), legal)
        action = legal[picked] if isinstance(picked, int) else picked
        assert action in legal
        out.append(str(action))
        match.apply(seat, action)
    return out


def test_with_samples_their_play_repeats_exactly() -> None:
    """The same seed and sample count: the same choices (in Ruff the announcement, the
    rub and the play), whatever ran before; every choice is one of the legal actions."""
    from arena.games.ruff.state import RuffMatch
    from arena.games.truco.state import TrucoMatch

    def truco(bot: TrucoPimc) -> list[str]:
        return _choices(TrucoMatch(TrucoRules(seats=2), seed="repeat"), bot, 40)

    def ruff(bot: RuffPimc) -> list[str]:
        rules = RuffRules(form="single", seats=2)  # type: ignore[arg-type]
        return _choices(RuffMatch(rules, seed="repeat"), bot, 30)

    first = truco(TrucoPimc(seed=3, samples=5)), ruff(RuffPimc(seed=3, samples=4))
    random.seed(99)  # nothing global is read
    assert truco(TrucoPimc(seed=3, samples=5)) == first[0]
    assert ruff(RuffPimc(seed=3, samples=4)) == first[1]


def test_ruff_discards_searched_are_legal_sets_of_four() -> None:
    from arena.games.ruff.state import RuffMatch

    match = RuffMatch(RuffRules(), seed="rub")
    while match.phase.value != "rub":
        (seat,) = match.to_act()
        match.apply(seat, match.legal_actions(seat)[-1])
    (seat,) = match.to_act()
    view = match.view(seat)
    legal = match.legal_actions(seat)
    candidates = discard_candidates(view.hand, view.trump)
    assert 2 <= len(candidates) <= 10
    assert all(len(set(c)) == 4 and set(c) <= set(view.hand) for c in candidates)
    picked = RuffPimc(samples=2).act(view, legal)
    assert picked in legal


def test_the_search_bots_are_bundled_but_no_default_entrant() -> None:
    assert bundled_module("pimc", "truco") == "bots.truco.pimc"
    assert bundled_module("truco.pimc") == "bots.truco.pimc"
    assert bundled_module("pimc", "ruff") == "bots.ruff.pimc"
    assert bundled_module("ruff.pimc") == "bots.ruff.pimc"
    for game, values in (("truco", {"seats": 4}), ("ruff", {"form": "double", "seats": 4})):
        entry = game_entry(game)
        defaults = entry.default_entrants({**_defaults(entry), **values})
        assert "pimc" not in defaults


def _defaults(entry: Any) -> dict[str, Any]:
    return {option.field: option.default for option in entry.options}


def test_search_options_are_checked() -> None:
    with pytest.raises(ValueError, match="budget"):
        TrucoPimc(budget=0)
    with pytest.raises(ValueError, match="samples"):
        RuffPimc(samples=-1)
    assert SearchOptions(samples=3).more()(2) and not SearchOptions(samples=3).more()(3)


def test_the_sampling_loop_scores_every_candidate_in_every_world() -> None:
    rng = decision_rng(1, "pos")
    tally = search(3, lambda r: r.random(), lambda w, r: [0.0, 1.0 + float(w), 0.5], rng,
                   SearchOptions(samples=10).more())  # fmt: skip
    assert tally.n == 10 and tally.best() == 1
    assert tally.mean(2) == 0.5 and tally.stderr(2) == 0.0 and tally.stderr(1) > 0
    empty = Tally(2)
    assert empty.mean(0) == 0.0 and empty.best() == 0  # ties go to the first
    assert decision_rng(1, "a", 2).random() == decision_rng(1, "a", 2).random()


def test_a_truco_tournament_can_name_pimc_beside_the_heuristic_bots() -> None:
    """``arena tournament --game truco --bots pimc,shrewd,basic,random`` finds them all."""
    from arena.play.run import check_bot_names, load_bot

    check_bot_names(["pimc", "shrewd", "basic", "random"], "truco")
    check_bot_names(["pimc", "sharp", "steady", "random"], "ruff")
    assert isinstance(load_bot("pimc:samples=4", "1", "truco"), TrucoPimc)
    assert isinstance(load_bot("pimc", "1", "ruff"), RuffPimc)


def test_ruff_pimc_believes_worlds_where_the_others_announced_their_true_ruff() -> None:
    """``likelihood`` (F4): a world where another seat's true ruff is what it announced
    weighs 1; above it weighs e^-trust/4 a point, short of it e^-1/4 a point whatever
    ``trust``; an announcement of 0 says nothing but that it could not win."""
    import math

    from arena.games.ruff import sim
    from arena.games.ruff.state import RuffMatch
    from bots.ruff.pimc import likelihood

    match = RuffMatch(RuffRules(), seed="believe")
    (seat,) = match.to_act()
    match.apply(seat, match.legal_actions(seat)[-1])  # its true ruff
    (me,) = match.to_act()
    view = match.view(me)
    [(other, number)] = view.announcements
    deal = sim.random_deal(random.Random(1), RuffRules())
    dealt = list(deal.dealt)
    dealt[other] = match.view(other).dealt  # the world where it is what it is
    dealt[me] = view.dealt
    true = sim.Deal(tuple(tuple(int(c) for c in h) for h in dealt), (int(view.turned),))
    assert likelihood(view, true, trust=1.0) == 1.0
    lower = view._replace(announcements=((other, number - 3),))
    assert math.isclose(likelihood(lower, true, trust=1.0), math.exp(-3 / 4))
    assert math.isclose(likelihood(lower, true, trust=0.0), 1.0)
    higher = view._replace(announcements=((other, number + 2),))
    assert math.isclose(likelihood(higher, true, trust=0.0), math.exp(-2 / 4))
    assert likelihood(view._replace(announcements=((other, 0),)), true, trust=5.0) == 1.0


def test_a_search_begins_no_world_that_would_end_past_its_budget() -> None:
    """``SearchOptions.more`` (every game's search) on a made-up clock (no timed
    assertion): worlds of 10 ms and a 55 ms budget begun at 0 give five worlds (a sixth
    would end at 60 ms); with 8 ms of setup before the first, four (the setup counts in
    each world's share); the first world is always begun, however long the setup took."""
    from bots.searching import SearchOptions

    options = SearchOptions(budget=0.055)

    def worlds(setup: float) -> tuple[int, float]:
        now = [setup]
        more = options.more(0.0, clock=lambda: now[0])
        done = 0
        while more(done):
            now[0] += 0.01  # one world
            done += 1
        return done, now[0]

    done, ended = worlds(0.0)
    assert done == 5 and ended <= 0.055
    done, ended = worlds(0.008)
    assert done == 4 and ended <= 0.055
    assert options.more(0.0, clock=lambda: 9.0)(0)  # the first world, even past the budget
    assert [SearchOptions(samples=3).more()(n) for n in range(5)] == [True] * 3 + [False] * 2
