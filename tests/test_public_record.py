"""Each game's public record (``GameEntry.public_record``; docs/ladder.md, "What is
public") of real replays holds no card that no other seat saw: every card it still names
in a seat's hand (or in the head) appears, with that owner, in the view of some other
seat during the deal or in the deal summary every bot is given at its end (rulings R14,
F11, Truf's "What every seat may know"). Matches are played with random legal choices,
each seat's view read before every decision."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from arena.core.cards import Card as FrenchCard
from arena.core.public import HIDDEN, public_faults
from arena.games.registry import REGISTRY
from arena.games.truco.cards import Card as SpanishCard

Fact = tuple[object, str]  # (owner: a seat or "head", card code)

CONFIGS = [
    ("truf", {"variant": "classic", "deals": 4}),
    ("truf", {"variant": "target", "deals": 3}),
    ("truco", {"seats": 2}),
    ("truco", {"seats": 4}),
    ("truco", {"seats": 6}),  # duel hands (R13)
    ("ruff", {"form": "double", "seats": 4}),
    ("ruff", {"form": "single", "seats": 3}),
    ("ruff", {"form": "single", "seats": 2}),  # a 28-card head, mostly dead (F2)
]


def code(card: Any) -> str:
    return str(card.code)


def view_facts(game: str, view: Any) -> set[Fact]:
    """What one seat's view shows of cards: (owner, code), the owner another seat's or
    the head's (its own hand is left out: the test asks what OTHER seats saw)."""
    out: set[Fact] = set()
    if game == "truf":
        for bid_seat, bid in enumerate(view.bids or ()):
            for card in getattr(bid, "cards", None) or (bid.card,):
                out.add((bid_seat, code(card)))
        for trick in view.tricks:
            out.update((s, code(c)) for s, c in trick.cards)
        out.update((p.seat, code(p.card)) for p in view.trick if p.card is not None)
    elif game == "truco":
        for play in view.plays:
            for trick in play.tricks:
                out.update((s, code(c)) for s, c in trick.cards)
            out.update((s, code(c)) for s, c in play.trick)
            if play.shown is not None:
                out.update((play.shown[0], code(c)) for c in play.shown[1])
    else:
        out.add(("head", code(view.turned)))
        for trick in view.tricks:
            out.update((s, code(c)) for s, c in trick.cards)
        out.update((s, code(c)) for s, c in view.trick)
        if view.shown is not None:
            out.update((view.shown.seat, code(c)) for c in view.shown.cards)
    return {(owner, c) for owner, c in out if owner != view.seat}


def summary_facts(summary: dict[str, Any]) -> set[Fact]:
    """What the deal summary every bot gets at a deal's end (``Game.deal_summary``) shows."""
    out: set[Fact] = set()
    plays = summary.get("plays", [summary])  # Truco's plays, or the deal itself
    for play in plays:
        for trick in play.get("tricks", []):
            out.update((int(s), c) for s, c in trick["cards"])
        shown = play.get("shown") or (play.get("envido") or {}).get("shown")
        if isinstance(shown, dict):
            out.update((shown["seat"], c) for c in shown["cards"])
        elif shown:
            out.update((shown[0], c) for c in shown[1])
    if "turned" in summary:
        out.add(("head", summary["turned"]))
    return out


def played_deals(game_name: str, options: dict[str, Any], seed: str) -> Iterator[
    tuple[dict[str, Any], set[Fact]]
]:  # fmt: skip
    """Each finished deal's replay record, with the facts other seats saw of it."""
    entry = REGISTRY[game_name]
    game = entry.build({**entry.option_defaults(), **options}, None)
    names = [f"p{s}" for s in range(game.table_size)]
    match = game.new_match(match_id="m1", seed=seed, names=names)
    rng = random.Random(seed)
    seen: set[Fact] = set()
    while not match.is_over:
        for s in range(match.num_seats):
            seen |= view_facts(game_name, match.view(s))
        seat = match.to_act()[0]
        match.apply(seat, rng.choice(list(match.legal_actions(seat))))
        while match.finished:
            record = match.finished.pop(0)
            yield record, seen | summary_facts(game.deal_summary(record))
            seen = set()


def parse(game: str, token: str) -> str | None:
    """``token`` as a card code of the game, or None."""
    try:
        return (SpanishCard if game == "truco" else FrenchCard).parse(token).code
    except (ValueError, KeyError, IndexError):
        return None


