"""``arena edge``: a maintained HTTP/2 proxy (nginx, from the distribution's packages) in
front of the referee, for an event whose bots come over a network you do not control.

Why a proxy: some HTTP/2 floods are handled inside grpcio's C core, below anything the
referee's Python code sees, and one of them (CONTINUATION frames that never end a
call's headers) grows grpcio's memory by gigabytes. nginx bounds a call's headers,
answers PING, SETTINGS and unknown frames itself and closes a connection that sends
mostly such frames, and limits connections and new streams per address, all in C,
before the referee sees a byte. The referee listens on a Unix socket that only the
organiser's user can open; nginx passes each call to it and names the client's address
in the ``x-arena-client`` header, which the referee believes on that socket only, so
its own per-address limits (``arena.referee.limits``) keep working behind the proxy.

Two layers of nginx, in one process: its ``stream`` module takes the TCP connections
(so that connections, not only calls, are counted per address and per block: file
descriptors) and hands them, with the client's address (PROXY protocol), to its HTTP/2
server on a Unix socket of its own, which passes the calls on to the referee.

The arena writes no HTTP/2 handling of its own: this module only writes nginx's
configuration and runs it in the foreground.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from arena.play.run import ConfigError


@dataclass(frozen=True, kw_only=True)
class EdgeLimits:
    """What the edge allows, per client address and in all. The referee's own limits
    (``arena.referee.limits.Limits``) still apply behind it, per client address."""

    connections: int = 4096  # client connections at once (and as many to the referee)
    connections_per_address: int = 16  # TCP connections at once from one address
    connections_per_block: int = 64  # from one IPv4 /24 (IPv6: first three groups)
    streams_per_address: int = 32  # calls open at once from one address (nginx counts streams)
    streams_per_block: int = 128  # from one IPv4 /24 (IPv6: the first three groups as written)
    # New calls (streams) a second from one address, beyond a burst: as the referee's own
    # limit on calls before a hello is welcomed, so that a flood beyond it ends here, in C.
    calls_per_second: int = 10
    calls_burst: int = 50
    # The same per /24 (IPv6: the first three groups): each call that passes opens a
    # connection to the referee (an upstream ``keepalive`` does not help: a call reset at
    # once, as in a rapid-reset flood, leaves its connection unusable), so many addresses
    # in one block must not each get the full rate.
    calls_per_second_per_block: int = 10
    calls_burst_per_block: int = 50
    streams_per_connection: int = 16
    calls_per_connection: int = 1000  # then the connection is closed (rapid reset)
    header_bytes: int = 8192  # a call's headers, CONTINUATION frames included
    idle_seconds: int = 10  # a connection with no stream
    header_seconds: int = 10  # the handshake and a call's headers
    # TCP keepalive on the clients' connections: a client host that vanished (powered
    # off, network gone) while nothing was in flight to it is dropped after a quiet
    # keepalive_idle_seconds and this many unanswered probes, 15 s, inside the grace
    # period (30 s by default); with data in flight the kernel's retransmission timeout
    # rules instead (tcp_retries2: minutes), and the seat times out meanwhile. The referee's
    # own HTTP/2 keepalive pings (arena.referee.limits) reach nginx, which answers them
    # itself and sends clients none: behind the edge a bot whose process hangs on a live
    # host is not cut by pings (its kernel answers TCP probes). Its restarted copy takes
    # its seat over with the Welcome's reconnect_token all the same.
    keepalive_idle_seconds: int = 5
    keepalive_interval_seconds: int = 5
    keepalive_probes: int = 2


def nginx_config(
    listen: str,
    referee: str,
    run_dir: Path,
    *,
    tls: tuple[Path, Path] | None = None,
    limits: EdgeLimits | None = None,
) -> str:
    """nginx's configuration: listen on ``listen`` (HOST:PORT), pass every call to the
    referee at ``referee`` (``unix:PATH``), keep its files in ``run_dir``."""
    lim = limits or EdgeLimits()
    if not referee.startswith("unix:"):
        raise ConfigError(
            f"--referee must be unix:PATH (the referee's --listen), got {referee!r}: "
            "the referee believes the client address the edge names only on a Unix socket"
        )
    referee = f"unix:{Path(referee[5:]).resolve()}"  # nginx runs in its own folder
    host, sep, port = listen.rpartition(":")
    if not sep or not port.isdigit():
        raise ConfigError(f"--listen must be HOST:PORT, got {listen!r}")
    user = ""
    if os.geteuid() == 0:  # nginx would otherwise run its worker as nobody
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name};"
    ssl = ""
    if tls is not None:
        cert, key = tls
        ssl = f"ssl_certificate {cert.resolve()};\n        ssl_certificate_key {key.resolve()};"
    files = run_dir.resolve()
    keepalive = (
        f"{lim.keepalive_idle_seconds}s:{lim.keepalive_interval_seconds}s:{lim.keepalive_probes}"
    )
    inner = files / "h2.sock"  # the stream layer's hand-over to the HTTP/2 layer
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    temp = " ".join(f"{kind}_temp_path {files / kind};" for kind in kinds)
    block_map = """map $remote_addr $arena_block {
        "~^(?<v4>[0-9]+\\.[0-9]+\\.[0-9]+)\\.[0-9]+$" $v4;
        "~^(?<v6>[0-9a-fA-F]*:[0-9a-fA-F]*:[0-9a-fA-F]*)" $v6;
        default $remote_addr;
    }"""
    return f"""# Written by `arena edge`; see arena/referee/edge.py for why each limit is there.
