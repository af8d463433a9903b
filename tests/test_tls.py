"""TLS, optional: a referee with a certificate, bots that trust it (Python and Node.js),
and a plain-text client that cannot get in."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from test_grpc import Serving, arena_cmd, check_results_dir, run_arena
from test_node_bot import node_modules  # noqa: F401 (a fixture)


@pytest.fixture(scope="module")
def cert(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not on PATH: cannot make a test certificate")
    d = tmp_path_factory.mktemp("tls")
    crt, key = d / "referee.crt", d / "referee.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(key), "-out", str(crt), "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return crt, key


def test_a_hosted_tournament_runs_over_tls(
    tmp_path: Path,
    cert: tuple[Path, Path],
    node_modules: None,  # noqa: F811
) -> None:
    crt, key = cert
    out = tmp_path / "run"
    code, text = run_arena(tmp_path, "tournament", "--bots", "js,random,greedy,planner",
                           "--rounds", "1", "--deals", "1", "--tls-cert", str(crt),
                           "--tls-key", str(key), "--results", str(out), "-q")  # fmt: skip
    assert code == 0, text
    check_results_dir(out, matches=1, deals=1)


def test_serve_over_tls_admits_bots_that_trust_it_and_no_plain_client(
    tmp_path: Path, cert: tuple[Path, Path]
) -> None:
    crt, key = cert
    args = ("--entrants", "4", "--rounds", "1", "--deals", "1")
    with Serving(tmp_path, *args, "--tls-cert", str(crt), "--tls-key", str(key)) as s:
        with grpc.insecure_channel(s.address) as plain:  # no TLS: no way in
            with pytest.raises(grpc.RpcError) as info:
                health_pb2_grpc.HealthStub(plain).Check(health_pb2.HealthCheckRequest(), timeout=3)
            assert info.value.code() is grpc.StatusCode.UNAVAILABLE
        for name in ("random", "greedy", "planner"):
            s.bot(arena_cmd("bot", name, "--connect", s.address, "--tls-ca", str(crt)))
        tracker = [sys.executable, "-m", "bots.truf.tracker"]
        s.bot([*tracker, "--connect", s.address, "--tls-ca", str(crt)])
        text = s.finish()
    assert "Leaderboard · 1 matches" in text
    check_results_dir(s.out, matches=1, deals=1)


def test_tls_needs_both_files(tmp_path: Path, cert: tuple[Path, Path]) -> None:
    crt, _ = cert
    code, text = run_arena(tmp_path, "tournament", "--tls-cert", str(crt), "-q")
    assert code == 1 and "TLS needs both --tls-cert and --tls-key" in text
