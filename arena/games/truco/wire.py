"""Truco's wire codec: ``arena.games.truco`` views, actions and hand records <-> the generated
messages of ``truco.proto``.

Built with the generated classes (a Truco decision is a few hundred bytes, asked a few
dozen times a hand; Truf's hand-built fast path is not needed here). Decoding a bot's
``TrucoAction`` checks its form only; whether it is legal is the engine's question.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from arena._proto.truf.arena.v1 import truco_pb2 as pb
from arena.core.errors import ActionFormatError
from arena.games.truco.actions import (
    MAZO,
    NO_QUIERO,
    QUIERO,
    SON_BUENAS,
    Action,
    Answer,
    Call,
    Declare,
    Mazo,
    Play,
    SonBuenas,
    parse_action,
)
from arena.games.truco.calls import EnvidoCall, TrucoCall
from arena.games.truco.cards import Card, codes
from arena.games.truco.view import PlayView, TrickView, TrucoView
from arena.wire.codecs import ProtoCodec
from arena.wire.common import card_error, enum_name

CALL_TO: dict[TrucoCall | EnvidoCall, int] = {
    TrucoCall.TRUCO: pb.TRUCO_CALL_TRUCO,
    TrucoCall.RETRUCO: pb.TRUCO_CALL_RETRUCO,
    TrucoCall.VALE_CUATRO: pb.TRUCO_CALL_VALE_CUATRO,
    EnvidoCall.ENVIDO: pb.TRUCO_CALL_ENVIDO,
    EnvidoCall.REAL_ENVIDO: pb.TRUCO_CALL_REAL_ENVIDO,
    EnvidoCall.FALTA_ENVIDO: pb.TRUCO_CALL_FALTA_ENVIDO,
}
CALL_FROM = {v: k for k, v in CALL_TO.items()}
ASKED_TO = {
    "play": pb.TRUCO_ASKED_PLAY,
    "answer-truco": pb.TRUCO_ASKED_ANSWER_TRUCO,
    "answer-envido": pb.TRUCO_ASKED_ANSWER_ENVIDO,
    "declare": pb.TRUCO_ASKED_DECLARE,
    "over": pb.TRUCO_ASKED_OVER,
}
KIND_TO = {"team": pb.TRUCO_HAND_KIND_TEAM, "duels": pb.TRUCO_HAND_KIND_DUELS}
ENVIDO_STATE_TO = {
    "none": pb.TRUCO_ENVIDO_STATE_NONE,
    "called": pb.TRUCO_ENVIDO_STATE_CALLED,
    "declaring": pb.TRUCO_ENVIDO_STATE_DECLARING,
    "refused": pb.TRUCO_ENVIDO_STATE_REFUSED,
    "settled": pb.TRUCO_ENVIDO_STATE_SETTLED,
}
COUNT_TO = {"seed": pb.TRUCO_ENVIDO_COUNT_SEED, "traditional": pb.TRUCO_ENVIDO_COUNT_TRADITIONAL}
ENDED_TO = {
    "tricks": pb.TRUCO_ENDED_TRICKS,
    "no-quiero": pb.TRUCO_ENDED_NO_QUIERO,
    "mazo": pb.TRUCO_ENDED_MAZO,
}
ASKED_FROM, KIND_FROM, ENVIDO_STATE_FROM, COUNT_FROM, ENDED_FROM = (
    {v: k for k, v in table.items()}
    for table in (ASKED_TO, KIND_TO, ENVIDO_STATE_TO, COUNT_TO, ENDED_TO)
)

_ACTIONS = "expected exactly one of play (a card code), call, answer, declare, son_buenas, mazo"


# -------------------------------------------------------------------- actions


def fill_action(msg: pb.TrucoAction, action: Action) -> None:
    """Set ``msg`` (an empty ``TrucoAction``) to ``action``."""
    if isinstance(action, Play):
        msg.play = action.card.code
    elif isinstance(action, Call):
        msg.call = CALL_TO[action.call]  # type: ignore[assignment]
    elif isinstance(action, Answer):
        msg.answer = pb.TRUCO_ANSWER_QUIERO if action.accept else pb.TRUCO_ANSWER_NO_QUIERO
    elif isinstance(action, Declare):
        msg.declare = action.points
    elif isinstance(action, SonBuenas):
        msg.son_buenas.SetInParent()
    elif isinstance(action, Mazo):
        msg.mazo.SetInParent()
    else:
        raise TypeError(f"not a Truco action: {action!r}")


def action_to_proto(action: Action) -> pb.TrucoAction:
    msg = pb.TrucoAction()
    fill_action(msg, action)
    return msg


def action_from_proto(msg: pb.TrucoAction) -> Action:
    """The engine action of a bot's ``TrucoAction``, or ``ActionFormatError`` saying what
    is wrong with its form (an unknown card, no call or answer set...)."""
    kind = msg.WhichOneof("action")
    if kind == "play":
        try:
            return Play(Card.parse(msg.play))
        except ValueError as exc:
            detail = card_error(msg.play, exc)
            raise ActionFormatError(f"cannot read Truco action: play: {detail}") from None
    if kind == "call":
        call = CALL_FROM.get(msg.call)
        if call is None:
            raise ActionFormatError(
                f"cannot read Truco action: call is {enum_name(pb.TrucoCall, msg.call)}; "
                "expected one of TRUCO_CALL_TRUCO .. TRUCO_CALL_FALTA_ENVIDO"
            )
        return Call(call)
    if kind == "answer":
        if msg.answer == pb.TRUCO_ANSWER_QUIERO:
            return QUIERO
        if msg.answer == pb.TRUCO_ANSWER_NO_QUIERO:
            return NO_QUIERO
        raise ActionFormatError(
            f"cannot read Truco action: answer is {enum_name(pb.TrucoAnswer, msg.answer)}; "
            "expected TRUCO_ANSWER_QUIERO or TRUCO_ANSWER_NO_QUIERO"
        )
    if kind == "declare":
        return Declare(msg.declare)
    if kind == "son_buenas":
        return SON_BUENAS
    if kind == "mazo":
        return MAZO
    raise ActionFormatError(f"cannot read Truco action: no action set ({_ACTIONS})")


# -------------------------------------------------------------------- views


def _fill_trick(msg: pb.TrucoTrick, trick: TrickView) -> None:
    msg.leader = trick.leader
    for seat, card in trick.cards:
        msg.cards.add(seat=seat, card=card.code)
    if trick.winner is not None:
        msg.winner = trick.winner


def _fill_play(msg: pb.TrucoPlay, play: PlayView) -> None:
    msg.seats.extend(play.seats)
    msg.mano = play.mano
    for seat, action in play.log:
        entry = msg.log.add(seat=seat)
        fill_action(entry.action, action)
    for trick in play.tricks:
        _fill_trick(msg.tricks.add(), trick)
    for seat, card in play.trick:
        msg.trick.add(seat=seat, card=card.code)
    msg.stake = play.stake
    if play.truco_call is not None:
        msg.truco_call = CALL_TO[TrucoCall(play.truco_call)]  # type: ignore[assignment]
    if play.raise_team is not None:
        msg.raise_team = play.raise_team
    msg.envido_calls.extend(CALL_TO[EnvidoCall(c)] for c in play.envido_calls)  # type: ignore[misc]
    msg.envido_state = ENVIDO_STATE_TO[play.envido_state]
    for seat, points in play.declarations:
        decl = msg.declarations.add(seat=seat)
        if points is not None:
            decl.points = points
    msg.folded.extend(play.folded)
    if play.points is not None:
        msg.points.extend(play.points)
    if play.shown is not None:
        msg.shown.seat = play.shown[0]
        msg.shown.cards.extend(codes(play.shown[1]))


def fill_view(msg: pb.TrucoView, view: TrucoView) -> None:
    """Fill ``msg`` (an empty ``TrucoView``) with a seat's view: every field of
    ``arena.games.truco.view.TrucoView`` (ruling R14), nothing more."""
    msg.match_id = view.match_id
    msg.hand = view.hand_no
    msg.seat = view.seat
    msg.names.extend(view.names)
    for team in view.teams:
        msg.teams.add().seats.extend(team)
    msg.target = view.target
    msg.envido_count = COUNT_TO[view.envido_count]
    msg.scores.extend(view.scores)
    msg.dealer = view.dealer
    msg.kind = KIND_TO[view.kind]
    msg.to_act.extend(view.to_act)
    msg.asked = ASKED_TO[view.asked]
    msg.cards.extend(codes(view.cards))
    msg.dealt.extend(codes(view.dealt))
    for play in view.plays:
        _fill_play(msg.plays.add(), play)


def fill_decision(msg: pb.TrucoDecision, view: TrucoView, legal: Iterable[Action]) -> None:
    fill_view(msg.view, view)
    for action in legal:
        fill_action(msg.legal_actions.add(), action)


def decision_bytes(view: TrucoView, legal: Iterable[Action]) -> bytes:
    """A serialized ``TrucoDecision``: the seat's view and its legal actions in order."""
    msg = pb.TrucoDecision()
    fill_decision(msg, view, legal)
    return msg.SerializeToString()


