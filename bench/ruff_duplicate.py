"""Ruff's ``pimc`` against ``sharp`` deal for deal: the same deals played twice, seat 0
first by the bot under test and then by ``sharp``, the other seats ``sharp`` (or
``--others``, cycled over seats 1, 2, ...); the mean gain per deal of seat 0's side (its
points less the others', ``bots.ruff.solver.value``: the ruff's 12 and the card points, F8,
F9) and its standard error.

Playing each deal both ways takes out most of the cards' luck, which is what makes a
whole-match bench (bench/ruff_strength.py) slow to separate two close bots: a gain of
one point a deal shows here within a few hundred deals.

Run: ``python bench/ruff_duplicate.py [--form single --seats 3] [--deals 200]
[--bot pimc:samples=70] [--base sharp] [--others steady,random]
[--search announce,discard,play]``. Each deal is the first of the match seeded ``dup<i>``;
a deal that ends the set at the ruff (F9) counts as it ends. ``--search`` lets the bot
make only some kinds of decision (sharp the rest), to see where its gain comes from.
At the end it splits the gain by the first decision where the bot left ``--base``'s
choice in its own view (``Departure``: the rub's discards, F5, or the card of trick k,
F7; "same" when it never did), each part over all deals so that the parts add up.
``--late N`` plays instead the deal after a side first stands within N points of the
set (F9), reached with ``--base`` at seat 0, that deal by the bot and the rest of the
match by ``--base`` again, and reports beside the points its rank score (F10).

Measured 2026-11-26 (nice 19 on the shared 2-core machine, load about 18: the figures do
not depend on it), points a deal over sharp, 200 deals, the other seats sharp, before
(a7b4ccb) and after (c272413): double +1.14 ± 0.25 and +1.36 ± 0.26; single 2 +1.22 ±
0.19 and +1.27 ± 0.19; single 3 +1.07 ± 0.20 and +1.03 ± 0.18; single 4 +1.35 ± 0.21 and
+1.44 ± 0.23 (after less before, paired: +0.22 ± 0.18, +0.05 ± 0.09, -0.04 ± 0.13, +0.09
± 0.14). Where it comes from (a7b4ccb, ``--search``):
announcing +0.00 in every form (its least-showing announcement never changed a deal's
points); discards +0.06 ± 0.10 (double), +0.24 ± 0.09, +0.26 ± 0.09, +0.35 ± 0.11
(single 2, 3, 4), the same after and whatever the margin; card play the rest, about
+0.8 to +1.1. Against the tournament's other
tables (``--others``, 100 deals): single 3 beside steady and random +0.48 ± 0.31 before,
+1.03 ± 0.32 after (paired +0.56 ± 0.23: it no longer believes low announcers); beside
sharp and random +1.36 ± 0.34 and +1.49 ± 0.38; double with steady and random +1.04 ±
0.37 and +0.96 ± 0.37. Tried and not kept (single 3 unless said, paired against
a7b4ccb): 200 worlds instead of 70, -0.06 ± 0.26 (51 deals: worlds are not what limits
it); leaving sharp's choice for any gain (margin 0, z 0) +0.28 ± 0.23, or margin 0.15 and
one standard error +0.24 ± 0.19 but -0.20 ± 0.22 in double (61 deals); weighing worlds
harder by the announcements (a factor e per 1.5 points missed, not 4) -0.18 ± 0.18;
playouts whose players see only what their seat has seen -0.16 ± 0.23 (92 deals).

Two versions of pimc against each other (``--base`` another pimc, so the difference is
paired deal for deal; 2026-11-26, nice 19 beside other benches, ``samples=70``): the
playouts playing the seats caught announcing low as steady (``--bot
pimc:samples=70:model=steady --base pimc:samples=70`` at 17f81f9) gained +0.36 ± 0.13 in
double beside steady and random (200 deals) and nothing in single: single 2 beside
steady -0.04 ± 0.02 (140), single 3 beside steady and random -0.06 ± 0.10 (140), single 4
beside sharp, steady and random -0.05 ± 0.12 (200); and in double beside sharp, a steady
partner and random, as in the tournament, -0.02 ± 0.07 (200): made double's default at
65c1f19 and taken out again (the tournaments in bots/ruff/pimc.py's text). Not kept
(the others sharp): the exact end-of-deal solver (``tail=3:endgame=4``; ``endgame=5`` in
single 2) +0.20 ± 0.36 (double, 60), -0.03 ± 0.06 (single 2, 140), +0.06
± 0.13 (single 3, 100), -0.18 ± 0.21 (single 4, 60); ``margin=0:z=0`` -0.17 ± 0.30
(double, 120), -0.00 ± 0.24 (single 4, 120); ``read=0.3`` -0.24 ± 0.21 (double, 100),
+0.06 ± 0.07 (single 2, 140), -0.05 ± 0.13 (single 4, 100); ``exact=1`` -0.80 ± 0.37
(double, 20), +0.00 ± 0.07 (single 2, 120). The options ``model`` and ``read`` were
removed after these runs (they gained nothing); to repeat them, check out 70f4ed6.

Where pimc gains on sharp, by its first departure from sharp's choice (2026-11-26, branch
ruff4 at 9a9a440, the bot of efb5323, ``samples=70``, nice 19 beside another engineer's
benches; each part a gain over all deals, in brackets each departing deal's): single 3,
400 deals, +0.98 ± 0.14 in all: discards +0.39 (39 deals, +4.00 ± 0.72 each), the card
of trick 1 +0.08 (55, +0.55 ± 0.33), trick 2 +0.12 (30), 3 +0.03, 4 +0.08, 5 +0.12 (40),
6 to 11 +0.16 together, never departing 77 deals; beside sharp and steady
(``--others sharp,steady``) +0.88 ± 0.12. Double, 300 deals, +1.33 ± 0.20: discards
+0.17 (14 deals, +3.71 ± 1.59 each), trick 1 +0.43 (50, +2.56 ± 0.53), 2 +0.19, 3 +0.11,
4 +0.20, 5 -0.04 (22, -0.55 ± 0.71), 6 to 11 +0.28, never 69. No kind of decision or
stage of the deal loses: the edge is many small gains, the rub's discards the largest
per deal. Near the set's end (``--late 14``, single 3, 200 deals, the rest of the match
sharp at seat 0 both ways): +0.93 ± 0.21 points in the deal and a rank score of +0.033 ±
0.015 (the match's ranks, F10: +1 for each other seat it ends above, -1 below, their mean).
Tried against the default on the same deals and not kept (figures and code in
bots/ruff/pimc.py's text): ``ruffs=1``, ``wide=35``, ``margin=0.15:z=1``, ``sets=20``.

``--oracle``: seat 0 is ``Oracle``, pimc's search run on the true deal (every card seen,
one world a decision since the playouts play no card at random; the same candidates,
playouts and ``choose``, ``--bot``'s options). It cheats, so it is no bot a tournament or
the protocol can load: it lives here. What it gains over sharp is a ceiling for any
better reading of the hidden cards with pimc's playouts (not for better playouts).
Measured 2026-11-26 (branch ruff5 at f87a6c7, nice 19, ``python bench/ruff_duplicate.py
--form F --seats N --oracle --bot pimc [--others O]``), points a deal over sharp, the
other seats sharp, 400 deals: double +2.60 ± 0.17, single 2 +1.84 ± 0.12, single 3 +1.86
± 0.15, single 4 +2.18 ± 0.16 (pimc, sampling: +1.33, +1.27, +0.98, +1.44). At the
tournament's own tables (300 deals, 400 for single 3 beside sharp and steady): double
beside sharp, steady and random (``--others sharp,steady,random``, steady the partner)
+0.99 ± 0.19, ``sharp,random,steady`` +1.55 ± 0.24, ``steady,sharp,random`` +1.04 ±
0.22; single 3 beside sharp and steady +1.78 ± 0.15, beside sharp and random +1.24 ±
0.21, beside steady and random +1.32 ± 0.20; single 4 beside sharp, steady and random
+1.20 ± 0.21; single 2 against steady +1.84 ± 0.14. bench/ruff_strength.py puts the edge
that plain P >= 0.99 over 200 rounds needs at about +2 (double), +3 (single 2), +2.5
(single 3) and +1.3 (single 4): even seeing every card, pimc's search falls short of it
at those tables in double, single 2 and single 3, and is about at it in single 4. pimc
itself, sampling, at the same tables (``--bot pimc:samples=70``, 200 to 300 deals):
double ``sharp,steady,random`` +0.62 ± 0.24, single 4 +0.95 ± 0.26, single 3 beside
sharp and random +1.25 ± 0.21 (beside sharp and steady +0.88 ± 0.12, above): the most
that better reading of the hidden cards could add there is about 0 to +0.9 points a deal
(oracle less pimc, unpaired). The oracle's gain is the first trick's card and the rub's
discards most (double: trick 1 +0.96, discards +0.39; single 3: discards +0.49, trick 1
+0.41), and no kind of decision loses. ``pimc:margin=0:z=0`` gives the same figures in
double and single 3 (one world's gains there are half points or more, past the margin);
solving the last tricks exactly (``pimc:tail=3:endgame=4``) less: double +2.43 ± 0.17,
single 3 +1.70 ± 0.15 (the others do not play the solver's best).

``--lookahead``: a looser ceiling, ``Lookahead``. Seat 0 tries each of pimc's candidates
to the deal's end in copies of the real match, every card seen, each other seat played
by a copy of its real bot (sharp and steady play by their views alone: their true
future), a random seat by fresh draws (8 futures a candidate, alike for all), and seat 0
after it by ``--bot``; it takes the best. It knows the cards and how the others play,
which no bot can. Measured 2026-11-26 (branch ruff5 at 46ff8e3, nice 19, ``python
bench/ruff_duplicate.py --form F --seats N --lookahead --bot sharp [--others O]``),
points a deal over sharp, the others sharp, 400 deals: double +3.00 ± 0.17, single 2
+1.75 ± 0.11, single 3 +2.43 ± 0.15, single 4 +2.45 ± 0.16. At the tournament's tables
(200 to 300 deals): double ``sharp,steady,random`` +2.21 ± 0.23, ``sharp,random,steady``
+3.05 ± 0.26, ``steady,sharp,random`` +2.81 ± 0.23; single 3 beside sharp and steady
+2.51 ± 0.17, beside sharp and random +3.04 ± 0.29; single 4 beside sharp, steady and
random +2.03 ± 0.27. So single 2's +3 is out of reach even knowing everything; single 3's
+2.5 and double's +2 only about so; single 4's +1.3 is within it (and about within the
oracle's). Against the tables of the tournament the gap from the oracle to this is the
playouts' model of steady and random (``card_policy`` plays them as sharp-like players
that see every card): ``model=steady`` (pimc's text) tried to close it and gained only
in double beside steady.
"""

