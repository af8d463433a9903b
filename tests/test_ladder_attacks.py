"""The attacks ``arena serve`` withstands, against the ladder (issue 31, item 8): among
four honest bundled bots, raw clients written from the proto sleep past deadlines, answer
illegally, send garbage, wrong request ids, floods, oversized and padded messages, drop
and come back; others squat on streams without a hello, flood hellos with bad tokens,
impersonate a connected entrant, or come back after a ban. The ladder plays on, the
honest bots see no fault, each adversary's fault is on the record, the refused get the
reason, and the export replays as legal with the fallbacks."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import grpc
import pytest
from ladderkit import ROOT, Ladder, arena, bot, new_ladder, stop_all, until
from test_attacks import RawStream, unknown_field
from test_grpc import Stream, hello, refusal

from arena._proto.truf.arena.v1 import arena_pb2 as pb

HONEST = ("random", "greedy", "planner", "random")
ADVERSARIES = ("sleeper", "illegal", "garbage", "wrongid", "reconnector", "flooder", "oversized")
DEADLINE = 0.5


class Padded(threading.Thread):
    """Answers every request legally (index 0), each answer padded with 32 KB in a field
    the proto does not define: allowed by the budget, and never kept by the referee."""

    def __init__(self, address: str, token: str) -> None:
        super().__init__(daemon=True)
        self.stream = RawStream(address, hello(token, name="padded", capacity=2))
        self.decisions = 0
        self.stop = threading.Event()

    def run(self) -> None:
        pad = unknown_field(99, b"x" * 32_000)
        try:
            for msg in self.stream.call:
                if self.stop.is_set():
                    break
                if msg.HasField("decision_request"):
                    answer = pb.PlayRequest()
                    answer.answer.request_id = msg.decision_request.request_id
                    answer.answer.index = 0
                    self.stream.send(answer.SerializeToString() + pad)
                    self.decisions += 1
        except grpc.RpcError:
            pass


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.fixture(scope="module")
def attacked(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("ladder-attacks")
    lad = tmp / "lad"
    names = [f"honest{i}" for i in range(len(HONEST))] + [*ADVERSARIES, "padded", "banned"]
    tokens = new_ladder(lad, names, "--game", "truf", "--deals", "1",
                        "--decision-timeout", str(DEADLINE), "--grace", "1")  # fmt: skip
    arena("ladder", "ban", str(lad), "banned", "--reason", "cheating")
    ladder = Ladder(lad)
    procs = [bot(ladder.address, tokens[f"honest{i}"], s, capacity=2)
             for i, s in enumerate(HONEST)]  # fmt: skip
    out: dict[str, Any] = {"tokens": tokens}
    padded = Padded(ladder.address, tokens["padded"])
    try:
        until(lambda: ladder.leaderboard()["matches"] >= 3, 60, "honest play")
        for kind in ADVERSARIES:
            procs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        str(ROOT / "tests" / "rawbots.py"),
                        kind,
                        "--connect",
                        ladder.address,
                        "--token",
                        tokens[kind],
                        "--sleep",
                        str(DEADLINE + 0.5),
                    ],  # fmt: skip
                )
            )
        padded.start()
        until(lambda: padded.decisions >= 50, 120, "the padded bot to play")
        rss_before = rss_kb(ladder.proc.pid)
        target = padded.decisions + 300
        until(lambda: padded.decisions >= target, 180, "300 more padded answers")
        out["rss_growth_kb"] = rss_kb(ladder.proc.pid) - rss_before
        out["impostor"] = refusal(ladder.address, hello(tokens["honest1"], name="x"))
        out["stranger"] = refusal(ladder.address, hello("f" * 32, name="x"))
        out["banned"] = refusal(ladder.address, hello(tokens["banned"], name="x"))
        # (after the refusals: cut-off squatters count as failed hellos of their address,
        # and the gate then paces that address a while, honest or not)
        # The squatters: streams that never say hello, more than one address may hold.
        squatters = [Stream(ladder.address) for _ in range(40)]
        try:
            during = ladder.leaderboard()["matches"]
            until(lambda: ladder.leaderboard()["matches"] >= during + 3, 60, "play while squatted")
            out["squatted"] = ladder.leaderboard()["matches"] - during
        finally:
            for s in squatters:
                s.close()
        seen = ladder.leaderboard()["matches"]
        out["board"] = until(
            lambda: (
                (lb := ladder.leaderboard())["matches"] >= seen + 10
                and all(
                    any(r["name"] == k and r["matches"] for r in lb["rows"]) for k in ADVERSARIES
                )
                and lb
            ),
            180,
            "play to go on, every adversary seated",
        )
    finally:
        padded.stop.set()
        padded.stream.close()
        stop_all(procs)
        ladder.stop()
    export = tmp / "export"
    arena("ladder", "export", str(lad), str(export), "--with-secret")
    out["verify"] = arena("verify", str(export), check=False)
    out["export"] = export
    return out


def test_the_ladder_plays_on_and_every_deal_replays_as_legal(attacked: dict[str, Any]) -> None:
    assert attacked["verify"].returncode == 0, attacked["verify"].stdout
    from rules_oracle import audit_run

    assert audit_run(attacked["export"]) == []


def test_honest_bots_see_no_fault_and_each_adversary_is_on_the_record(
    attacked: dict[str, Any],
) -> None:
    rows = attacked["board"]["rows"]
    for r in rows:
        if r["name"].startswith("honest"):
            assert r["faults"] == 0, r
    for kind in ("sleeper", "illegal", "garbage", "wrongid", "flooder", "oversized"):
        assert sum(r["faults"] for r in rows if r["name"] == kind) > 0, kind


def test_padded_answers_do_not_grow_the_ladder(attacked: dict[str, Any]) -> None:
    # 300 answers of 32 KB are 9.6 MB: kept, they would show
    assert attacked["rss_growth_kb"] < 6_000, attacked["rss_growth_kb"]


def test_impostors_strangers_and_the_banned_are_refused_with_the_reason(
    attacked: dict[str, Any],
) -> None:
    impostor = attacked["impostor"]
    assert impostor.code() is grpc.StatusCode.ALREADY_EXISTS
    assert attacked["stranger"].code() is grpc.StatusCode.UNAUTHENTICATED
    banned = attacked["banned"]
    assert banned.code() is grpc.StatusCode.PERMISSION_DENIED
    assert "banned" in banned.details() and "cheating" in banned.details()


def test_squatters_do_not_stop_the_ladder(attacked: dict[str, Any]) -> None:
    assert attacked["squatted"] >= 3  # matches finished while 40 streams sat without a hello
