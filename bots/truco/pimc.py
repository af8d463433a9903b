"""pimc: Truco by Monte Carlo search on the simulator (``arena.games.truco.sim``).

For every decision it draws the cards it has not seen, exactly among the deals its view
allows (``arena.games.truco.sampling``: the cards played and shown, every declaration a true
score), and in each such world tries each of its legal actions -- a card, a call, a
raise, Quiero or No Quiero, al mazo -- then plays the hand out with ``policy``, a quick
player that sees only its own cards: the other seats call, answer and play by their own
hands, never by the world's hidden cards, so a call can be refused, a bluff can work and
a raise is answered as a table would. It takes the action whose worlds score best: its
team's points in the hand less the other team's (R2: partners share them).

Plain PIMC (every seat seeing every card in the playouts) cannot bluff nor read a bluff;
here only the searching seat's first action is chosen with the world's cards in view, and
each world is one its view allows, weighed by how likely the other seats' calls and
answers so far are with the cards it gives them. A declaration (R9) is made whenever
legal: the true number can only win the Envido.

The playouts' seats call and answer the Envido as bots.truco.shrewd does, on the chance
that their team holds the best envido at the table (``team_policy``): with three to a
team a table accepts a Real Envido most of the time whatever its own number. The old
model (option ``model=own``, ``policy``) answered on a seat's own number, so at six
seats the search bluffed a Real Envido in a third to a half of the team hands and lost
on it (bench/truco_paired.py has the figures).

What it learns of the table (``learn``, on by default since 2026-11-26): within each
match, from the views it is served (R14), how likely each other seat is to call, answer,
play and fold at random rather than as the table player the playouts assume (``Reads``,
``play_evidence``: an Envido call, raise or Quiero against the number it then declared,
R9 -- a Real Envido or Falta opened against the number a table player opens on, shrewd's
``REAL_ENVIDO_AT``, a flat prior kept only for one refused, no number shown; a Truco
call or Quiero, once its three cards are seen, against the cards it held then and its
team's tricks, the playouts' ``equity``; a card it followed with against those it played
later, ``follow``; al mazo, R10). A seat so read acts at random that often in the
playouts, and its actions weigh the worlds the less: the bundled ``random`` is found out
in a few hands, its Envido calls no longer read as strength nor its answers as a
table's. Measured on the same hands and the same history (``bench/truco_paired.py
--history --shuffle``, one seat, against ``learn=0``, the other pimc learning; the
figures are in its docstring): after the review fixes of branch truco10 (an opened Real
Envido or Falta read on its declared number, so that another pimc is no longer read as
mostly random; the Truco judged on the cards held then), six seats +0.13 ± 0.05 (capped
+0.11 ± 0.03; 2400 hands from 1500): kept the default by the rule set for it (a gain of
two standard errors at least), from the duels (+0.27 ± 0.07, 1126 hands) and the Envido;
the team hands +0.00 ± 0.06 (1274). Before those fixes (branch truco9): six seats +0.26
± 0.12 (600), four +0.21 ± 0.17 (400), two, against shrewd only, -0.00 ± 0.11 (300). In
six-seat tournaments (seed 30, ``bench/truco_strength.py``) the fixed version finished
first, P 0.9933 plain (the goal of 0.99 met on this seed) and 0.9807 duplicate (not
met), against 0.8319 and 0.8030 before the fixes and 0.8701 and 0.9155 with ``learn=0``;
the tournaments' own spread on one seed is wide (bench/truco_strength.py's docstring).

Its own later decisions can be planned (``tree=below``; the default from 2026-11-26
until the re-measurement at the end of this paragraph, ``tree=off`` again since): in
plain PIMC the searching seat's later calls and answers in a playout are the policy's,
so the search cannot value "call now, fold to a Retruco later" nor a raise by what it
will do next. With ``tree=below`` each candidate is still played in every world (paired,
the race below), but from there the playout walks an information-set tree
(``bots.ismcts.Tree``, single-observer ISMCTS) shared across the worlds: a node is the
searching seat's cards and the public actions since the decision (R14), and at its later
calls, answers and al mazo UCB1 (``EXPLORATION``, 3 points) picks among the legal ones
once the node has been visited ``WIDEN`` (8) times, the policy's choice before; its card
there is the one ``policy`` plays (``table_card``), every other seat the playouts'
policy (with what ``Reads`` learned). Measured on the same hands and history (figures
in bench/truco_paired.py's docstring), both pimc seats on it: six seats +0.19 ± 0.09
points a hand (1200 hands, the rule's two standard errors; +0.20 ± 0.08 over 1500,
capped +0.17 ± 0.05), above all the team hands' Truco, where pimc had been level with
shrewd (+0.17 ± 0.05 a team hand); four seats +0.28 ± 0.17 (600; capped +0.24 ± 0.09),
two seats no loss shown (-0.06 ± 0.06, 900). In six-seat tournaments (seeds 30 and 31,
plain and ``--duplicate``) P(better than shrewd) 0.9836, 0.9536, 0.9689 and 0.9981,
against 0.9933, 0.9807, 0.8115 and 0.9400 without it (bench/truco_strength.py's
docstring): first in all four, the goal met in one. It costs about a fifth more time a
world (at the 50 ms budget a median of 161 worlds a decision against 188 at six seats,
169 against 232 at four; bench/truco_pimc_time.py's docstring). Those paired figures
were taken with a bench that served the match's earlier hands to the ``tree=below``
side only (bench/truco_paired.py's docstring; fixed in commit 8958628), which favoured
it by about what ``learn`` is worth. Re-measured after the fix, six seats, 2250 hands:
+0.06 ± 0.04 (capped +0.06 ± 0.03; Truco +0.05 ± 0.02, team hands +0.12 ± 0.07, duels
-0.01 ± 0.06): the Truco gain holds, the whole is not two standard errors. Four seats,
600 hands: -0.09 ± 0.09 (capped -0.03 ± 0.06). Two seats were not re-measured. By the
rule that made it the default (a gain of two standard errors at six seats, no loss shown
at two and four) it is not one, and it costs a fifth of the worlds: ``tree=off`` is the
default again, and with it the figures at two and four seats (P 1.0000 and 0.9997) and
the six-seat ones without it (above).

What makes the worlds go further: every candidate in a world reads the same random
numbers (``Draws``), so their difference is theirs and not the dice's; in the six-seat
duel hand (R13) a playout ends with the searching seat's own duel, the later ones adding
the same to every candidate; and a candidate clearly behind the best stops being played
out (``Race``), the search ending once one is left.

Options (``--bots pimc:budget=0.1`` or ``pimc:samples=40``): ``budget``, seconds of
search per decision (default 0.05; no world is started that the budget cannot fit), or
``samples``, a fixed number of worlds per decision (fewer once one candidate is left) so
that its play repeats exactly whatever the machine's speed (``bots.searching``); and
``bets``, who makes the Truco betting (the Truco, Retruco and Vale Cuatro calls, the
answers to them, al mazo): ``search`` (every decision searched), ``shrewd`` (those
taken as ``bots.truco.shrewd`` takes them, the search keeping the Envido and the cards)
``guard`` (every action searched, but shrewd's betting kept unless the search finds
another choice better by ``MARGIN`` points and ``GUARD_Z`` paired standard errors). The
default is ``search``: at six seats, over three seeds, neither other choice proved
better (bench/truco_strength.py's docstring has the numbers); ``model``, ``team`` (the
default) or ``own`` (above); ``learn``, 1 (the default) or 0 (above); ``tree``,
``off`` (the default) or ``below`` (above); with ``tree=below``, ``explore`` (UCB1's
constant, ``EXPLORATION`` points by default), ``widen`` (``WIDEN`` visits) and ``lazy``
(``ucb``, the default, or ``table``: a node in its lazy visits whose policy's card, a
random one, is not offered plays the table card rather than UCB1's untried action).
None of those three gained (below); other values of them need ``tree=below``. With ``samples``
its play repeats exactly: a function of the position and, with ``learn=1``, of the
views this process has served it of the match so far (``Reads``: a restarted bot has
forgotten them; a match id repeated in a later run of the same process is read with
the earlier run's hands).

Tried and not kept, the code removed (bench/truco_paired.py's docstring has the
figures; each commit named holds the code as measured):

* ``model=raise`` (commit 91d0782): playouts that answer an Envido with a Falta Envido
  when the table's own answer to it makes that pay: a gain in six-seat team hands, where
  another pimc answers a call so and a heuristic partner of the caller refuses it, a
  loss at two and four seats and in the duels, where no seat does.
* ``model=table`` (commit 4ce37fc): that Falta raise at a table of three a side only
  (the six-seat team hand, R13), ``team_policy`` elsewhere. On 900 six-seat team hands,
  both pimc seats on it, +0.24 ± 0.24 points a team hand over ``model=team`` (capped
  +0.02 ± 0.11), no gain shown; it opens the Envido where shrewd plays a card in 3% of
  those hands (against 22% on ``team``), giving up openings that gain against the
  heuristics to dodge the one seat (the other pimc) that raises to a Falta. In six-seat
  tournaments (seed 30, ``samples=150``) P 0.8424 plain, 0.9004 duplicate.
* ``model=odds`` (commit a42d6af): the playouts' Truco answered on its pot odds, as
  shrewd answers (accept once the equity beats 1 / (2 (level + 1)), where ``policy``
  accepts above 0.3 at every level, so the search expects a Retruco or a Vale Cuatro to
  be refused far more than a table refuses it, and raises on weak cards). The Truco
  gains with it, the whole not shown (both pimc seats on it, the same hands): two seats
  +0.10 ± 0.06 points a hand (300, one seat, against the default pimc), six-seat duels
  -0.15 ± 0.17 (284; Truco +0.09 ± 0.07, Envido -0.23 ± 0.16), team hands -0.07 ± 0.20
  (227; Truco +0.11 ± 0.12, Envido -0.18 ± 0.14).
* ``exact`` (commit d24e7bc, ``bots/truco/exact.py`` with a brute-force test): the
  playouts' cards solved in each world with every card seen (the first card that takes
  the play's tricks against every answer, the cheapest such, from at most 12 cards left
  in the play), every call, answer and al mazo still the model's, so no seat bets on
  cards it cannot see (no strategy fusion in the betting). Measured 2026-11-26, both pimc
  seats on it, ``samples=150`` (the same worlds; it costs more a world: bare playouts 3
  to 10 times slower), against main's runs on the same hands, shuffled, from 600:
  six-seat duels (300) -0.08 ± 0.18 points a hand (capped -0.03 ± 0.12; Truco -0.09 ±
  0.10, Envido +0.00 ± 0.15); team hands (300) -0.02 ± 0.16 (capped +0.06 ± 0.12; Truco
  +0.06 ± 0.11, Envido -0.07 ± 0.10). No gain shown, and fewer worlds would fit 50 ms.
  The heuristic's card play was not what held the search level with shrewd.
* An Envido opened only on a clear gain over opening none (``MARGIN``, ``GUARD_Z``): no
  gain shown. On 2026-11-26: a quarter of a team table's Envido answers raising to a
  Falta; the worlds' weights reading the Envido on the team's chance; no weights in the
  duels; al mazo left out where it is dominated (it lost a little: played on, the
  search went on to raise the Truco on weak cards, the leak ``model=odds`` addressed).

* ``tree=bets`` and ``tree=all`` (commit fec17bc): ISMCTS at the root too
  (``bots.ismcts.search``), for every decision with a Truco bet in it, or for every
  decision (the cards below the root in the tree as well), the worlds shared out among
  the candidates by UCB1 rather than every candidate played in every world: the root's
  comparisons lose the pairing (the same world, the same random numbers) that makes
  150 worlds enough. Both pimc seats on it, ``--history --shuffle`` (before the
  bench's fix, commit 8958628, which favoured the tested side by about +0.1: both lost
  anyway), 2026-11-26: six
  seats ``tree=all`` -0.60 ± 0.30 points a hand (105 hands, stopped; Truco -0.44 ±
  0.19), ``tree=bets`` +0.19 ± 0.16 (506; team hands +0.01 ± 0.23, duels +0.40 ± 0.21),
  but two seats (``samples=300``, against shrewd) -0.30 ± 0.17 (300; capped -0.26 ±
  0.08, Truco -0.19 ± 0.07).

The tree tuned, and regret minimisation over the betting (branch truco12, 2026-11-26;
bench/truco_paired.py's docstring has the figures and commands): at six seats, 600 hands
each, both pimc seats on the variant against the default, ``lazy=table`` +0.11 ± 0.12
points a hand, ``explore`` 1.5 and 6 +0.15 ± 0.14 and +0.12 ± 0.13, ``widen`` 4 and 16
+0.20 ± 0.13 and +0.16 ± 0.13; below the root, regret matching on the sampled rewards
instead of UCB1 (Lisy, Kovarik, Lanctot and Bosansky 2013) -0.03 ± 0.16, the same
regrets with the node played by its average strategy (outcome sampling, Lanctot et al.
2009) +0.11 ± 0.15, Smooth UCT (Heinrich and Silver 2015) +0.03 ± 0.13 (the code of
the three at commit c21d846, removed). Every variant reading about +0.1, opposite ones
alike, was the bench's doing: with ``--history`` only the bot under test had been
served the match's earlier hands, the base pimc learning nothing of them (fixed in
commit 8958628). Hand for hand against one another, nothing stood out and the regret
rules leaned below UCB1. After the fix, ``lazy=table`` over 900 hands: -0.01 ± 0.03
(+0.14 ± 0.07 over 1500 before it). Nothing was kept as the default; ``explore``,
``widen`` and ``lazy`` stay options. That regret matching gains nothing here is what
theory leads one to expect: the playouts' other seats are a fixed model (they answer
on their own cards, not on the searching seat's range), so below the root the search
solves one agent's decision problem, whose regret-matching average converges to the
best response UCB1 finds, paying meanwhile for its uniform exploration and its
importance-weighed noise at nodes of a few dozen visits. A regret-matched mix at the
root over the paired worlds' values was not tried for the same reason: with every
candidate valued in every world its average converges on the best weighed mean, the
paired search's own choice; a sound bluffing mix needs other seats that answer the
searching seat's range, which the playouts' policy does not model.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import threading
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from arena.bot import BaseBot
from arena.games.truco import sim
from arena.games.truco.actions import (
    NO_QUIERO,
    QUIERO,
    SON_BUENAS,
    Action,
    Answer,
    Call,
    Declare,
    Mazo,
    Play,
)
from arena.games.truco.calls import (
    TRUCO_LADDER,
    EnvidoCall,
    TrucoCall,
    envido_accepted,
    envido_refused,
    next_envido_calls,
)
from arena.games.truco.cards import DECK, Card
from arena.games.truco.envido import EnvidoCount
from arena.games.truco.sampling import Sampler
from arena.games.truco.view import PlayView, TrucoView
from bots import ismcts
from bots.searching import SearchOptions, clear_gain, decision_rng, search
from bots.truco import shrewd
from bots.truco.reading import STRONG_ENVIDO
from bots.truco.shrewd import ENVIDO_AT, RAISE_AT, REAL_ENVIDO_AT

NOISE = 0.05  # the share of playout cards played at random: worlds stay varied
ENVIDO, REAL_ENVIDO = Call(EnvidoCall.ENVIDO), Call(EnvidoCall.REAL_ENVIDO)
TRUCO_CALLS = tuple(Call(c) for c in TRUCO_LADDER)  # what raising from each level calls
DRAWS = 48  # uniform numbers drawn per world, more than a hand's playout reads
RACE_FROM = 16  # worlds before a candidate may be dropped
RACE_EVERY = 4  # worlds between two looks
RACE_Z = 3.0  # dropped when this many standard errors behind the best
MARGIN = 0.2  # bets=guard: points a hand the search's bet must gain over shrewd's ...
GUARD_Z = 2.0  # ... and paired standard errors of that gain


class Race:
    """Candidates that are clearly behind stop being played out, so the worlds left go to
    those still in the running (racing, as in successive halving). Every ``RACE_EVERY``
    worlds from ``RACE_FROM`` on, a candidate whose mean difference to the best one, world
    by world (the same world and the same random numbers for both), is more than
    ``RACE_Z`` standard errors below zero is dropped; from then on it scores its mean at
    that point, so the tally's mean for it stays what it was. Deterministic: with
    ``samples`` the play still repeats exactly (the search stops early, short of
    ``samples`` worlds, once one candidate is left)."""

    __slots__ = ("alive", "frozen", "n", "total", "squared", "sums", "apart")

    def __init__(self, candidates: int) -> None:
        self.alive = [True] * candidates
        self.frozen = [0.0] * candidates
        self.n = 0
        self.total = 0.0  # the worlds' weights, summed
        self.squared = 0.0  # and their squares
        self.sums = [0.0] * candidates  # weighed values
        # apart[i][j], i < j: weighed squares of the world-by-world difference
        self.apart = [[0.0] * candidates for _ in range(candidates)]

    def running(self) -> int:
        return sum(self.alive)

    def add(self, values: list[float], weight: float) -> None:
        self.n += 1
        self.total += weight
        self.squared += weight * weight
        alive, sums, apart = self.alive, self.sums, self.apart
        live = [i for i, a in enumerate(alive) if a]
        for i in live:
            v = values[i]
            sums[i] += weight * v
            row = apart[i]
            for j in live:
                if j > i:
                    d = v - values[j]
                    row[j] += weight * d * d
        if self.n >= RACE_FROM and self.n % RACE_EVERY == 0:
            self._drop(live)

    def gain(self, i: int, j: int) -> tuple[float, float]:
        """Candidate ``i``'s mean gain over ``j`` and its standard error, paired over the
        worlds both were played out in. One dropped: its frozen mean, and no error (it
        was then ``RACE_Z`` errors behind the best)."""
        total = self.total
        if total <= 0:
            return 0.0, math.inf
        if not (self.alive[i] and self.alive[j]):
            mean_i = self.sums[i] / total if self.alive[i] else self.frozen[i]
            mean_j = self.sums[j] / total if self.alive[j] else self.frozen[j]
            return mean_i - mean_j, 0.0
        mean = (self.sums[i] - self.sums[j]) / total
        squares = self.apart[min(i, j)][max(i, j)] / total
        var = max(0.0, squares - mean * mean)
        return mean, math.sqrt(var * self.squared) / total  # sqrt(var / effective worlds)

    def _drop(self, live: list[int]) -> None:
        total = self.total
        if total <= 0:
            return
        effective = total * total / self.squared  # worlds, as weighed
        sums, apart = self.sums, self.apart
        best = max(live, key=sums.__getitem__)
        for i in live:
            if i == best:
                continue
            mean = (sums[i] - sums[best]) / total
            squares = apart[min(i, best)][max(i, best)] / total
            var = max(0.0, squares - mean * mean)
            if mean < -RACE_Z * math.sqrt(var / effective):
                self.alive[i] = False
                self.frozen[i] = sums[i] / total


class Uniform(Protocol):
    """What a playout reads of its randomness (``random.Random`` is one)."""

    def random(self) -> float: ...


Policy = Callable[[sim.Sim, Uniform], Action]


class Draws:
    """One world's run of uniform numbers, read as ``random.Random.random`` reads them:
    every candidate action's playout in a world reads the same run (common random
    numbers), so the difference between two candidates is theirs, not the dice's. Past
    the run it reads on from ``rng``."""

    __slots__ = ("values", "i", "rng")

    def __init__(self, values: Sequence[float], rng: random.Random) -> None:
        self.values = values
        self.i = 0
        self.rng = rng

    def random(self) -> float:
        i = self.i
        self.i = i + 1
        values = self.values
        return values[i] if i < len(values) else self.rng.random()


def play_out(state: sim.Sim, rng: Uniform, move: Policy | None = None) -> tuple[int, int]:
    """Play on with ``move`` (``policy`` if none) to the end of the play in progress and
    return the teams' points in the hand so far. In the six-seat duel hand (R13) that is
    the end of this duel: the later duels are played by their own seats' cards whatever
    happens in this one, so they would add the same to every candidate, and only noise
    to the search."""
    move = move or policy
    cur = state.cur
    while not state.over and state.cur == cur:
        state.step(move(state, rng))
    return state.points[0], state.points[1]


def equity(state: sim.Sim, seat: int) -> float:
    """A rough chance, 0..1, that ``seat``'s team takes the hand's tricks: its cards'
    strengths (R1) and the tricks already won (R5), from its own cards only."""
    b = state.bout
    team = seat % 2
    lead = 0  # tricks won less tricks lost
    for r in b.results:
        if r is not None:
            lead += 1 if r == team else -1
    strength = sim.STRENGTH
    return hand_equity([strength[c] for c in state.hands[seat]], lead, b.closed)


def hand_equity(strengths: Sequence[int], lead: int, closed: int) -> float:
    """``equity`` from the strengths (R1) of the cards a seat holds, its team's tricks won
    less lost and the tricks closed: shared by the playouts and ``play_evidence``."""
    first = second = 0  # its two strongest cards
    for v in strengths:
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    if lead >= 1 and closed >= 1 and first >= 9:
        return 0.9
    base = (first + second) / 28
    return min(1.0, max(0.0, base + 0.25 * lead))


def follow(trick: Sequence[tuple[int, int]], seat: int, held: Sequence[int]) -> int:
    """The strength (R1) of the card a table player follows ``trick`` ((seat, strength)
    in play order) with from the strengths ``held``: its lowest when its partner holds
    the trick (R4: a team's), else its cheapest winner, else its lowest. Shared by
    ``policy`` and ``card_evidence``."""
    top = max(v for _, v in trick)
    holders = {s % 2 for s, v in trick if v == top}
    if holders != {seat % 2}:
        winners = [v for v in held if v > top]
        if winners:
            return min(winners)
    return min(held)


TOP_ENVIDO = 33  # ruling R9: 7 and 6 of one suit


@functools.cache
def envido_spread(count: EnvidoCount) -> tuple[float, ...]:
    """The chance a random hand's envido (R9) is at most v, for v = 0 .. ``TOP_ENVIDO``,
    over every three cards of the deck."""
    tally = [0] * (TOP_ENVIDO + 1)
    for hand in itertools.combinations(range(len(DECK)), 3):
        tally[sim.envido_of(hand, count)] += 1
    total, out, below = sum(tally), [], 0
    for t in tally:
        below += t
        out.append(below / total)
    return tuple(out)


@functools.cache
def team_envido(count: EnvidoCount, mates: int, rivals: int, strong: bool) -> tuple[float, ...]:
    """By a seat's own envido x: the chance its team's best envido beats the other
    team's (a tie counted half; R9 gives it by seat), the ``mates`` and ``rivals`` holding
    random hands, one rival at least ``STRONG_ENVIDO`` when ``strong`` (it called). The
    cards' removal is ignored: a table player's reckoning, not the sampler's."""
    f = envido_spread(count)
    top = TOP_ENVIDO

    def at_most(y: int) -> float:  # the other team's best
        if y < 0:
            return 0.0
        if not strong:
            return f[y] ** rivals
        floor = f[STRONG_ENVIDO - 1]
        caller = 0.0 if y < STRONG_ENVIDO else (f[y] - floor) / (1 - floor)
        return caller * f[y] ** (rivals - 1)

    out = []
    for x in range(top + 1):
        p = 0.0
        for y in range(top + 1):
            theirs = at_most(y) - at_most(y - 1)
            if not theirs:
                continue
            ours_below = 0.0 if y <= x else f[y - 1] ** mates  # P(team best < y)
            ours_upto = 0.0 if y < x else f[y] ** mates  # P(team best <= y)
            p += theirs * (1 - ours_upto + 0.5 * (ours_upto - ours_below))
        out.append(p)
    return tuple(out)


def envido_chance(state: sim.Sim, seat: int, strong: bool = False) -> float:
    """``team_envido`` for ``seat`` at this play's table (2 seats, or the duel's, or 4 or
    6)."""
    half = len(state.bout.order) // 2
    return team_envido(state.count, half - 1, half, strong)[state.envido[seat]]


def team_policy(state: sim.Sim, rng: Uniform) -> Action:
    """``policy``, but the Envido called and answered as bots.truco.shrewd does it: by the
    chance that the seat's team holds the best envido at this table (``envido_chance``;
    a call read as a strong hand), where ``policy`` looks at the seat's own number only
    and so, at six seats, refuses a Real Envido far more than a table does (shrewd
    accepts one there most of the time, whatever its own number: its team has three)."""
    asked, seat = state.asked()
    b = state.bout
    if asked == sim.ANSWER_ENVIDO:
        p = envido_chance(state, seat, strong=True)
        nxt = next_envido_calls(b.ecalls)
        if p > RAISE_AT and nxt and nxt[0] is not EnvidoCall.FALTA_ENVIDO:
            return Call(nxt[0])
        accepted = envido_accepted(b.ecalls, state.falta)
        refused = envido_refused(b.ecalls, state.falta)
        return QUIERO if (2 * p - 1) * accepted > -refused else NO_QUIERO
    callable_ = (
        b.estate == sim.E_NONE
        and not b.closed
        and (asked == sim.PLAY or (asked == sim.ANSWER_TRUCO and _envido_in_answer(state, seat)))
    )
    if callable_:
        p = envido_chance(state, seat)
        if p > REAL_ENVIDO_AT:
            return REAL_ENVIDO
        if p > ENVIDO_AT:
            return ENVIDO
    return policy(state, rng, envido=False)


def _envido_in_answer(state: sim.Sim, seat: int) -> bool:
    b = state.bout
    assert b.truco_call is not None
    return state._envido_in_answer(b, seat, b.truco_call[0])


def policy(state: sim.Sim, rng: Uniform, envido: bool = True) -> Action:
    """A quick player from its own cards, with the thresholds of the bundled heuristics:
    Envido on 27 or more, Truco on strong cards (a bluff now and then once a trick is
    won), answers that accept whenever the cards give a fair chance, and the cheapest
    card that wins the trick (the lowest when its partner is already winning or nothing
    wins)."""
    asked, seat = state.asked()
    b = state.bout
    if asked == sim.DECLARE:
        moves = state._legal(asked, seat)
        return next((m for m in moves if isinstance(m, Declare)), SON_BUENAS)
    if asked == sim.ANSWER_ENVIDO:
        points = state.envido[seat]
        falta = b.ecalls[-1] is EnvidoCall.FALTA_ENVIDO
        raise_ok = points >= 30 and not falta and rng.random() < 0.5
        if raise_ok and REAL_ENVIDO in state._legal(asked, seat):
            return REAL_ENVIDO
        return QUIERO if points >= (29 if falta else 25) else NO_QUIERO
    if asked == sim.ANSWER_TRUCO:
        eq = equity(state, seat)
        pending = b.truco_call
        assert pending is not None
        if eq > 0.8 and pending[0] < 3 and rng.random() < 0.5:
            return TRUCO_CALLS[pending[0]]  # ruling R7: the next raise
        return QUIERO if eq > 0.3 else NO_QUIERO
    # PLAY: the calls it may make (R7, R8), read off the state as sim._legal does
    if envido and b.estate == sim.E_NONE and not b.closed and state.envido[seat] >= 27:
        return ENVIDO
    if b.level < 3 and b.raise_team in (None, seat % 2):
        eq = equity(state, seat)
        if eq > 0.72 or (b.closed and eq > 0.3 and rng.random() < 0.1):
            return TRUCO_CALLS[b.level]
    hand = state.hands[seat]
    if len(hand) > 1 and rng.random() < NOISE:
        return sim.PLAYS[hand[int(rng.random() * len(hand))]]
    return table_card(state, seat)


def table_card(state: sim.Sim, seat: int) -> Action:
    """The card ``policy`` plays when it plays no card at random: its strongest to lead,
    else as ``follow`` says (R1, R4)."""
    hand = state.hands[seat]
    if len(hand) == 1:
        return sim.PLAYS[hand[0]]
    strength = sim.STRENGTH
    trick = state.bout.trick
    if not trick:
        return sim.PLAYS[max(hand, key=strength.__getitem__)]
    pick = follow([(s, strength[c]) for s, c in trick], seat, [strength[c] for c in hand])
    return sim.PLAYS[next(c for c in hand if strength[c] == pick)]  # the first so strong


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def _envido_call(state: sim.Sim, seat: int) -> float:
    """The chance a table player calls (or accepts) the Envido with this hand: likely from
    27 (R9), a bluff now and then below."""
    return 0.05 + 0.9 * _sigmoid((state.envido[seat] - 26.5) / 1.5)


def _truco_call(state: sim.Sim, seat: int) -> float:
    """The chance a table player calls the Truco with these cards: likely on strong cards,
    a bluff one time in ten otherwise."""
    return 0.1 + 0.85 * _sigmoid((equity(state, seat) - 0.7) / 0.08)


def likelihood(state: sim.Sim, seat: int, action: Action) -> float:
    """How likely, up to a factor the same in every world, ``seat`` was to take
    ``action`` here with the cards it holds in this world: calls grow likely with its
    strength, silence and refusals with its weakness. A reading of the table, not a rule:
    it weighs the worlds; the sampler keeps them exact."""
    asked, _ = state.asked()
    if asked == sim.DECLARE:
        return 1.0
    legal = state._legal(asked, seat)
    is_call = isinstance(action, Call)
    envido_call = is_call and isinstance(action.call, EnvidoCall)  # type: ignore[union-attr]
    truco_call = is_call and isinstance(action.call, TrucoCall)  # type: ignore[union-attr]
    if asked == sim.ANSWER_ENVIDO:
        e = _envido_call(state, seat)
        if is_call:
            return e * e
        accept = 0.05 + 0.9 * _sigmoid((state.envido[seat] - 24.5) / 1.5)
        return accept if action == QUIERO else 1 - accept
    if asked == sim.ANSWER_TRUCO:
        if envido_call:
            return _envido_call(state, seat)
        eq = equity(state, seat)
        if truco_call:
            return _truco_call(state, seat) ** 2
        accept = 0.1 + 0.85 * _sigmoid((eq - 0.3) / 0.1)
        return accept if action == QUIERO else 1 - accept
    out = 1.0  # PLAY: a call made, or one not made when it could have been
    if any(isinstance(m, Call) and isinstance(m.call, EnvidoCall) for m in legal):
        e = _envido_call(state, seat)
        out *= e if envido_call else 1 - e
    if not envido_call and any(
        isinstance(m, Call) and isinstance(m.call, TrucoCall) for m in legal
    ):
        t = _truco_call(state, seat)
        out *= t if truco_call else 1 - t
    return out


def replay(
    view: TrucoView, dealt: Sequence[Sequence[int]], noise: Sequence[float] | None = None
) -> tuple[sim.Sim, float]:
    """``sim.from_view`` with the world's weight: the likelihood of every other seat's
    actions in this play; a seat read as playing at random (``noise``, learn=1) weighs
    its actions the less, as one acting so weighs every world the same."""
    state = sim.Sim.start(sim.rules_of(view), dealt, view.dealer, duels=view.kind == "duels",
                          scores=view.scores)  # fmt: skip
    weight = 1.0
    for play in view.plays:
        for seat, action in play.log:
            if seat != view.seat:
                odds = likelihood(state, seat, action)
                if noise is not None and noise[seat]:
                    odds = (1 - noise[seat]) * odds + noise[seat] * FLAT
                weight *= odds
            state.step(action)  # the referee took it: legal in every world the view allows
    return state, weight


PRIOR = 0.05  # learn=1: the chance, before any evidence, that a seat acts at random
FLAT = 0.3  # a random seat's action as ``likelihood`` would weigh it: alike in every world
NOISE_CAP = 0.9


def play_evidence(play: PlayView, count: EnvidoCount, me: int, out: list[float]) -> None:
    """Add to ``out[seat]`` the log odds that ``seat`` acts at random rather than as a
    table player (``team_policy``'s thresholds), from what ``play`` showed of its cards
    (R14): an Envido call, raise or Quiero against the number it then declared (true,
    R9); a Truco call or Quiero once its three cards were played; the cards it played
    after others in a trick, against the ones it played later (``card_evidence``); and,
    whatever the cards, a Falta or Real Envido opened (a table player's sure number) and
    al mazo (R10), which a table player seldom makes (pimc makes both: another pimc is
    read as partly random). A random seat calls, accepts, plays and folds whatever its
    cards; a table player on the cards that make it pay. ``me`` (the searching seat) is
    left out."""
    declared = {s: p for s, p in play.declarations if p is not None}
    cards: dict[int, list[Card]] = {}
    for trick in (*(t.cards for t in play.tricks), play.trick):
        for s, c in trick:
            cards.setdefault(s, []).append(c)
    half = len(play.seats) // 2
    pending: list[bool] = []  # calls awaiting an answer, True for the Envido (R8 in R7)
    played: set[tuple[int, Card]] = set()  # the cards played so far
    results: list[int | None] = []  # each trick's team once closed, None: a tie (R5)

    def truco_equity(seat: int) -> float:  # ``equity`` as the seat saw it then
        team = seat % 2
        lead = sum(0 if r is None else 1 if r == team else -1 for r in results)
        held = [c.strength for c in cards[seat] if (seat, c) not in played]
        return hand_equity(held, lead, len(results))

    for seat, action in play.log:
        table = random_ = 0.0
        if isinstance(action, Play):
            played.add((seat, action.card))
            while len(results) < len(play.tricks) and played.issuperset(
                play.tricks[len(results)].cards
            ):  # a trick closes with its last card
                w = play.tricks[len(results)].winner
                results.append(None if w is None else w % 2)
            continue
        if isinstance(action, Call):
            envido = action.is_envido
            raising = bool(pending) and pending[-1] == envido
            if not raising:
                pending.append(envido)
            sure = not raising and action.call in (EnvidoCall.REAL_ENVIDO, EnvidoCall.FALTA_ENVIDO)
            if envido and seat in declared:  # R9: the number shown, whatever the call
                p = team_envido(count, half - 1, half, raising)[declared[seat]]
                at = REAL_ENVIDO_AT if sure else RAISE_AT if raising else ENVIDO_AT
                table = 0.1 + 0.85 * _sigmoid((p - at) / 0.1)
                random_ = 0.12 if sure else 0.35 if raising else 0.4
            elif envido and sure:  # refused: no number shown, a flat prior
                # a table opens a Real Envido on a sure number, a Falta on one surer still
                table = 0.03 if action.call is EnvidoCall.FALTA_ENVIDO else 0.05
                random_ = 0.12
            elif not envido and len(cards.get(seat, ())) == 3:
                table = 0.1 + 0.85 * _sigmoid((truco_equity(seat) - 0.7) / 0.08)
                random_ = 0.2
        elif isinstance(action, Answer):
            envido = pending.pop() if pending else False
            if action.accept and envido and seat in declared:
                p = team_envido(count, half - 1, half, True)[declared[seat]]
                table, random_ = 0.1 + 0.8 * _sigmoid((p - 0.45) / 0.1), 0.35
            elif action.accept and not envido and len(cards.get(seat, ())) == 3:
                table = 0.1 + 0.85 * _sigmoid((truco_equity(seat) - 0.3) / 0.1)
                random_ = 0.35
        elif isinstance(action, Mazo):
            table, random_ = 0.05, 0.15
        if table and seat != me:
            out[seat] += math.log(random_ / table)
    card_evidence(play, me, out)


def card_evidence(play: PlayView, me: int, out: list[float]) -> None:
    """``play_evidence`` of the cards: each card a seat played after others in a trick,
    against those it played in later tricks (it held them then). A table player follows
    as ``policy`` does, the card it would pick among all it held being its pick among
    any of them too: its partner holding the trick, its lowest, else its cheapest
    winner, else its lowest (R1, R4). A random seat's card is any of them."""
    tricks = [t.cards for t in play.tricks] + [play.trick]
    for k, trick in enumerate(tricks):
        for i in range(1, len(trick)):
            seat, card = trick[i]
            later = [c for t in tricks[k + 1 :] for s, c in t if s == seat]
            if seat == me or not later:
                continue
            held = [card, *later]
            pick = follow([(s, c.strength) for s, c in trick[:i]], seat, [c.strength for c in held])
            chance = 1 / len(held)  # a random seat's pick being that one
            if card.strength == pick:
                out[seat] += math.log(chance / 0.8)
            else:
                out[seat] += math.log((1 - chance) / 0.2)


class Reads:
    """learn=1: an opponent model learned within the match from what the views show
    (R14): for each other seat, the chance that it calls and answers at random, whatever
    its cards, rather than as the table player the playouts assume, from every earlier
    hand of the match and this one (``play_evidence``; a prior of ``PRIOR``). The
    playouts let such a seat act at random that often, and ``replay`` reads its actions
    as telling that much less about its cards.

    It keeps the ``KEEP`` matches last noted (least recently used forgotten first), in
    this process only: a restarted bot forgets, and a match id the referee repeats in a
    later run is read with the earlier run's hands. Over gRPC the SDK calls ``act`` from
    several threads at once (arena/sdk.py), so every use of ``seen`` holds a lock."""

    KEEP = 64

    def __init__(self) -> None:
        # (match, seat) -> hand number -> the plays last seen of it; oldest use first
        self.seen: dict[tuple[str, int], dict[int, tuple[PlayView, ...]]] = {}
        self.lock = threading.Lock()

    def __getstate__(self) -> dict[str, object]:  # a lock is not pickled (arena/play/parallel.py)
        with self.lock:
            return {"seen": dict(self.seen)}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.seen = state["seen"]  # type: ignore[assignment]
        self.lock = threading.Lock()

    def note(self, view: TrucoView) -> None:
        key = (view.match_id, view.seat)
        with self.lock:
            hands = self.seen.pop(key, None)
            if hands is None:
                hands = {}
                while len(self.seen) >= self.KEEP:  # bounded: forget the least recent
                    self.seen.pop(next(iter(self.seen)), None)
            self.seen[key] = hands  # last: the most recently used
            hands[view.hand_no] = view.plays

    def noise(self, view: TrucoView) -> list[float]:
        """Each seat's chance of acting at random beyond the prior's (0 for no evidence,
        and for the searching seat)."""
        count = EnvidoCount(view.envido_count)
        odds = [0.0] * len(view.names)
        with self.lock:
            seen = list(self.seen.get((view.match_id, view.seat), {}).values())
        for plays in seen:
            for play in plays:
                play_evidence(play, count, view.seat, odds)
        prior = math.log(PRIOR / (1 - PRIOR))
        out = []
        for seat, o in enumerate(odds):
            if seat == view.seat or o <= 0:  # none, or what evidence there is says no
                out.append(0.0)
                continue
            p = _sigmoid(prior + o)
            out.append(min(NOISE_CAP, (p - PRIOR) / (1 - PRIOR)))
        return out


def noisy(move: Policy, noise: Sequence[float]) -> Policy:
    """``move``, but each seat acts uniformly at random with its ``noise`` chance."""

    def play(state: sim.Sim, rng: Uniform) -> Action:
        asked, seat = state.asked()
        e = noise[seat]
        if e and rng.random() < e:
            legal = state.legal()
            return legal[int(rng.random() * len(legal))]
        return move(state, rng)

    return play


BETS = ("search", "shrewd", "guard")  # who makes the Truco betting (see the docstring)
TREES = ("off", "below")  # ``tree``: the searching seat's later decisions by ISMCTS or not
EXPLORATION = 3.0  # tree: UCB1's constant, points (about one world's spread of a hand's points)
WIDEN = 8  # tree: visits before a node below the root tries more than the policy's choice
# ``lazy``: what a lazy node plays when its policy's card is not offered: UCB1's pick, or
# the table card (``TreeGame.offered``)
LAZIES = ("ucb", "table")


class Walk:
    """``tree``: one world in the search, and how many moves were made in it since the
    decision searched (0: the root)."""

    __slots__ = ("sim", "moves")

    def __init__(self, state: sim.Sim, moves: int = 0) -> None:
        self.sim = state
        self.moves = moves


class TreeGame:
    """``tree``: the Truco hand as ``bots.ismcts`` searches it for seat ``me``: the play in
    progress to its end (in the six-seat duel hand, R13, the seat's own duel, as
    ``play_out``), every other seat's move by ``move`` (the playouts' policy, with what
    ``Reads`` learned), the seat's own declaration its true number (R9, as ``act``), and
    every action seen by every seat (R14: calls, answers, cards and al mazo are public),
    so an information set is the searching seat's cards and the public actions since the
    decision searched. Below the root (the plain search's candidates), the seat's card is
    the one ``policy`` plays (``table_card``), only its calls, answers and al mazo
    searched. The reward is its team's points less the other team's."""

    def __init__(self, me: int, cur: int, move: Policy) -> None:
        self.me = me
        self.team = me % 2
        self.cur = cur
        self.move = move

    def actor(self, walk: Walk) -> int | None:
        state = walk.sim
        if state.over or state.cur != self.cur:
            return None
        return state.asked()[1]

    def choices(self, walk: Walk) -> Sequence[Action]:
        state = walk.sim
        legal = state.legal()
        asked, seat = state.asked()
        if asked == sim.DECLARE:  # ruling R9: the true number, whenever legal
            return [next((a for a in legal if isinstance(a, Declare)), SON_BUENAS)]
        if asked == sim.PLAY and walk.moves:
            card = table_card(state, seat)
            return [a for a in legal if not isinstance(a, Play) or a == card]
        return legal

    def policy(self, walk: Walk, rng: random.Random) -> Action:
        return self.move(walk.sim, rng)

    def offered(self, walk: Walk, legal: Sequence[Action]) -> Action:
        """``lazy=table``: what a node plays in its lazy visits when the policy's choice
        is not offered (a random card, ``NOISE``): the card offered (``table_card``)."""
        return next((a for a in legal if isinstance(a, Play)), legal[0])

    def play(self, walk: Walk, action: Action) -> Walk:
        walk.sim.step(action)
        walk.moves += 1
        return walk

    def observe(self, walk: Walk, seat: int, action: Action) -> tuple[int, Action]:
        return seat, action

    def reward(self, walk: Walk) -> float:
        points = walk.sim.points
        return float(points[self.team] - points[1 - self.team])


# How the playouts' seats bet: the Envido by their team's chance (``team_policy``), or
# by their own number (``policy``, the model before 2026-11-26).
MODELS = {"team": team_policy, "own": policy}


def is_envido_call(action: Action) -> bool:
    return isinstance(action, Call) and isinstance(action.call, EnvidoCall)


def is_bet(action: Action, asked: str) -> bool:
    """A Truco betting action: a Truco call or raise (R7), an answer to one, al mazo."""
    if isinstance(action, Call):
        return isinstance(action.call, TrucoCall)
    return isinstance(action, Mazo) or (isinstance(action, Answer) and asked == "answer-truco")


def shrewds_bet(view: TrucoView, legal: Sequence[Action], bettor: BaseBot) -> Action:
    """What ``bettor`` takes when asked without the Envido calls (the search's to weigh):
    a bet, or the play going on (a card)."""
    rest = [a for a in legal if not is_envido_call(a)]
    choice = bettor.act(view, rest)
    return rest[choice] if isinstance(choice, int) else choice


def guarded(actions: Sequence[Action], best: int, default: Action, asked: str, race: Race) -> int:
    """bets=guard: the search's ``best`` unless it changes the betting of ``default``
    (shrewd's choice) without gaining ``MARGIN`` points and ``GUARD_Z`` paired standard
    errors over what keeps that betting: ``default`` itself when it is a bet, else the
    best action that is not a bet. An Envido call is the search's own."""
    chosen = actions[best]
    if is_envido_call(chosen) or chosen == default:
        return best
    if is_bet(default, asked):
        keep = actions.index(default)
    elif is_bet(chosen, asked):
        rest = [i for i, a in enumerate(actions) if not is_bet(a, asked)]
        keep = max(rest, key=lambda i: race.gain(i, best)[0])
    else:
        return best  # a card for a card: no betting changed
    return best if clear_gain(*race.gain(best, keep), MARGIN, GUARD_Z) else keep


def candidates(view: TrucoView, legal: Sequence[Action], bettor: BaseBot) -> list[Action]:
    """The actions left to the search when ``bettor`` makes the Truco betting: asked
    without the Envido calls (the search's to weigh), ``bettor`` either bets -- then the
    search chooses between that bet and the Envido calls -- or lets the play go on, and
    the search chooses among every action but the bets."""
    if not any(is_bet(a, view.asked) for a in legal):
        return list(legal)  # no betting here (an Envido to answer, a last card)
    envido = [a for a in legal if is_envido_call(a)]
    bet = shrewds_bet(view, legal, bettor)
    if is_bet(bet, view.asked):
        return [*envido, bet]
    return [a for a in legal if not is_bet(a, view.asked)]


class Bot(BaseBot):
    name = "pimc"
    version = "1.0"
    games = ("truco",)

    def __init__(
        self,
        seed: int | str = 0,
        budget: float = 0.05,
        samples: int = 0,
        read: bool = True,
        bets: str = "search",
        model: str = "team",
        learn: bool = True,
        tree: str = "off",
        explore: float = EXPLORATION,
        widen: int = WIDEN,
        lazy: str = "ucb",
    ) -> None:
        if bets not in BETS:
            raise ValueError(f"pimc: bets={bets!r} is not one of {', '.join(BETS)}")
        if tree not in TREES:
            raise ValueError(f"pimc: tree={tree!r} is not one of {', '.join(TREES)}")
        self.tree = tree
        if lazy not in LAZIES:
            raise ValueError(f"pimc: lazy={lazy!r} is not one of {', '.join(LAZIES)}")
        if not explore >= 0 or widen < 1:
            raise ValueError(f"pimc: explore={explore} must be 0 or more, widen={widen} 1 or more")
        self.explore, self.widen, self.lazy = float(explore), int(widen), lazy
        if tree != "below" and (explore != EXPLORATION or widen != WIDEN or lazy != "ucb"):
            raise ValueError("pimc: explore, widen and lazy tune the tree: give tree=below too")
        if model not in MODELS:
            raise ValueError(f"pimc: model={model!r} is not one of {', '.join(MODELS)}")
        self.move: Policy = MODELS[model]
        self.seed = seed
        self.options = SearchOptions(budget=budget, samples=samples)
        self.read = bool(read)
        self.bets = bets
        self.bettor = shrewd.Bot(seed=seed)
        self.reads = Reads() if bool(learn) else None

    def observe(self, view: TrucoView) -> None:
        """learn=1: note what ``view`` shows of the other seats (``Reads``); ``act``
        notes every view it is served, bench/truco_paired.py's ``--history`` the views
        of the hands played before the tested one."""
        if self.reads is not None:
            self.reads.note(view)

    def act(self, view: TrucoView, legal: Sequence[Action]) -> Action | int:
        self.observe(view)
        if len(legal) == 1:
            return 0
        if view.asked == "declare":  # ruling R9: the true number, whenever it is legal
            return next((a for a in legal if isinstance(a, Declare)), SON_BUENAS)
        started = time.perf_counter()
        actions = list(legal)
        bets = self.bets
        default: Action | None = None  # bets=guard: shrewd's betting, kept unless beaten
        if bets == "guard" and any(is_bet(a, view.asked) for a in legal):
            default = shrewds_bet(view, legal, self.bettor)
        elif bets == "shrewd":
            actions = candidates(view, legal, self.bettor)
            if len(actions) == 1:
                return legal.index(actions[0])
        more = self.options.more(started)
        rng = decision_rng(self.seed, view.match_id, view.hand_no, view.seat, len(view.plays),
                           len(view.current.log))  # fmt: skip
        sampler = Sampler(view)
        team = view.seat % 2
        race = Race(len(actions))

        noise = self.reads.noise(view) if self.reads is not None else None
        move = noisy(self.move, noise) if noise is not None and any(noise) else self.move

        def draw(rng: random.Random) -> tuple[sim.Sim, float]:
            return replay(view, sampler.sample(rng), noise)

        def weigh(world: object) -> float:
            return world[1] if self.read else 1.0  # type: ignore[index]

        below: ismcts.Tree[Walk, Action] | None = None  # tree=below: its later decisions
        if self.tree == "below":
            game = TreeGame(view.seat, len(view.plays) - 1, move)
            offered = game.offered if self.lazy == "table" else None
            below = ismcts.Tree(game, view.seat, self.explore, self.widen, offered)

        def score(world: object, rng: random.Random) -> list[float]:
            state = world[0]  # type: ignore[index]
            draws = [rng.random() for _ in range(DRAWS)]
            values: list[float] = []
            for i, action in enumerate(actions):
                if not race.alive[i]:
                    values.append(race.frozen[i])
                    continue
                child = state.copy()
                child.step(action)
                if below is not None:
                    walk, key = Walk(child, 1), ((view.seat, action),)
                    crn = Draws(draws, rng)
                    values.append(below.walk(walk, crn, weigh(world), key))  # type: ignore[arg-type]
                    continue
                points = play_out(child, Draws(draws, rng), move)
                values.append(points[team] - points[1 - team])
            race.add(values, weigh(world))
            return values

        def go_on(done: int) -> bool:  # one candidate left: nothing more to learn
            return race.running() > 1 and more(done)  # (no world the budget cannot fit)

        best = search(len(actions), draw, score, rng, go_on, weigh).best()
        if default is not None:
            best = guarded(actions, best, default, view.asked, race)
        return legal.index(actions[best])


PimcBot = Bot

if __name__ == "__main__":
    from arena.sdk import main

    main(Bot)