from __future__ import annotations

import argparse
import copy
import math
from collections.abc import Sequence

from stats import mean_se

from arena.games.ruff.actions import Action, Announce, Discard, Play
from arena.games.ruff.rules import RuffRules
from arena.games.ruff.sim import Deal
from arena.games.ruff.state import RuffMatch
from arena.games.ruff.view import RuffView
from arena.play.loading import instantiate, split_options
from arena.play.run import load_bot
from bots.ruff.pimc import Bot as PimcBot
from bots.ruff.pimc import value

KINDS = {"announce": Announce, "discard": Discard, "play": Play}


class Only:
    """A bot that makes only the decisions of the kinds given (announcing, F4; the rub's
    discards, F5; card play, F7) and leaves the rest to ``base``: the gain of each kind
    of decision alone."""

    def __init__(self, bot: object, base: object, kinds: Sequence[str]) -> None:
        self.bot, self.base = bot, base
        self.kinds = tuple(KINDS[k] for k in kinds)

    def act(self, view: RuffView, legal: Sequence[Action]) -> Action | int:
        chooser = self.bot if isinstance(legal[0], self.kinds) else self.base
        return chooser.act(view, legal)  # type: ignore[attr-defined, no-any-return]


class Departure:
    """Seat 0's bot, with the first of its decisions where it leaves ``base``'s choice in
    the same view noted (``first``): the kind (discard, F5; play, F7) and, for a card,
    the trick (1 for the first). Every earlier action of the deal is the same both ways
    (the other seats are seeded alike), so the whole difference of the deal follows from
    that decision. Announcements (F4) are passed over: pimc's lower one that still wins
    shows fewer cards (F6), and the first discard or card after it is what is split by."""

    def __init__(self, bot: object, base: object) -> None:
        self.bot, self.base = bot, base
        self.first = "same"

    def act(self, view: RuffView, legal: Sequence[Action]) -> Action | int:
        picked = self.bot.act(view, legal)  # type: ignore[attr-defined]
        if self.first == "same" and len(legal) > 1:
            other = self.base.act(view, legal)  # type: ignore[attr-defined]
            mine = legal[picked] if isinstance(picked, int) else picked
            theirs = legal[other] if isinstance(other, int) else other
            # pimc's least-showing announcement wins the ruff all the same (F4, F6): the
            # split goes on to the first discard or card.
            if not isinstance(mine, Announce) and _same(mine) != _same(theirs):
                kind = next(k for k, cls in KINDS.items() if isinstance(mine, cls))
                self.first = f"play {len(view.tricks) + 1:2d}" if kind == "play" else kind
        return picked  # type: ignore[no-any-return]


