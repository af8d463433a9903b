"""``arena edge``: nginx in front of a referee on a Unix socket, attacked with raw HTTP/2
frames (bench/h2raw.py) from several loopback addresses while four SDK bots play a
match through it. The floods that grpcio cannot hold by itself (CONTINUATION frames
that never end a call's headers) and the ones it holds at a cost (rapid reset, PING)
end at the edge; the referee still sees each client's own address. Each attack is
bounded in bytes, connections and seconds."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_front_door import Flood, frame_flood, h2raw
from test_grpc import ByIndex, Hosted, SdkThread, join_all, play_hosted_match

from arena.play.run import ConfigError
from arena.referee.edge import (
    EdgeLimits,
    find_nginx,
    free_loopback_port,
    nginx_config,
    start_edge,
    wait_listening,
)
from arena.referee.limits import Limits

ROOT = Path(__file__).resolve().parents[1]
TOKENS = {f"tok-{i}": f"bot{i}" for i in range(4)}


class Edge:
    """A referee on a Unix socket and nginx in front of it on 127.0.0.1."""

    def __init__(self, host: Callable[..., Hosted], **limits: Any) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="edge-"))  # short: a socket path is < 108
        socket_path = f"unix:{self.dir / 'arena.sock'}"
        self.hosted = host(tokens=TOKENS, limits=Limits(**limits), listen=socket_path)
        self.address = f"127.0.0.1:{free_loopback_port()}"
        self.proc = start_edge(self.address, socket_path, self.dir / "edge")
        wait_listening(self.address)

    def close(self) -> None:
        self.proc.send_signal(signal.SIGQUIT)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def edge(host: Callable[..., Hosted], missing_tool: Any) -> Iterator[Edge]:
    try:
        find_nginx()
    except ConfigError:
        missing_tool("nginx is not installed", "apt-get install nginx")
    made = Edge(host)
    yield made
    made.close()


def play_through(edge: Edge) -> dict[str, list[int]]:
    """Four SDK bots play one match through the edge; the match's faults per kind."""
    bots = [ByIndex() for _ in range(4)]
    threads = [SdkThread(b, edge.address, token) for b, token in zip(bots, TOKENS, strict=True)]
    for t in threads:
        t.start()
    outcome = play_hosted_match(edge.hosted, deals=1, strike_limit=3)
    join_all(threads)
    faults: dict[str, list[int]] = outcome.record["faults"]
    return faults


def play_under(edge: Edge, floods: list[Flood]) -> dict[str, list[int]]:
    """``play_through`` while ``floods`` run; they are stopped however the match ends."""
    for f in floods:
        f.start()
    try:
        return play_through(edge)
    finally:
        for f in floods:
            f.stop.set()
            f.join(30)


def no_faults(faults: dict[str, list[int]]) -> bool:
    return all(n == 0 for per_seat in faults.values() for n in per_seat)


def test_bots_play_through_the_edge_and_the_referee_sees_their_own_addresses(
    edge: Edge,
) -> None:
    silent = h2raw.Conn(edge.address, "127.5.0.2")
    try:
        silent.open_call(h2raw.PLAY)
        gate = edge.hosted.referee.gate
        assert gate is not None
        end = time.monotonic() + 10
        while "127.5.0.2" not in edge.hosted.call(lambda: dict(gate.waiting_by_address)):
            assert time.monotonic() < end, "the referee never saw the stream's own address"
            time.sleep(0.05)
        assert no_faults(play_through(edge))
    finally:
        silent.close()


def test_a_continuation_flood_ends_at_the_edge(edge: Edge) -> None:
    """Headers that never end: the edge closes each connection within a few KB (grpcio
    alone would buffer them: gigabytes), and the match through it has no fault."""
    fields = h2raw.header_block([(f"x-pad-{i}", "p" * 200) for i in range(4)])

    def continuation(conn: Any) -> bytes:
        if conn.next_stream == 1:  # the call's HEADERS, without END_HEADERS
            return h2raw.frame(h2raw.HEADERS, 0, conn.new_stream(), h2raw.grpc_headers("/x"))
        return h2raw.frame(h2raw.CONTINUATION, 0, 1, fields) * 16  # 15 KB a write

    floods = [
        Flood(edge.address, source, continuation, writes=2000, seconds=20)
        for source in h2raw.loopback_sources(4, per_block=2)
    ]
    faults = play_under(edge, floods)
    assert no_faults(faults)
    for f in floods:
        # Each connection was closed by the edge after a few writes, never 2000 of them.
        assert f.closed_by_edge >= 1 and f.sent / f.connections < 100, vars(f)


@pytest.mark.parametrize("kind", ["ping", "rapid-reset", "settings", "unknown-frame"])
def test_a_frame_flood_through_the_edge_costs_the_bots_nothing(edge: Edge, kind: str) -> None:
    frames = frame_flood(kind)
    floods = [
        Flood(edge.address, source, frames, writes=400, seconds=20)
        for source in h2raw.loopback_sources(4, per_block=2)
    ]
    faults = play_under(edge, floods)
    assert no_faults(faults)
    assert sum(f.sent for f in floods) > 0
    if kind == "rapid-reset":  # 1,000 calls a connection, then the edge closes it
        assert sum(f.closed_by_edge for f in floods) >= 1


def test_connections_are_limited_per_address_at_the_edge_and_entrants_still_play(
    edge: Edge,
) -> None:
    """40 idle connections from one address: the edge keeps 16 (file descriptors per
    address), closes the rest at once, and bots from elsewhere play with no fault."""
    limit = EdgeLimits().connections_per_address
    conns = [h2raw.Conn(edge.address, "127.7.0.2") for _ in range(40)]
    try:
        end = time.monotonic() + 10  # wait for the edge to close the excess
        while sum(c.closed.is_set() for c in conns) < 40 - limit and time.monotonic() < end:
            time.sleep(0.05)
        still_open = sum(not c.closed.is_set() for c in conns)
        assert 1 <= still_open <= limit, still_open
        assert no_faults(play_through(edge))
    finally:
        for c in conns:
            c.close()


def test_the_edge_configuration_says_what_it_limits(tmp_path: Path) -> None:
    conf = nginx_config("0.0.0.0:50051", "unix:/run/arena.sock", tmp_path, limits=EdgeLimits())
    for line in (
        "large_client_header_buffers 4 8192;",
        "http2_max_concurrent_streams 16;",
        "keepalive_requests 1000;",
        "limit_conn arena_address 32;",
        "limit_conn arena_tcp_address 16;",
        "proxy_protocol on;",
        "grpc_pass grpc://unix:/run/arena.sock;",
        "limit_req zone=arena_block_calls burst=50 nodelay;",
        "grpc_set_header X-Arena-Client $remote_addr;",
    ):
        assert line in conf, line
    with pytest.raises(ConfigError, match="--referee must be unix:PATH"):
        nginx_config("0.0.0.0:50051", "127.0.0.1:50052", tmp_path)


def test_arena_edge_without_a_unix_socket_referee_is_one_line_not_a_traceback() -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    out = subprocess.run(
        [sys.executable, "-m", "arena.cli", "edge", "--referee", "127.0.0.1:1"],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert out.returncode != 0
    assert "--referee must be unix:PATH" in out.stderr and "Traceback" not in out.stderr