load_module {STREAM_MODULE};
{user}
worker_processes 1;
daemon off;
pid {files / "nginx.pid"};
error_log stderr warn;
worker_rlimit_nofile {4 * lim.connections + 64};
events {{ worker_connections {4 * lim.connections}; }}
stream {{
    # The client's /24 (IPv4) or first three groups (IPv6), for per-block limits.
    {block_map}
    limit_conn_zone $binary_remote_addr zone=arena_tcp_address:4m;
    limit_conn_zone $arena_block zone=arena_tcp_block:4m;
    limit_conn_log_level info;  # a flood must not become a flood of log lines
    server {{
        listen {host}:{port} so_keepalive={keepalive};
        limit_conn arena_tcp_address {lim.connections_per_address};
        limit_conn arena_tcp_block {lim.connections_per_block};
        proxy_pass unix:{inner};
        proxy_protocol on;
        proxy_timeout 1d;
    }}
}}
http {{
    access_log off;
    {temp}
    {block_map}
    limit_conn_zone $binary_remote_addr zone=arena_address:4m;
    limit_conn_zone $arena_block zone=arena_block:4m;
    limit_req_zone $binary_remote_addr zone=arena_calls:4m rate={lim.calls_per_second}r/s;
    limit_req_zone $arena_block zone=arena_block_calls:4m rate={lim.calls_per_second_per_block}r/s;
    limit_conn_status 429;
    limit_req_status 429;
    limit_conn_log_level info;
    limit_req_log_level info;
    server {{
        listen unix:{inner} {"ssl " if tls else ""}http2 proxy_protocol;
        set_real_ip_from unix:;
        real_ip_header proxy_protocol;
        {ssl}
        keepalive_timeout {lim.idle_seconds}s;
        client_header_timeout {lim.header_seconds}s;
        keepalive_requests {lim.calls_per_connection};
        http2_max_concurrent_streams {lim.streams_per_connection};
        large_client_header_buffers 4 {lim.header_bytes};
        # An entrant's stream may be quiet for long (between its matches): the referee,
        # not the edge, holds each stream to its deadlines.
        client_max_body_size 0;
        client_body_timeout 1d;
        limit_conn arena_address {lim.streams_per_address};
        limit_conn arena_block {lim.streams_per_block};
        limit_req zone=arena_calls burst={lim.calls_burst} nodelay;
        limit_req zone=arena_block_calls burst={lim.calls_burst_per_block} nodelay;
        location / {{
            grpc_pass grpc://{referee};
            grpc_set_header X-Arena-Client $remote_addr;
            grpc_read_timeout 1d;
            grpc_send_timeout 1d;
        }}
    }}
}}
"""


STREAM_MODULE = "/usr/lib/nginx/modules/ngx_stream_module.so"  # Debian: libnginx-mod-stream


def find_nginx() -> str:
    nginx = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )
    if nginx is None:
        raise ConfigError(
            "arena edge runs nginx, which is not installed: `apt-get install nginx "
            "libnginx-mod-stream` (Debian, Ubuntu)"
        )
    if not os.path.exists(STREAM_MODULE):
        raise ConfigError(
            f"arena edge needs nginx's stream module ({STREAM_MODULE}): "
            "`apt-get install libnginx-mod-stream` (Debian, Ubuntu)"
        )
    return nginx


def start_edge(
    listen: str,
    referee: str,
    run_dir: Path,
    *,
    tls: tuple[Path, Path] | None = None,
    limits: EdgeLimits | None = None,
) -> subprocess.Popen[bytes]:
    """Write the configuration into ``run_dir``, check it with ``nginx -t``, and start
    nginx in the foreground (the caller waits on it, or stops it with SIGQUIT)."""
    nginx = find_nginx()
    run_dir.mkdir(parents=True, exist_ok=True)
    conf = run_dir / "nginx.conf"
    conf.write_text(nginx_config(listen, referee, run_dir, tls=tls, limits=limits))
    cmd = [nginx, "-p", str(run_dir.resolve()), "-c", str(conf.resolve())]
    test = subprocess.run([*cmd, "-t", "-q"], capture_output=True, text=True, check=False)
    if test.returncode != 0:
        why = " ".join(test.stderr.split())
        raise ConfigError(f"nginx refused the edge's configuration ({conf}): {why}")
    return subprocess.Popen(cmd)


def free_loopback_port() -> int:
    """A port on 127.0.0.1 that nobody listens on now (nginx needs a concrete one)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_listening(address: str, seconds: float = 10.0) -> None:
    """Return once ``address`` (HOST:PORT) accepts a connection, as a started edge does
    when nginx is ready; raise the last ``OSError`` after ``seconds``."""
    host, port = address.rsplit(":", 1)
    end = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection((host, int(port)), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > end:
                raise
            time.sleep(0.05)


def run_edge(listen: str, referee: str, tls: tuple[Path, Path] | None = None) -> int:
    """``arena edge``: run until Ctrl-C or SIGTERM, then stop nginx gracefully."""
    with tempfile.TemporaryDirectory(prefix="arena-edge-") as tmp:
        proc = start_edge(listen, referee, Path(tmp), tls=tls)

        def stop(signum: int, frame: object) -> None:
            proc.send_signal(signal.SIGQUIT)  # nginx: finish open calls, then exit

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        try:
            return proc.wait()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
