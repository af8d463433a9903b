"""Ruff and Trump's wire codec: ``arena.games.ruff`` views, actions and deal records <-> the
generated messages of ``ruff.proto``.

Built with the generated classes, as Truco's. A discard is not listed: any four cards of
the rubber's hand are legal (ruling F5), 1820 sets of a 16-card hand, so the decision says
so (``RuffDecision.discard``) and both sides know the list as the hand's sets of four in
lexicographic order (``discards_of``), which is the engine's order too. Decoding a bot's
``RuffAction`` checks its form only; whether it is legal is the engine's question.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from math import comb
from typing import Any

from arena._proto.truf.arena.v1 import ruff_pb2 as pb
from arena.core.cards import SUIT_LETTERS, Card, CardError
from arena.core.errors import ActionFormatError
from arena.games.ruff.actions import Action, Announce, Discard, Play
from arena.games.ruff.discards import Discards
from arena.games.ruff.rules import RUB_CARDS
from arena.games.ruff.view import RuffView, ShownRuff, Trick
from arena.wire.codecs import ProtoCodec
from arena.wire.common import card_error

FORM_TO = {"double": pb.RUFF_FORM_DOUBLE, "single": pb.RUFF_FORM_SINGLE}
PHASE_TO = {
    "announce": pb.RUFF_PHASE_ANNOUNCE,
    "rub": pb.RUFF_PHASE_RUB,
    "play": pb.RUFF_PHASE_PLAY,
    "over": pb.RUFF_PHASE_OVER,
}
ENDED_TO = {"played": pb.RUFF_ENDED_PLAYED, "ruff": pb.RUFF_ENDED_RUFF}
FORM_FROM, PHASE_FROM, ENDED_FROM = (
    {v: k for k, v in table.items()} for table in (FORM_TO, PHASE_TO, ENDED_TO)
)

_ACTIONS = "expected exactly one of announce (a number), discard (four cards), play (a card)"


def discards_of(hand: Sequence[Card]) -> Discards:
    """Every legal discard of ``hand``: its sets of four in lexicographic order of their
    positions in card order, the order an index into a discard decision counts (built
    only when read: 20475 sets of a 28-card hand)."""
    return Discards(hand)


# -------------------------------------------------------------------- actions


def fill_action(msg: pb.RuffAction, action: Action) -> None:
    """Set ``msg`` (an empty ``RuffAction``) to ``action``."""
    if isinstance(action, Announce):
        msg.announce = action.number
    elif isinstance(action, Discard):
        msg.discard.cards.extend(c.code for c in action.cards)
    elif isinstance(action, Play):
        msg.play = action.card.code
    else:
        raise TypeError(f"not a Ruff action: {action!r}")


def action_to_proto(action: Action) -> pb.RuffAction:
    msg = pb.RuffAction()
    fill_action(msg, action)
    return msg


def _card(text: str, where: str) -> Card:
    try:
        return Card.parse(text)
    except CardError as exc:
        detail = card_error(text, exc)
        raise ActionFormatError(f"cannot read Ruff action: {where}: {detail}") from None


def action_from_proto(msg: pb.RuffAction) -> Action:
    """The engine action of a bot's ``RuffAction``, or ``ActionFormatError`` saying what
    is wrong with its form (an unknown card, three discards, nothing set...)."""
    kind = msg.WhichOneof("action")
    if kind == "announce":
        return Announce(msg.announce)
    if kind == "play":
        return Play(_card(msg.play, "play"))
    if kind == "discard":
        if len(msg.discard.cards) != RUB_CARDS:  # ruling F5; never echo a bot's padding
            raise ActionFormatError(
                f"cannot read Ruff action: discard: {RUB_CARDS} different cards, not "
                f"{len(msg.discard.cards)}"
            )
        cards = [_card(c, "discard") for c in msg.discard.cards]
        try:
            return Discard(tuple(cards))
        except ActionFormatError as exc:
            raise ActionFormatError(f"cannot read Ruff action: discard: {exc}") from None
    raise ActionFormatError(f"cannot read Ruff action: no action set ({_ACTIONS})")


# -------------------------------------------------------------------- views


def _codes(cards: Iterable[Card]) -> list[str]:
    return [c.code for c in cards]


def _cards(codes: Iterable[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in codes)


def _fill_trick(msg: pb.RuffTrick, trick: Trick) -> None:
    msg.leader, msg.winner = trick.leader, trick.winner
    for seat, card in trick.cards:
        msg.cards.add(seat=seat, card=card.code)


def _fill_shown(msg: pb.RuffShown, seat: int, suit: str, cards: Iterable[str]) -> None:
    msg.seat, msg.suit = seat, suit
    msg.cards.extend(cards)


def fill_view(msg: pb.RuffView, view: RuffView) -> None:
    """Fill ``msg`` (an empty ``RuffView``) with a seat's view: every field of
    ``arena.games.ruff.view.RuffView`` (ruling F11), nothing more."""
    msg.match_id = view.match_id
    msg.deal = view.deal
    msg.seat = view.seat
    msg.names.extend(view.names)
    msg.form = FORM_TO[view.form]
    for team in view.teams:
        msg.sides.add().seats.extend(team)
    msg.cards_per_seat = view.hand_size
    msg.set_points = view.set_points
    msg.scores.extend(view.scores)
    msg.dealer = view.dealer
    msg.eldest = view.eldest
    msg.turned = view.turned.code
    msg.trump = SUIT_LETTERS[view.trump]
    msg.to_act.extend(view.to_act)
    msg.phase = PHASE_TO[view.phase]
    msg.hand.extend(_codes(view.hand))
    msg.dealt.extend(_codes(view.dealt))
    for seat, number in view.announcements:
        msg.announcements.add(seat=seat, ruff=number)
    if view.ruff_winner is not None:
        msg.ruff_winner = view.ruff_winner
    if view.rubber is not None:
        msg.rubber = view.rubber
    if view.taken is not None:  # the rubber's own view only (F11)
        msg.taken.extend(_codes(view.taken))
    if view.discards is not None:
        msg.discards.extend(_codes(view.discards))
    if view.shown is not None:
        shown = view.shown
        _fill_shown(msg.shown, shown.seat, SUIT_LETTERS[shown.suit], _codes(shown.cards))
    for trick in view.tricks:
        _fill_trick(msg.tricks.add(), trick)
    for seat, card in view.trick:
        msg.trick.add(seat=seat, card=card.code)
    msg.cards_won.extend(view.cards_won)


def fill_decision(msg: pb.RuffDecision, view: RuffView, legal: Sequence[Action]) -> None:
    """The view and the legal actions; for a discard, only that four are to be chosen
    (``discards_of(view.hand)`` is the list, F5)."""
    fill_view(msg.view, view)
    if legal and isinstance(legal[0], Discard):
        if len(legal) != comb(len(view.hand), RUB_CARDS):
            raise ValueError(
                f"{len(legal)} legal discards from {len(view.hand)} cards: the wire's "
                f"discard decision lists all {comb(len(view.hand), RUB_CARDS)}"
            )
        msg.discard.count = RUB_CARDS
        return
    for action in legal:
        fill_action(msg.legal_actions.add(), action)


def decision_bytes(view: RuffView, legal: Sequence[Action]) -> bytes:
    """A serialized ``RuffDecision``: the seat's view and its legal actions in order."""
    msg = pb.RuffDecision()
    fill_decision(msg, view, legal)
    return msg.SerializeToString()


