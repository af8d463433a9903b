"""pimc: Ruff and Trump by Monte Carlo search on the simulator (``arena.games.ruff.sim``).

For every decision it draws the deal it cannot see among those its view allows
(``arena.games.ruff.sampling``: announcements, the rubber, the shown ruff, voids and the
rubber's own knowledge), and in each such world plays each candidate out to the end of
the deal with ``card_policy``, a quick player that wins tricks cheaply, lets a partner's
trick stand and otherwise throws its lowest card. A candidate scores its side's points in
the deal (the ruff's 12 and the card points, F8, F9) less the others' (the other side's in
double, the others' mean in single), as a gain over the default candidate in the same
world: ``sharp``'s card or discards, or the announcement that shows least. It leaves the
default only for a candidate that gains at least 0.3 points a deal and two standard errors
(``choose``): a search that follows every small difference plays its own noise.

* **Announcing** (F4): the numbers that matter -- its true ruff, and, announcing last,
  the least number that still wins the ruff (it shows fewer cards, F6), or 0 when none
  can -- searched in the same worlds, the seats after it announcing their true ruffs.
* **Discarding** (F5): of the 1820 or more legal sets, a short list (``sharp``'s choice,
  the lowest cards, the lowest outside trump, whole short side suits to make voids), each
  played out in every world.
* **Playing** (F7): every legal card.

Its worlds are drawn without the announcements' bounds (F4), which reject most exact
draws once another seat has rubbed (``exact=1`` draws exactly, and fewer worlds in its
time); each is weighed by ``likelihood``: a point of true ruff short of what a seat
announced costs a factor e^-1/4, and a point above it e^-trust/4 (``trust``, default 1:
most players announce their true ruff, so a low number says no suit of theirs sums more).
Only seats that a whole earlier deal of the match showed announcing their true ruff are
trusted so, and never one caught announcing low (``announcers``): ``steady`` and
``random`` announce low, and in single 3 beside them believing every seat held pimc's gain
over sharp to +0.48 ± 0.31 a deal, not believing it +1.03 ± 0.32 (bench/ruff_duplicate.py
``--others steady,random``, 100 deals; in double beside them no change).

Tried on 2026-11-26 and not kept: the playouts playing the seats caught announcing low
(``announcers``: ``steady`` and ``random`` are) as ``steady`` plays (``model=steady``,
``steady_card``: it leads its highest card and counts nothing). Deal for deal it gained
+0.36 ± 0.13 in double beside two steadys and a random partner (``python
bench/ruff_duplicate.py --form double --others steady,random --bot
pimc:samples=70:model=steady --base pimc:samples=70``, 200 deals, at 17f81f9), but -0.02
± 0.07 beside sharp, a steady partner and random, as in the tournament (200 deals), and
nothing in single (single 2 beside steady -0.04 ± 0.02, 140 deals; single 3 beside steady
and random -0.06 ± 0.10, 140; single 4 beside sharp, steady and random -0.05 ± 0.12, 200).
Made double's default at 65c1f19, it gave ``python bench/ruff_strength.py --form double``
P(better than sharp) 0.9171 plain at seed 30 (0.8075 without), but duplicate 0.8651 at
seed 30 (0.9591 without) and 0.9820 at seed 31 (0.9909 without, the same run with
``--pimc pimc:samples=70:model=sharp``): so it is off again.

Tried on 2026-11-26 and not kept (each paired against the default of 17f81f9 on the same
deals, the other seats sharp, ``samples=70``): solving the last tricks exactly
(``bots.ruff.solver``: ``tail=3`` in every playout and ``endgame=4``, every card solved in
each world once 4 tricks are left, 5 in single 2) +0.20 ± 0.36 (double, 60 deals), -0.03 ±
0.06 (single 2, 140), +0.06 ± 0.13 (single 3, 100), -0.18 ± 0.21 (single 4, 60): the
heuristic players lose little in the last tricks, and a solve of 5 or more tricks costs
milliseconds a world in Python (``bots.ruff.solver``); leaving sharp's choice for any
gain (``margin=0:z=0``) -0.17 ± 0.30 (double, 120), -0.00 ± 0.24 (single 4, 120);
weighing each world by 0.3 for every play that sharp would not have made in it
(``read=0.3``, ``sharp_card``) -0.24 ± 0.21 (double, 100), +0.06 ± 0.07 (single 2, 140),
-0.05 ± 0.13 (single 4, 100); the exact sampler (``exact=1``) -0.80 ± 0.37 (double, 20:
stopped, too slow), +0.00 ± 0.07 (single 2, 120).

Tried on 2026-11-26 and not kept (branch ruff4, the code at f1e6d23; each paired against
the default on the same deals, single 3, the other seats sharp, ``samples=70``,
``python bench/ruff_duplicate.py --form single --seats 3 --bot pimc:samples=70:OPTION
--base pimc:samples=70``): playouts whose card player also sees the ruffs (``ruffs=1``,
``card_policy_ruffs``: no master led into a void seat holding a trump, no trick taken with
a card a seat still to play over-ruffs or beats) +0.07 ± 0.09 (400 deals); the rub's
discards searched from all the ways to throw the lowest k cards of each suit (``wide=35``,
``lowest_per_suit``, every split of four over the suits, up to 35 sets; sharp's and the
short list are among them) -0.03 ± 0.07 (240 deals): the short list already holds the
discards that matter, and the playouts, not the candidates, bound what the search sees.

Also not kept: leaving sharp's choice sooner (``margin=0.15:z=1``, options kept at 0.3
and 2) in single 3 +0.08 ± 0.09 a deal (400 deals; +0.56 ± 0.20 after the first 100, an
early lead that did not last), in double -0.30 ± 0.23 (80 deals, stopped); and scoring a
playout that ends the set by the match's ranks (F9, F10) rather than by points (``sets=20``,
the code at c308c5a: 20 points times the mean over the other sides of +1 for one it
ranks above, -1 for one above it), measured in deals once a side is within 14 points of
the set (``bench/ruff_duplicate.py --late 14``, the rest of the match by the default bot):
rank score -0.020 ± 0.014, and -0.57 ± 0.22 points in that deal (single 3, 100 deals). Nor
one standard error instead of two for the rub's discards alone (``rub_z=1``, the code at
eacc99c; the discards gain +4 points a deal where pimc leaves sharp's, bench/ruff_duplicate.py):
-0.01 ± 0.01 (single 3, 220 deals), the same discards almost always.

Tried on 2026-11-26 and not kept (branch ruff5): information-set MCTS
(``bots.ismcts``, single-observer: a tree over this seat's own later decisions, keyed by
what it has seen; the other seats and the rollouts play ``policy``), as ``tree=1``, each
world serving as many iterations as there are candidates so that it plays out as many
deals as the flat search. With the core's root bandit (UCB1 over the candidates, one a
world, the most visited taken) it lost: double -1.87 ± 0.60 a deal (60 deals, the code at
d6f5db4); gated as ``choose`` (margin and two standard errors, unpaired) -0.20 ± 0.62
(double) and -0.34 ± 0.39 (single 3, 40 deals each, at fad8e2a): unpaired, one world's
spread of 2 to 4 points hides the gains that the flat search, paired world by world,
finds. With the root paired as here (every candidate once in each world, ``choose`` on
the same tally; ``depth=1`` was this search move for move) and the tree below it for
this seat's later cards (the code at 692f5f0; ``python bench/ruff_duplicate.py --form F
--seats N --bot pimc:samples=70:tree=1 --base pimc:samples=70``, the others sharp):
double -0.14 ± 0.16, single 3 -0.04 ± 0.11 (200 deals each); UCB1's constant 1 instead
of 3 (``explore=1``) -0.04 ± 0.15 and -0.05 ± 0.12 (200); only its next card in the tree
(``depth=2``) -0.03 ± 0.17 (double, 120) and -0.20 ± 0.14 (single 3, 100). Its later
cards, tried card by card in the few worlds a node sees, play no better than
``card_policy``. What any better reading of the hidden cards could gain at most, with
these playouts: pimc's search on the true deal (``bench/ruff_duplicate.py --oracle``)
beats sharp by +1.0 to +1.8 points a deal at the tournament's own tables (pimc: +0.6 to
+1.3), short of what plain P >= 0.99 needs in double, single 2 and single 3 (about +2, +3
and +2.5, bench/ruff_strength.py) and about at it in single 4 (+1.20 ± 0.21, +1.3 needed).
Knowing also how every other seat plays (``--lookahead``, sharp after each candidate)
gains +2.0 to +3.1 there, and +1.75 ± 0.11 in single 2 (bench/ruff_duplicate.py's text).

Options (``--bots pimc:budget=0.1`` or ``pimc:samples=40``): ``budget``, seconds of
search per decision (default 0.05; it begins no world it expects to end past them,
``SearchOptions.more``), or ``samples``, a fixed number of worlds per decision so that its play
repeats exactly (``bots.searching``); ``trust``; ``exact``; ``tail`` and ``endgame``
(tricks solved exactly, 0 off) and ``margin`` and ``z`` (``choose``), measured above and
left off. ``model=steady`` and ``read`` were options at 17f81f9-70f4ed6 and are gone
(the code is in those commits): they gained nothing (above).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from arena.bot import BaseBot
from arena.core.cards import CARD_SLICES, CARDS, SUIT_MASKS, Card, mask_of
from arena.games.ruff import sim
from arena.games.ruff.actions import ANNOUNCES, PLAYS, Action, Announce, Discard, Play
from arena.games.ruff.rules import RUB_CARDS
from arena.games.ruff.sampling import Sampler
from arena.games.ruff.view import RuffView
from bots.ruff.sharp import Bot as SharpBot
from bots.ruff.sharp import discards as sharp_discards
from bots.ruff.solver import Solver, value
from bots.searching import SearchOptions, Tally, clear_gain, decision_rng, search

MAX_DISCARDS = 10  # candidate discards searched
SCALE = 4.0  # points of announcement missed that cost a world a factor e (``likelihood``)
TRUST = 1.0  # how far the others' announcements are believed to be their true ruffs
MARGIN = 0.3  # points a deal a candidate must gain over the default to be taken ...
Z = 2.0  # ... and standard errors of that gain (paired over the same worlds)


def _lowest(mask: int, trump: int) -> int:
    """The lowest-ranked card of a non-empty mask, a trump only if nothing else is left."""
    best, key = -1, 99
    for s in range(4):
        bits = mask >> 13 * s & 0x1FFF
        if bits:
            r = (bits & -bits).bit_length() - 1
            k = r + (13 if s == trump else 0)
            if k < key:
                best, key = 13 * s + r, k
    return best


def _above(card: int) -> int:
    """The mask of the cards of ``card``'s suit that rank above it."""
    return SUIT_MASKS[card // 13] & ~((2 << card) - 1)


def card_policy(state: sim.Sim, rng: random.Random) -> int:
    """A quick player in the manner of ``sharp``, reading the cards as the world deals
    them: it leads a master (no other hand holds a higher card of its suit), else draws
    trumps with the master trump, else leads low from its longest side suit; it lets a
    partner's trick stand when that is safe, wins with the cheapest card that stays on
    top (last to play, a master, or its cheapest winning trump), else throws its lowest.
    It plays no card at random (``rng`` is unused): the worlds vary, not the play, so two
    candidates scored in one world differ only by what they change."""
    legal = state.legal_mask()
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    trump, seat, hands = state.trump, state.turn, state.hands
    others = 0
    for hand in hands:
        others |= hand
    others ^= hands[seat]  # the hands are disjoint
    trumps = SUIT_MASKS[trump]
    if not state.trick:
        side_cards = legal & ~trumps
        bits = side_cards
        while bits:
            low = bits & -bits
            card = low.bit_length() - 1
            if not others & _above(card) and others & SUIT_MASKS[card // 13]:
                return card  # a side master that others must follow
            bits ^= low
        top_trump = (legal & trumps).bit_length() - 1
        if top_trump >= 0 and others & trumps and not others & _above(top_trump):
            return top_trump  # draw trumps with the master
        if side_cards:
            pick, most = 0, 0  # the longest side suit, the first of equals
            for suit_mask in SUIT_MASKS:
                cards = side_cards & suit_mask
                count = cards.bit_count()
                if count > most:
                    pick, most = cards, count
            return (pick & -pick).bit_length() - 1
        return _lowest(legal, trump)
    last = len(state.trick) == state.seats - 1
    best = state.best
    partner = state.side[state.best_seat] == state.side[seat]
    if partner and (last or state.best_trump or not others & _above(best)):
        return _lowest(legal, trump)  # the partner's trick stands
    if state.best_trump:
        win = legal & trumps & ~((2 << best) - 1)
    else:
        win = (legal & SUIT_MASKS[state.led] & ~((2 << best) - 1)) | (legal & trumps)
    if win:
        side = win & ~trumps
        if side:
            cheapest = (side & -side).bit_length() - 1
            if last or not others & _above(cheapest):
                return cheapest
            top = side.bit_length() - 1
            if not others & _above(top):
                return top  # the master of the led suit
        else:
            return (win & -win).bit_length() - 1  # the cheapest winning trump
    return _lowest(legal, trump)


def policy(state: sim.Sim, rng: random.Random) -> Action:
    """The whole deal's quick player: its true ruff (as ``sharp``), ``sharp``'s discards,
    then ``card_policy``."""
    if state.phase == sim.ANNOUNCE:
        return ANNOUNCES[state.ruffs[state.turn]]
    if state.phase == sim.RUB:
        hand = [CARDS[c] for c in CARD_SLICES.of_mask(state.hands[state.turn])]
        return Discard(sharp_discards(hand, state.trump))
    return PLAYS[card_policy(state, rng)]


def playout(state: sim.Sim, rng: random.Random) -> Sequence[int]:
    """``state.playout(rng, policy)``, the same moves, with the tricks played straight
    from ``card_policy`` (the playouts are most of a decision's time)."""
    play, phase = state.play, sim.PLAY
    while state.phase != sim.OVER:
        if state.phase == phase:
            play(card_policy(state, rng))
        else:
            state.step(policy(state, rng))
    return state.points


def outcome(state: sim.Sim, rng: random.Random, side: int, tail: int = 0) -> float:
    """``value`` of the deal played out from ``state`` (``playout``), the last ``tail``
    tricks solved exactly instead (``bots.ruff.solver``: each side's best play, all hands
    open), from the start of the first trick with at most that many left."""
    if tail:
        play, phase = state.play, sim.PLAY
        while state.phase != sim.OVER:
            if state.phase == phase:
                if not state.trick and state.hands[state.turn].bit_count() <= tail:
                    return Solver(state, side).run(state)
                play(card_policy(state, rng))
            else:
                state.step(policy(state, rng))
        return value(state.points, side)
    return value(playout(state, rng), side)


def likelihood(
    view: RuffView, deal: sim.Deal, trust: float = TRUST, trusted: Collection[int] | None = None
) -> float:
    """How much a drawn world is believed, from what the other seats announced (F4): a
    point of true ruff short of an announcement costs a factor e^-1/4 (the draw leaves the
    bound out, see the module's text), and with ``trust`` a point above it costs
    e^-trust/4 for the ``trusted`` seats (all when None: a player that announces its true
    ruff says with a low number that no suit of its sums more). An announcement of 0 says
    only that it could not win."""
    turned = view.turned
    cost = 0.0
    for seat, number in view.announcements:
        if seat == view.seat:
            continue
        ruff = sim.true_ruff_of(mask_of(deal.dealt[seat]), turned)
        if ruff < number:
            cost += number - ruff
        elif number and (trusted is None or seat in trusted):
            cost += trust * (ruff - number)
    return math.exp(-cost / SCALE)


def announcers(view: RuffView) -> tuple[set[int], set[int]]:
    """What this deal's play shows of how the other seats announce (F3, F4): the seats
    whose played cards already sum more in one suit (the turned card counted in trump)
    than they announced, so they announce low; and the seats that have played all their
    cards but one without that, which announce as a true-ruff player would. A seat that
    announced 0 (it could not win) and the rubber (it plays head cards it was not dealt,
    F5) show nothing."""
    played: dict[int, int] = {}
    for trick in (*(t.cards for t in view.tricks), view.trick):
        for seat, card in trick:
            played[seat] = played.get(seat, 0) | 1 << card
    low, true = set(), set()
    for seat, number in view.announcements:
        if not number or seat in (view.seat, view.rubber):
            continue
        mask = played.get(seat, 0)
        if sim.true_ruff_of(mask, view.turned) > number:
            low.add(seat)
        elif mask.bit_count() >= view.hand_size - 1:
            true.add(seat)
    return low, true


class NoWorld(Exception):
    """The sampler found no deal that fits the view in its tries: ``sharp`` then takes
    that decision rather than the bot failing its move. It was seen at 3 seats about once
    in 30 to 40 deals, where a rubber that won the ruff had taken cards of its shown suit
    from the head (fixed in ``arena.games.ruff.sampling``); views where an announced
    minimum (F4) rejects most draws can still come near the sampler's cap."""


def choose(tally: Tally, margin: float = MARGIN, z: float = Z) -> int:
    """The candidate to take, from each one's mean gain over the default (candidate 0)
    in the same worlds: the best, if it gains at least ``MARGIN`` points and ``Z``
    standard errors, else the default. A search that switches on every small difference
    plays its noise: it throws a king where sharp would throw a four, since in the
    playouts' open worlds both lose the same trick."""
    best = tally.best()
    return best if best and clear_gain(tally.mean(best), tally.stderr(best), margin, z) else 0


def discard_candidates(hand: Sequence[Card], trump: int) -> list[tuple[Card, ...]]:
    """A short list of the rubber's discards worth searching (F5)."""
    order = sorted(hand, key=lambda c: (c // 13 == trump, c % 13))
    out = [tuple(sorted(sharp_discards(hand, trump))), tuple(sorted(order[:RUB_CARDS]))]
    side = [c for c in hand if c // 13 != trump]
    by_suit = {s: [c for c in side if c // 13 == s] for s in range(4) if s != trump}
    short = sorted((cards for cards in by_suit.values() if cards), key=len)
    for n in range(1, 3):  # void one or two short side suits, fill with the lowest
        for suits in itertools.combinations(short, n):
            void = [c for cards in suits for c in cards]
            if len(void) <= RUB_CARDS:
                rest = [c for c in order if c not in void]
                out.append(tuple(sorted(void + rest[: RUB_CARDS - len(void)])))
    lowest_side = sorted(side, key=lambda c: c % 13)
    if len(lowest_side) >= RUB_CARDS:
        out.append(tuple(sorted(lowest_side[:RUB_CARDS])))
    unique = list(dict.fromkeys(out))
    return unique[:MAX_DISCARDS]


class Bot(BaseBot):
    name = "pimc"
    version = "1.0"
    games = ("ruff",)

    def __init__(
        self,
        seed: int | str = 0,
        budget: float = 0.05,
        samples: int = 0,
        exact: bool = False,
        trust: float = TRUST,
        tail: int = 0,
        endgame: int = 0,
        margin: float = MARGIN,
        z: float = Z,
    ) -> None:
        if margin < 0 or z < 0:
            raise ValueError("margin and z must be 0 or more")
        self.margin, self.z = float(margin), float(z)
        self.seed = seed
        if tail < 0 or endgame < 0:
            raise ValueError("tail and endgame must be 0 (off) or more tricks")
        self.tail = int(tail)
        self.endgame = int(endgame)
        self.options = SearchOptions(budget=budget, samples=samples)
        self.exact = bool(exact)
        if trust < 0:
            raise ValueError("trust must be 0 or more")
        self.trust = float(trust)
        # Per match, what earlier deals showed of each other seat's announcing
        # (``announcers``): it is believed (``trust``) only once a whole deal has shown it
        # announcing as a true-ruff player would, and never after it announced low once.
        self.low: dict[str, set[int]] = {}
        self.true: dict[str, set[int]] = {}

    def match_over(self, result: Mapping[str, Any]) -> None:
        """A match's reading of the others' announcing is of no use after it: forget it, so
        that a bot that plays for ever (a ladder) keeps no more than its open matches'."""
        self.low.pop(str(result.get("match")), None)
        self.true.pop(str(result.get("match")), None)

    def act(self, view: RuffView, legal: Sequence[Action]) -> Action | int:
        low = self.low.setdefault(view.match_id, set())
        true = self.true.setdefault(view.match_id, set())
        shows_low, shows_true = announcers(view)  # read on every move, forced ones too
        low |= shows_low
        true |= shows_true
        trusted = true - low
        if len(legal) == 1:
            return 0
        started = time.perf_counter()
        more = self.options.more(started)  # no world the budget cannot fit
        # On a clock, a draw gives up at the budget's end (then sharp's choice stands in
        # if no world was drawn); with ``samples`` every draw runs to its end.
        give_up = None if self.options.samples else started + self.options.budget
        rng = decision_rng(self.seed, view.match_id, view.deal, view.seat, view.phase,
                           len(view.announcements), len(view.tricks), len(view.trick))  # fmt: skip
        candidates = self.candidates(view, legal)
        if len(candidates) == 1:
            return candidates[0]
        # The announcements' bounds (F4) reject most exact draws once another seat has
        # rubbed: they weigh the worlds instead, a point short costing a factor e^-1/4.
        side = view.side
        try:
            sampler = self.sampler(view)
        except ValueError:  # no deal fits the view: sharp decides (see ``NoWorld``)
            return SharpBot().act(view, legal)

        def draw(rng: random.Random) -> tuple[sim.Sim, float]:
            try:
                deal = sampler.sample(rng, give_up)
            except ValueError as exc:
                raise NoWorld(str(exc)) from exc
            return sim.from_view(view, deal), likelihood(view, deal, self.trust, trusted)

        tail = self.tail
        # Few tricks left: every candidate is solved exactly in each world (one solver a
        # world, so the candidates share its table of positions).
        exact_play = isinstance(candidates[0], Play) and len(view.hand) <= self.endgame

        def score(world: object, rng: random.Random) -> list[float]:
            state = world[0]  # type: ignore[index]
            values = []
            solver = Solver(state, side) if exact_play else None
            for action in candidates:
                child = state.copy()
                child.step(action)
                if solver is not None and child.phase == sim.PLAY:
                    values.append(solver.run(child))
                else:
                    values.append(outcome(child, rng, side, tail))
            default = values[0]
            return [v - default for v in values]  # paired: each world scores both

        weigh = lambda world: world[1]  # noqa: E731
        try:
            tally = search(len(candidates), draw, score, rng, more, weigh)
        except NoWorld:
            return SharpBot().act(view, legal)
        if not tally.n:
            return SharpBot().act(view, legal)
        return candidates[choose(tally, self.margin, self.z)]

    def sampler(self, view: RuffView) -> Sampler:
        """Where the worlds come from: the hidden cards drawn among the deals the view
        allows. (bench/ruff_duplicate.py's ``--oracle`` hands the true deal here instead, to
        measure what the search could gain if it saw every card; no bundled bot does.)"""
        return Sampler(view, bounds=self.exact)

    @staticmethod
    def candidates(view: RuffView, legal: Sequence[Action]) -> list[Action]:
        """The actions searched, the default first: sharp's card or discards, or the
        announcement that shows least."""
        first = legal[0]
        if isinstance(first, Play):
            default = SharpBot().act(view, legal)
            assert isinstance(default, Play)
            return [default, *(a for a in legal if a != default)]
        if isinstance(first, Discard):
            return [Discard(cards) for cards in discard_candidates(view.hand, view.trump)]
        assert isinstance(first, Announce)
        true = legal[-1]
        assert isinstance(true, Announce)
        out: list[Action] = [true]
        if len(view.announcements) == len(view.names) - 1:  # the last to announce
            best = max(n for _, n in view.announcements)
            if best + 1 <= true.number:  # ruling F4: equal goes to the earlier seat
                out.insert(0, ANNOUNCES[best + 1])
            else:
                out.insert(0, ANNOUNCES[0])  # it cannot win the ruff: show nothing
        return out


PimcBot = Bot

if __name__ == "__main__":
    from arena.sdk import main

    main(Bot)