def card_codes(game: str, value: Any) -> Iterator[str]:
    """Every card code anywhere in a JSON value, inside action strings too."""
    if isinstance(value, str):
        for token in value.split():
            if (c := parse(game, token)) is not None:
                yield c
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in ("seats", "match"):  # entrant names and ids are not cards
                yield from card_codes(game, item)
    elif isinstance(value, list):
        for item in value:
            yield from card_codes(game, item)


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=lambda x: str(x))
def test_a_public_record_names_only_cards_another_seat_saw(
    game: str, options: dict[str, Any]
) -> None:
    public = REGISTRY[game].public_record
    assert public is not None
    hidden = kept = deals = 0
    for seed in ("s1", "s2"):
        for record, seen in played_deals(game, options, seed):
            deals += 1
            before = json.dumps(record, sort_keys=True)
            out = public(record)
            assert json.dumps(record, sort_keys=True) == before, "the record was changed"
            assert set(out) == set(record) | {"public"}  # the record's shape, kept
            seen_cards = {c for _, c in seen}
            for s, (hand, dealt) in enumerate(zip(out["hands"], record["hands"], strict=True)):
                assert len(hand) == len(dealt)
                known = [c for c in hand if c is not HIDDEN]
                # seen cards first, sorted (their dealt order breaks Truco's envido ties
                # and the table never saw it), hidden after: a position tells nothing
                assert hand == sorted(known) + [HIDDEN] * (len(hand) - len(known))
                for c in known:
                    assert c in dealt and (s, c) in seen, f"seat {s}'s {c} was seen by no one"
                hidden += len(hand) - len(known)
                kept += len(known)
            for c in card_codes(game, {k: v for k, v in out.items() if k != "hands"}):
                assert c in seen_cards, f"{c} appears in the public record, seen by no one"
            if game == "ruff":
                assert [c for c in out["head"] if c is not HIDDEN] == [record["turned"]]
                assert out["ruffs"] == [HIDDEN] * len(record["seats"])  # F3: never told
                if record["discards"] is not None:
                    assert out["discards"] == [HIDDEN] * len(record["discards"])
            if game == "truf":  # every card is played (C1): the hands are public
                assert all(HIDDEN not in hand for hand in out["hands"])
                assert out["redeals"] is HIDDEN  # C2: never shown
    assert deals > 0 and kept > 0
    if game != "truf":  # Truco's folds and refusals, Ruff's head and rub: cards no one saw
        assert hidden > 0


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=lambda x: str(x))
def test_the_bots_deal_summary_shows_only_what_the_public_record_keeps(
    game: str, options: dict[str, Any]
) -> None:
    """One notion of what is public: the summary every bot gets at a deal's end
    (``Game.deal_summary``, the ``PUBLIC_*_KEYS`` of each game's replay.py) is a
    selection of the public record's keys (``GameEntry.public_record``, each game's
    public.py), each exactly as the public record shows it, so nothing that the ladder
    hides from everyone reaches a bot, and the two cannot drift apart unnoticed."""
    entry = REGISTRY[game]
    public = entry.public_record
    assert public is not None
    built = entry.build({**entry.option_defaults(), **options}, None)
    deals = 0
    for record, _ in played_deals(game, options, "s3"):
        deals += 1
        summary, shown = built.deal_summary(record), public(record)
        assert summary, "an empty deal summary"
        for key, value in summary.items():
            assert key in shown, f"the deal summary's {key!r} is not in the public record"
            assert value == shown[key], f"the deal summary's {key!r} shows a hidden card"
    assert deals > 0


def test_a_fault_detail_is_not_public() -> None:
    """A refusal's detail lists the seat's legal actions: its own unplayed cards."""
    fault = {"seat": 1, "kind": "illegal", "detail": "legal now: play 4C, play 7E, mazo",
             "deal": 2, "decision": 3, "played": "play 4C", "strikes": 1,
             "disqualified": False}  # fmt: skip
    assert public_faults([fault]) == [{**fault, "detail": None}]
    record, _ = next(played_deals("truco", {"seats": 2}, "s1"))
    record["faults"] = [fault]
    out = REGISTRY["truco"].public_record
    assert out is not None
    assert out(record)["faults"] == [{**fault, "detail": None}]
    assert record["faults"][0]["detail"] == fault["detail"]  # the stored record keeps it


def test_a_fault_recorded_before_played_was_is_still_public() -> None:
    """Fault entries gained ``played`` after the first ladders: their databases hold
    entries without it, which the match page must still serve (it showed a 500)."""
    old = {"seat": 0, "kind": "timeout", "detail": "no answer in 1 s", "deal": 1,
           "decision": 2, "strikes": 1, "disqualified": False}  # fmt: skip
    assert public_faults([old]) == [{**old, "detail": None, "played": None}]


def test_a_ruff_fallback_discard_is_played_face_down() -> None:
    """A rubber that faulted at its rub: the fallback's four discards stay hidden (F5)."""
    record = next(r for r, _ in played_deals("ruff", {}, "s1") if r["discards"] is not None)
    rubber, discards = record["rubber"], " ".join(record["discards"])
    record["faults"] = [{"seat": rubber, "kind": "timeout", "detail": "no answer in 1 s",
                         "deal": 1, "decision": 5, "played": f"discard {discards}",
                         "strikes": 0, "disqualified": False}]  # fmt: skip
    public = REGISTRY["ruff"].public_record
    assert public is not None
    out = public(record)
    assert [(f["played"], f["detail"]) for f in out["faults"]] == [("discard", None)]
    assert not set(record["discards"]) & set(card_codes("ruff", out["faults"]))
