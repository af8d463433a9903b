"""The ladder's web page serves no card that no other seat saw (docs/ladder.md, "What is
public"; rulings R14, F11): a real ladder on loopback with two random bots, its routes
read over HTTP, and its files only its owner's."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import stat
import urllib.request
import zlib
from pathlib import Path
from typing import Any

import pytest
from ladderkit import Ladder, arena, bot, new_ladder, stop_all

from arena.core.public import HIDDEN
from arena.games.registry import REGISTRY
from arena.ladder import web

GAMES = [
    ("truco", ("--game", "truco", "--seats", "2", "--points", "15")),
    ("ruff", ("--game", "ruff", "--form", "single", "--seats", "2")),
]


def stored(directory: Path, match_id: str) -> list[dict[str, Any]]:
    """A match's full replay records, read from the database as its organiser may."""
    db = sqlite3.connect(directory / "ladder.db")
    try:
        (blob,) = db.execute(
            "SELECT replay FROM matches WHERE match_id = ?", (match_id,)
        ).fetchone()
    finally:
        db.close()
    return [json.loads(line) for line in zlib.decompress(blob).decode().splitlines()]


def seen_of(game: str, deal: dict[str, Any], seat: int) -> set[str]:
    """The cards of ``seat``'s dealt hand that the other seats saw: played (save the
    rubber's, which may be head cards, F5) or shown (R9, F6)."""
    out: set[str] = set()
    plays = deal["plays"] if game == "truco" else [deal]
    for play in plays:
        if game == "ruff" and seat == deal["rubber"]:
            continue
        for trick in play["tricks"]:
            out.update(c for s, c in trick["cards"] if s == seat)
        # a card played into a trick the hand's end cut short (R10) is in the actions only
        out.update(a[5:] for s, a in play["actions"] if s == seat and a.startswith("play "))
    for play in plays:
        shown = (play.get("envido") or {}).get("shown") if game == "truco" else play["shown"]
        if isinstance(shown, dict) and shown["seat"] == seat:
            out.update(shown["cards"])
        elif isinstance(shown, list) and shown[0] == seat:
            out.update(shown[1])
    return out & set(deal["hands"][seat])


def has_key(value: Any, key: str) -> bool:
    if isinstance(value, dict):
        return key in value or any(has_key(v, key) for v in value.values())
    if isinstance(value, list):
        return any(has_key(v, key) for v in value)
    return False


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_the_web_api_serves_public_records_only(
    tmp_path: Path, game: str, options: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    lad = tmp_path / "lad"
    tokens = new_ladder(lad, ["alice", "bob"], *options)
    assert mode(lad) == 0o700 and mode(lad / "ladder.db") == 0o600
    ladder = Ladder(lad)
    bots: list[Any] = []
    try:
        events = urllib.request.urlopen(ladder.web + "/api/events", timeout=60)  # noqa: S310
        assert events.readline() == b": connected\n"
        bots = [bot(ladder.address, tokens[n], "random", game=game) for n in ("alice", "bob")]
        while not events.readline().startswith(b"event: match"):
            pass  # keepalives until the first match is recorded: an event, not a guess
        announced = json.loads(events.readline().removeprefix(b"data: "))
        events.close()
        assert set(announced) == {"seq", "match", "seats", "ranks", "totals"}
        match_id = announced["match"]

        served = ladder.get(f"/api/match/{match_id}")
        full = stored(lad, match_id)
        assert served["public"] is True and len(served["deals"]) == len(full)
        hidden = 0
        for deal, whole in zip(served["deals"], full, strict=True):
            assert deal == REGISTRY[game].public_record(whole)  # type: ignore[misc]
            for s, hand in enumerate(deal["hands"]):
                known = {c for c in hand if c is not HIDDEN}
                assert known == seen_of(game, whole, s), f"deal {deal['deal']} seat {s}"
                hidden += len(hand) - len(known)
        assert hidden > 0  # folds, refused calls, the head: something was withheld

        # No other route serves a hand or a replay.
        for path in ("/api/leaderboard", "/api/matches?limit=200", "/api/entrant/alice",
                     "/api/status"):  # fmt: skip
            body = ladder.get(path)
            assert not has_key(body, "hands") and not has_key(body, "deals"), path
        for path in ("/", "/entrant/alice", f"/match/{match_id}"):
            with urllib.request.urlopen(ladder.web + path, timeout=10) as r:  # noqa: S310
                page = r.read().decode()
            assert not [c for d in full for h in d["hands"] for c in h if f'"{c}"' in page]
    finally:
        stop_all(bots)
        ladder.stop()

    # SQLite's files beside the database, and an export, are the owner's alone.
    for side in ("ladder.db-wal", "ladder.db-shm"):
        if (lad / side).exists():
            assert mode(lad / side) == 0o600, side
    out = tmp_path / "export"
    arena("ladder", "export", str(lad), str(out))
    assert mode(out) == 0o700
    assert mode(out / "replays.jsonl") == 0o600 and mode(out / "matches.jsonl") == 0o600
    # The organiser's export keeps every hand (for arena verify).
    assert [json.loads(x) for x in (out / "replays.jsonl").read_text().splitlines()][
        : len(full)
    ] == full

    check_no_fault_detail(lad, game)

    # A game that does not say what of a deal is public: none of its deals are served.
    db = sqlite3.connect(f"file:{lad / 'ladder.db'}?mode=ro", uri=True)
    try:
        monkeypatch.setitem(REGISTRY, game, dataclasses.replace(REGISTRY[game], public_record=None))
        withheld = web._match(db, match_id, game)
        assert withheld is not None
        assert withheld["public"] is False and withheld["deals"] == []
    finally:
        db.close()


def check_no_fault_detail(lad: Path, game: str) -> None:
    """A refusal's detail lists the faulting seat's legal actions, its own cards: the
    entrant's page serves the fault without it."""
    # Give the first match a fault on alice's seat, as the referee records one.
    db = sqlite3.connect(lad / "ladder.db")
    seq, text, blob = db.execute("SELECT seq, record, replay FROM matches LIMIT 1").fetchone()
    record = json.loads(text)
    seat = next(s for s, label in enumerate(record["seats"]) if label.startswith("alice"))
    deals = [json.loads(x) for x in zlib.decompress(blob).decode().splitlines()]
    secret = "legal now: play 4C, play 7E, mazo"
    # Ruff's fallback at a rub is a discard, played face down (F5)
    played, shown = ("discard 2S 3S 4S 5S", "discard") if game == "ruff" else ("mazo", "mazo")
    deals[0]["faults"] = [{"seat": seat, "kind": "illegal", "detail": secret, "deal": 1,
                           "decision": 1, "request": 7, "played": played, "strikes": 1,
                           "disqualified": False}]  # fmt: skip
    record["faults"]["illegal"][seat] = 1
    lines = "".join(json.dumps(d) + "\n" for d in deals).encode()
    db.execute("UPDATE matches SET record = ?, replay = ? WHERE seq = ?",
               (json.dumps(record), zlib.compress(lines), seq))  # fmt: skip
    db.commit()
    found = web._entrant(db, "alice", game)
    db.close()
    assert found is not None
    assert ("illegal", shown) in [(f["kind"], f["played"]) for f in found["faults"]]
    assert played == shown or played not in json.dumps(found)
    assert all(f["detail"] is None for f in found["faults"])
    assert secret not in json.dumps(found)