def _cards(values: Iterable[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in values)


def _trick_from(msg: pb.TrucoTrick) -> TrickView:
    return TrickView(
        msg.leader,
        tuple((p.seat, Card.parse(p.card)) for p in msg.cards),
        msg.winner if msg.HasField("winner") else None,
    )


def _play_from(msg: pb.TrucoPlay) -> PlayView:
    return PlayView(
        seats=tuple(msg.seats),
        mano=msg.mano,
        log=tuple((e.seat, action_from_proto(e.action)) for e in msg.log),
        tricks=tuple(_trick_from(t) for t in msg.tricks),
        trick=tuple((p.seat, Card.parse(p.card)) for p in msg.trick),
        stake=msg.stake,
        truco_call=CALL_FROM[msg.truco_call].value if msg.truco_call else None,
        raise_team=msg.raise_team if msg.HasField("raise_team") else None,
        envido_calls=tuple(CALL_FROM[c].value for c in msg.envido_calls),
        envido_state=ENVIDO_STATE_FROM[msg.envido_state],
        declarations=tuple(
            (d.seat, d.points if d.HasField("points") else None) for d in msg.declarations
        ),
        folded=tuple(msg.folded),
        points=(msg.points[0], msg.points[1]) if msg.points else None,
        shown=(msg.shown.seat, _cards(msg.shown.cards)) if msg.HasField("shown") else None,
    )


def view_from_proto(msg: pb.TrucoView) -> TrucoView:
    """The ``TrucoView`` of a message, equal to the one the referee's engine built.
    Raises ``ValueError`` (or ``KeyError`` for an unknown enum value) if unreadable."""
    return TrucoView(
        game="truco",
        match_id=msg.match_id,
        hand_no=msg.hand,
        seat=msg.seat,
        names=tuple(msg.names),
        teams=tuple(tuple(t.seats) for t in msg.teams),
        target=msg.target,
        envido_count=COUNT_FROM[msg.envido_count],
        scores=(msg.scores[0], msg.scores[1]),
        dealer=msg.dealer,
        kind=KIND_FROM[msg.kind],
        to_act=tuple(msg.to_act),
        asked=ASKED_FROM[msg.asked],
        cards=_cards(msg.cards),
        dealt=_cards(msg.dealt),
        plays=tuple(_play_from(p) for p in msg.plays),
    )


def decision_from_bytes(data: bytes) -> tuple[TrucoView, tuple[Action, ...]]:
    """The view and the legal actions of a serialized ``TrucoDecision``."""
    msg = pb.TrucoDecision.FromString(data)
    return view_from_proto(msg.view), tuple(action_from_proto(a) for a in msg.legal_actions)


# ------------------------------------------------------------------ hand results


def _fill_scored(msg: pb.TrucoScored, team: int, points: int) -> None:
    msg.team, msg.points = team, points


def _fill_play_result(msg: pb.TrucoPlayResult, rec: Mapping[str, Any]) -> None:
    msg.seats.extend(rec["seats"])
    msg.mano = rec["mano"]
    for seat, text in rec["actions"]:
        fill_action(msg.actions.add(seat=seat).action, parse_action(text))
    for t in rec["tricks"]:
        trick = msg.tricks.add(leader=t["leader"])
        for seat, code in t["cards"]:
            trick.cards.add(seat=seat, card=code)
        if t["winner"] is not None:
            trick.winner = t["winner"]
    if rec["ended"] is not None:
        msg.ended = ENDED_TO[rec["ended"]]
    if rec["trick_winner"] is not None:
        msg.trick_winner = rec["trick_winner"]
    msg.stake = rec["stake"]
    if rec["truco"] is not None:
        _fill_scored(msg.truco, *rec["truco"])
    envido = rec["envido"]
    if envido is not None:
        env = msg.envido
        env.calls.extend(CALL_TO[EnvidoCall(c)] for c in envido["calls"])  # type: ignore[misc]
        env.result = ENVIDO_STATE_TO[envido["result"]]
        for seat, points in envido["declarations"]:
            decl = env.declarations.add(seat=seat)
            if points is not None:
                decl.points = points
        if envido["team"] is not None:
            _fill_scored(env.scored, envido["team"], envido["points"])
        if envido["shown"] is not None:
            env.shown.seat = envido["shown"][0]
            env.shown.cards.extend(envido["shown"][1])
    msg.folded.extend(rec["folded"])
    msg.points.extend(rec["points"])


def fill_hand_result(msg: pb.TrucoHandResult, record: Mapping[str, Any]) -> None:
    """Fill ``msg`` from a hand's replay record (``arena.games.truco.replay.hand_record``): its
    public part only (``public_hand``): never the unplayed cards (R14)."""
    try:
        msg.dealer = record["dealer"]
        msg.mano = record["mano"]
        msg.kind = KIND_TO[record["kind"]]
        msg.scores_before.extend(record["scores_before"])
        for play in record["plays"]:
            _fill_play_result(msg.plays.add(), play)
        msg.points.extend(record["points"])
        msg.scores.extend(record["scores"])
        msg.totals.extend(record["totals"])
    except KeyError as exc:
        raise ValueError(f"not a Truco hand record: no or unknown {exc}") from None


def _declarations(msgs: Sequence[pb.TrucoDeclaration]) -> list[list[int | None]]:
    return [[d.seat, d.points if d.HasField("points") else None] for d in msgs]


def _play_result_from(msg: pb.TrucoPlayResult) -> dict[str, Any]:
    envido: dict[str, Any] | None = None
    if msg.HasField("envido"):
        env = msg.envido
        scored = env.HasField("scored")
        envido = {
            "calls": [CALL_FROM[c].value for c in env.calls],
            "result": ENVIDO_STATE_FROM[env.result],
            "declarations": _declarations(env.declarations),
            "team": env.scored.team if scored else None,
            "points": env.scored.points if scored else None,
            "shown": [env.shown.seat, list(env.shown.cards)] if env.HasField("shown") else None,
        }
    return {
        "seats": list(msg.seats),
        "mano": msg.mano,
        "actions": [[a.seat, str(action_from_proto(a.action))] for a in msg.actions],
        "tricks": [
            {
                "leader": t.leader,
                "cards": [[p.seat, p.card] for p in t.cards],
                "winner": t.winner if t.HasField("winner") else None,
            }
            for t in msg.tricks
        ],
        "ended": ENDED_FROM.get(msg.ended),
        "trick_winner": msg.trick_winner if msg.HasField("trick_winner") else None,
        "stake": msg.stake,
        "truco": [msg.truco.team, msg.truco.points] if msg.HasField("truco") else None,
        "envido": envido,
        "folded": list(msg.folded),
        "points": list(msg.points),
    }


def hand_result_from_proto(msg: pb.TrucoHandResult, deal: int) -> dict[str, Any]:
    """What a bot's ``deal_over`` hook gets: ``arena.games.truco.replay.public_hand`` of the
    record, rebuilt from the message (``deal``: the DealResult's)."""
    return {
        "deal": deal,
        "dealer": msg.dealer,
        "mano": msg.mano,
        "kind": KIND_FROM[msg.kind],
        "scores_before": list(msg.scores_before),
        "plays": [_play_result_from(p) for p in msg.plays],
        "points": list(msg.points),
        "scores": list(msg.scores),
        "totals": list(msg.totals),
    }


CODEC = ProtoCodec(  # this game's codec, found through the registry
    game="truco",
    field=21,
    deal_field="hand_no",
    decision_bytes=decision_bytes,
    decision_from_bytes=decision_from_bytes,
    action_from_proto=action_from_proto,
    fill_action=fill_action,
    fill_result=fill_hand_result,
    result_from_proto=hand_result_from_proto,
)
