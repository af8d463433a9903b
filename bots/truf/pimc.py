"""pimc: Perfect Information Monte Carlo search on the simulator (``arena.games.truf.sim``).

For every decision it draws the cards it cannot see, uniformly among the deals its view
allows (``sim.Sampler``), plays each of its choices out to the end of the deal in that
world, and takes the choice that scores best on average over the worlds -- the recipe of
GIB in bridge and Kermit in Skat. Its score is its deal score less the others' mean (the
match ranks seats by totals, C14/T7).

* **Plays:** each legal card, then every seat plays on by a quick heuristic (win the
  trick if it wants tricks, duck if not; a little noise), to the last trick.
* **Bids and declarations** (C3, T2): each world also gets the others' bids (a
  trick-count guess, as ``greedy`` bids) and is played out once per outcome the choices
  lead to (high bidder, trump, mode), so every candidate is scored in every world.
* **The mode at 13** (C5/T4): both modes, played out in the same worlds.

Options (``--bots pimc:budget=0.5`` or ``pimc:samples=40``): ``budget``, seconds of
search per decision (default 0.05; keep it well under ``--decision-timeout``), and
``samples``, a fixed number of worlds per decision instead (0: use the budget). Its
randomness comes from its seed (the arena gives each entrant its own), the match, the
seat and the decision; with ``samples`` its play repeats exactly, with a time budget
only as far as the machine's speed does. The options, the budget and the sampling loop's
bookkeeping are shared with Truco's and Ruff's search bots (``bots.searching``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from arena.bot import BaseBot
from arena.core.cards import VALUES, cards_of
from arena.games.truf import bidding, sim
from arena.games.truf.actions import Action, Bid, ChooseMode, Declare, Mode, Play
from arena.games.truf.quick import heuristic_card
from arena.games.truf.rules import TrufRules
from arena.games.truf.view import SeatView
from bots.searching import SearchOptions
from bots.truf.greedy import count_tricks, suit_lengths


def my_value(scores: Sequence[int], seat: int) -> float:
    """A seat's deal score less the mean of the others' (the match ranks totals)."""
    return scores[seat] - (sum(scores) - scores[seat]) / 3


def guess_bid(hand: int, target: bool) -> int | Declare:
    """Another seat's bid or declaration, as ``greedy`` makes it: the card (or
    declaration) whose value is nearest the tricks its hand should take."""
    cards = cards_of(hand)
    lengths = suit_lengths(cards)
    counts: dict[int | None, float] = {s: count_tricks(cards, s) for s in range(4)}
    if target:
        counts[None] = count_tricks(cards, None)
        decls = bidding.legal_declarations(hand)
        return min(
            decls,
            key=lambda d: (abs(d.target - counts[d.suit_for_trump]), -d.target),
        )
    return min(
        cards,
        key=lambda c: (abs(VALUES[c] - counts[c // 13]), -lengths[c // 13], -VALUES[c], -c),
    )


class Bot(BaseBot):
    name = "pimc"
    version = "1.0"

    def __init__(self, seed: int | str = 0, budget: float = 0.05, samples: int = 0) -> None:
        self.options = SearchOptions(budget=budget, samples=samples)  # checks both
        self.seed = seed
        self.budget = budget
        self.samples = samples
        self._rules: dict[str, TrufRules] = {}

    # ------------------------------------------------------------------ plumbing

    def act(self, view: SeatView, legal: Sequence[Action]) -> Action | int:
        if len(legal) == 1:
            return 0
        started = time.perf_counter()
        rng = random.Random(
            f"{self.seed}:{view.match_id}:{view.seat}:{view.deal}:{view.phase}:"
            f"{len(view.tricks)}:{len(view.trick)}"
        )
        rules = self.rules_of(view)
        sampler = sim.Sampler(view)
        worlds = self.worlds(started)
        world = self.move_world if view.phase in ("play", "mode") else self.bid_world
        return self.search(view, legal, rules, sampler, rng, worlds, world)

    def rules_of(self, view: SeatView) -> TrufRules:
        """The rules the search scores with. A view tells the variant, not the classic
        scoring method: it plays by method 1 (the default, C13)."""
        rules = self._rules.get(view.variant)
        if rules is None:
            rules = self._rules[view.variant] = TrufRules(variant=view.variant)  # type: ignore[arg-type]
        return rules

    def worlds(self, started: float) -> Callable[[int], bool]:
        """Whether to look at one more world, given how many were looked at."""
        return self.options.more(started)

    def search(
        self,
        view: SeatView,
        legal: Sequence[Action],
        rules: TrufRules,
        sampler: sim.Sampler,
        rng: random.Random,
        more: Callable[[int], bool],
        world: Callable[[SeatView, Sequence[Action], sim.Sim, random.Random, list[float]], None],
    ) -> int:
        totals = [0.0] * len(legal)
        done = 0
        while more(done):
            state = sim.from_view(view, sampler.sample(rng), rules)
            world(view, legal, state, rng, totals)
            done += 1
        return max(range(len(legal)), key=totals.__getitem__)

    # ------------------------------------------------------------------ worlds

    def playout(self, state: sim.Sim, rng: random.Random) -> tuple[int, ...]:
        return state.playout(rng, heuristic_card)

    def move_world(
        self,
        view: SeatView,
        legal: Sequence[Action],
        state: sim.Sim,
        rng: random.Random,
        totals: list[float],
    ) -> None:
        """Each card to play, or each mode to choose (C5/T4), played out in this world."""
        for i, action in enumerate(legal):
            child = state.copy()
            if isinstance(action, Play):
                child.play(action.card)
            else:
                assert isinstance(action, ChooseMode)
                child.choose_mode(action.mode is Mode.ATAS)
            totals[i] += my_value(self.playout(child, rng), view.seat)

    def bid_world(
        self,
        view: SeatView,
        legal: Sequence[Action],
        state: sim.Sim,
        rng: random.Random,
        totals: list[float],
    ) -> None:
        """Each choice, with the others' guessed bids; one playout per distinct outcome
        (high bidder, trump, mode), whose tricks score every choice leading to it."""
        me = view.seat
        target = state.cfg.target
        for seat in range(4):
            if seat != me:
                state.bid(seat, guess_bid(state.hands[seat], target))
        outcomes: dict[tuple[object, ...], list[int]] = {}

        def value(child: sim.Sim) -> float:
            # Classic play depends on high bidder, trump and mode (C13: the bids only
            # shift the score); in target each seat also plays to its target (T6).
            key = (child.high, child.trump, child.atas, child.final_bids if target else 0)
            won = outcomes.get(key)
            if won is None:
                played = child.copy()
                self.playout(played, rng)
                won = outcomes[key] = played.won
            child.won = list(won)
            child.phase = sim.OVER
            return my_value(child.scores(), me)

        for i, action in enumerate(legal):
            child = state.copy()
            child.bid(me, action.card if isinstance(action, Bid) else action)  # type: ignore[arg-type]
            if child.phase != sim.MODE:
                totals[i] += value(child)
            elif child.high == me:  # 13 (C5/T4): it will choose the better mode then
                other = child.copy()
                child.choose_mode(True)
                other.choose_mode(False)
                totals[i] += max(value(child), value(other))
            else:  # another high bidder's choice, unknown
                child.choose_mode(rng.random() < 0.5)
                totals[i] += value(child)


PimcBot = Bot

if __name__ == "__main__":
    from arena.sdk import main

    main(Bot)
