"""The Ruff and Trump replay log: one JSON object per deal (``"game": "ruff"``), and
``replay_match``, which plays stored deals back through the engine and reports the first
field that differs. The format is documented in ``docs/results.md``."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from arena.core.cards import Card, codes
from arena.core.replaycheck import (
    ReplayMismatch,
    check_dealer,
    check_envelope,
    check_values,
    is_int,
    is_str_list,
    replay_lines,
    replay_records,
    rotation_of,
)
from arena.games.ruff.actions import parse_action

# What a bot's ``deal_over`` hook gets: no dealt hands, head, true ruffs or discards
# (F11: never shown to every seat), no ids, no faults.
# Each key is one the public record (public.py) shows as it is: what is public is decided
# there, and tests/test_public_record.py keeps the two in step.
PUBLIC_DEAL_KEYS = (
    "deal", "dealer", "eldest", "turned", "trump", "announcements", "ruff_winner", "rubber",
    "shown", "tricks", "ended", "cards_won", "ruff_points", "card_points", "points",
    "scores_before", "scores", "totals",
)  # fmt: skip


def public_deal(record: Mapping[str, Any]) -> dict[str, Any]:
    """A deal's public summary, a fresh copy: nothing a bot does to it reaches the log."""
    return {key: copy.deepcopy(record[key]) for key in PUBLIC_DEAL_KEYS}


def seat_outcomes(record: Mapping[str, Any]) -> list[tuple[int, int | None, int | None]]:
    """Per seat: the points its side scored in the deal (Ruff has no bids): what main's
    HTML report (``GameEntry.seat_outcomes``) reads, ready for the merge."""
    side_of = {seat: i for i, team in enumerate(record["teams"]) for seat in team}
    return [(int(record["points"][side_of[s]]), None, None) for s in range(len(record["seats"]))]


COMPARED = ("dealer", "eldest", "turned", "trump", "ruffs", "announcements", "ruff_winner",
            "rubber", "discards", "shown", "tricks", "ended", "cards_won", "ruff_points",
            "card_points", "points", "scores_before", "scores", "totals")  # fmt: skip


def rules_of(record: Mapping[str, Any]) -> Any:
    """The rules a stored deal was played under."""
    from arena.games.ruff.rules import RuffRules

    return RuffRules(
        form=record["form"], seats=len(record["seats"]), alt_deals=bool(record["alt_deals"])
    )


def replay_match(records: Sequence[Mapping[str, Any]]) -> int:
    """Play one match's stored deals (in order, from deal 1) back through the engine and
    check every compared field. Returns the number of deals checked; raises
    ``ReplayMismatch`` naming the match, deal and field that differs."""
    from arena.games.ruff.state import DealSpec, RuffMatch

    if not records:
        return 0
    first = records[0]
    match_id = str(first["match"])
    try:
        specs = [
            DealSpec(
                tuple(tuple(Card.parse(c) for c in h) for h in rec["hands"]),
                tuple(Card.parse(c) for c in rec["head"]),
                int(rec["dealer"]) if i == 0 else None,  # later dealers pass clockwise (F2)
                "replay",
            )
            for i, rec in enumerate(records)
        ]
        match = RuffMatch(rules_of(first), match_id=match_id, names=first["seats"], deals=specs)
    except (ValueError, KeyError, TypeError) as exc:
        raise ReplayMismatch(f"match {match_id}: cannot set the match up: {exc}") from None
    return replay_records(match, records, _actions, COMPARED)


def _actions(rec: Mapping[str, Any]) -> Iterator[tuple[int, Any]]:
    for seat, text in rec["actions"]:
        yield int(seat), parse_action(text)


REQUIRED_FIELDS = ("schema", "game", "match", "deal", "seats", "form", "alt_deals", "dealer",
                   "hands", "head", "actions") + COMPARED[1:] + ("faults",)  # fmt: skip


def check_deal_line(rec: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` naming the first field of a deal record that a replay cannot
    read (its values are judged by the replay itself)."""
    check_envelope(rec, REQUIRED_FIELDS)
    checks: tuple[tuple[str, bool, str], ...] = (
        ("form", rec["form"] in ("double", "single"), '"double" or "single"'),
        ("alt_deals", isinstance(rec["alt_deals"], bool), "true or false"),
        ("dealer", is_int(rec["dealer"]), "a seat number"),
        ("hands", isinstance(rec["hands"], list) and all(map(is_str_list, rec["hands"])),
         "a list of lists of card codes"),
        ("head", is_str_list(rec["head"]), "a list of card codes"),
        ("actions", isinstance(rec["actions"], list) and all(
            isinstance(a, list) and len(a) == 2 and is_int(a[0]) and isinstance(a[1], str)
            for a in rec["actions"]), "a list of [seat, action] pairs"),
    )  # fmt: skip
    check_values(rec, checks)


def replay_log(lines: Sequence[tuple[int, Mapping[str, Any]]], name: str) -> tuple[int, int]:
    """Replay a whole ``replays.jsonl`` of Ruff deals, as (line number, record) pairs;
    returns (deals, matches); errors name ``name`` and the line."""
    return replay_lines(lines, name, check_deal_line, replay_match)


def check_dealt(records: Sequence[Mapping[str, Any]], key: str) -> int:
    """Check that each of one match's deals logged as dealt from the seed holds the hands
    and head, and the dealer, that the match key ``key`` gives, at the record's
    ``rotation`` in a duplicate run (``arena.core.game.DuplicateGame``: every dealer turned
    back by it, which turns the hands). Returns the deals checked; raises
    ``ReplayMismatch``."""
    from arena.games.ruff.deal import dealer_at, seeded_deal

    checked = 0
    for rec in records:
        if rec.get("source", "seed") != "seed":
            continue  # a deals file's cards; a later seeded deal's dealer still follows F2
        where = f"match {rec['match']} deal {rec['deal']}"
        rules = rules_of(rec)
        turn = rotation_of(rec, where, rules.seats)
        check_dealer(rec, where, dealer_at(key, int(rec["deal"]), rules.seats, turn), turn)
        hands, head = seeded_deal(key, int(rec["deal"]), int(rec["dealer"]), rules)
        if [codes(h) for h in hands] != rec["hands"] or codes(head) != rec["head"]:
            raise ReplayMismatch(
                f"{where}: the cards are not the ones the run's secret deals", rec["deal"]
            )
        checked += 1
    return checked
