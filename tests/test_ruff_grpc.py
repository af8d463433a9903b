"""Ruff and Trump over real gRPC on loopback (the in-process referee of tests/test_grpc.py):
SDK bots whose records replay through the engine; raw clients written from the proto
that answer by value; illegal and malformed answers as faults with the fallback;
Hello.games refusals; and spies that never see what their seat may not know (ruling
F11): another seat's cards, a partner's, the head, the rubber's discards."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import grpc
import pytest
from ruff_rawbots import MISDEEDS, ByValue, Cheater, Spy, names, ruff_hello
from test_grpc import (
    Hosted,
    SdkThread,
    Serving,
    Stream,
    arena_cmd,
    join_all,
    refusal,
    run_arena,
)

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena._proto.truf.arena.v1 import ruff_pb2 as rpb
from arena.games.registry import make_game
from arena.games.ruff.replay import public_deal, replay_match
from arena.games.ruff.rules import Form, RuffRules
from arena.games.ruff.view import RuffView
from arena.play.botgames import hello_games_hint
from arena.play.tournament import MatchContext, MatchOutcome
from arena.referee.host import wait_for_entrants
from arena.referee.table import play_remote_match
from arena.standings.results import read_jsonl
from bots.random import Bot as Random

REASON = pb.AnswerRejected


def play_ruff(
    h: Hosted, rules: RuffRules, match_id: str, *, strike_limit: int = 3, until: Any = None
) -> list[MatchOutcome]:
    """Ruff matches between the referee's entrants in token order, then goodbye: one, or
    (``until``: a callable) up to six until ``until()`` is true."""

    async def play() -> list[MatchOutcome]:
        await wait_for_entrants(h.referee, len(h.referee.entrants), [], 30)
        h.referee.start()
        outcomes = []
        for n in range(6 if until else 1):
            mid = f"{match_id}{n}" if until else match_id
            outcomes.append(
                await play_remote_match(
                    make_game("ruff", rules=rules),
                    h.referee.entrants,
                    ctx=MatchContext(mid, seed=f"15:{mid}"),
                    strike_limit=strike_limit,
                )
            )
            if until and until():
                break
        await h.referee.goodbye()
        return outcomes

    return h.run(play(), timeout=240)


def actions_of(record: dict[str, Any], seat: int) -> list[str]:
    return [t for s, t in record["actions"] if s == seat]


class Checked(Random):
    """random, checking that each view arrives as the engine's RuffView and keeping what
    its deal_over hook gets."""

    def __init__(self, seed: int | str = 0) -> None:
        super().__init__(seed)
        self.deals: list[dict[str, Any]] = []
        self.rubs = 0

    def act(self, view: Any, legal: Sequence[Any]) -> Any:
        assert isinstance(view, RuffView) and view.seat in view.to_act
        self.rubs += view.phase == "rub"
        return super().act(view, legal)  # type: ignore[arg-type]

    def deal_over(self, record: Any) -> None:
        self.deals.append(dict(record))


def test_sdk_bots_play_ruff_over_grpc_and_the_records_replay(
    host: Callable[..., Hosted],
) -> None:
    tokens = {f"tok{i}": f"e{i}" for i in range(4)}
    h = host(tokens=tokens, game="ruff")
    bots = [Checked(str(i)) for i in range(4)]
    threads = [SdkThread(b, h.address, t) for b, t in zip(bots, tokens, strict=True)]
    for t in threads:
        t.start()
    (outcome,) = play_ruff(h, RuffRules(), "sdk")
    join_all(threads)
    deals = outcome.deals
    assert replay_match(deals) == len(deals) >= 2
    assert all(not d["faults"] for d in deals), [d["faults"] for d in deals]
    assert max(outcome.record["totals"]) >= 52  # ruling F9
    # deal_over gets over gRPC exactly what it gets in-process, for every seat.
    for bot in bots:
        assert bot.deals == [public_deal(d) for d in deals]
    # Each rub was asked of its rubber, and answered through the SDK (F5).
    assert sum(b.rubs for b in bots) == sum(d["rubber"] is not None for d in deals)


def test_a_raw_client_answers_by_value(host: Callable[..., Hosted]) -> None:
    tokens = {"tok-a": "byvalue-a", "tok-b": "random-b"}
    h = host(tokens=tokens, game="ruff")
    a = ByValue(h.address, "tok-a")
    threads: list[Any] = [a, SdkThread(Checked("3"), h.address, "tok-b")]
    for t in threads:
        t.start()

    def rubbed() -> bool:
        return any(t.startswith("discard ") for done in a.expect.values() for t in done)

    outcomes = play_ruff(h, RuffRules(form=Form.SINGLE, seats=2), "byvalue", until=rubbed)
    join_all(threads)
    assert not a.rejections()
    deals = [d for o in outcomes for d in o.deals]
    for outcome in outcomes:
        assert replay_match(outcome.deals) == len(outcome.deals)
    assert all(not d["faults"] for d in deals)
    for rec in deals:
        assert actions_of(rec, 0) == a.expect[(rec["match"], rec["deal"])], rec["deal"]
    mine = [t for rec in deals for t in actions_of(rec, 0)]
    assert any(t.startswith("discard ") for t in mine), "seat 0 never rubbed"


def test_illegal_and_malformed_ruff_answers_are_faults_with_the_fallback(
    host: Callable[..., Hosted],
) -> None:
    h = host(tokens={"tok-x": "cheater", "tok-r": "random"}, game="ruff", strike_limit=20)
    cheater = Cheater(h.address, "tok-x")
    threads: list[Any] = [cheater, SdkThread(Checked("5"), h.address, "tok-r")]
    for t in threads:
        t.start()
    outcomes = play_ruff(h, RuffRules(form=Form.SINGLE, seats=2), "cheat",
                         strike_limit=20, until=lambda: not cheater.todo)  # fmt: skip
    join_all(threads)
    assert [name for name, _ in cheater.done] == names(MISDEEDS)
    deals = [d for o in outcomes for d in o.deals]
    for outcome in outcomes:
        assert replay_match(outcome.deals) == len(outcome.deals)
    rejected = cheater.rejections()
    assert [r.request_id for r in rejected] == [rid for _, rid in cheater.done]
    reasons = dict(zip(names(MISDEEDS), (r.reason for r in rejected), strict=True))
    details = dict(zip(names(MISDEEDS), (r.detail for r in rejected), strict=True))
    assert reasons == {
        "announce too high": REASON.REASON_ILLEGAL_ACTION,
        "play while announcing": REASON.REASON_WRONG_KIND,
        "three discards": REASON.REASON_UNPARSEABLE,
        "discard unheld": REASON.REASON_ILLEGAL_ACTION,
        "index past the discards": REASON.REASON_ILLEGAL_ACTION,
        "play unheld": REASON.REASON_ILLEGAL_ACTION,
        "no card": REASON.REASON_UNPARSEABLE,
        "no action": REASON.REASON_UNPARSEABLE,
        "truco action": REASON.REASON_UNPARSEABLE,
    }, details
    assert "F4" in details["announce too high"], details
    assert "4 different cards" in details["three discards"]
    assert "index 1820 is outside the 1820 legal actions" in details["index past the discards"]
    assert "'1D'" in details["no card"] and "no action set" in details["no action"]
    assert "holds a truco action; this table plays ruff" in details["truco action"]
    assert all(": " in d and "\n" not in d for d in details.values()), details
    for r in rejected:
        assert r.detail.startswith("cheat") and " seat 0: " in r.detail, r.detail
    faults = [f for rec in deals for f in rec["faults"]]
    assert [f["seat"] for f in faults] == [0] * len(MISDEEDS)
    # ruff.proto's fallback was played for each misdeed; every other answer as sent.
    for rec in deals:
        assert actions_of(rec, 0) == cheater.expect[(rec["match"], rec["deal"])], rec["deal"]


def test_a_bot_that_does_not_list_ruff_is_refused_at_hello(
    host: Callable[..., Hosted],
) -> None:
    ruff = host(tokens={"tok": "alice"}, game="ruff")
    for games in ((), ("truf",), ("truf", "truco")):
        err = refusal(ruff.address, ruff_hello("tok", "r", games))
        assert err.code() == grpc.StatusCode.FAILED_PRECONDITION, err.details()
        shown = ", ".join(games or ("truf",))
        assert err.details() == refused_for("ruff", shown)
    truco = host(tokens={"tok": "alice"}, game="truco")
    err = refusal(truco.address, ruff_hello("tok", "r"))
    assert err.details() == refused_for("truco", "ruff")
    assert ruff.call(lambda: [e.conn for e in ruff.referee.entrants]) == [None]
    ok = Stream(ruff.address, ruff_hello("tok", "r", ("truf", "ruff")))
    try:
        assert ok.recv().WhichOneof("message") == "welcome"
    finally:
        ok.close()


@pytest.mark.parametrize(
    ("rules", "spying"),
    [
        (RuffRules(), 3),  # partners (seats 0 and 2) and an opponent (seat 1)
        (RuffRules(form=Form.SINGLE, seats=3), 2),  # a 16-card head, 12 of them never seen
    ],
)
def test_spies_never_see_what_their_seat_may_not_know(
    host: Callable[..., Hosted], rules: RuffRules, spying: int
) -> None:
    tokens = {f"tok{i}": f"e{i}" for i in range(rules.seats)}
    h = host(tokens=tokens, game="ruff")
    spies = [Spy(h.address, f"tok{i}") for i in range(spying)]
    threads: list[Any] = [*spies, *(SdkThread(Checked(str(i)), h.address, f"tok{i}")
                                    for i in range(spying, rules.seats))]  # fmt: skip
    for t in threads:
        t.start()
    (outcome,) = play_ruff(h, rules, "spy")
    join_all(threads)
    by_deal = {rec["deal"]: rec for rec in outcome.deals}
    audited = rubbing = 0
    for spy in spies:
        for view in spy.views:
            rubbing += audit(view, by_deal[view.deal])
            audited += 1
        for msg in spy.received:  # every deal result too: the same for every seat
            if msg.HasField("deal_result"):
                audit_result(msg.deal_result.ruff, by_deal[msg.deal_result.deal])
    assert audited > 30 and rubbing >= 1


def seen_cards(view: rpb.RuffView) -> set[str]:
    """Every card code a view holds, wherever it is."""
    cards = {*view.hand, *view.dealt, *view.taken, *view.discards, view.turned}
    cards |= set(view.shown.cards)
    cards |= {p.card for t in view.tricks for p in t.cards} | {p.card for p in view.trick}
    return cards


def audit(view: rpb.RuffView, rec: dict[str, Any]) -> bool:
    """One raw view against its deal's record, which knows every card (ruling F11).
    Returns whether the view is its rubber's, once the rub began."""
    seat, where = view.seat, f"deal {view.deal} seat {view.seat}"
    assert sorted(view.dealt) == sorted(rec["hands"][seat]), where
    played = {(s, c) for t in rec["tricks"] for s, c in t["cards"]}
    for t in view.tricks:
        assert all((p.seat, p.card) in played for p in t.cards), where
    assert all((p.seat, p.card) in played for p in view.trick), where
    shown = set(rec["shown"]["cards"]) if rec["shown"] else set()
    if view.HasField("shown"):
        assert list(view.shown.cards) == rec["shown"]["cards"], where  # F6
    allowed = set(rec["hands"][seat]) | {rec["turned"]} | {c for _, c in played} | shown
    is_rubber = view.HasField("rubber") and view.rubber == seat
    if is_rubber:  # the rubber alone: the head cards it took, and its discards (F5)
        assert list(view.taken) == rec["head"][:4], where  # the head's top four, in order
        allowed |= set(rec["head"][:4])
        if view.discards:
            assert sorted(view.discards) == sorted(rec["discards"]), where
    else:
        assert not view.taken and not view.discards, where
    leaked = seen_cards(view) - allowed
    assert not leaked, f"{where} sees {sorted(leaked)}"
    # Announcements as made, in order; the winner only once every seat has spoken (F4).
    made = [[a.seat, a.ruff] for a in view.announcements]
    assert made == rec["announcements"][: len(made)], where
    assert view.HasField("ruff_winner") == (len(made) == len(rec["seats"])), where
    assert view.HasField("rubber") == (view.phase != rpb.RUFF_PHASE_ANNOUNCE), where
    return is_rubber