class TrueDeal:
    """A ``Sampler`` that always draws the match's real deal: every seat's cards as dealt,
    the head and, once made, the rubber's discards (F2, F5)."""

    def __init__(self, match: RuffMatch) -> None:
        self.match = match

    def sample(self, rng: object = None, give_up_at: float | None = None) -> Deal:
        m = self.match
        discards = None if m.discards is None else tuple(int(c) for c in m.discards)
        return Deal(tuple(tuple(int(c) for c in h) for h in m.dealt),
                    tuple(int(c) for c in m.head), discards)  # fmt: skip


class Oracle(PimcBot):
    """pimc's search run on the true deal, every card seen (``--oracle``): the same
    candidates, playouts and ``choose``, in the one world that is real. It cheats, so it
    lives here and nowhere a tournament or the protocol can reach. The playouts play no
    card at random (``card_policy``), so one world is all the search needs: ``samples=1``.
    What it gains over sharp bounds what better reading of the hidden cards could give
    pimc's search; better play in the playouts themselves it does not bound."""

    match: RuffMatch

    def sampler(self, view: RuffView) -> TrueDeal:  # type: ignore[override]
        return TrueDeal(self.match)


def oracle(spec: str, seed: str, match: RuffMatch) -> Oracle:
    """The ``Oracle`` with ``spec``'s pimc options (``pimc:margin=0``), one world a
    decision; ``samples`` and ``budget`` are not its to choose."""
    name, options = split_options(spec)
    if name != "pimc" or {"samples", "budget"} & set(options):
        raise ValueError(f"--oracle plays pimc's options but one world: not {spec!r}")
    bot: Oracle = instantiate(Oracle, seed, spec, {**options, "samples": "1"})
    bot.match = match
    return bot


