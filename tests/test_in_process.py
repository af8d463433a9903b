"""In-process play (``play_match`` through ``TrufMatch.run``) against a step-by-step oracle.

``run`` plays the play phase in one loop with a fast check against the turn's legal
mask and sends whatever that check does not accept through ``apply``. The oracle below
is the plain referee loop (``to_act``, ``legal_actions``, ``view``, ``apply`` per
decision). Bots that answer well, badly and strangely must get the same events, the
same replay records and the same fault entries from both, in both variants.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.cards import CARDS
from arena.games.registry import TrufGame
from arena.games.truf.actions import BIDS, Action, ChooseMode, Mode, Play
from arena.games.truf.errors import RuleError
from arena.games.truf.replay import replay_match
from arena.games.truf.rules import TrufRules
from arena.games.truf.state import TrufMatch
from arena.play.faults import FaultBook, FaultKind
from arena.play.tournament import MatchContext, play_match


class Chaos:
    """Answers well most of the time; otherwise raises, or answers with an index out of
    range, a card not in its hand or not legal, a plain-int card, an action of the wrong
    kind, or something that is not an action at all. Seeded by its seat and the match."""

    def __init__(self, seed: int, bad: float) -> None:
        self.seed, self.bad = seed, bad
        self.rngs: dict[tuple[str, int], random.Random] = {}
        self.asked = 0

    def act(self, view: Any, legal: Sequence[Action]) -> Any:
        self.asked += 1
        key = (view.match_id, view.seat)
        rng = self.rngs.setdefault(key, random.Random(f"{self.seed}:{key}"))
        pick = rng.randrange(len(legal))
        if rng.random() >= self.bad:
            return pick if rng.random() < 0.5 else legal[pick]
        kind = rng.randrange(8)
        if kind == 0:
            raise ValueError("the bot's own bug")
        if kind == 1:
            return len(legal) + rng.randrange(3)  # an index past the end
        if kind == 2:
            return -1  # an index before the start
        if kind == 3:  # any card at all: often not in hand, or not legal (C9/C10)
            return Play(CARDS[rng.randrange(52)])
        if kind == 4:
            action = legal[pick]
            if isinstance(action, Play):
                return Play(int(action.card))  # a plain int card: legal, and must play
            return action
        if kind == 5:
            return ChooseMode(Mode.ATAS)  # the wrong kind, except at the mode choice
        if kind == 6:
            return BIDS[rng.randrange(52)]  # a bid: the wrong kind outside bidding
        return "not an action"


def oracle(rules: TrufRules, bots: Sequence[Chaos], match_id: str, seed: str,
           strike_limit: int) -> tuple[list[Any], list[dict[str, Any]]]:  # fmt: skip
    """The referee loop one step at a time: events, and the replay records with faults."""
    m = TrufMatch(rules, match_id=match_id, seed=seed, names=[f"b{s}" for s in range(4)])
    book = FaultBook(4, strike_limit)
    deals: list[dict[str, Any]] = []
    faults: list[dict[str, Any]] = []
    while not m.is_over:
        for seat in m.to_act():
            legal = m.legal_actions(seat)
            if book.disqualified[seat]:
                m.apply(seat, legal[0])
                continue
            # issue 25: the bot's own exception is a crash, an index outside the list or an
            # action the rules refuse is illegal, a value that is no action unparseable
            kind = FaultKind.CRASH
            try:
                choice = bots[seat].act(m.view(seat), legal)
                kind = FaultKind.UNPARSEABLE if isinstance(choice, str) else FaultKind.ILLEGAL
                if type(choice) is int:
                    if not 0 <= choice < len(legal):
                        raise IndexError(f"index {choice} outside the {len(legal)} legal actions")
                    choice = legal[choice]
                m.apply(seat, choice)
            except Exception as exc:
                detail = (
                    exc.detail if isinstance(exc, RuleError) else f"{type(exc).__name__}: {exc}"
                )
                where = {"decision": m.decision_number(), "played": str(m.fallback_action(seat))}
                faults.append(book.record(seat, kind, detail, deal=len(deals) + 1, **where))
                m.apply(seat, m.fallback_action(seat))
        for rec in m.finished:
            rec["faults"], faults = faults, []
            deals.append(rec)
        m.finished.clear()
    return m.events, deals


@pytest.mark.parametrize("variant", ["classic", "target"])
@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), bad=st.sampled_from([0.0, 0.05, 0.3, 1.0]))
def test_run_plays_exactly_as_the_step_by_step_referee(variant: str, seed: int, bad: float) -> None:
    rules = TrufRules(variant=variant, deals=3)
    game = TrufGame(rules)
    names = [f"b{s}" for s in range(4)]
    ctx = MatchContext("m1", seed=str(seed))
    strikes = 1_000_000 if bad == 1.0 else 3  # never disqualified, or disqualified soon
    want_events, want_deals = oracle(rules, [Chaos(seed, bad) for _ in range(4)], "m1",
                                     str(seed), strikes)  # fmt: skip
    got = play_match(game, [Chaos(seed, bad) for _ in range(4)], ctx=ctx, names=names,
                     strike_limit=strikes)  # fmt: skip
    assert got.deals == want_deals
    assert replay_match(got.deals) == rules.deals
    # The events too: the same match object's events, driven by run().
    m = TrufMatch(rules, match_id="m1", seed=str(seed), names=names)
    bots = [Chaos(seed, bad) for _ in range(4)]
    book = FaultBook(4, strikes)
    acts: list[Any] = [b.act for b in bots]

    def on_fault(seat: int, exc: Exception) -> None:
        kind = FaultKind.ILLEGAL if isinstance(exc, RuleError | IndexError) else FaultKind.CRASH
        book.record(seat, kind, str(exc), deal=1, decision=m.decision_number(), played="")
        if book.disqualified[seat]:
            acts[seat] = None

    decisions = m.run(acts, on_fault, lambda record: None)
    assert m.events == want_events
    assert m.is_over and not m.finished
    assert decisions == sum(1 for e in want_events if type(e).__name__ in
                            ("BidMade", "ModeChosen", "CardPlayed"))  # fmt: skip


class Raiser:
    def __init__(self) -> None:
        self.asked = 0

    def act(self, view: Any, legal: Sequence[Action]) -> Any:
        self.asked += 1
        raise RuntimeError("always")


def test_a_disqualified_bot_is_not_asked_again() -> None:
    rules = TrufRules(deals=2)
    raiser = Raiser()
    bots = [raiser, Chaos(2, 0.0), Chaos(3, 0.0), Chaos(4, 0.0)]
    out = play_match(TrufGame(rules), bots, ctx=MatchContext("m1", seed="5"),
                     names=list("abcd"), strike_limit=3)  # fmt: skip
    assert out.record["disqualified"] == [True, False, False, False]
    assert raiser.asked == 3  # three strikes, then the fallback plays its seat unasked
    faults = [f for d in out.deals for f in d["faults"]]
    assert [f["seat"] for f in faults] == [0, 0, 0]
    # Four bids and 52 cards a deal, and the mode when the bids total 13 (C5).
    assert out.decisions == sum(56 + r["mode_chosen"] for r in out.deals)
    assert replay_match(out.deals) == 2


def test_each_kind_of_bad_answer_is_a_fault_that_names_its_cause() -> None:
    class Once:
        """Answers ``answer`` at its first play decision, then the first legal card."""

        def __init__(self, answer: Any) -> None:
            self.answer, self.done = answer, False

        def act(self, view: Any, legal: Sequence[Action]) -> Any:
            if isinstance(legal[0], Play) and not self.done:
                self.done = True
                if isinstance(self.answer, Exception):
                    raise self.answer
                return self.answer
            return 0

    cases = [
        (ValueError("boom"), "crash", "ValueError: boom"),
        (99, "illegal", "index 99 outside"),
        (ChooseMode(Mode.BAWAH), "illegal", "the play phase takes a card"),
        # issue 25: what is no action at all is unparseable, as the SDK's answer over gRPC
        # (no choice) is judged
        ("nonsense", "unparseable", "the play phase takes a card"),
        (Play(52), "unparseable", "is not a card"),
    ]
    for answer, kind, words in cases:
        bots = [Once(answer), Once(0), Once(0), Once(0)]
        out = play_match(TrufGame(TrufRules(deals=1)), bots, ctx=MatchContext("m1", seed="2"),
                         names=list("abcd"))  # fmt: skip
        (fault,) = out.deals[0]["faults"]
        assert fault["seat"] == 0 and fault["kind"] == kind and words in fault["detail"], fault
        assert replay_match(out.deals) == 1
