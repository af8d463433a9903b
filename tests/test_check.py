"""``arena check`` against a good bot and a deliberately broken one, over real gRPC."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def check(bot: list[str], *extra: str) -> tuple[int, str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "tests"), str(ROOT), env.get("PYTHONPATH")) if p
    )
    address = f"127.0.0.1:{free_port()}"
    checker = subprocess.Popen(
        [sys.executable, "-m", "arena.cli", "check", "--listen", address, "--wait", "60", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True,
    )  # fmt: skip
    try:
        player = subprocess.run(
            [sys.executable, "-m", *bot, "--connect", address],
            capture_output=True, text=True, env=env, timeout=120,
        )  # fmt: skip
        out, _ = checker.communicate(timeout=120)
    finally:
        checker.kill()
    return checker.returncode, out, player.stdout + player.stderr


def test_a_good_bot_passes_every_check() -> None:
    code, out, log = check(["bots.truf.greedy"])
    assert code == 0, out
    for case in ("void in the led suit", "trump not yet broken", "only trumps in hand",
                 "face-down trump lead", "a total of exactly 13", "a bid of 0 shifted to -1",
                 "the last trick", "every kind of target declaration",
                 "deal and match results"):  # fmt: skip
        assert f"✓ {case}" in out, case
    assert "all 9 checks passed" in out
    assert "tournament over" in log  # the bot was told, and left


def test_a_broken_bot_is_told_each_fault_with_the_request_that_caused_it() -> None:
    code, out, log = check(["arena.sdk", "checkbots:Broken"])
    assert code == 1, out
    assert "✗ trump not yet broken" in out
    assert "C10" in out and "trump may not be led" in out
    assert "✗ a total of exactly 13" in out and "wrong kind" in out
    assert "legal: mode atas, mode bawah" in out  # the request, shown with the fault
    assert "✓ void in the led suit" in out  # the rest still ran
    assert "2 of 9 checks failed" in out
    assert "rejected" in log  # the bot heard why, through AnswerRejected


def _one_table(records: list[dict[str, Any]]) -> str | None:
    """Why these messages, filed under one table_id, cannot be one table; None if they can."""
    requests = [r for r in records if r["kind"] == "decision_request"]
    if len({r["seat"] for r in requests}) > 1:
        return f"seats {sorted({r['seat'] for r in requests})}"
    if len({r["match_id"] for r in records} | {r["view_match_id"] for r in requests}) > 1:
        return "more than one match"
    if any(r["kind"] == "match_result" for r in records[:-1]):
        return "a request after the match result"
    for before, after in zip(requests, requests[1:], strict=False):
        if after["deal"] < before["deal"]:
            return f"deal {before['deal']}, then deal {after['deal']}"
        same_deal = after["deal"] == before["deal"]
        if same_deal and not set(after["hand"]) <= set(before["hand"]):
            return f"hand {before['hand']}, then {after['hand']}"
        if same_deal and after["tricks"][: len(before["tricks"])] != before["tricks"]:
            return "closed tricks that changed"
    return None


def test_a_bot_keyed_by_table_id_sees_each_table_as_one_table() -> None:
    """The proto tells bots to tell tables apart by table_id: check must not reuse one
    for unrelated positions or seats. A raw-stub bot files what it gets by table_id."""
    code, out, log = check(["tablebot"])
    assert code == 0, out
    records = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    requests = [r for r in records if r["kind"] == "decision_request"]
    assert len(requests) == 9, log  # every check asks once
    tables: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        tables.setdefault(record["table_id"], []).append(record)
    for table, seen in tables.items():
        assert _one_table(seen) is None, (table, _one_table(seen))
    # Unrelated positions, so a table each; the results come from a finished table.
    assert len({r["table_id"] for r in requests}) == len(requests)
    assert {r["kind"] for r in records} == {"decision_request", "deal_result", "match_result"}


def test_a_check_on_which_the_bot_crashed_fails() -> None:
    """Issue 25: the SDK says the bot failed instead of answering for it, and the check
    counts the crash as a failed check."""
    code, out, log = check(["arena.sdk", "checkbots:Crashes"])
    assert code == 1, out
    assert "✗ a total of exactly 13" in out and "the bot failed" in out
    assert "RuntimeError: the author's bug" in out
    assert "all 9 checks passed" not in out and "checks failed" in out
    assert "REASON_BOT_FAILED" in log and "Traceback" in log
