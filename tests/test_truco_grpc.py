"""Truco over real gRPC on loopback (the in-process referee of tests/test_grpc.py):
SDK bots at 2, 4 and 6 seats whose records replay through the engine; raw clients
written from the proto that answer by value, with calls and answers; illegal calls and
answers as faults with the fallback; Hello.games refusals; and a spy that never sees
another seat's unplayed card (ruling R14)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import grpc
import pytest
from test_grpc import Hosted, SdkThread, Stream, join_all, refusal
from truco_rawbots import Caller, Cheater, Spy, truco_hello

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena.bot import BaseBot
from arena.games.registry import make_game
from arena.games.truco.actions import Action
from arena.games.truco.replay import public_hand, replay_match
from arena.games.truco.rules import TrucoRules
from arena.games.truco.view import TrucoView
from arena.play.botgames import hello_games_hint
from arena.play.tournament import MatchContext, MatchOutcome
from arena.referee.host import bot_command, wait_for_entrants
from arena.referee.table import play_remote_match
from bots.random import Bot as Random
from bots.truco.basic import Bot as Basic

REASON = pb.AnswerRejected
ROOT = Path(__file__).resolve().parents[1]


def play_truco(h: Hosted, seats: int, match_id: str, strike_limit: int = 3) -> MatchOutcome:
    """One Truco match to 15 between the referee's entrants in token order, then goodbye."""

    async def play() -> MatchOutcome:
        await wait_for_entrants(h.referee, len(h.referee.entrants), [], 30)
        h.referee.start()
        outcome = await play_remote_match(
            make_game("truco", rules=TrucoRules(seats=seats, points=15)),
            h.referee.entrants,
            ctx=MatchContext(match_id, seed=f"11:{match_id}"),
            strike_limit=strike_limit,
        )
        await h.referee.goodbye()
        return outcome

    return h.run(play(), timeout=120)


def actions_of(record: dict[str, Any], seat: int) -> list[str]:
    return [t for play in record["plays"] for s, t in play["actions"] if s == seat]


class Hooked(Basic):
    """basic, keeping what its deal_over hook gets."""

    def __init__(self, seed: int | str = 0) -> None:
        self.hands: list[dict[str, Any]] = []

    def deal_over(self, record: Any) -> None:
        self.hands.append(dict(record))


class Checked(Random):
    """random, checking that each view arrives as the engine's TrucoView."""

    def act(self, view: Any, legal: Sequence[Any]) -> Action | int:
        assert isinstance(view, TrucoView) and view.seat in view.to_act
        return super().act(view, legal)


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_sdk_bots_play_truco_over_grpc_and_the_records_replay(
    host: Callable[..., Hosted], seats: int
) -> None:
    tokens = {f"tok{i}": f"e{i}" for i in range(seats)}
    h = host(tokens=tokens, game="truco")
    hooked = Hooked()
    bots: list[BaseBot] = [hooked] + [
        Basic() if i % 2 else Checked(str(i)) for i in range(1, seats)
    ]
    threads = [SdkThread(b, h.address, t) for b, t in zip(bots, tokens, strict=True)]
    for t in threads:
        t.start()
    outcome = play_truco(h, seats, f"sdk{seats}")
    join_all(threads)
    deals = outcome.deals
    assert replay_match(deals) == len(deals) >= 2
    assert all(not d["faults"] for d in deals), [d["faults"] for d in deals]
    assert max(outcome.record["totals"]) >= 15
    # deal_over gets over gRPC exactly what it gets in-process.
    assert hooked.hands == [public_hand(d) for d in deals]
    if seats == 6:
        assert {d["kind"] for d in deals} == {"team", "duels"}  # ruling R13


def test_a_raw_client_answers_by_value_with_calls_and_answers(
    host: Callable[..., Hosted],
) -> None:
    tokens = {"tok-a": "caller-a", "tok-b": "basic-b", "tok-c": "random-c", "tok-d": "caller-d"}
    h = host(tokens=tokens, game="truco")
    a, d = Caller(h.address, "tok-a"), Caller(h.address, "tok-d")
    threads: list[Any] = [a, SdkThread(Basic(), h.address, "tok-b"),
                          SdkThread(Random("3"), h.address, "tok-c"), d]  # fmt: skip
    for t in threads:
        t.start()
    outcome = play_truco(h, 4, "byvalue")
    join_all(threads)
    assert replay_match(outcome.deals) == len(outcome.deals)
    assert all(not d["faults"] for d in outcome.deals)
    for seat, bot in ((0, a), (3, d)):
        assert not bot.rejections()
        for rec in outcome.deals:
            assert actions_of(rec, seat) == bot.expect[("byvalue", rec["deal"])], rec["deal"]
    mine = [t for rec in outcome.deals for t in actions_of(rec, 0)]
    assert any(t.startswith("call ") for t in mine) and "quiero" in mine, mine
    assert "call envido" in mine and "call truco" in mine, mine