def audit_result(msg: rpb.RuffDealResult, rec: dict[str, Any]) -> None:
    """A deal result holds only public cards: played, shown or turned up (F11)."""
    public = {c for t in rec["tricks"] for _, c in t["cards"]} | {rec["turned"]}
    if rec["shown"]:
        public |= set(rec["shown"]["cards"])
    cards = {msg.turned, *msg.shown.cards, *(p.card for t in msg.tricks for p in t.cards)}
    assert cards <= public, f"deal {rec['deal']}: {sorted(cards - public)}"


def test_the_default_ruff_tournament_runs_over_grpc_and_verifies(tmp_path: Path) -> None:
    """Issue 15 item 1, shortened: ``arena tournament --game ruff`` over gRPC on loopback
    with the bundled bots as programs; no faults, and ``arena verify`` replays the log."""
    out = tmp_path / "r"
    code, text = run_arena(tmp_path, "tournament", "--game", "ruff", "--rounds", "2",
                           "--seed", "3", "--results", str(out), "--quiet")  # fmt: skip
    assert code == 0, text
    matches = read_jsonl(out / "matches.jsonl")
    assert matches and all(m["game"] == "ruff" for m in matches)
    assert all(sum(sum(v) for v in m["faults"].values()) == 0 for m in matches), matches
    assert json.loads((out / "tournament.json").read_text())["config"]["transport"] == "grpc"
    code, text = run_arena(tmp_path, "verify", str(out))
    assert code == 0 and "replay exactly" in text, text


