"""bots/ismcts.py on tiny games whose right answers are known by hand."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import pytest

from bots import ismcts
from bots.searching import SearchOptions

ME, OTHER = 0, 1


@dataclass(frozen=True)
class Spot:
    """A state of the tiny games: the hidden ``coin`` (0 or 1, the world's), the moves
    made so far, and the reward once over."""

    coin: int
    moves: tuple[str, ...] = ()
    over: float | None = None


class Guess:
    """The searching seat takes ``safe`` (worth ``safe``) or ``risky``; after ``risky`` it
    guesses the hidden coin, ``a`` (0) or ``b`` (1): +1 right, -1 wrong. It never sees the
    coin, so ``risky`` is worth 2 P(coin is 0) - 1 at best (the weighed worlds' share);
    a search that lets its later guess see the coin (strategy fusion, ``leak``) values it
    at +1."""

    def __init__(self, safe: float, leak: bool = False) -> None:
        self.safe = safe
        self.leak = leak

    def actor(self, state: Spot) -> int | None:
        return None if state.over is not None else ME

    def choices(self, state: Spot) -> Sequence[str]:
        return ("safe", "risky") if not state.moves else ("a", "b")

    def policy(self, state: Spot, rng: random.Random) -> str:
        legal = self.choices(state)
        return legal[int(rng.random() * len(legal))]

    def play(self, state: Spot, action: str) -> Spot:
        moves = (*state.moves, action)
        if action == "safe":
            return Spot(state.coin, moves, self.safe)
        if action in ("a", "b"):
            return Spot(state.coin, moves, 1.0 if "ab".index(action) == state.coin else -1.0)
        return Spot(state.coin, moves)

    def observe(self, state: Spot, seat: int, action: str) -> Hashable | None:
        return (action, state.coin) if self.leak else action

    def reward(self, state: Spot) -> float:
        assert state.over is not None
        return state.over


class Plan:
    """The searching seat takes ``sure`` (0.5) or ``plan``; after ``plan`` the other seat
    shows ``x`` or ``y`` at random, and the searching seat then names one of four
    answers: the one matching what was shown is worth +1, the others -1. A rollout at
    random values ``plan`` at -0.5 (PIMC with that policy takes ``sure``); planning its
    own answer, ``plan`` is worth +1."""

    ANSWERS = ("p", "q", "r", "s")

    def actor(self, state: Spot) -> int | None:
        if state.over is not None:
            return None
        return OTHER if state.moves == ("plan",) else ME

    def choices(self, state: Spot) -> Sequence[str]:
        if not state.moves:
            return ("sure", "plan")
        return self.ANSWERS if len(state.moves) == 2 else ("x", "y")

    def policy(self, state: Spot, rng: random.Random) -> str:
        legal = self.choices(state)
        return legal[int(rng.random() * len(legal))]

    def play(self, state: Spot, action: str) -> Spot:
        moves = (*state.moves, action)
        if action == "sure":
            return Spot(state.coin, moves, 0.5)
        if action in self.ANSWERS:
            right = {"x": "q", "y": "s"}[moves[1]]
            return Spot(state.coin, moves, 1.0 if action == right else -1.0)
        return Spot(state.coin, moves)

    def observe(self, state: Spot, seat: int, action: str) -> Hashable | None:
        return (seat, action)

    def reward(self, state: Spot) -> float:
        assert state.over is not None
        return state.over


def fair(rng: random.Random) -> tuple[Spot, float]:
    return Spot(coin=int(rng.random() * 2)), 1.0


def run(game: object, draw: object = fair, samples: int = 2000, seed: int = 1) -> ismcts.Result:
    """The search with UCB1's constant at the rewards' spread (-1 to +1)."""
    more = SearchOptions(samples=samples).more()
    return ismcts.search(game, ME, draw, random.Random(seed), more, exploration=2.0)  # type: ignore[arg-type]


def test_hidden_information_is_not_fused() -> None:
    result = run(Guess(safe=0.3))
    assert result.actions[result.best()] == "safe"
    assert result.mean("risky") < 0.3  # its guess is right half the time at best
    # the same game, the coin leaked into the key: the later guess sees it
    leaked = run(Guess(safe=0.3, leak=True))
    assert leaked.actions[leaked.best()] == "risky"


def test_the_worlds_weights_count() -> None:
    def skewed(rng: random.Random) -> tuple[Spot, float]:  # coin 0 three times as likely
        coin = int(rng.random() * 2)
        return Spot(coin=coin), 3.0 if coin == 0 else 1.0

    result = run(Guess(safe=0.3), draw=skewed)
    assert result.actions[result.best()] == "risky"  # 2 * 0.75 - 1 = 0.5 > 0.3
    assert result.mean("risky") == pytest.approx(0.5, abs=0.1)
    assert run(Guess(safe=0.3)).actions[run(Guess(safe=0.3)).best()] == "safe"


def test_it_plans_its_own_later_decisions() -> None:
    result = run(Plan())
    assert result.actions[result.best()] == "plan"
    assert result.mean("plan") > 0.8
    # the root's first walk takes the policy's choice, its second the other candidate
    few = run(Plan(), samples=2)
    assert few.iterations == 2 and few.visits("plan") == 1 and few.visits("sure") == 1


def test_samples_repeat_exactly_and_count_iterations() -> None:
    a, b = run(Plan(), samples=300, seed=7), run(Plan(), samples=300, seed=7)
    assert a.iterations == 300
    assert [(a.visits(x), a.mean(x)) for x in a.actions] == [
        (b.visits(x), b.mean(x)) for x in b.actions
    ]
    assert sum(a.visits(x) for x in a.actions) == 300


def test_a_draw_that_times_out_ends_the_search() -> None:
    calls = []

    def draw(rng: random.Random) -> tuple[Spot, float]:
        calls.append(1)
        if len(calls) > 5:
            raise TimeoutError
        return fair(rng)

    assert run(Guess(safe=0.3), draw=draw, samples=100).iterations == 5

    def never(rng: random.Random) -> tuple[Spot, float]:
        raise TimeoutError

    with pytest.raises(TimeoutError):
        run(Guess(safe=0.3), draw=never)


def test_a_tree_walked_below_a_paired_root_plans_the_later_decisions() -> None:
    """``Tree.walk`` from each root candidate in every world (a PIMC root, paired): the
    candidates' later decisions are planned, so ``plan`` ends near +1 where a rollout
    at random values it -0.5."""
    game = Plan()
    tree = ismcts.Tree(game, ME, exploration=2.0, widen=4)
    rng = random.Random(3)
    sums = {"sure": 0.0, "plan": 0.0}
    late = {"sure": 0.0, "plan": 0.0}
    for i in range(1000):
        world, weight = fair(rng)
        for action in sums:
            after = game.play(world, action)
            value = tree.walk(after, rng, weight, key=(game.observe(world, ME, action),))
            sums[action] += value
            if i >= 500:
                late[action] += value
    assert sums["sure"] == 500.0
    assert late["plan"] / 500 > 0.8  # planned: its answer matches what was shown
    assert () not in tree.nodes  # the root is the caller's, not the tree's
    assert len(tree.nodes) == 2  # the two information sets after "plan": x or y shown


class Offer:
    """After the root's ``go`` the searching seat plays ``card`` (+1) or ``fold`` (-1);
    the policy would play ``other``, a card the tree does not offer (as Truco's tree
    offers only the table card)."""

    def actor(self, state: Spot) -> int | None:
        return None if state.over is not None else ME

    def choices(self, state: Spot) -> Sequence[str]:
        return ("fold", "card")

    def policy(self, state: Spot, rng: random.Random) -> str:
        return "other"

    def play(self, state: Spot, action: str) -> Spot:
        return Spot(state.coin, (*state.moves, action), 1.0 if action == "card" else -1.0)

    def observe(self, state: Spot, seat: int, action: str) -> Hashable | None:
        return action

    def reward(self, state: Spot) -> float:
        assert state.over is not None
        return state.over


@pytest.mark.parametrize("default", [False, True])
def test_a_lazy_node_plays_the_offered_default_when_given_one(default: bool) -> None:
    """A node below the root, in its ``widen`` lazy visits, whose policy's choice is
    not offered: with a ``default`` it plays that (the card offered), without one
    UCB1's untried action first (``fold``, then ``card``, then the better)."""
    game = Offer()
    offered = (lambda state, legal: "card") if default else None
    tree = ismcts.Tree(game, ME, exploration=2.0, widen=4, default=offered)
    rng = random.Random(1)
    rewards = [tree.walk(Spot(coin=0, moves=("go",)), rng, key=("go",)) for _ in range(4)]
    node = tree.nodes[("go",)]
    if default:
        assert rewards == [1.0] * 4 and node.edges["fold"].visits == 0
    else:
        assert rewards[:2] == [-1.0, 1.0] and node.edges["fold"].visits >= 1
