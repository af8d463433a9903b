"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS), for any game.

PIMC (``bots.searching.search``) scores each candidate action by playing every world out
with a fixed playout policy: the searching seat's own later decisions in a playout are
the policy's, so it cannot plan ("call now, fold to a raise later") nor value an action
by what it will do next. ISMCTS grows a tree over the searching seat's *own* decisions
instead (Cowling, Powley and Whitehouse, 2012): each node is one of its information
sets, keyed by what it has observed since the decision being searched; each iteration

1. draws a fresh world (a determinisation: the hidden cards, from the game's sampler)
   with its weight (how likely the world makes what the other seats did so far);
2. walks down the tree: at the searching seat's decisions it picks by UCB1 among the
   actions legal in this world (counting, for each action, the visits in which it was
   available, as the legal actions may differ between worlds), and every other seat's
   move is drawn from the game's policy (an opponent model, not a tree of its own);
3. adds the first information set of the searching seat not yet in the tree, and plays
   it first by the policy's choice (a node seen once plays as the playout would; below
   the root, until it has ``widen`` visits) when that choice is among the actions
   ``choices`` offers; when it is not (Truco's tree offers one card, the table's, and
   its policy plays a random card now and then), the game's ``default`` when the tree
   is given one (pimc's ``lazy=table``: the card offered), else UCB1 picks, an untried
   action first (Truco's default; ``lazy=table`` gained nothing shown). Regret
   matching, Smooth UCT and the regret matching of outcome sampling below the root,
   past a node's lazy visits, instead of UCB1 gained nothing at Truco's six seats
   (pimc's docstring; the code is at commit c21d846);
4. plays on to the end with the game's policy (the rollout);
5. adds the world's reward, weighed by the world's weight, to every edge it took.

The root's action with the most visits is the choice (ties to the better mean, then to
the first legal action). Every random number comes from the ``rng`` given, and the tree is
a plain dict walked in a fixed order: with a fixed iteration count
(``SearchOptions.samples``) the choice repeats exactly; on a time ``budget``, no
iteration is begun that the budget cannot fit (``SearchOptions.more``).

A game plugs in through ``Game`` (a ``typing.Protocol``: any object with these methods);
``tests/test_ismcts.py`` has a tiny one whose right answers are known.

Used by Truco's ``pimc`` (``tree=below``, an option): its plain search keeps the root,
every candidate in every world (paired), and ``Tree.walk`` plans the seat's later bets
below it. ISMCTS at the root as well (``search``, the worlds shared out among the
candidates by UCB1) lost to that there (bots/truco/pimc.py's docstring has the figures),
and a Ruff adapter on it gained nothing (branch ruff5, removed).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

S = TypeVar("S")  # a game state (one world)
A = TypeVar("A", bound=Hashable)  # an action

DEFAULT_EXPLORATION = 1.0  # UCB1's constant, in the reward's own units


class Game(Protocol[S, A]):
    """What the search needs of a game. ``state`` is one world, mutable or not: ``play``
    returns the state after the move (it may be the same object, changed)."""

    def actor(self, state: S) -> int | None:
        """The seat to move, or None once the search's horizon is reached (the hand's
        end, or wherever the game wants rewards read)."""
        ...

    def choices(self, state: S) -> Sequence[A]:
        """The searching seat's candidate actions here (its legal actions, or those of
        them worth searching); in a fixed order: ties go to the first."""
        ...

    def policy(self, state: S, rng: random.Random) -> A:
        """Any seat's move drawn from the game's model: every other seat's, and the
        searching seat's past the tree."""
        ...

    def play(self, state: S, action: A) -> S:
        """The state after the seat to move takes ``action``."""
        ...

    def observe(self, state: S, seat: int, action: A) -> Hashable | None:
        """What the searching seat sees of ``seat`` taking ``action`` in ``state``
        (before the move): its information sets are keyed by these, in order. None
        for nothing seen (a hidden move), or to merge information sets on purpose."""
        ...

    def reward(self, state: S) -> float:
        """The searching seat's value of a state at the horizon (``actor`` None)."""
        ...


@dataclass
class Edge:
    """One action's statistics at one information set."""

    visits: int = 0
    available: int = 0  # iterations in which it was legal here (UCB1's count)
    weight: float = 0.0  # the worlds' weights, summed
    value: float = 0.0  # weighed rewards, summed

    @property
    def mean(self) -> float:
        return self.value / self.weight if self.weight > 0 else 0.0


@dataclass
class Node(Generic[A]):
    """One information set of the searching seat: its actions' edges, made as first
    seen (in the order ``choices`` gave them)."""

    edges: dict[A, Edge] = field(default_factory=dict)

    def edge(self, action: A) -> Edge:
        edge = self.edges.get(action)
        if edge is None:
            edge = self.edges[action] = Edge()
        return edge


@dataclass
class Result(Generic[A]):
    """A finished search: the root's candidates, in order, with their edges."""

    actions: list[A]
    root: Node[A]
    iterations: int
    nodes: int

    def visits(self, action: A) -> int:
        edge = self.root.edges.get(action)
        return edge.visits if edge is not None else 0

    def mean(self, action: A) -> float:
        edge = self.root.edges.get(action)
        return edge.mean if edge is not None else 0.0

    def best(self) -> int:
        """The index in ``actions`` of the most visited, ties to the better mean, then
        to the first."""

        def rank(i: int) -> tuple[int, float, int]:
            a = self.actions[i]
            return self.visits(a), self.mean(a), -i

        return max(range(len(self.actions)), key=rank)


def ucb(edge: Edge, exploration: float) -> float:
    """UCB1 over the visits in which the action was available (ISMCTS's subset-armed
    bandit); an action never visited first."""
    if not edge.visits:
        return math.inf
    return edge.mean + exploration * math.sqrt(math.log(edge.available) / edge.visits)


def select(node: Node[A], legal: Sequence[A], exploration: float, first: A | None) -> A:
    """The action to take at ``node`` among ``legal``: ``first`` (the policy's) when
    given, else UCB1's best, ties to the first in ``legal``."""
    if first is not None:
        return first
    return max(legal, key=lambda a: ucb(node.edge(a), exploration))


class Tree(Generic[S, A]):
    """The searching seat's information sets met so far, and the walks that grow them:
    ``search`` walks it from the root in a fresh world each iteration; a PIMC-style
    caller can instead play each of its root candidates in every world itself (paired
    over the same worlds) and walk the tree from there (``walk`` with the candidate's
    key), so that its own later decisions are planned rather than the policy's."""

    def __init__(
        self,
        game: Game[S, A],
        me: int,
        exploration: float = DEFAULT_EXPLORATION,
        widen: int = 1,
        default: Callable[[S, Sequence[A]], A] | None = None,
    ) -> None:
        self.game = game
        self.me = me
        self.exploration = exploration
        self.widen = widen
        self.default = default  # a lazy node's action when the policy's is not offered
        self.nodes: dict[tuple[Hashable, ...], Node[A]] = {}

    def walk(
        self, state: S, rng: random.Random, weight: float = 1.0, key: tuple[Hashable, ...] = ()
    ) -> float:
        """One iteration from ``state``, the searching seat's information set ``key``
        (() for the root): down the tree, one new node, the rollout; the reward is added
        to every edge taken, weighed by ``weight``, and returned."""
        game, me, nodes = self.game, self.me, self.nodes
        path: list[Edge] = []
        growing = True  # still in the tree: no new node added this walk yet
        while (seat := game.actor(state)) is not None:
            legal = game.choices(state) if seat == me and growing else ()
            if len(legal) > 1:  # a decision of the searching seat's, in the tree
                node = nodes.get(key)
                if node is None:
                    node = nodes[key] = Node()
                visits = sum(e.visits for e in node.edges.values())
                lazy = not visits or (bool(key) and visits < self.widen)
                if lazy:
                    first = game.policy(state, rng)
                    if first not in legal and self.default is not None:
                        first = self.default(state, legal)
                    action = select(
                        node, legal, self.exploration, first if first in legal else None
                    )
                else:
                    action = select(node, legal, self.exploration, None)
                for a in legal:
                    node.edge(a).available += 1
                path.append(node.edge(action))
                growing = visits > 0  # one new node a walk; below it, the rollout
            elif legal:
                action = legal[0]  # forced: no node
            else:
                action = game.policy(state, rng)
            seen = game.observe(state, seat, action)
            if seen is not None:
                key = (*key, seen)
            state = game.play(state, action)
        reward = game.reward(state)
        for edge in path:
            edge.visits += 1
            edge.weight += weight
            edge.value += weight * reward
        return reward


def search(
    game: Game[S, A],
    me: int,
    draw: Callable[[random.Random], tuple[S, float]],
    rng: random.Random,
    more: Callable[[int], bool],
    exploration: float = DEFAULT_EXPLORATION,
    widen: int = 1,
) -> Result[A]:
    """ISMCTS for seat ``me``, to move in every world ``draw(rng)`` gives (a world and its
    weight, more than 0), while ``more(iterations so far)`` (``SearchOptions.more``); the
    first iteration always runs. A ``draw`` that raises TimeoutError ends the search.
    ``exploration`` is UCB1's constant, in the reward's units (about the spread of
    one world's rewards). ``widen``: a node below the root plays the policy's choice
    until it has been visited that often (at least once), and only then tries the
    others by UCB1: with few iterations a deep node's every action tried once would
    mostly add noise to the means above it (a rollout's own choice is the policy's)."""
    tree = Tree(game, me, exploration, widen)
    root_actions: list[A] | None = None
    done = 0
    while more(done):
        try:
            state, weight = draw(rng)
        except TimeoutError:
            break
        if root_actions is None:
            root_actions = list(game.choices(state))
            if not root_actions:
                raise ValueError(f"seat {me} has no action to search")
        tree.walk(state, rng, weight)
        done += 1
    if root_actions is None:
        raise TimeoutError("no world was drawn")
    root = tree.nodes.get((), Node())
    return Result(actions=root_actions, root=root, iterations=done, nodes=len(tree.nodes))
