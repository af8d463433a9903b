"""The replay log: one JSON object per deal, built from the engine's events alone.

The format is documented in ``docs/results.md`` (schema 1). ``replay_match`` runs
stored records back through the engine and reports every field that differs, so
any reader can audit a results directory against the rulings.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from arena.core.cards import Card, mask_of
from arena.core.replaycheck import (
    ReplayMismatch,
    check_envelope,
    check_values,
    group_by_match,
    replay_lines,
    replay_records,
    rotation_of,
)
from arena.core.replaycheck import is_int as _is_int
from arena.core.replaycheck import is_str_list as _is_str_list
from arena.games.truf.actions import BIDS, MODES, PLAYS, Action, Bid, Declare, Mode, declare
from arena.games.truf.errors import ActionFormatError
from arena.games.truf.record import SCHEMA, deal_record
from arena.games.truf.rules import ScoringMethod, TrufRules, Variant

# Fields every reader may rely on (the contract); we add a few more.
REQUIRED_FIELDS = (
    "schema", "game", "variant", "match", "deal", "seats", "dealer", "direction", "hands",
    "bids", "high_bidder", "trump", "mode", "final_bids", "tricks", "tricks_won", "scores",
    "totals", "faults",
)  # fmt: skip


def bid_from_json(data: Any) -> Bid | Declare:
    if isinstance(data, str):
        return BIDS[Card.parse(data)]
    if isinstance(data, Mapping) and isinstance(data.get("cards"), list):
        return declare([Card.parse(c) for c in data["cards"]], str(data.get("op")))
    raise ActionFormatError(f"not a bid: {data!r}")


# The public summary of a finished deal that a bot's ``deal_over`` hook gets, in-process
# and through the SDK alike (there, decoded from the DealResult message): the replay
# record without what only the log needs (ids, the dealt hands, faults, versions).
# Each key is one the public record (public.py) shows as it is: what is public is decided
# there, and tests/test_public_record.py keeps the two in step.
PUBLIC_DEAL_KEYS = (
    "variant",
    "dealer",
    "direction",
    "bids",
    "bid_total",
    "high_bidder",
    "trump",
    "mode",
    "mode_chosen",
    "final_bids",
    "tricks",
    "tricks_won",
    "scores",
    "totals",
)


def public_deal(record: Mapping[str, Any]) -> dict[str, Any]:
    """A deal's public summary (``PUBLIC_DEAL_KEYS``), a fresh copy: nothing a bot does
    to it reaches the replay log."""
    return {
        key: copy.deepcopy(record[key]) if isinstance(record[key], list) else record[key]
        for key in PUBLIC_DEAL_KEYS
    }


def seat_outcomes(record: Mapping[str, Any]) -> list[tuple[int, int | None, int | None]]:
    """Per seat: the deal's score, its final bid (or target) and the tricks it took."""
    return [
        (int(score), int(bid), int(took))
        for score, bid, took in zip(
            record["scores"], record["final_bids"], record["tricks_won"], strict=True
        )
    ]


def rules_of(record: Mapping[str, Any], deals: int) -> TrufRules:
    variant = Variant(record["variant"])
    if variant is Variant.TARGET:
        return TrufRules(variant=variant, deals=deals)
    scoring = record.get("scoring") or {}
    return TrufRules(
        variant=variant,
        scoring=ScoringMethod(str(scoring.get("method", "1"))),
        multiplier=int(scoring.get("multiplier", 2)),
        deals=deals,
    )


def actions_of(record: Mapping[str, Any]) -> list[tuple[int, Action]]:
    """The decisions of a deal, in an order the engine accepts."""
    out: list[tuple[int, Action]] = [(s, bid_from_json(b)) for s, b in enumerate(record["bids"])]
    if record.get("mode_chosen"):
        out.append((int(record["high_bidder"]), MODES[Mode(record["mode"])]))
    for trick in record["tricks"]:
        for seat, code in trick["cards"]:
            out.append((int(seat), PLAYS[Card.parse(code)]))
    return out