class Lookahead:
    """A second ceiling (``--lookahead``): every candidate of pimc's (``Bot.candidates``:
    each legal card, the rub's short list, the announcements that matter) is played to
    the deal's end in copies of the real match, seat 0 after it by ``then`` and each other
    seat by a copy of its real bot, its state too; a seat that plays at random (``names``)
    by a fresh ``random`` instead, in ``rolls`` futures drawn alike for every candidate
    (it knows that seat plays at random, not which cards it will draw). The best mean
    value is taken, ties to the first (``then``'s own choice). It sees every card and
    knows how the others play: with no random seat, a rollout of ``then`` on the true
    future, which can only gain on ``then`` deal for deal."""

    def __init__(
        self, match: RuffMatch, bots: list[object], then: object, names: list[str], rolls: int
    ) -> None:
        self.match, self.bots, self.then = match, bots, then
        self.randoms = [s for s, name in enumerate(names) if s and name == "random"]
        self.rolls = rolls if self.randoms else 1

    def act(self, view: RuffView, legal: Sequence[Action]) -> Action | int:
        candidates = PimcBot.candidates(view, legal) if len(legal) > 1 else list(legal)
        if len(candidates) == 1:
            return candidates[0]
        best, top = candidates[0], -math.inf
        moves = len(self.match.actions)
        for action in candidates:
            total = 0.0
            for roll in range(self.rolls):
                match = copy.deepcopy(self.match)
                bots = copy.deepcopy([self.then, *self.bots[1:]])
                for seat in self.randoms:  # the same futures for every candidate
                    bots[seat] = load_bot(
                        "random", f"ahead:{self.match.seed}:{moves}:{roll}", "ruff"
                    )
                match.apply(view.seat, action)
                while not match.is_over and match.view(0).deal == view.deal:
                    (seat,) = match.to_act()
                    options = match.legal_actions(seat)
                    picked = bots[seat].act(match.view(seat), options)  # type: ignore[attr-defined]
                    match.apply(seat, options[picked] if isinstance(picked, int) else picked)
                final = match.view(0)
                total += value(final.scores, final.side)
            if total > top:
                best, top = action, total
        return best