def _shown_from(msg: pb.RuffShown) -> ShownRuff:
    return ShownRuff(msg.seat, SUIT_LETTERS.index(msg.suit), _cards(msg.cards))


def view_from_proto(msg: pb.RuffView) -> RuffView:
    """The ``RuffView`` of a message, equal to the one the referee's engine built.
    Raises ``ValueError`` (or ``KeyError`` for an unknown enum value) if unreadable."""
    return RuffView(
        game="ruff",
        match_id=msg.match_id,
        deal=msg.deal,
        seat=msg.seat,
        names=tuple(msg.names),
        form=FORM_FROM[msg.form],
        teams=tuple(tuple(side.seats) for side in msg.sides),
        set_points=msg.set_points,
        hand_size=msg.cards_per_seat,
        dealer=msg.dealer,
        eldest=msg.eldest,
        phase=PHASE_FROM[msg.phase],
        to_act=tuple(msg.to_act),
        hand=_cards(msg.hand),
        dealt=_cards(msg.dealt),
        turned=Card.parse(msg.turned),
        trump=SUIT_LETTERS.index(msg.trump),
        announcements=tuple((a.seat, a.ruff) for a in msg.announcements),
        ruff_winner=msg.ruff_winner if msg.HasField("ruff_winner") else None,
        rubber=msg.rubber if msg.HasField("rubber") else None,
        taken=_cards(msg.taken) if msg.taken else None,
        discards=_cards(msg.discards) if msg.discards else None,
        shown=_shown_from(msg.shown) if msg.HasField("shown") else None,
        tricks=tuple(
            Trick(t.leader, tuple((p.seat, Card.parse(p.card)) for p in t.cards), t.winner)
            for t in msg.tricks
        ),
        trick=tuple((p.seat, Card.parse(p.card)) for p in msg.trick),
        cards_won=tuple(msg.cards_won),
        scores=tuple(msg.scores),
    )


