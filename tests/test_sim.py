"""The simulator (``arena.games.truf.sim``) plays the rules exactly as the referee's engine does.

Thousands of random deals go through both: the same random moves, the same legal
moves at every step, and identical tricks and scores, for both variants and every
scoring method (C13: 1, 2, 3, 2+3 with a multiplier; T6).
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from arena.core.cards import CARDS, mask_of
from arena.games.truf import bidding, sim
from arena.games.truf.actions import BIDS, MODES, PLAYS, Action, Bid, ChooseMode, Declare, Play
from arena.games.truf.events import DealScored, DealStarted, TrickClosed
from arena.games.truf.rules import TrufRules
from arena.games.truf.state import TrufMatch

RULES = {
    "classic-1": TrufRules(variant="classic", scoring="1", deals=13),
    "classic-2": TrufRules(variant="classic", scoring="2", deals=13),
    "classic-3": TrufRules(variant="classic", scoring="3", deals=13),
    "classic-2+3-x3": TrufRules(variant="classic", scoring="2+3", multiplier=3, deals=13),
    "target": TrufRules(variant="target", deals=13),
}
MATCHES = 40  # per rule set: 40 x 13 deals x 5 rule sets = 2,600 deals


def as_action(move: sim.Move, phase: int) -> Action:
    if phase == sim.PLAY:
        return PLAYS[move]  # type: ignore[index]
    if phase == sim.MODE:
        return MODES[move]  # type: ignore[index]
    return move if isinstance(move, Declare) else BIDS[move]  # type: ignore[index]


def as_move(action: Action) -> sim.Move:
    if isinstance(action, Play | Bid):
        return int(action.card)
    if isinstance(action, ChooseMode):
        return action.mode
    return action


def play_both(match: TrufMatch, rng: random.Random) -> int:
    """Play ``match`` to its end with random moves through both; returns deals checked."""
    deals = 0
    while not match.is_over:
        start = match.events[-1]
        assert isinstance(start, DealStarted)
        direction = -1 if start.direction == "ccw" else 1
        state = sim.Sim.start(
            match.rules, [mask_of(h) for h in start.hands], direction, record=True
        )
        first_event = len(match.events)
        while not state.is_over:
            for seat in state.to_act():
                moves = state.legal(seat)
                assert [as_action(m, state.phase) for m in moves] == list(match.legal_actions(seat))
                move = moves[rng.randrange(len(moves))]
                action = as_action(move, state.phase)
                state.apply(move, seat)
                match.apply(seat, action)
            if not match.is_over and match.deal_no == start.deal:
                assert state.hands == match._hands
        events = match.events[first_event:]
        closed = [(e.leader, e.cards, e.winner) for e in events if isinstance(e, TrickClosed)]
        scored = next(e for e in events if isinstance(e, DealScored))
        assert state.history == closed
        assert tuple(state.won) == scored.tricks_won
        assert state.scores() == scored.scores
        deals += 1
    return deals


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_simulator_plays_random_deals_exactly_as_the_engine(name: str) -> None:
    rng = random.Random(f"sim-exact:{name}")
    deals = sum(
        play_both(TrufMatch(RULES[name], match_id=f"m{i}", seed=f"{name}:{i}"), rng)
        for i in range(MATCHES)
    )
    assert deals == MATCHES * 13


@pytest.mark.parametrize("name", sorted(RULES))
def test_a_random_playout_scores_the_deal_as_the_engine_would(name: str) -> None:
    """``playout`` (its inlined loop) ends in the same tricks and scores as replaying its
    recorded tricks through the engine's step-by-step path."""
    rules = RULES[name]
    rng = random.Random(f"sim-playout:{name}")
    for _ in range(200):
        hands = sim.random_deal(rng)
        state = sim.Sim.start(rules, hands, rng.choice((-1, 1)), record=True)
        fresh = state.copy()
        scores = state.playout(rng)
        # Replay: the same bids and mode, then the recorded cards, through play().
        replay = fresh
        for seat in range(4):
            replay.bid(seat, state.bids[seat])  # type: ignore[arg-type]
        if replay.phase == sim.MODE:
            replay.choose_mode(state.atas)
        assert state.history is not None
        for _, cards, _ in state.history:
            for seat, card in cards:
                assert replay.turn == seat
                assert replay.legal_mask() >> card & 1
                replay.play(card)
        assert replay.history == state.history
        assert replay.scores() == scores


def test_an_illegal_move_is_refused_with_the_reason() -> None:
    rules = TrufRules()
    hands = sim.random_deal(random.Random(3))
    state = sim.Sim.start(rules, hands)
    with pytest.raises(ValueError, match="needs its seat"):
        state.apply(int(CARDS[0]))
    foreign = next(c for c in range(52) if not hands[0] >> c & 1)
    with pytest.raises(ValueError, match="may not bid"):
        state.apply(foreign, 0)
    for seat in range(4):
        state.apply(state.legal(seat)[0], seat)
    if state.phase == sim.MODE:
        state.apply(state.legal()[0])
    not_held = next(c for c in range(52) if not state.hands[state.turn] >> c & 1)
    with pytest.raises(ValueError, match="may not play"):
        state.apply(not_held)


def test_a_copy_is_independent_of_its_original() -> None:
    state = sim.Sim.start(TrufRules(), sim.random_deal(random.Random(5)))
    for seat in range(4):
        state.bid(seat, state.legal(seat)[0])  # type: ignore[arg-type]
    if state.phase == sim.MODE:
        state.choose_mode(True)
    before = (state.hands[:], state.won[:], state.turn)
    twin = state.copy()
    twin.playout(random.Random(2))
    assert (state.hands, state.won, state.turn) == before
    assert twin.is_over and not state.is_over


def test_a_playout_of_a_finished_deal_only_scores_it() -> None:
    rng = random.Random(8)
    state = sim.Sim.start(TrufRules(variant="target"), sim.random_deal(rng))
    scores = state.playout(rng)
    assert state.playout(rng) == scores == state.scores()


def test_a_random_declaration_is_uniform_over_the_legal_ones() -> None:
    """T2: every valid declaration of the hand, each as likely (chi-square at 0.1%)."""
    rng = random.Random(4)
    for _ in range(3):
        hand = sim.random_deal(rng)[0]
        legal = bidding.legal_declarations(hand)
        draws = 40 * len(legal)
        counts = Counter(sim.random_declaration(hand, rng.random) for _ in range(draws))
        assert set(counts) == set(legal)
        expected = draws / len(legal)
        stat = sum((counts[d] - expected) ** 2 / expected for d in legal)
        df = len(legal) - 1
        limit = df * (1 - 2 / (9 * df) + 3.09 * math.sqrt(2 / (9 * df))) ** 3
        assert stat <= limit
