"""The bundled bots: legal, deterministic, able to take every kind of decision, and
ordered by strength (at least the strongest above random)."""

from __future__ import annotations

import importlib
import itertools
from typing import Any

import pytest

from arena.bot import BaseBot
from arena.core.cards import VALUES
from arena.games.registry import make_game
from arena.games.truf.actions import Action, Bid, ChooseMode, Declare, DeclareOp, Play
from arena.games.truf.rules import TrufRules, Variant
from arena.games.truf.state import TrufMatch
from arena.play.tournament import MatchContext, MatchOutcome, play_match
from bots import bundled_module
from bots.truf import BUNDLED

VARIANTS = ("classic", "target")
NAMES = ["a", "b", "c", "d"]


def make_bot(name: str, seed: str = "0") -> BaseBot:
    bot: BaseBot = importlib.import_module(bundled_module(name) or name).Bot(seed=seed)
    return bot


def play(variant: str, bots: list[BaseBot], match: str, seed: str, deals: int = 0) -> MatchOutcome:
    game = make_game(rules=TrufRules(variant=Variant(variant), deals=deals))
    return play_match(game, bots, ctx=MatchContext(match, seed=seed), names=NAMES)


def assert_no_faults(out: MatchOutcome) -> None:
    faults = out.record["faults"]
    assert all(n == 0 for counts in faults.values() for n in counts), faults
    for rec in out.deals:
        assert rec["faults"] == [], rec["faults"]


def test_bundled_list_names_the_four_bots_weakest_first() -> None:
    assert BUNDLED == ("random", "greedy", "planner", "tracker")
    for name in BUNDLED:
        bot = make_bot(name)
        assert bot.name == name
        assert isinstance(bot.version, str)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_bundled_bot_plays_only_legal_actions(variant: str) -> None:
    chosen = 0
    for i, perm in enumerate(itertools.permutations(BUNDLED)):
        if i % 3:
            continue  # 8 of the 24 seatings
        out = play(variant, [make_bot(n) for n in perm], f"legal{i}", f"legal:{i}")
        assert_no_faults(out)
        chosen += sum(1 for rec in out.deals if rec["mode_chosen"])
    assert chosen > 0  # some deals totalled exactly 13, and the high bidder chose