COMPARED = (
    "dealer", "direction", "hands", "bids", "high_bidder", "trump", "mode", "final_bids",
    "tricks", "tricks_won", "scores", "totals",
)  # fmt: skip


def replay_match(records: Sequence[Mapping[str, Any]]) -> int:
    """Play one match's stored deals (in order, starting at deal 1) back through the
    engine and check every compared field. Returns the number of deals checked;
    raises ``ReplayMismatch`` naming the match, deal and field that differs."""
    from arena.games.truf.state import DealSpec, TrufMatch

    if not records:
        return 0
    first = records[0]
    match_id = str(first["match"])
    specs = []
    for rec in records:
        hands = tuple(tuple(Card.parse(c) for c in h) for h in rec["hands"])
        # C7 is recomputed by the engine for seeded deals after the first, and compared.
        keep = rec["deal"] == 1 or not str(rec.get("deal_source", "seed")).startswith("seed")
        specs.append(DealSpec(hands, int(rec["dealer"]) if keep else None, "replay"))
    match = TrufMatch(
        rules_of(first, len(records)), match_id=match_id, names=first["seats"], deals=specs
    )
    return replay_records(match, records, actions_of, COMPARED)


def check_dealt(records: Sequence[Mapping[str, Any]], key: str) -> int:
    """Check that each of one match's deals logged as dealt from the seed holds the hands
    (and deal 1 the dealer) that the match key gives: the run's secret reproduces its
    deals. Returns the number of deals checked; raises ``ReplayMismatch``."""
    from arena.games.truf.state import first_dealer, seeded_deal

    checked = 0
    for rec in records:
        if rec.get("deal_source", "seed") != "seed":
            continue
        where = f"match {rec['match']} deal {rec['deal']}"
        turn = rotation_of(rec, where, len(rec["hands"]))  # a duplicate deal's (DuplicateGame)
        masks, _ = seeded_deal(key, int(rec["deal"]))
        masks = masks[turn:] + masks[:turn]
        logged = [mask_of(Card.parse(c) for c in hand) for hand in rec["hands"]]
        if logged != masks:
            raise ReplayMismatch(f"{where}: the hands are not the ones the run's secret deals")
        if rec["deal"] == 1 and rec["dealer"] != (first_dealer(key) - turn) % len(masks):
            raise ReplayMismatch(f"{where}: the dealer is not the one the run's secret draws")
        checked += 1
    return checked


def check_deal_line(rec: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` naming the first field of a replay record that a replay
    cannot read (its values are judged by the replay itself)."""
    check_envelope(rec, REQUIRED_FIELDS)
    checks: tuple[tuple[str, bool, str], ...] = (
        ("variant", isinstance(rec["variant"], str), "a string"),
        ("dealer", _is_int(rec["dealer"]), "a seat number"),
        ("hands", isinstance(rec["hands"], list) and all(map(_is_str_list, rec["hands"])),
         "a list of lists of card codes"),
        ("bids", isinstance(rec["bids"], list), "a list"),
        ("tricks", isinstance(rec["tricks"], list) and all(
            isinstance(t, dict) and isinstance(t.get("cards"), list)
            and all(isinstance(c, list) and len(c) == 2 and _is_int(c[0])
                    and isinstance(c[1], str) for c in t["cards"])
            for t in rec["tricks"]), "a list of tricks, each with its [seat, card] pairs"),
        ("scoring", isinstance(rec.get("scoring", {}), dict), "an object"),
    )  # fmt: skip
    check_values(rec, checks)


def replay_log(lines: Sequence[tuple[int, Mapping[str, Any]]], name: str) -> tuple[int, int]:
    """Replay a whole ``replays.jsonl`` given as (line number, record) pairs; returns
    (deals, matches). A record a replay cannot read raises ``ValueError`` and one the
    engine does not reproduce ``ReplayMismatch``, each naming ``name`` and the line."""
    return replay_lines(lines, name, check_deal_line, replay_match)


__all__ = [
    "REQUIRED_FIELDS",
    "SCHEMA",
    "ReplayMismatch",
    "check_dealt",
    "deal_record",
    "check_deal_line",
    "group_by_match",
    "replay_log",
    "replay_match",
]
