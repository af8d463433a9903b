"""The ladder under SIGKILL (issue 31, item 8): killed again and again during play, it
loses no match it announced as finished, its database passes ``PRAGMA integrity_check``,
it comes back on the same port (the bots reconnect on their own), and its ratings equal a
recomputation from the database."""

from __future__ import annotations

import json
import sqlite3
import threading
import urllib.request
from pathlib import Path

import pytest
from ladderkit import Ladder, bot, new_ladder, stop_all, until

from arena.ladder.fit import Evidence, solve
from arena.ladder.store import Store
from arena.standings.ratings import Ratings

KILLS = 3


class Announced(threading.Thread):
    """Reads the page's event stream and keeps every match it announces as finished."""

    def __init__(self, web: str) -> None:
        super().__init__(daemon=True)
        self.matches: list[str] = []
        self.open = threading.Event()
        self.response = urllib.request.urlopen(web + "/api/events", timeout=60)

    def run(self) -> None:
        try:
            for raw in self.response:
                line = raw.decode()
                if line.startswith(":"):
                    self.open.set()
                if line.startswith("data: ") and '"match"' in line:
                    self.matches.append(json.loads(line[6:])["match"])
        except OSError:
            pass  # the ladder was killed


def test_sigkill_during_play_loses_no_finished_match(tmp_path: Path) -> None:
    lad = tmp_path / "lad"
    tokens = new_ladder(lad, ["a", "b", "c", "d", "e"], "--game", "truf", "--deals", "1")
    ladder = Ladder(lad)
    listen = ladder.address  # the same port after each restart: the bots come back to it
    bots = [bot(ladder.address, t, "random", capacity=2) for t in tokens.values()]
    announced: list[str] = []
    try:
        for _ in range(KILLS):
            reader = Announced(ladder.web)
            reader.start()
            before = ladder.leaderboard()["matches"]
            seen, live = reader.matches, ladder
            until(lambda: len(seen) >= 5, 90, "five matches announced")  # noqa: B023
            until(lambda: live.leaderboard()["in_play"] > 0, 30, "a match in play")  # noqa: B023
            ladder.kill()  # while matches are in play
            reader.join(timeout=10)
            announced += reader.matches
            db = sqlite3.connect(lad / "ladder.db")
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            stored = {m for (m,) in db.execute("SELECT match_id FROM matches")}
            db.close()
            assert set(announced) <= stored, set(announced) - stored
            assert len(stored) >= before
            ladder = Ladder(lad, listen=listen)
        board = until(
            lambda: (lb := ladder.leaderboard())["matches"] >= len(announced) + 3 and lb,
            90,
            "play to go on after the last restart",
        )
        assert all(r["connected"] for r in board["rows"])  # every bot came back by itself
    finally:
        ladder.kill()
        stop_all(bots)
    store = Store(lad)
    records = list(store.records())
    ids = [r["match"] for r in records]
    assert len(ids) == len(set(ids))  # a lost match's id is never dealt again
    assert [r["round"] for r in records] == list(range(1, len(records) + 1))
    again = Ladder(lad)
    try:
        rows = again.leaderboard()["rows"]
    finally:
        again.stop()
    ratings = Ratings()
    ratings.rate_all(records)
    evidence = Evidence()
    for r in records:
        evidence.add(r)
    fitted = solve(evidence.snapshot())
    for row in rows:
        assert row["trueskill_mu"] == pytest.approx(ratings.rating(row["label"]).mu, abs=1e-3)
        assert row["trueskill_sigma"] == pytest.approx(ratings.rating(row["label"]).sigma, abs=1e-3)
        assert row["mu"] == pytest.approx(fitted[row["label"]].mu, abs=1e-3)
    for label, vid in store.versions().items():
        mu, sigma = store.db.execute(
            "SELECT mu, sigma FROM ratings WHERE version_id = ? ORDER BY seq DESC LIMIT 1", (vid,)
        ).fetchone()
        assert (mu, sigma) == pytest.approx(tuple(ratings.rating(label).__dict__.values()))
