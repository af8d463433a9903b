"""The replay record of a finished Truf deal, built from the engine's events alone (the
format: ``docs/results.md``, schema 1). The match (``state``) builds it as each deal
ends; ``replay`` reads records back and plays them through the engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.core.cards import CODES, SUIT_LETTERS
from arena.games.truf.actions import Bid, Declare
from arena.games.truf.events import (
    BidsRevealed,
    CardPlayed,
    DealScored,
    DealStarted,
    Event,
    ModeSet,
    TrickClosed,
)
from arena.games.truf.rules import TrufRules

SCHEMA = 1


def bid_to_json(bid: Bid | Declare) -> Any:
    if isinstance(bid, Bid):
        return CODES[bid.card]
    return {"cards": [CODES[c] for c in bid.cards], "op": bid.op.value}


def deal_record(
    rules: TrufRules, match_id: str, names: Sequence[str], events: Sequence[Event]
) -> dict[str, Any]:
    """The replay record of one finished deal, from that deal's events."""
    rec: dict[str, Any] = {"schema": SCHEMA, "game": "truf", "variant": rules.variant.value}
    if not rules.is_target:
        rec["scoring"] = {"method": rules.scoring.value, "multiplier": rules.multiplier}
    tricks: list[dict[str, Any]] = []
    chosen = False
    for e in events:
        kind = type(e)
        if kind is CardPlayed:  # most events; the tricks record the cards
            continue
        if kind is TrickClosed:
            assert isinstance(e, TrickClosed)
            (s0, c0), (s1, c1), (s2, c2), (s3, c3) = e.cards  # four cards a trick (C1)
            cards = [[s0, CODES[c0]], [s1, CODES[c1]], [s2, CODES[c2]], [s3, CODES[c3]]]
            tricks.append({"leader": e.leader, "cards": cards, "winner": e.winner})
        elif kind is DealStarted:
            assert isinstance(e, DealStarted)
            rec.update(
                match=match_id,
                deal=e.deal,
                seats=list(names),
                dealer=e.dealer,
                direction=e.direction,
                hands=[[*map(CODES.__getitem__, hand)] for hand in e.hands],
                redeals=e.redeals,
                deal_source=e.source,
            )
        elif kind is BidsRevealed:
            assert isinstance(e, BidsRevealed)
            rec.update(
                bids=[bid_to_json(b) for b in e.bids],
                bid_total=e.total,
                high_bidder=e.high_bidder,
                trump=None if e.trump is None else SUIT_LETTERS[e.trump],
            )
        elif kind is ModeSet:
            assert isinstance(e, ModeSet)
            chosen = e.chosen
            rec.update(mode=e.mode.value, mode_chosen=e.chosen, final_bids=list(e.final_bids))
        elif kind is DealScored:
            assert isinstance(e, DealScored)
            rec.update(
                tricks=tricks,
                tricks_won=list(e.tricks_won),
                scores=list(e.scores),
                totals=list(e.totals),
            )
    rec["mode_chosen"] = chosen
    rec["faults"] = []
    return rec
