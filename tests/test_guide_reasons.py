"""The guide's tables of bad answers (docs/protocol.md, ``<!-- reasons: GAME -->``) say what
a real referee answers: every Truco and Ruff row is committed by a raw gRPC client written
from the proto (no arena.wire, no SDK) against a live referee on loopback, and the Truf
rows are the ones the generated transcript records (tests/test_protocol_doc.py checks
that it is fresh)."""

from __future__ import annotations

import re
from collections.abc import Callable
from math import comb
from pathlib import Path
from typing import Any

from rawgame import RawBot
from ruff_rawbots import ByValue as RuffByValue
from test_grpc import Hosted, join_all
from test_protocol_doc import generated
from truco_rawbots import Caller

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena._proto.truf.arena.v1 import ruff_pb2 as rpb
from arena._proto.truf.arena.v1 import truco_pb2 as tpb
from arena.games.registry import make_game
from arena.games.ruff.rules import Form, RuffRules
from arena.games.truco.rules import TrucoRules
from arena.play.tournament import MatchContext
from arena.referee.host import wait_for_entrants
from arena.referee.table import play_remote_match

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"
REASONS = pb.AnswerRejected.Reason


def documented(game: str) -> dict[str, int]:
    """The guide's table of bad answers for ``game``: row text -> the reason's number."""
    text = GUIDE.read_text(encoding="utf-8").split(f"<!-- reasons: {game} -->", 1)[1]
    rows: dict[str, int] = {}
    for line in text.strip().splitlines()[2:]:
        line = line.strip()
        if not line.startswith("|"):
            break
        what, reason = (c.strip() for c in line.strip("|").split("|"))
        rows[what.replace("`", "")] = REASONS.Value(reason.strip("`"))
    assert rows, game
    return rows


# A misdeed: does it fit this request, and how to commit it (fill the answer).
Fits = Callable[[Any], bool]
Commit = Callable[[pb.Answer, Any], None]


class Offender(RawBot):
    """Commits every misdeed once, each at the first request it fits (any order), and
    otherwise answers index 0; keeps which request each misdeed answered."""

    def __init__(self, address: str, token: str, game: str,
                 misdeeds: dict[str, tuple[Fits, Commit]]) -> None:  # fmt: skip
        super().__init__(address, token, "offender")
        self.game = game
        self.todo = dict(misdeeds)
        self.done: dict[int, str] = {}  # request id -> misdeed

    def choose(self, req: pb.DecisionRequest, answer: pb.Answer) -> str:
        decision = getattr(req, self.game)
        for name, (fits, commit) in self.todo.items():
            if fits(decision):
                commit(answer, decision)
                self.done[req.request_id] = name
                del self.todo[name]
                return name
        answer.index = 0
        return "index 0"


def offend(
    host: Callable[..., Hosted],
    game: str,
    rules: Any,
    misdeeds: dict[str, tuple[Fits, Commit]],
    other: type[RawBot],
) -> dict[str, int]:
    """Play matches of ``game`` (the offender in seat 0 against ``other``) until every
    misdeed is done; return the reason the referee gave each."""
    h = host(tokens={"tok-x": "offender", "tok-o": "other"}, game=game, strike_limit=100)
    offender = Offender(h.address, "tok-x", game, misdeeds)
    opponent = other(h.address, "tok-o")
    for t in (offender, opponent):
        t.start()

    async def play() -> None:
        await wait_for_entrants(h.referee, 2, [], 30)
        h.referee.start()
        for n in range(12):
            if not offender.todo:
                break
            mid = f"reasons{n}"
            ctx = MatchContext(mid, seed=f"27:{mid}")
            await play_remote_match(
                make_game(game, rules=rules), h.referee.entrants, ctx=ctx, strike_limit=100
            )
        await h.referee.goodbye()

    h.run(play(), timeout=240)
    join_all([offender, opponent])
    assert offender.error is None and opponent.error is None, (offender.error, opponent.error)
    assert not offender.todo, f"never fitted: {sorted(offender.todo)}"
    got = {offender.done[r.request_id]: int(r.reason) for r in offender.rejections()}
    assert len(got) == len(offender.rejections()) == len(misdeeds)
    return got