def _same(action: Action) -> object:
    """An action's identity for ``Departure``: a discard's cards in any order (F5)."""
    return frozenset(action.cards) if isinstance(action, Discard) else action


def one_deal(
    rules: RuffRules,
    spec: str,
    others: list[str],
    i: int,
    kinds: Sequence[str] = tuple(KINDS),
    base: str | None = None,
    cheat: bool | str = False,
    rolls: int = 8,
) -> tuple[float, str]:
    """Seat 0's side's points less the others' in deal ``i``, seat 0 played by ``spec``
    (in the decisions of ``kinds``; the rest by sharp), seat s > 0 by ``others[(s - 1) %
    len(others)]``; and, given ``base``, the first decision where seat 0 left ``base``'s
    choice (``Departure``; "same" when none). With ``cheat`` seat 0 is ``spec``'s
    ``Oracle``, which sees the true deal; with ``cheat="lookahead"`` a ``Lookahead`` over
    ``spec`` (a bot, sharp for one), ``rolls`` futures a candidate when a seat is random."""
    match = RuffMatch(rules, seed=f"dup{i}")
    names = [spec, *(others[(s - 1) % len(others)] for s in range(1, rules.seats))]
    bots = [load_bot(name, str(i), "ruff") for name in names]
    if cheat == "lookahead":
        bots[0] = Lookahead(match, bots, bots[0], names, rolls)
    elif cheat:
        bots[0] = oracle(spec, str(i), match)
    if set(kinds) != set(KINDS):
        bots[0] = Only(bots[0], load_bot("sharp", str(i), "ruff"), kinds)
    tracked = None
    if base is not None:
        tracked = bots[0] = Departure(bots[0], load_bot(base, str(i), "ruff"))
    deal = match.view(0).deal
    while not match.is_over and match.view(0).deal == deal:
        (seat,) = match.to_act()
        legal = match.legal_actions(seat)
        picked = bots[seat].act(match.view(seat), legal)
        match.apply(seat, legal[picked] if isinstance(picked, int) else picked)
    view = match.view(0)
    return value(view.scores, view.side), tracked.first if tracked else "same"


def late_deal(
    rules: RuffRules, spec: str, base: str, others: list[str], i: int, late: int
) -> tuple[float, float] | None:
    """A deal near the set's end and what it does to the match (F9, F10): the match seeded
    ``late<i>`` is played by ``base`` at seat 0 (the others as in ``one_deal``) until a
    side is within ``late`` points of the set; the next deal seat 0 plays as ``spec``, the
    rest of the match as ``base`` again. Seat 0's side's points less the others' in that
    deal, and its rank score at the match's end: the mean, over the seats of other sides,
    of +1 for one it ranks above and -1 for one above it. None if the set ended first."""
    match = RuffMatch(rules, seed=f"late{i}")
    names = [base, *(others[(s - 1) % len(others)] for s in range(1, rules.seats))]
    bots = [load_bot(name, str(i), "ruff") for name in names]
    tested = load_bot(spec, str(i), "ruff")
    rest = bots[0]
    deal, state = match.view(0).deal, "before"
    gain, before = 0.0, match.view(0).scores
    while not match.is_over:
        view = match.view(0)
        if view.deal != deal:  # a deal ended: where does the set stand?
            if state == "in":
                gain, state = value(view.scores, view.side) - value(before, view.side), "after"
                bots[0] = rest
            deal = view.deal
        if state == "before" and max(view.scores) >= rules.set_points - late:
            state, before = "in", view.scores
            bots[0] = tested
        (seat,) = match.to_act()
        legal = match.legal_actions(seat)
        picked = bots[seat].act(match.view(seat), legal)
        match.apply(seat, legal[picked] if isinstance(picked, int) else picked)
    if state == "before":
        return None
    view = match.view(0)
    if state == "in":  # the tested deal ended the set
        gain = value(view.scores, view.side) - value(before, view.side)
    ranks = match.ranks
    mine = [r for s, r in enumerate(ranks) if match.side_of(s) != match.side_of(0)]
    score = sum((r > ranks[0]) - (r < ranks[0]) for r in mine) / len(mine)
    return gain, score


