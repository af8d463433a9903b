"""Hostile bots over real gRPC: a flooder and an oversized message are cut off, the
match still finishes, every deal in it is legal, and the honest bots see no error."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
import pytest
from test_grpc import (
    ByIndex,
    Hosted,
    SdkThread,
    Stream,
    hello,
    join_all,
    play_hosted_match,
)
from test_rules_oracle import audit_outcomes

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena.games.registry import make_game
from arena.games.truf.replay import replay_match
from arena.games.truf.rules import TrufRules
from arena.play.tournament import MatchContext, MatchOutcome
from arena.referee.limits import MAX_MESSAGE_BYTES, MESSAGE_RESERVE
from arena.referee.table import play_remote_match


class Hostile(threading.Thread):
    """A raw-stub bot that misbehaves at its first decision request, then keeps reading."""

    def __init__(self, address: str, token: str, attack: Callable[[Stream, int], None]) -> None:
        super().__init__(daemon=True)
        self.stream = Stream(address, hello(token, name="hostile"))
        self.attack = attack
        self.status: grpc.StatusCode | None = None
        self.details = ""

    def run(self) -> None:
        try:
            for msg in self.stream.call:
                if msg.HasField("decision_request"):
                    self.attack(self.stream, msg.decision_request.request_id)
        except grpc.RpcError as exc:
            self.status, self.details = exc.code(), exc.details() or ""


def flood(stream: Stream, request_id: int) -> None:
    for n in range(MESSAGE_RESERVE * 2):
        msg = pb.PlayRequest()
        msg.answer.request_id = request_id + 10_000 + n  # answers to nothing
        msg.answer.index = 0
        stream.send(msg)


def oversize(stream: Stream, request_id: int) -> None:
    msg = pb.PlayRequest()
    msg.answer.request_id = request_id
    msg.answer.truf.declare.cards.extend(["AS"] * (MAX_MESSAGE_BYTES // 2))
    stream.send(msg)


@pytest.mark.parametrize(
    ("attack", "words"), [(flood, "flooding"), (oversize, "")], ids=["flooder", "oversized"]
)
def test_a_hostile_bot_is_cut_off_and_the_match_finishes(
    host: Callable[..., Hosted],  # noqa: F811
    attack: Callable[[Stream, int], None],
    words: str,
    tmp_path: Path,
) -> None:
    tokens = {f"tok-{i}": f"bot{i}" for i in range(4)}
    h = host(tokens=tokens)
    honest = [ByIndex() for _ in range(3)]
    threads = [SdkThread(b, h.address, f"tok-{i}") for i, b in enumerate(honest)]
    for t in threads:
        t.start()
    hostile = Hostile(h.address, "tok-3", attack)
    hostile.start()
    outcome = play_hosted_match(h, deals=2, strike_limit=3)
    join_all(threads)
    hostile.join(30)
    assert hostile.status is grpc.StatusCode.RESOURCE_EXHAUSTED, hostile.details
    assert words in hostile.details
    # The match finished: every deal is whole, legal, and replays exactly.
    assert len(outcome.deals) == 2
    assert replay_match(outcome.deals) == 2
    # Its seat played the fallback after it was cut off; the honest seats, their own.
    seats = [f["seat"] for d in outcome.deals for f in d["faults"]]
    assert seats and set(seats) == {3}
    # Cut off (its decisions were disconnects) or, flooding wrong ids, out of strikes first.
    faults = outcome.record["faults"]
    assert faults["disconnect"][3] > 0 or outcome.record["disqualified"][3]
    assert all(bot.decisions >= 2 * 14 for bot in honest)  # a bid and 13 plays a deal
    assert outcome.record["faults"]["illegal"][:3] == [0, 0, 0]
    assert outcome.record["faults"]["timeout"][:3] == [0, 0, 0]
    assert audit_outcomes(tmp_path, TrufRules(deals=2), [outcome]) == ""


class Sleeper(ByIndex):
    """Slow on its first ``slow`` decisions (``pause`` seconds each), then quick."""

    def __init__(self, slow: int, pause: float) -> None:
        super().__init__()
        self.slow, self.pause = slow, pause

    def choose(self, view: Any, legal: Any) -> Any:
        if self.decisions <= self.slow:
            time.sleep(self.pause)
        return super().choose(view, legal)


@pytest.mark.parametrize(("bank", "late"), [(0.0, True), (1.0, False)], ids=["no-bank", "bank"])
def test_a_time_bank_absorbs_slow_decisions_and_without_one_they_time_out(
    host: Callable[..., Hosted],  # noqa: F811
    bank: float,
    late: bool,
    tmp_path: Path,
) -> None:
    tokens = {f"tok-{i}": f"bot{i}" for i in range(4)}
    h = host(tokens=tokens, decision_timeout=0.25, time_bank=bank)
    bots: list[ByIndex] = [ByIndex(), Sleeper(slow=2, pause=0.45), ByIndex(), ByIndex()]
    threads = [SdkThread(b, h.address, f"tok-{i}") for i, b in enumerate(bots)]
    for t in threads:
        t.start()
    outcome = play_hosted_match(h, deals=1, strike_limit=5)
    join_all(threads)
    timeouts = outcome.record["faults"]["timeout"]
    assert timeouts[0] == timeouts[2] == timeouts[3] == 0
    # Without a bank both slow answers are late (and may make the next one late too);
    # with one, the 2 x 0.2 s overrun comes out of the bank's 1 s.
    assert (timeouts[1] >= 2) if late else (timeouts[1] == 0), timeouts
    (deal,) = outcome.deals
    assert replay_match([deal]) == 1
    assert audit_outcomes(tmp_path, TrufRules(deals=1), [outcome]) == ""


def test_a_bot_that_stays_away_past_the_grace_period_forfeits_what_is_left(
    host: Callable[..., Hosted],  # noqa: F811
    tmp_path: Path,
) -> None:
    tokens = {f"tok-{i}": f"bot{i}" for i in range(4)}
    h = host(tokens=tokens, decision_timeout=0.5, grace=0.3)
    honest = [Sleeper(slow=10_000, pause=0.005) for _ in range(3)]  # a match lasts ~1 s
    threads = [SdkThread(b, h.address, f"tok-{i}") for i, b in enumerate(honest)]
    for t in threads:
        t.start()
    # It plays nothing: at its first request it hangs up, and never comes back.
    leaver = Hostile(h.address, "tok-3", lambda stream, rid: stream.close())
    leaver.start()
    first = play_hosted_match(h, deals=2, strike_limit=3, match_id="m1", goodbye=False)

    async def without_waiting() -> MatchOutcome:  # the leaver is not coming back
        outcome = await play_remote_match(
            make_game(rules=TrufRules(deals=1)),
            h.referee.entrants,
            ctx=MatchContext("m2", seed="7:m2"),
            strike_limit=3,
        )
        await h.referee.goodbye()
        return outcome

    second = h.run(without_waiting())
    join_all(threads)
    # Match 1: a disconnect (no strike) until the grace period ran out, then a forfeit.
    assert first.record["forfeit"] == [False, False, False, True]
    assert first.record["faults"]["disconnect"][3] > 0
    assert first.record["disqualified"] == [False] * 4
    # Match 2: forfeited from the start, played on by the fallback, never asked.
    assert second.record["forfeit"] == [False, False, False, True]
    assert second.record["faults"]["disconnect"] == [0, 0, 0, 0]
    for outcome in (first, second):
        assert replay_match(outcome.deals) == len(outcome.deals)
        assert outcome.record["faults"]["illegal"][:3] == [0, 0, 0]
    # For rating, a forfeit ranks below every seat that played.
    from arena.standings.ratings import rating_ranks

    assert rating_ranks(second.record)[3] == 4
    assert audit_outcomes(tmp_path / "m1", TrufRules(deals=2), [first]) == ""
    assert audit_outcomes(tmp_path / "m2", TrufRules(deals=1), [second]) == ""
