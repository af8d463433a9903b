"""The ladder (issue 31): its command line, its database, bots that come and go, new
versions as new rating rows, export to a results directory that `arena verify`,
`arena report` and the oracle accept, and ratings after a restart equal to a
recomputation from the database."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from ladderkit import Ladder, arena, bot, new_ladder, stop_all, until
from rules_oracle import audit_run
from typer.testing import CliRunner

from arena.cli import app
from arena.ladder.fit import Evidence, solve
from arena.ladder.store import SCHEMA, Store, hash_token
from arena.standings.ratings import Ratings

runner = CliRunner()


def cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def test_add_prints_a_token_once_and_stores_only_its_hash(tmp_path: Path) -> None:
    ladder = tmp_path / "lad"
    assert cli("ladder", "init", str(ladder), "--game", "truf")[0] == 0
    code, output = cli("ladder", "add", str(ladder), "alice")
    assert code == 0
    name, token = output.split()[:2]
    assert name == "alice" and len(token) == 32
    raw = (ladder / "ladder.db").read_bytes()
    assert token.encode() not in raw
    store = Store(ladder)
    (row,) = store.entrants()
    assert row.token_hash == hash_token(token) and row.status == "active"
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert (ladder / "ladder.db").stat().st_mode & 0o077 == 0  # it holds the secret


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--game", "truco", "--variant", "target"], "--variant is not an option of Truco"),
        (["--game", "chess"], "chess"),
        (["--game", "ruff", "--seats", "3"], "--seats applies to --form single only"),
    ],
)
def test_init_refuses_options_that_do_not_fit_in_one_line(
    tmp_path: Path, args: list[str], says: str
) -> None:
    code, output = cli("ladder", "init", str(tmp_path / "lad"), *args)
    assert code == 1
    assert says in output and len(output.strip().splitlines()) == 1
    assert not (tmp_path / "lad" / "ladder.db").exists()


def test_admin_mistakes_are_one_line_each(tmp_path: Path) -> None:
    ladder = str(tmp_path / "lad")
    assert cli("ladder", "add", ladder, "x")[1].startswith("error:")  # no ladder yet
    cli("ladder", "init", ladder)
    assert "already holds a ladder" in cli("ladder", "init", ladder)[1]
    cli("ladder", "add", ladder, "bob")
    for args, says in [
        (["add", ladder, "bob"], "already registered"),
        (["add", ladder, "<b>"], "1 to 32 letters"),
        (["remove", ladder, "nobody"], "no entrant nobody"),
        (["ban", ladder, "nobody"], "no entrant nobody"),
    ]:
        code, output = cli("ladder", *args)
        assert code == 1 and says in output and len(output.strip().splitlines()) == 1


def test_a_database_of_another_schema_is_refused(tmp_path: Path) -> None:
    ladder = tmp_path / "lad"
    cli("ladder", "init", str(ladder))
    db = sqlite3.connect(ladder / "ladder.db")
    db.execute("PRAGMA user_version = 99")
    db.close()
    code, output = cli("ladder", "add", str(ladder), "x")
    assert code == 1 and "schema 99" in output


def test_the_refit_does_not_depend_on_the_order_of_the_matches() -> None:
    records = [
        {"seats": list(s), "teams": [[0], [1], [2], [3]], "deal_points": p, "ranks": [1, 2, 3, 4]}
        for s, p in [
            ("abcd", [[3, 1, 0, -2], [2, 2, -1, 0]]),
            ("bcde", [[1, 0, 4, -3]]),
            ("aceb", [[5, -1, 0, 0], [0, 1, 2, 3]]),
            ("dbea", [[-2, 4, 1, 0]]),
        ]
    ]
    fits = []
    for order in (records, records[::-1], records[1:] + records[:1]):
        evidence = Evidence()
        for r in order:
            evidence.add(r)
        fits.append(solve(evidence.snapshot()))
    for other in fits[1:]:
        for name, rating in fits[0].items():
            assert other[name].mu == pytest.approx(rating.mu, abs=1e-9)
            assert other[name].sigma == pytest.approx(rating.sigma, abs=1e-9)
    # and it agrees with the arena's exact evidence on who is better than whom
    ratings = Ratings()
    ratings.rate_all([dict(r, round=i, table=1, match=str(i)) for i, r in enumerate(records)])
    fitted = fits[0]
    for a, b in [("a", "b"), ("c", "e"), ("d", "a")]:
        exact = ratings.prob_better(a, b)
        assert (exact > 0.5) == (fitted[a].mu > fitted[b].mu)


def _wait_matches(ladder: Ladder, n: int, timeout: float = 90.0) -> dict[str, object]:
    return until(
        lambda: (lb := ladder.leaderboard())["matches"] >= n and lb,
        timeout,
        f"{n} matches",
    )


def test_bots_play_leave_come_back_and_the_export_passes_verify_report_and_oracle(
    tmp_path: Path,
) -> None:
    lad = tmp_path / "lad"
    tokens = new_ladder(lad, ["a", "b", "c", "d", "e"], "--game", "truf", "--deals", "2")
    ladder = Ladder(lad)
    specs = ["random", "greedy", "planner", "random", "greedy"]
    bots = [
        bot(ladder.address, t, s, capacity=2) for t, s in zip(tokens.values(), specs, strict=True)
    ]
    try:
        board = _wait_matches(ladder, 12)
        rows = board["rows"]
        assert {"name", "version", "matches", "mu", "sigma", "conservative"} <= set(rows[0])
        assert {r["name"] for r in rows} == set(tokens)
        # one bot leaves; the others go on; it comes back and plays again
        bots[0].kill()
        bots[0].wait()
        until(lambda: not _row(ladder, "a")["connected"], 30, "a's drop")
        before = _row(ladder, "a")["matches"]
        _wait_matches(ladder, board["matches"] + 8)
        bots[0] = bot(ladder.address, tokens["a"], "random")
        until(lambda: _row(ladder, "a")["matches"] > before + 1, 60, "a to play again")
    finally:
        stop_all(bots)
        assert ladder.stop() == 130
    out = tmp_path / "out"
    arena("ladder", "export", str(lad), str(out), "--with-secret")
    verified = arena("verify", str(out))
    assert (
        "replay exactly" in verified.stdout
        and "are the ones the run's secret deals" in verified.stdout
    )
    arena("report", str(out))
    assert (out / "report.html").exists()
    assert audit_run(out) == []
    records = [json.loads(line) for line in (out / "matches.jsonl").read_text().splitlines()]
    assert [r["round"] for r in records] == list(range(1, len(records) + 1))
    assert len({r["match"] for r in records}) == len(records)


def _row(ladder: Ladder, name: str) -> dict[str, object]:
    rows = [r for r in ladder.leaderboard()["rows"] if r["name"] == name]
    return rows[-1] if rows else {"connected": False, "matches": 0}


def test_ratings_after_a_restart_equal_a_recomputation_from_the_database(tmp_path: Path) -> None:
    lad = tmp_path / "lad"
    tokens = new_ladder(lad, ["a", "b", "c", "d"], "--game", "truf", "--deals", "1")
    ladder = Ladder(lad)
    bots = [bot(ladder.address, t, "random") for t in tokens.values()]
    try:
        _wait_matches(ladder, 6)
    finally:
        ladder.kill()
        stop_all(bots)
    store = Store(lad)
    records = list(store.records())
    again = Ladder(lad)
    try:
        board = again.leaderboard()
    finally:
        again.stop()
    assert board["matches"] == len(records) >= 6
    ratings = Ratings()
    ratings.rate_all(records)
    evidence = Evidence()
    for r in records:
        evidence.add(r)
    fitted = solve(evidence.snapshot())
    for row in board["rows"]:
        assert row["trueskill_mu"] == pytest.approx(ratings.rating(row["label"]).mu, abs=1e-3)
        assert row["mu"] == pytest.approx(fitted[row["label"]].mu, abs=1e-3)
    # the stored history's last value per row is the same rating
    for label, vid in store.versions().items():
        mu = store.db.execute(
            "SELECT mu FROM ratings WHERE version_id = ? ORDER BY seq DESC LIMIT 1", (vid,)
        ).fetchone()[0]
        assert mu == pytest.approx(ratings.rating(label).mu, abs=1e-9)


VERSIONED_BOT = """
from bots.random import Bot as Random