def test_illegal_truco_calls_and_answers_are_faults_with_the_fallback(
    host: Callable[..., Hosted],
) -> None:
    h = host(tokens={"tok-x": "cheater", "tok-r": "random"}, game="truco", strike_limit=10)
    cheater = Cheater(h.address, "tok-x")
    threads: list[Any] = [cheater, SdkThread(Random("5"), h.address, "tok-r")]
    for t in threads:
        t.start()
    outcome = play_truco(h, 2, "cheat", strike_limit=10)
    join_all(threads)
    assert replay_match(outcome.deals) == len(outcome.deals)
    names = [name for name, _ in cheater.done]
    assert names == ["illegal call", "illegal answer", "unheld card", "no call", "no card",
                     "truf action"]  # fmt: skip
    rejected = cheater.rejections()
    assert [r.request_id for r in rejected] == [rid for _, rid in cheater.done]
    reasons = [r.reason for r in rejected]
    assert reasons[0] in (REASON.REASON_ILLEGAL_ACTION, REASON.REASON_WRONG_KIND)
    assert reasons[1] == REASON.REASON_WRONG_KIND  # no answer is legal when asked to play
    assert reasons[2] == REASON.REASON_ILLEGAL_ACTION
    assert reasons[3:] == [REASON.REASON_UNPARSEABLE] * 3
    details = [r.detail for r in rejected]
    assert "vale-cuatro" in details[0] and "TRUCO_CALL_UNSPECIFIED" in details[3]
    assert "'8E'" in details[4] and "holds a truf action; this table plays truco" in details[5]
    assert all(d.startswith("cheat seat 0: ") and "\n" not in d for d in details)
    assert [r.strikes for r in rejected] == [1, 2, 3, 4, 5, 6]
    faults = [f for rec in outcome.deals for f in rec["faults"]]
    assert [f["seat"] for f in faults] == [0] * 6
    # The fallback (truco.proto) was played for each misdeed; every other answer as sent.
    for rec in outcome.deals:
        assert actions_of(rec, 0) == cheater.expect[("cheat", rec["deal"])], rec["deal"]


def test_a_bot_that_does_not_list_the_game_is_refused_at_hello(
    host: Callable[..., Hosted],
) -> None:
    truco = host(tokens={"tok": "alice"}, game="truco")
    for games in ((), ("truf",), ("truf", "ruff")):
        err = refusal(truco.address, truco_hello("tok", "t", games))
        assert err.code() == grpc.StatusCode.FAILED_PRECONDITION, err.details()
        shown = ", ".join(games or ("truf",))
        assert err.details() == refused_for("truco", shown)
    err = refusal(truco.address, truco_hello("tok", "t", ("tr\nuco",)))
    assert err.details() == refused_for("truco", "'tr\\nuco'")
    truf = host(tokens={"tok": "alice"})
    err = refusal(truf.address, truco_hello("tok", "t", ("truco",)))
    assert err.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert err.details() == refused_for("truf", "truco")
    assert truco.call(lambda: [e.conn for e in truco.referee.entrants]) == [None]
    ok = Stream(truco.address, truco_hello("tok", "t", ("truf", "truco")))
    try:
        assert ok.recv().WhichOneof("message") == "welcome"
    finally:
        ok.close()


def test_a_spy_never_sees_another_seats_unplayed_card(host: Callable[..., Hosted]) -> None:
    tokens = {f"tok{i}": f"e{i}" for i in range(6)}
    h = host(tokens=tokens, game="truco")
    spies = [Spy(h.address, "tok0"), Spy(h.address, "tok3")]
    threads: list[Any] = [spies[0], SdkThread(Random("1"), h.address, "tok1"),
                          SdkThread(Basic(), h.address, "tok2"), spies[1],
                          SdkThread(Basic(), h.address, "tok4"),
                          SdkThread(Random("5"), h.address, "tok5")]  # fmt: skip
    for t in threads:
        t.start()
    outcome = play_truco(h, 6, "spy")
    join_all(threads)
    by_hand = {rec["deal"]: rec for rec in outcome.deals}
    audited = 0
    for spy in spies:
        for view in spy.views:
            audit(view, by_hand[view.hand])
            audited += 1
    assert audited > 20