# --------------------------------------------------------------------- Truco

ASKED = tpb.TrucoAsked


def _asked(*kinds: int) -> Fits:
    return lambda d: d.view.asked in kinds


def _unheld(cards: Any) -> str:
    return next(c for c in ("1E", "1B", "7E", "7O", "4C") if c not in cards)


def _vale_cuatro_fits(d: tpb.TrucoDecision) -> bool:
    calls = [a.call for a in d.legal_actions if a.HasField("call")]
    return (
        d.view.asked == ASKED.TRUCO_ASKED_PLAY
        and bool(calls)
        and (tpb.TRUCO_CALL_VALE_CUATRO not in calls)
    )


def _false_envido(a: pb.Answer, d: tpb.TrucoDecision) -> None:
    a.truco.declare = next(x.declare for x in d.legal_actions if x.HasField("declare")) + 1


TRUCO: dict[str, tuple[Fits, Commit]] = {
    "a Vale Cuatro before any Retruco, asked to play while a call is legal": (
        _vale_cuatro_fits, lambda a, d: setattr(a.truco, "call", tpb.TRUCO_CALL_VALE_CUATRO)),
    "a Quiero when asked to play (no call to answer)": (
        _asked(ASKED.TRUCO_ASKED_PLAY),
        lambda a, d: setattr(a.truco, "answer", tpb.TRUCO_ANSWER_QUIERO)),
    "a card you do not hold, asked to play": (
        _asked(ASKED.TRUCO_ASKED_PLAY),
        lambda a, d: setattr(a.truco, "play", _unheld(d.view.cards))),
    "a card when asked to answer a call": (
        _asked(ASKED.TRUCO_ASKED_ANSWER_TRUCO, ASKED.TRUCO_ASKED_ANSWER_ENVIDO),
        lambda a, d: setattr(a.truco, "play", d.view.cards[0])),
    "a number that is not your envido, asked to declare while a declaration is legal": (
        lambda d: any(x.HasField("declare") for x in d.legal_actions), _false_envido),
    "an index outside the legal list": (
        lambda d: True, lambda a, d: setattr(a, "index", len(d.legal_actions))),
    "a call left at TRUCO_CALL_UNSPECIFIED": (
        lambda d: True, lambda a, d: setattr(a.truco, "call", tpb.TRUCO_CALL_UNSPECIFIED)),
    'a card code such as "8E"': (
        _asked(ASKED.TRUCO_ASKED_PLAY), lambda a, d: setattr(a.truco, "play", "8E")),
    "a truco action with no branch set": (lambda d: True, lambda a, d: a.truco.SetInParent()),
    "a truf action": (lambda d: True, lambda a, d: setattr(a.truf.play, "card", "TD")),
}  # fmt: skip


def test_every_truco_bad_answer_in_the_guide_gets_the_documented_reason(
    host: Callable[..., Hosted],
) -> None:
    table = documented("truco")
    assert set(table) == set(TRUCO), "the guide's Truco rows and this test's differ"
    got = offend(host, "truco", TrucoRules(seats=2, points=15), TRUCO, Caller)
    assert got == table


# --------------------------------------------------------------------- Ruff

PHASE = rpb.RuffPhase


def _phase(phase: int) -> Fits:
    return lambda d: d.view.phase == phase and not d.HasField("discard")


def _rub(d: rpb.RuffDecision) -> bool:
    return d.HasField("discard")


def _not_held(hand: Any) -> str:
    return next(c for c in ("AS", "AH", "AD", "AC", "KS", "KH") if c not in hand)


def _discard(cards: list[str]) -> Commit:
    return lambda a, d: a.ruff.discard.cards.extend(cards)


