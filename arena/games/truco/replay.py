"""The Truco replay log: one JSON object per hand (``"game": "truco"``), and
``replay_match``, which plays stored hands back through the engine and reports the
first field that differs. The format is documented in ``docs/results.md``."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from arena.core.replaycheck import (
    ReplayMismatch,
    check_dealer,
    check_envelope,
    check_values,
    replay_lines,
    replay_records,
    rotation_of,
)
from arena.core.replaycheck import is_int as _is_int
from arena.core.replaycheck import is_str_list as _is_str_list
from arena.games.truco.actions import parse_action
from arena.games.truco.cards import Card, codes

# What a bot's ``deal_over`` hook gets: the record without the unplayed cards (R14:
# never shown, except the envido winner's, which ``plays[].envido.shown`` holds) and
# without what only the log needs.
# Each key is one the public record (public.py) shows as it is: what is public is decided
# there, and tests/test_public_record.py keeps the two in step.
PUBLIC_HAND_KEYS = (
    "deal", "dealer", "mano", "kind", "scores_before", "plays", "points", "scores", "totals",
)  # fmt: skip


def public_hand(record: Mapping[str, Any]) -> dict[str, Any]:
    """A hand's public summary, a fresh copy: nothing a bot does to it reaches the log."""
    return {key: copy.deepcopy(record[key]) for key in PUBLIC_HAND_KEYS}


def seat_outcomes(record: Mapping[str, Any]) -> list[tuple[int, int | None, int | None]]:
    """Per seat: the points its team scored in the hand (Truco has no bids)."""
    team_of = {seat: t for t, team in enumerate(record["teams"]) for seat in team}
    return [(int(record["points"][team_of[s]]), None, None) for s in range(len(record["seats"]))]


COMPARED = ("dealer", "mano", "kind", "hands", "scores_before", "plays", "points", "scores",
            "totals")  # fmt: skip


def replay_match(records: Sequence[Mapping[str, Any]]) -> int:
    """Play one match's stored hands (in order, from hand 1) back through the engine and
    check every compared field. Returns the number of hands checked; raises
    ``ReplayMismatch`` naming the match, hand and field that differs."""
    from arena.games.truco.rules import TrucoRules
    from arena.games.truco.state import HandSpec, TrucoMatch

    if not records:
        return 0
    first = records[0]
    match_id = str(first["match"])
    try:
        rules = TrucoRules(
            seats=len(first["seats"]),
            points=int(first["target"]),
            envido_count=first["envido_count"],
        )
        specs = [
            HandSpec(
                tuple(tuple(Card.parse(c) for c in h) for h in rec["hands"]),
                int(rec["dealer"]) if i == 0 else None,  # later dealers are recomputed (R3)
                "replay",
            )
            for i, rec in enumerate(records)
        ]
        match = TrucoMatch(rules, match_id=match_id, names=first["seats"], hands=specs)
    except (ValueError, KeyError, TypeError) as exc:
        raise ReplayMismatch(f"match {match_id}: cannot set the match up: {exc}") from None
    return replay_records(match, records, _actions, COMPARED, "hand")


def _actions(rec: Mapping[str, Any]) -> Iterator[tuple[int, Any]]:
    for play in rec["plays"]:
        for seat, text in play["actions"]:
            yield int(seat), parse_action(text)


REQUIRED_FIELDS = ("schema", "game", "match", "deal", "seats", "target", "envido_count",
                   "dealer", "hands", "plays", "points", "scores", "totals", "faults")  # fmt: skip


def check_hand_line(rec: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` naming the first field of a hand record that a replay cannot
    read (its values are judged by the replay itself)."""
    check_envelope(rec, REQUIRED_FIELDS)
    checks: tuple[tuple[str, bool, str], ...] = (
        ("dealer", _is_int(rec["dealer"]), "a seat number"),
        ("hands", isinstance(rec["hands"], list) and all(map(_is_str_list, rec["hands"])),
         "a list of lists of card codes"),
        ("plays", isinstance(rec["plays"], list) and all(
            isinstance(p, dict) and isinstance(p.get("actions"), list)
            and all(isinstance(a, list) and len(a) == 2 and _is_int(a[0])
                    and isinstance(a[1], str) for a in p["actions"])
            for p in rec["plays"]), "a list of plays, each with its [seat, action] pairs"),
    )  # fmt: skip
    check_values(rec, checks)


def replay_log(lines: Sequence[tuple[int, Mapping[str, Any]]], name: str) -> tuple[int, int]:
    """Replay a whole ``replays.jsonl`` of Truco hands, as (line number, record) pairs;
    returns (hands, matches); errors name ``name`` and the line."""
    return replay_lines(lines, name, check_hand_line, replay_match)


def check_dealt(records: Sequence[Mapping[str, Any]], key: str) -> int:
    """Check that each of one match's hands logged as dealt from the seed holds the cards
    and the dealer, that the match key ``key`` gives, at the record's ``rotation`` in a
    duplicate run (``arena.core.game.DuplicateGame``: every dealer turned back by it, which
    turns the hands). Returns the hands checked; raises ``ReplayMismatch``."""
    from arena.games.truco.state import dealer_at, seeded_hands

    checked = 0
    for rec in records:
        if rec.get("source", "seed") != "seed":
            continue  # a deals file's cards; a later seeded deal's dealer still follows R3
        where = f"match {rec['match']} hand {rec['deal']}"
        seats = len(rec["seats"])
        turn = rotation_of(rec, where, seats)
        check_dealer(rec, where, dealer_at(key, int(rec["deal"]), seats, turn), turn)
        dealt = seeded_hands(key, int(rec["deal"]), int(rec["dealer"]), seats)
        if [codes(list(h)) for h in dealt] != rec["hands"]:
            raise ReplayMismatch(
                f"{where}: the hands are not the ones the run's secret deals", rec["deal"]
            )
        checked += 1
    return checked