def audit(view: Any, rec: dict[str, Any]) -> None:
    """One raw view against its hand's record, which knows every hand (ruling R14)."""
    seat, where = view.seat, f"hand {view.hand} seat {view.seat}"
    assert sorted(view.dealt) == sorted(rec["hands"][seat]), where
    played: dict[int, set[str]] = {}  # seat -> cards it played in the whole hand
    for play in rec["plays"]:
        for s, t in play["actions"]:
            if t.startswith("play "):
                played.setdefault(s, set()).add(t.removeprefix("play "))
    mine_played = set()
    for i, play in enumerate(view.plays):
        seen = [(p.seat, p.card) for t in play.tricks for p in t.cards]
        seen += [(p.seat, p.card) for p in play.trick]
        seen += [(e.seat, e.action.play) for e in play.log if e.action.HasField("play")]
        for s, card in seen:
            assert card in played.get(s, set()), f"{where}: {card} of seat {s} unplayed"
            if s == seat:
                mine_played.add(card)
        if play.HasField("shown"):  # R9: only once the play is over, and as recorded
            assert play.points, where
            want = rec["plays"][i]["envido"]["shown"]
            assert [play.shown.seat, list(play.shown.cards)] == want, where
    assert set(view.cards) == set(view.dealt) - mine_played, where


def play_truco_with_programs(
    h: Hosted,
    seats: int,
    match_id: str,
    commands: Sequence[list[str]],
    logs: Sequence[Path],
    env: dict[str, str],
) -> MatchOutcome:
    """Start each bot program (its output to its log), play one Truco match of ``seats``
    on ``h`` and wait for every program to exit 0; a program still running is killed."""
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for cmd, log in zip(commands, logs, strict=True):
            with open(log, "wb") as f:
                procs.append(subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, env=env))
        outcome = play_truco(h, seats, match_id)
        for p in procs:
            assert p.wait(timeout=30) == 0
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    return outcome


def test_the_bundled_truco_bots_run_as_programs_against_a_referee(
    host: Callable[..., Hosted], tmp_path: Path
) -> None:
    assert bot_command("basic", "h:1", "t", "s", game="truco")[1:3] == ["-m", "bots.truco.basic"]
    assert bot_command("truco.shrewd", "h:1", "t", "s")[1:3] == ["-m", "bots.truco.shrewd"]
    assert bot_command("random", "h:1", "t", "s", game="truco")[1:3] == ["-m", "bots.random"]
    assert bot_command("greedy", "h:1", "t", "s")[1:3] == ["-m", "bots.truf.greedy"]
    tokens = {"tok-b": "basic", "tok-s": "shrewd"}
    h = host(tokens=tokens, game="truco")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    commands = [
        bot_command("basic", h.address, "tok-b", "1", capacity=1, game="truco"),
        # The SDK's own launcher, naming a bundled Truco bot for its game.
        [sys.executable, "-m", "arena.sdk", "shrewd", "--game", "truco",
         "--connect", h.address, "--token", "tok-s"],
    ]  # fmt: skip
    logs = [tmp_path / "basic.log", tmp_path / "shrewd.log"]
    outcome = play_truco_with_programs(h, 2, "procs", commands, logs, env)
    assert replay_match(outcome.deals) == len(outcome.deals)
    assert all(not d["faults"] for d in outcome.deals)
    names = h.call(lambda: [(e.bot_name, e.bot_version) for e in h.referee.entrants])
    assert names == [("basic", Basic.version), ("shrewd", "1.0")]


def test_the_sdk_launcher_refuses_an_unknown_bundled_bot_naming_the_games_bots() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "arena.sdk", "greedy", "--game", "truco", "--connect", "h:1"],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 1
    assert "unknown truco bot 'greedy'; bundled bots: random, basic, shrewd, pimc" in proc.stderr


def refused_for(game: str, shown: str) -> str:
    """The referee's refusal of a hello whose games (``shown``) lack its ``game``."""
    return f"this referee plays {game}; your Hello.games is [{shown}]" + hello_games_hint(game)