def main_late(args: argparse.Namespace, rules: RuffRules) -> None:
    """``--late``: the bot against ``--base`` in deals near the set's end, by rank."""
    gains: list[float] = []
    scores: list[float] = []
    others = args.others.split(",")
    i = 0
    while len(gains) < args.deals:
        mine = late_deal(rules, args.bot, args.base, others, i, args.late)
        theirs = late_deal(rules, args.base, args.base, others, i, args.late)
        i += 1
        if mine is None or theirs is None:
            continue
        gains.append(mine[0] - theirs[0])
        scores.append(mine[1] - theirs[1])
        n = len(gains)
        if n % 20 == 0 or n == args.deals:
            (g, ge), (r, re) = mean_se(gains), mean_se(scores)
            print(f"{args.form} {args.seats} seats, {n} late deals: {args.bot} - {args.base} = "
                  f"{g:+.2f} ± {ge:.2f} points a deal, rank score {r:+.3f} ± {re:.3f}",
                  flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--form", choices=("double", "single"), default="double")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--bot", default="pimc:samples=70")
    parser.add_argument("--base", default="sharp")
    parser.add_argument("--others", default="sharp", help="the other seats' bots, a,b,...")
    parser.add_argument(
        "--search",
        default=",".join(KINDS),
        help="the kinds of decision --bot makes (announce,discard,play); sharp makes the rest",
    )
    parser.add_argument(
        "--no-split",
        action="store_true",
        help="skip the split by first departure (it asks --base every decision: slow for pimc)",
    )
    parser.add_argument(
        "--late",
        type=int,
        default=0,
        help="test deals once a side is within this many points of the set, by rank (0: off)",
    )
    parser.add_argument(
        "--oracle",
        action="store_true",
        help="seat 0 plays --bot's pimc options on the true deal (it sees every card): a ceiling",
    )
    parser.add_argument(
        "--lookahead",
        action="store_true",
        help="seat 0 tries each candidate to the deal's end in copies of the match, the others "
        "as they will play and itself as --bot after it (it sees every card and the future)",
    )
    args = parser.parse_args()
    if args.oracle and args.lookahead:
        parser.error("--oracle or --lookahead, not both")
    if args.oracle:
        try:
            oracle(args.bot, "0", RuffMatch(RuffRules()))
        except ValueError as exc:
            parser.error(str(exc))
    if (args.oracle or args.lookahead) and args.late:
        parser.error("--oracle and --lookahead play one deal from its start: not with --late")
    if args.deals < 2:
        parser.error("--deals must be at least 2")
    kinds = [k for k in args.search.split(",") if k]
    if not kinds or any(k not in KINDS for k in kinds):
        parser.error(f"--search takes some of {','.join(KINDS)}, not {args.search!r}")
    try:
        rules = RuffRules(form=args.form, seats=args.seats)
    except ValueError as exc:
        parser.error(str(exc))
    if args.late:
        main_late(args, rules)
        return
    gains: list[float] = []
    by_first: dict[str, list[float]] = {}
    others = args.others.split(",")
    name = f"oracle {args.bot}" if args.oracle else args.bot
    cheat: bool | str = "lookahead" if args.lookahead else args.oracle
    if args.lookahead:
        name = f"lookahead {args.bot}"
    for i in range(args.deals):
        split = None if args.no_split else args.base
        mine, first = one_deal(rules, args.bot, others, i, kinds, split, cheat)
        gains.append(mine - one_deal(rules, args.base, others, i)[0])
        by_first.setdefault(first, []).append(gains[-1])
        n = len(gains)
        if n % 20 == 0 or n == args.deals:
            mean, se = mean_se(gains)
            print(f"{args.form} {args.seats} seats, {n} deals: {name} - {args.base} = "
                  f"{mean:+.2f} ± {se:.2f} points a deal", flush=True)  # fmt: skip
    # Each part is its deals' total over all deals, so the parts add up to the whole.
    if args.no_split:
        return
    print(f"by the first decision where {name} left {args.base}'s choice:")
    for first, part in sorted(by_first.items()):
        mean, se = mean_se(part)
        share = len(part) / len(gains)
        print(f"  {first:8s} {len(part):4d} deals  {mean * share:+.3f} a deal "
              f"({mean:+.2f} ± {se:.2f} each)")  # fmt: skip


if __name__ == "__main__":
    main()
