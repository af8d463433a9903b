"""The SDK's answers, without a network: by index when it can, the action otherwise,
and never a crash for whatever a bot's act() returns."""

from __future__ import annotations

from typing import Any

import pytest

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena.games.truf import wire as wire
from arena.games.truf.actions import BIDS
from arena.games.truf.state import TrufMatch
from arena.sdk import answer_for


def request() -> tuple[pb.DecisionRequest, TrufMatch]:
    m = TrufMatch(seed=1)
    req = pb.DecisionRequest(request_id=5)
    wire.fill_decision(req.truf, m.view(0), m.legal_actions(0))
    return req, m


class Returns:
    def __init__(self, value: Any) -> None:
        self.value = value

    def act(self, view: Any, legal: Any) -> Any:
        return self.value(view, legal) if callable(self.value) else self.value


def test_a_legal_action_goes_as_its_index() -> None:
    req, _ = request()
    ans = answer_for(Returns(lambda v, legal: legal[3]), req).answer
    assert (ans.request_id, ans.WhichOneof("choice"), ans.index) == (5, "index", 3)


def test_an_action_outside_the_list_goes_as_itself_for_the_referee_to_judge() -> None:
    req, m = request()
    foreign = next(b for b in BIDS if b not in m.legal_actions(0))
    ans = answer_for(Returns(foreign), req).answer
    assert ans.WhichOneof("choice") == "truf" and ans.truf.bid.card == foreign.card.code


def test_what_is_not_an_action_goes_as_no_choice_and_a_raising_bot_as_a_failure() -> None:
    req, _ = request()
    assert answer_for(Returns("garbage"), req).answer.WhichOneof("choice") is None

    def boom(view: Any, legal: Any) -> Any:
        raise RuntimeError("the author's bug")

    # issue 25: the SDK never chooses for a bot that crashed; it says the bot failed
    ans = answer_for(Returns(boom), req).answer
    assert ans.WhichOneof("choice") == "failure"
    assert ans.failure.reason == "RuntimeError: the author's bug"


def test_a_negative_index_goes_as_one_outside_the_list() -> None:
    req, _ = request()
    ans = answer_for(Returns(-1), req).answer
    assert ans.WhichOneof("choice") == "index" and ans.index == 2**32 - 1


def test_a_result_hook_that_raises_is_shown_and_play_goes_on(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from arena.bot import BaseBot
    from arena.games.registry import make_game
    from arena.games.truf.rules import TrufRules
    from arena.play.tournament import MatchContext, play_match

    class Broken(BaseBot):
        name = "broken"

        def act(self, view: Any, legal: Any) -> Any:
            return 0

        def deal_over(self, record: Any) -> None:
            raise RuntimeError("the author's bug")

    game = make_game(rules=TrufRules(deals=2))
    bots = [Broken(), Broken(), Broken(), Broken()]
    out = play_match(game, bots, ctx=MatchContext("hooks"), names=list("abcd"))
    assert len(out.deals) == 2 and not any(d["faults"] for d in out.deals)
    err = capsys.readouterr().err
    assert err.count("[broken] deal_over() raised:") == 8 and "the author's bug" in err


def test_true_is_no_index_over_grpc_as_in_process() -> None:
    """issue 25: the same answer is judged alike on both transports (unparseable)."""
    req, _ = request()
    assert answer_for(Returns(True), req).answer.WhichOneof("choice") is None
