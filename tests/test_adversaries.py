"""An adversarial suite in one real tournament over gRPC (``arena serve`` with tokens):
a sleeper, an illegal mover, a garbage sender, a wrong-request-id sender, a disconnector,
a reconnector, a flooder, an oversized message and an impersonator, among four honest
bundled bots. The tournament completes, every match is recorded, every deal replays as
legal (fallbacks included), each adversary's fault is on the record, and the honest
entrants see no error."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import grpc
import pytest
from test_grpc import Serving, arena_cmd, hello, read_jsonl, refusal, run_arena

ROOT = Path(__file__).resolve().parents[1]
HONEST = ("random", "greedy", "planner", "tracker")
ADVERSARIES = ("sleeper", "illegal", "garbage", "wrongid", "disconnector", "reconnector",
               "flooder", "oversized")  # fmt: skip
# What each adversary leaves in the leaderboard's columns.
EXPECTED = {
    "sleeper": ("timeouts",),
    "illegal": ("illegal",),
    "garbage": ("illegal",),
    "wrongid": ("illegal",),
    "disconnector": ("disconnects", "forfeits"),
    "reconnector": ("disconnects",),
    "flooder": ("illegal",),
    "oversized": ("disconnects", "forfeits"),
}


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("adversaries")
    names = [*HONEST, *ADVERSARIES]
    tokens = {name: f"token-{name}-0123456789" for name in names}
    (tmp / "tokens.txt").write_text("".join(f"{n} {t}\n" for n, t in tokens.items()))
    args = ("--tokens", str(tmp / "tokens.txt"), "--rounds", "2", "--deals", "2",
            "--decision-timeout", "0.3", "--grace", "1", "--seed", "11")  # fmt: skip
    with Serving(tmp, *args) as s:
        for name in HONEST:
            s.bot(arena_cmd("bot", name, "--connect", s.address, "--token", tokens[name]))
        for kind in ADVERSARIES:
            s.bot([sys.executable, str(ROOT / "tests" / "rawbots.py"), kind,
                   "--connect", s.address, "--token", tokens[kind]])  # fmt: skip
        deadline = time.monotonic() + 60  # everyone is in once tournament.json is written
        while not (s.out / "tournament.json").exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        # A raw client, at once: the tournament may be over before a bot program starts.
        impostor = refusal(s.address, hello(tokens["greedy"], name="random"))
        assert s.serve.wait(timeout=180) == 0, s.log.read_text(errors="replace")
        logs = {}
        for name, proc, log in zip(names, s.procs[1:], s.bot_logs, strict=True):
            proc.wait(timeout=60)
            logs[name] = (proc.returncode, log.read_text(errors="replace"))
    return {"out": s.out, "logs": logs, "impostor": impostor}


def test_the_tournament_completes_and_every_deal_is_legal(tournament: dict[str, Any]) -> None:
    out = tournament["out"]
    matches = read_jsonl(out / "matches.jsonl")
    assert len(matches) == 2 * 3  # 12 entrants: three tables a round
    replays = read_jsonl(out / "replays.jsonl")
    assert len(replays) == len(matches) * 2
    code, text = run_arena(out.parent, "verify", str(out))  # fallbacks included
    assert code == 0, text


def test_each_adversarys_fault_is_on_the_record(tournament: dict[str, Any]) -> None:
    rows = {r["bot"]: r for r in json.loads((tournament["out"] / "leaderboard.json").read_text())[
        "rows"]}  # fmt: skip
    for kind, columns in EXPECTED.items():
        assert any(rows[kind][c] > 0 for c in columns), (kind, rows[kind])
    # A disqualified or forfeiting adversary ranks below all four honest bots in its match.
    for m in read_jsonl(tournament["out"] / "matches.jsonl"):
        for seat, name in enumerate(m["seats"]):
            if m["forfeit"][seat] or m["disqualified"][seat]:
                assert name in ADVERSARIES


def test_the_honest_entrants_see_no_error(tournament: dict[str, Any]) -> None:
    rows = {r["bot"]: r for r in json.loads((tournament["out"] / "leaderboard.json").read_text())[
        "rows"]}  # fmt: skip
    for name in HONEST:
        code, log = tournament["logs"][name]
        assert code == 0, log
        assert "rejected" not in log and "failed" not in log, log
        row = rows[name]
        assert (row["timeouts"], row["illegal"], row["disconnects"], row["forfeits"]) == (0,) * 4


def test_an_impersonator_is_refused(tournament: dict[str, Any]) -> None:
    refused = tournament["impostor"]
    assert refused.code() == grpc.StatusCode.ALREADY_EXISTS, refused.details()
    assert "entrant greedy is already connected" in (refused.details() or "")
