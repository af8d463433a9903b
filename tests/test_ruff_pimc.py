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
        ({"explore": -1.0}, "explore"),
    ]:
        with pytest.raises(ValueError, match=words):
            pimc.Bot(**options)  # type: ignore[arg-type]


def best_of_mine(state: sim.Sim, me: int, side: int) -> float:
    """The deal's value for ``me`` when it plays its every later card best, all hands
    open, and the other seats play ``pimc.policy`` (what ``tree=1``'s tree can learn)."""
    if state.is_over:
        return pimc.value(state.points, side)
    if state.turn != me or state.phase != sim.PLAY:
        child = state.copy()
        child.step(pimc.policy(child, random.Random(0)))
        return best_of_mine(child, me, side)
    values = []
    for move in state.legal():
        child = state.copy()
        child.step(move)
        values.append(best_of_mine(child, me, side))
    return max(values)


class Recorded(pimc.Tree):
    """A ``Tree`` that keeps every iteration's reward by its root candidate."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.seen: list[list[float]] = [[] for _ in self.root]

    def reward(self, state: sim.Sim) -> float:
        reward = super().reward(state)
        self.seen[self.iteration % len(self.root)].append(reward)
        return reward


def one_world(game: pimc.Tree, state: sim.Sim, iterations: int, seed: int = 0) -> None:
    """``bots.ismcts.search`` over ``game`` in the one world ``state``, seen whole."""
    from bots import ismcts

    def draw(rng: random.Random) -> tuple[sim.Sim, float]:
        world = state.copy()
        game.start(world, 1.0)
        return world, 1.0

    ismcts.search(game, game.me, draw, random.Random(seed), lambda done: done < iterations,
                  pimc.EXPLORE)  # fmt: skip


def late(rules: RuffRules, seed: int, cards: int) -> sim.Sim | None:
    """``midway``, played on by ``pimc.policy`` to a card play of a seat with ``cards``
    or fewer and a choice (F7); None if the deal ends first."""
    state = midway(rules, seed)
    while not state.is_over and (
        state.phase != sim.PLAY or state.hands[state.turn].bit_count() > cards
    ):
        state.step(pimc.policy(state, random.Random(0)))
    return None if state.is_over or len(state.legal()) < 2 else state


@pytest.mark.parametrize("rules", FORMS, ids=lambda r: f"{r.form}-{r.seats}")
def test_the_tree_plays_every_candidate_in_every_world_and_learns_its_later_cards(
    rules: RuffRules,
) -> None:
    """``pimc.Tree`` as ``bots.ismcts``'s game, in one world seen whole with three cards
    or fewer left: every candidate is played once a round, its first time as the
    playouts play (``pimc.outcome``), and within a few rounds the tree has found its
    best later cards (``best_of_mine``); the tally holds one paired row a round."""
    checked = 0
    for seed in range(60):
        state = late(rules, seed, 3)
        if state is None:
            continue
        me = state.turn
        side = rules.side_of(me)
        root = list(state.legal())
        game = Recorded(me, side, root)
        one_world(game, state, 20 * len(root))
        assert game.tally.n == 20
        for move, seen in zip(root, game.seen, strict=True):
            child = state.copy()
            child.step(move)
            assert len(seen) == 20
            assert seen[0] == pimc.outcome(child.copy(), random.Random(0), side)
            assert max(seen) == best_of_mine(child, me, side)
        paired = [sum(a - b for a, b in zip(seen, game.seen[0], strict=True)) for seen in game.seen]
        assert game.tally.sums == pytest.approx(paired)  # each round against the default's
        checked += 1
    assert checked >= 20


def test_the_tree_sees_cards_and_announcements_but_not_others_discards() -> None:
    """What ``Tree.observe`` keys the searching seat's information sets by (F4, F5, F7)."""
    from arena.games.ruff.actions import ANNOUNCES, PLAYS, Discard

    state = midway(RuffRules(), 1)
    game = pimc.Tree(0, 0, [PLAYS[0]], (-1, -1))
    assert game.observe(state, 2, PLAYS[5]) == PLAYS[5]
    assert game.observe(state, 1, ANNOUNCES[7]) == ANNOUNCES[7]
    thrown = Discard((1, 2, 3, 4))  # type: ignore[arg-type]
    assert game.observe(state, 3, thrown) is None
    assert game.observe(state, 0, thrown) == thrown


@pytest.mark.parametrize("rules", FORMS, ids=lambda r: f"{r.form}-{r.seats}")
def test_the_tree_without_depth_is_the_flat_search_and_with_it_repeats(rules: RuffRules) -> None:
    """``tree=1:depth=1`` (the root alone in the tree) draws the same worlds and plays
    every candidate in each as the flat search does, so it makes the same move at every
    decision of a deal against sharp (F4, F5, F7); ``tree=1`` repeats for the same seed
    (``samples`` fixes the iterations) and plays only legal moves."""
    from arena.games.ruff.state import RuffMatch
    from bots.ruff.sharp import Bot as Sharp

    def deal(bot: pimc.Bot, twin: pimc.Bot | None = None) -> list[object]:
        sharp = Sharp()
        match = RuffMatch(rules, seed="tree")
        moves = []
        while match.view(0).deal == 1 and not match.is_over:
            (seat,) = match.to_act()
            view, legal = match.view(seat), match.legal_actions(seat)
            picked = (bot if seat == 0 else sharp).act(view, legal)
            move = legal[picked] if isinstance(picked, int) else picked
            if seat == 0 and twin is not None:
                other = twin.act(view, legal)
                assert (legal[other] if isinstance(other, int) else other) == move
            assert move in legal
            moves.append(move)
            match.apply(seat, move)
        return moves

    flat = pimc.Bot(seed=3, samples=8)
    assert len(deal(pimc.Bot(seed=3, samples=8, tree=True, depth=1), flat)) > rules.seats
    tree = deal(pimc.Bot(seed=3, samples=6, tree=True))
    assert tree == deal(pimc.Bot(seed=3, samples=6, tree=True))


def test_the_tree_stops_at_its_depth() -> None:
    """``depth=1``: no node below the root, every later card as the playouts play it
    (each round the same rewards); ``depth=0`` grows a node under each candidate."""
    from bots import ismcts

    rules = RuffRules(form="single", seats=3)
    state = next(s for seed in range(40) if (s := late(rules, seed, 6)) is not None)
    me, root = state.turn, list(state.legal())
    nodes = {}
    for depth in (1, 0):
        game = Recorded(me, rules.side_of(me), root, depth)

        def draw(rng: random.Random, g: pimc.Tree = game) -> tuple[sim.Sim, float]:
            world = state.copy()
            g.start(world, 1.0)
            return world, 1.0

        result = ismcts.search(game, me, draw, random.Random(1), lambda done: done < 40 * len(root))
        nodes[depth] = result.nodes
        counted = [len(set(seen)) for seen in game.seen]
        if depth == 1:
            assert counted == [1] * len(root)
    assert nodes[1] == 0 < nodes[0]
