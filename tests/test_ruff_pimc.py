"""Ruff's search bot, ``bots.ruff.pimc``: the parts its strength rests on, each checked
against a plainer version of itself (the strength is measured in bench/ruff_duplicate.py
and bench/ruff_strength.py, never asserted here)."""

from __future__ import annotations

import random

import pytest

from arena.games.ruff import sim
from arena.games.ruff.rules import RuffRules
from bots.ruff import pimc

FORMS = [
    RuffRules(),
    RuffRules(form="single", seats=4),
    RuffRules(form="single", seats=3),
    RuffRules(form="single", seats=2),
]


def midway(rules: RuffRules, seed: int) -> sim.Sim:
    """A seeded deal played at random to a point in its play (F7), or its announcing."""
    rng = random.Random(seed)
    deal = sim.random_deal(rng, rules)
    state = sim.Sim.start(rules, deal.dealt, deal.head, dealer=seed % rules.seats)
    for _ in range(rng.randrange(30)):
        if state.is_over:
            break
        moves = state.legal()
        state.apply(moves[rng.randrange(len(moves))])
    return state


@pytest.mark.parametrize("rules", FORMS, ids=lambda r: f"{r.form}-{r.seats}")
def test_the_fast_playout_makes_the_policys_moves(rules: RuffRules) -> None:
    """``pimc.playout`` plays the tricks straight from ``card_policy``: it must end every
    deal with the points of the plain ``Sim.playout`` under ``pimc.policy``, move for
    move (the same hands left at every step is checked through the final points and the
    cards each side won)."""
    for seed in range(60):
        state = midway(rules, seed)
        plain, fast = state.copy(), state.copy()
        expected = plain.playout(random.Random(seed), pimc.policy)
        assert tuple(pimc.playout(fast, random.Random(seed))) == expected
        assert fast.cards_won == plain.cards_won


def test_the_play_shows_who_announces_low_and_who_announces_true() -> None:
    """``announcers`` (F3, F4): a seat that announced less than the suit sum its played
    cards already show is caught announcing low; a seat that announced its true ruff
    never is (its plays are some of its dealt cards, F7), nor is the rubber (it plays head
    cards too, F5), and once it has played all its cards but one it counts as a true-ruff
    announcer. A seat not trusted so loses no weight for holding more than it said."""
    from arena.games.ruff.actions import Announce
    from arena.games.ruff.state import RuffMatch
    from bots.ruff.sharp import Bot as Sharp

    rules = RuffRules(form="single", seats=3)
    for seed in range(40):
        match = RuffMatch(rules, seed=f"shade{seed}")
        (first,) = match.to_act()
        top = match.legal_actions(first)[-1]
        assert isinstance(top, Announce)
        if top.number < 3:
            continue
        match.apply(first, Announce(1))  # far below its true ruff
        while match.view(first).phase == "announce":
            (seat,) = match.to_act()
            match.apply(seat, match.legal_actions(seat)[-1])
        rubber = match.view(first).rubber
        if rubber == first:
            continue
        me = next(s for s in range(3) if s not in (first, rubber))
        truthful = next(s for s in range(3) if s not in (first, me))
        assert pimc.announcers(match.view(me)) == ({first}, set())  # the turned card sums more
        sharp = Sharp()
        while match.view(me).phase == "play":
            (seat,) = match.to_act()
            view = match.view(seat)
            low, true = pimc.announcers(view)
            assert low == ({first} - {seat})  # truthful seats are never caught
            assert true <= {truthful} - {seat, rubber}
            match.apply(seat, sharp.act(view, match.legal_actions(seat)))
            if len(match.view(me).tricks) == rules.hand_size - 1:
                break
        break
    else:
        pytest.fail("no deal had a non-rubber seat able to announce low")
    view = match.view(me)
    assert pimc.announcers(view)[1] == ({truthful} - {rubber})
    deal = sim.Deal(tuple(tuple(match.view(s).dealt) for s in range(3)), (int(view.turned),))
    believed = pimc.likelihood(view, deal, trust=1.0)
    doubted = pimc.likelihood(view, deal, trust=1.0, trusted=set())
    assert believed < doubted == 1.0  # the others announced their true ruffs


def test_the_bot_remembers_true_ruff_announcers_from_deal_to_deal() -> None:
    """A seat is trusted only after a whole deal showed it announcing its true ruff: after
    deal 1 the bot holds, for its match, the sharp seats that did not rub as true-ruff
    announcers and none as low; another match starts from nothing."""
    from arena.games.ruff.state import RuffMatch
    from bots.ruff.sharp import Bot as Sharp

    rules = RuffRules(form="single", seats=3)
    bot, sharp = pimc.Bot(seed=1, samples=2), Sharp()
    match = RuffMatch(rules, seed="remember")
    first = match.view(0)
    assert first.deal == 1
    while match.view(0).deal == 1 and not match.is_over:
        (seat,) = match.to_act()
        view, legal = match.view(seat), match.legal_actions(seat)
        player = bot if seat == 0 else sharp
        picked = player.act(view, legal)
        match.apply(seat, legal[picked] if isinstance(picked, int) else picked)
        if view.phase == "play":
            rubber = view.rubber
    assert rubber is not None
    expected = {s for s in (1, 2) if s != rubber}
    assert bot.true[first.match_id] == expected
    assert bot.low[first.match_id] == set()
    acted = False  # into deal 2, where no seat has shown its cards yet: memory alone
    while not acted and not match.is_over:
        (seat,) = match.to_act()
        view, legal = match.view(seat), match.legal_actions(seat)
        acted = seat == 0
        picked = (bot if acted else sharp).act(view, legal)
        match.apply(seat, legal[picked] if isinstance(picked, int) else picked)
    assert view.deal == 2
    assert bot.true[first.match_id] == expected
    assert first.match_id + "x" not in bot.true
    bot.match_over({"match": first.match_id, "seat": 0})  # the match ends: forgotten
    assert first.match_id not in bot.true and first.match_id not in bot.low


@pytest.mark.parametrize("rules", FORMS, ids=lambda r: f"{r.form}-{r.seats}")
def test_outcome_plays_out_and_solves_the_tail(rules: RuffRules) -> None:
    """``pimc.outcome``: without ``tail`` the value of ``playout`` (``card_policy``, F7);
    with ``tail`` the exact solver's from the first trick start with that many tricks
    left (``bots.ruff.solver``)."""
    from bots.ruff.solver import solve

    for seed in range(40):
        state = midway(rules, seed)
        side = rules.side_of(0)
        plain = pimc.playout(state.copy(), random.Random(0))
        assert pimc.outcome(state.copy(), random.Random(0), side) == pimc.value(plain, side)
        tailed = state.copy()
        while not tailed.is_over and (
            tailed.phase != sim.PLAY or tailed.trick or tailed.hands[tailed.turn].bit_count() > 2
        ):
            if tailed.phase != sim.PLAY:
                tailed.step(pimc.policy(tailed, random.Random(0)))
            else:
                tailed.play(pimc.card_policy(tailed, random.Random(0)))
        expected = solve(tailed, side)
        assert pimc.outcome(state.copy(), random.Random(0), side, 2) == pytest.approx(expected)


def test_bad_options_are_refused_with_the_reason() -> None:
    for options, words in [
        ({"tail": -1}, "tail and endgame"),
        ({"endgame": -2}, "tail and endgame"),
        ({"margin": -0.1}, "margin and z"),
    ]:
        with pytest.raises(ValueError, match=words):
            pimc.Bot(**options)  # type: ignore[arg-type]