def decision_from_bytes(data: bytes) -> tuple[RuffView, Sequence[Action]]:
    """The view and the legal actions of a serialized ``RuffDecision`` (for a discard,
    every set of four of the hand, ``discards_of``)."""
    msg = pb.RuffDecision.FromString(data)
    view = view_from_proto(msg.view)
    if msg.HasField("discard"):
        return view, discards_of(view.hand)
    return view, tuple(action_from_proto(a) for a in msg.legal_actions)


# ------------------------------------------------------------------ deal results


def fill_deal_result(msg: pb.RuffDealResult, record: Mapping[str, Any]) -> None:
    """Fill ``msg`` from a deal's replay record (``arena.games.ruff.replay``): its public part
    only (``PUBLIC_DEAL_KEYS``), the same for every seat (F11)."""
    try:
        msg.dealer = record["dealer"]
        msg.eldest = record["eldest"]
        msg.turned = record["turned"]
        msg.ended = ENDED_TO[record["ended"]]
        for seat, number in record["announcements"]:
            msg.announcements.add(seat=seat, ruff=number)
        msg.ruff_winner = record["ruff_winner"]
        if record["rubber"] is not None:
            msg.rubber = record["rubber"]
        shown = record["shown"]
        if shown is not None:
            _fill_shown(msg.shown, shown["seat"], shown["suit"], shown["cards"])
        for t in record["tricks"]:
            trick = msg.tricks.add(leader=t["leader"], winner=t["winner"])
            for seat, code in t["cards"]:
                trick.cards.add(seat=seat, card=code)
        msg.cards_won.extend(record["cards_won"])
        msg.ruff_points.extend(record["ruff_points"])
        msg.card_points.extend(record["card_points"])
        msg.points.extend(record["points"])
        msg.scores_before.extend(record["scores_before"])
        msg.scores.extend(record["scores"])
        msg.totals.extend(record["totals"])
    except KeyError as exc:
        raise ValueError(f"not a Ruff deal record: no or unknown {exc}") from None


def deal_result_from_proto(msg: pb.RuffDealResult, deal: int) -> dict[str, Any]:
    """What a bot's ``deal_over`` hook gets: ``arena.games.ruff.replay.public_deal``, rebuilt from
    the message (``deal``: the DealResult's)."""
    shown = msg.shown if msg.HasField("shown") else None
    return {
        "deal": deal,
        "dealer": msg.dealer,
        "eldest": msg.eldest,
        "turned": msg.turned,
        "trump": msg.turned[-1:],
        "ended": ENDED_FROM[msg.ended],
        "announcements": [[a.seat, a.ruff] for a in msg.announcements],
        "ruff_winner": msg.ruff_winner,
        "rubber": msg.rubber if msg.HasField("rubber") else None,
        "shown": (
            {"seat": shown.seat, "suit": shown.suit, "cards": list(shown.cards)}
            if shown is not None
            else None
        ),
        "tricks": [
            {"leader": t.leader, "cards": [[p.seat, p.card] for p in t.cards], "winner": t.winner}
            for t in msg.tricks
        ],
        "cards_won": list(msg.cards_won),
        "ruff_points": list(msg.ruff_points),
        "card_points": list(msg.card_points),
        "points": list(msg.points),
        "scores_before": list(msg.scores_before),
        "scores": list(msg.scores),
        "totals": list(msg.totals),
    }


CODEC = ProtoCodec(  # this game's codec, found through the registry
    game="ruff",
    field=22,
    deal_field="deal",
    decision_bytes=decision_bytes,
    decision_from_bytes=decision_from_bytes,
    action_from_proto=action_from_proto,
    fill_action=fill_action,
    fill_result=fill_deal_result,
    result_from_proto=deal_result_from_proto,
)