RUFF: dict[str, tuple[Fits, Commit]] = {
    "an announcement above your true ruff": (
        _phase(PHASE.RUFF_PHASE_ANNOUNCE),
        lambda a, d: setattr(a.ruff, "announce", d.legal_actions[-1].announce + 1)),
    "a card while announcing": (
        _phase(PHASE.RUFF_PHASE_ANNOUNCE), lambda a, d: setattr(a.ruff, "play", d.view.hand[0])),
    "a discard of four cards one of which you do not hold": (
        _rub, lambda a, d: a.ruff.discard.cards.extend([*d.view.hand[:3], _not_held(d.view.hand)])),
    "a discard of three cards": (_rub, lambda a, d: a.ruff.discard.cards.extend(d.view.hand[:3])),
    "a discard naming one card twice": (
        _rub, lambda a, d: a.ruff.discard.cards.extend([d.view.hand[0], *d.view.hand[:3]])),
    "a card while discarding": (_rub, lambda a, d: setattr(a.ruff, "play", d.view.hand[0])),
    "an announcement while discarding": (_rub, lambda a, d: setattr(a.ruff, "announce", 0)),
    "an index past the sets of four while discarding": (
        _rub, lambda a, d: setattr(a, "index", comb(len(d.view.hand), 4))),
    "a card you do not hold, asked to play": (
        _phase(PHASE.RUFF_PHASE_PLAY),
        lambda a, d: setattr(a.ruff, "play", _not_held(d.view.hand))),
    "an announcement when asked to play": (
        _phase(PHASE.RUFF_PHASE_PLAY), lambda a, d: setattr(a.ruff, "announce", 0)),
    'a card code such as "1D"': (lambda d: True, lambda a, d: setattr(a.ruff, "play", "1D")),
    "a ruff action with no branch set": (lambda d: True, lambda a, d: a.ruff.SetInParent()),
    "a truco action": (lambda d: True, lambda a, d: setattr(a.truco, "play", "7O")),
}  # fmt: skip


def test_every_ruff_bad_answer_in_the_guide_gets_the_documented_reason(
    host: Callable[..., Hosted],
) -> None:
    table = documented("ruff")
    assert set(table) == set(RUFF), "the guide's Ruff rows and this test's differ"
    got = offend(host, "ruff", RuffRules(form=Form.SINGLE, seats=2), RUFF, RuffByValue)
    assert got == table


# --------------------------------------------------------------------- Truf


def test_the_truf_table_is_what_the_generated_transcript_recorded() -> None:
    """Each row of the Truf table is a mistake the transcript's bot makes, with the
    reason the real referee answered."""
    rejections = generated("rejections")
    recorded = dict(
        re.findall(
            r"# bot → referee: ([^\n]+)\n.*?\n\n# referee → bot\n.*?reason: (\w+)",
            rejections,
            flags=re.S,
        )  # fmt: skip
    )
    table = {what: REASONS.Name(reason) for what, reason in documented("truf").items()}
    assert table == recorded


# --------------------------------------------------------------------- Hello.games


def test_the_hello_docs_name_every_games_value_and_the_game_mismatch() -> None:
    """A bot built from the guide's Hello table, or the README's steps, says which game
    it plays: both name every registered game's value, and the guide says a referee
    refuses a bot whose games lack its own with FAILED_PRECONDITION."""
    from arena.games.registry import REGISTRY

    guide = GUIDE.read_text(encoding="utf-8")
    games_row = next(r for r in guide.splitlines() if r.startswith("| `games` |"))
    refusal = next(r for r in guide.splitlines() if r.startswith("| `FAILED_PRECONDITION` |"))
    readme = (GUIDE.parent.parent / "README.md").read_text(encoding="utf-8")
    steps = readme.split("### In any language", 1)[1].split("\n### ", 1)[0]
    for name in REGISTRY:
        assert f'`["{name}"]`' in games_row, name
        assert f'`["{name}"]`' in steps, name
    assert "`games`" in steps and "FAILED_PRECONDITION" in steps
    assert "`games` does not list the tournament's game" in refusal