class V1(Random):
    name = "vbot"
    version = "1"

class V2(Random):
    name = "vbot"
    version = "2"
"""


def test_a_new_version_starts_a_new_rating_row_and_the_old_one_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lad = tmp_path / "lad"
    tokens = new_ladder(lad, ["a", "b", "c", "v"], "--game", "truf", "--deals", "1")
    (tmp_path / "vbots.py").write_text(VERSIONED_BOT)
    monkeypatch.syspath_prepend(str(tmp_path))  # the bots' PYTHONPATH (ladderkit.env)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    ladder = Ladder(lad)
    bots = [bot(ladder.address, tokens[n], "random") for n in "abc"]
    try:
        v = bot(ladder.address, tokens["v"], "vbots:V1")
        bots.append(v)
        until(lambda: any(r["label"] == "v@1" and r["matches"] >= 2
                          for r in ladder.leaderboard()["rows"]), 60, "v@1 plays")  # fmt: skip
        v.kill()
        v.wait()
        until(lambda: not _row(ladder, "v")["connected"], 30, "v's drop")
        bots.append(bot(ladder.address, tokens["v"], "vbots:V2"))
        rows = until(
            lambda: (
                [r for r in ladder.leaderboard()["rows"] if r["name"] == "v"]
                if any(
                    r["label"] == "v@2" and r["matches"] >= 2 for r in ladder.leaderboard()["rows"]
                )
                else None
            ),
            60,
            "v@2 plays",
        )
        assert {r["version"] for r in rows} == {"1", "2"}
        page = ladder.get("/api/entrant/v")
        assert [x["version"] for x in page["versions"]] == ["1", "2"]
        assert all(page["history"][label] for label in ("v@1", "v@2"))
    finally:
        stop_all(bots)
        ladder.stop()


def test_a_bot_banned_while_connected_is_cut_off_and_refused_with_the_reason(
    tmp_path: Path,
) -> None:
    lad = tmp_path / "lad"
    tokens = new_ladder(lad, ["a", "b", "c", "d", "x"], "--game", "truf", "--deals", "1")
    ladder = Ladder(lad)
    logs = {n: tmp_path / f"{n}.log" for n in tokens}
    bots = [bot(ladder.address, t, "random", log=logs[n]) for n, t in tokens.items()]
    try:
        until(lambda: _row(ladder, "x")["matches"], 60, "x to play")
        arena("ladder", "ban", str(lad), "x", "--reason", "collusion")
        until(lambda: _row(ladder, "x")["status"] == "banned", 30, "the ban to be seen")
        assert bots[-1].wait(timeout=60) == 1  # the SDK gives up: refused, with the reason
        assert "PERMISSION_DENIED" in logs["x"].read_text()
        assert "collusion" in logs["x"].read_text()
        before = ladder.leaderboard()["matches"]
        _wait_matches(ladder, before + 3)  # the others play on
        assert _row(ladder, "x")["matches"] > 0  # and x's history stays
    finally:
        stop_all(bots)
        ladder.stop()


def test_run_and_export_mistakes_are_one_line(tmp_path: Path) -> None:
    code, output = cli("ladder", "run", str(tmp_path / "none"), "--listen", "127.0.0.1:0",
                       "--http", "127.0.0.1:0")  # fmt: skip
    assert code == 1 and "is not a ladder" in output
    lad = tmp_path / "lad"
    cli("ladder", "init", str(lad))
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    code, output = cli("ladder", "export", str(lad), str(tmp_path / "full"))
    assert code == 1 and "not empty" in output
    code, output = cli("ladder", "run", str(lad), "--listen", "nonsense", "--http", "127.0.0.1:0")
    assert code == 1 and "--listen" in output


@pytest.mark.parametrize(
    ("game", "options", "bots", "oracle"),
    [
        ("truco", ["--points", "15"], ["basic", "random", "basic", "random", "basic"],
         "truco_oracle"),
        ("ruff", [], ["steady", "random", "sharp", "random", "steady"], "ruff_oracle"),
    ],
)  # fmt: skip
def test_truco_and_ruff_ladders_play_and_export_for_verify_and_their_oracles(
    tmp_path: Path, game: str, options: list[str], bots: list[str], oracle: str
) -> None:
    lad = tmp_path / "lad"
    tokens = new_ladder(lad, ["a", "b", "c", "d", "e"], "--game", game, *options)
    ladder = Ladder(lad)
    procs = [bot(ladder.address, t, s, game=game, capacity=2)
             for t, s in zip(tokens.values(), bots, strict=True)]  # fmt: skip
    try:
        _wait_matches(ladder, 4, timeout=120)
    finally:
        stop_all(procs)
        ladder.stop()
    out = tmp_path / "out"
    arena("ladder", "export", str(lad), str(out), "--with-secret")
    verified = arena("verify", str(out))
    assert (
        "replay exactly" in verified.stdout
        and "are the ones the run's secret deals" in verified.stdout
    )
    arena("report", str(out))
    audit = __import__(oracle).audit_run
    assert audit(out) == []