@pytest.mark.parametrize("name", BUNDLED)
@pytest.mark.parametrize("variant", VARIANTS)
def test_one_bot_object_can_hold_all_four_seats(name: str, variant: str) -> None:
    bot = make_bot(name)
    for m in range(3):
        assert_no_faults(play(variant, [bot] * 4, f"self{m}", f"self:{m}"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_same_seed_same_match_same_records(variant: str) -> None:
    def run() -> list[dict[str, Any]]:
        bots = [make_bot(n, seed="7") for n in BUNDLED]
        first = play(variant, bots, "det1", "det:1", deals=4)
        second = play(variant, bots, "det2", "det:2", deals=4)  # state from det1 is kept
        return first.deals + second.deals

    assert run() == run()


def test_a_bot_at_two_tables_plays_each_as_if_alone() -> None:
    """Per-match memory is keyed by match and seat: interleaving two matches on one bot
    object gives the same games as playing each with a fresh bot."""

    def drive(matches: list[TrufMatch], bots: list[BaseBot]) -> None:
        while not all(m.is_over for m in matches):
            for m, bot in zip(matches, bots, strict=True):  # one decision each, in turn
                if m.is_over:
                    continue
                seat = m.to_act()[0]
                legal = m.legal_actions(seat)
                choice = bot.act(m.view(seat), legal)
                m.apply(seat, legal[choice] if isinstance(choice, int) else choice)

    def new(i: int) -> TrufMatch:
        return TrufMatch(TrufRules(deals=4), match_id=f"t{i}", seed=i, names=NAMES)

    for name in BUNDLED:
        shared = make_bot(name)
        together = [new(1), new(2)]
        drive(together, [shared, shared])
        alone = [new(1), new(2)]
        drive(alone, [make_bot(name), make_bot(name)])
        assert [m.finished for m in together] == [m.finished for m in alone], name


def drive_to_mode_choice(variant: str, seed: int) -> TrufMatch | None:
    """Bid (or declare) for the four seats so that the values total exactly 13, which
    hands the high bidder the mode choice (C5/T4). None if these hands cannot."""
    m = TrufMatch(
        TrufRules(variant=Variant(variant)), match_id=f"mode{seed}", seed=seed, names=NAMES
    )
    singles: list[list[tuple[Action, int]]] = []
    for seat in range(4):
        options: list[tuple[Action, int]] = []
        for a in m.legal_actions(seat):
            if isinstance(a, Declare) and len(a.cards) == 1:
                options.append((a, a.target))
            elif isinstance(a, Bid):
                options.append((a, VALUES[a.card]))
        singles.append(options)
    for combo in itertools.product(*singles):
        total = sum(value for _, value in combo)
        if total == 13:
            for seat, (action, _) in enumerate(combo):
                m.apply(seat, action)
            return m
    return None


@pytest.mark.parametrize("variant", VARIANTS)
def test_high_bidder_chooses_the_mode_at_exactly_13(variant: str) -> None:
    seen = 0
    for seed in range(6):
        m = drive_to_mode_choice(variant, seed)
        if m is None:
            continue
        assert m.phase == "mode"
        (seat,) = m.to_act()
        legal = m.legal_actions(seat)
        for name in BUNDLED:
            choice = make_bot(name).act(m.view(seat), legal)
            action = legal[choice] if isinstance(choice, int) else choice
            assert isinstance(action, ChooseMode) and action in legal
        seen += 1
    assert seen >= 3


def test_target_declarations_are_legal_and_of_every_kind() -> None:
    """Over many deals the bots declare valid targets (T2) and the rules accept them."""
    ops: set[DeclareOp] = set()
    for seed in range(30):
        m = TrufMatch(
            TrufRules(variant=Variant.TARGET), match_id=f"decl{seed}", seed=seed, names=NAMES
        )
        for seat in range(4):
            legal = m.legal_actions(seat)
            for name in BUNDLED:
                choice = make_bot(name, seed=str(seed)).act(m.view(seat), legal)
                action = legal[choice] if isinstance(choice, int) else choice
                assert isinstance(action, Declare) and action in legal
                ops.add(action.op)
    assert DeclareOp.SINGLE in ops
    assert len(ops) >= 2  # random, at least, declares pairs too


@pytest.mark.parametrize("variant", VARIANTS)
def test_answers_are_actions_of_the_legal_list(variant: str) -> None:
    m = TrufMatch(TrufRules(variant=Variant(variant)), match_id="kinds", seed=3, names=NAMES)
    bots = [make_bot(n) for n in BUNDLED]
    kinds = set()
    while not m.is_over:
        for seat in m.to_act():
            legal = m.legal_actions(seat)
            choice = bots[seat].act(m.view(seat), legal)
            action = legal[choice] if isinstance(choice, int) else choice
            assert action in legal
            kinds.add(type(action))
            m.apply(seat, action)
    assert Play in kinds and (Bid in kinds or Declare in kinds)


@pytest.mark.parametrize("variant", VARIANTS)
def test_tracker_outscores_random(variant: str) -> None:
    """A modest strength check on fixed seeds: tracker against three random bots, in
    every seat, for 40 matches. Its mean total and mean rank must be clearly better."""
    tracker_totals: list[int] = []
    random_totals: list[int] = []
    ranks: list[int] = []
    for i in range(40):
        seat = i % 4
        names = ["random"] * 4
        names[seat] = "tracker"
        out = play(variant, [make_bot(n, seed=f"s{i}") for n in names], f"str{i}", f"str:{i}")
        totals = out.record["totals"]
        tracker_totals.append(totals[seat])
        random_totals.extend(t for s, t in enumerate(totals) if s != seat)
        ranks.append(out.record["ranks"][seat])
    mean_tracker = sum(tracker_totals) / len(tracker_totals)
    mean_random = sum(random_totals) / len(random_totals)
    assert mean_tracker > mean_random + 10
    assert sum(ranks) / len(ranks) < 1.6