def test_arena_serve_hosts_ruff_and_refuses_a_bot_without_ruff_in_its_hello(
    tmp_path: Path,
) -> None:
    """``arena serve --game ruff``: a Truf-only bot (protocol version 1, Hello.games empty)
    and a Truco bot are refused with FAILED_PRECONDITION saying why, and four ``arena bot
    --game ruff`` programs play a tournament that verifies."""
    with Serving(tmp_path, "--game", "ruff", "--entrants", "4", "--rounds", "1",
                 "--seed", "4") as s:  # fmt: skip
        for games in ((), ("truco",)):
            err = refusal(s.address, ruff_hello("", "stranger", games))
            assert err.code() == grpc.StatusCode.FAILED_PRECONDITION, err.details()
            shown = ", ".join(games or ("truf",))
            assert err.details() == refused_for("ruff", shown)
        for name in ("random", "steady", "sharp", "random"):
            s.bot(arena_cmd("bot", name, "--game", "ruff", "--connect", s.address))
        s.finish()
    matches = read_jsonl(s.out / "matches.jsonl")
    assert [m["game"] for m in matches] == ["ruff"]
    assert sorted(matches[0]["seats"]) == ["random#1", "random#2", "sharp", "steady"]
    code, text = run_arena(tmp_path, "verify", str(s.out))
    assert code == 0, text


def refused_for(game: str, shown: str) -> str:
    """The referee's refusal of a hello whose games (``shown``) lack its ``game``."""
    return f"this referee plays {game}; your Hello.games is [{shown}]" + hello_games_hint(game)
