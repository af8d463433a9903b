"""A raw HTTP/2 client for attacking the referee as an outsider would: frames written by
hand on a socket bound to a chosen loopback source address (127.0.0.0/8 only), the
server's frames read back and sorted by kind. No HTTP/2 library: the attacker needs
only to write frames, never to be a correct client. Used by bench/flood.py and by
tests/test_front_door.py. Imports nothing of grpc.

Headers are HPACK "literal without indexing" fields with plain (not Huffman) strings,
which every decoder must accept; the server's own headers are never decoded: a stream's
end (HEADERS or DATA with END_STREAM, or RST_STREAM) and GOAWAY are what count.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct
import threading

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = (
    0, 1, 3, 4, 6, 7, 8, 9,
)  # fmt: skip
END_STREAM, END_HEADERS, ACK = 0x1, 0x4, 0x1
UNKNOWN_TYPE = 0xFA  # a frame type no HTTP/2 version defines: receivers must ignore it


def frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return (
        struct.pack(">I", len(payload))[1:]
        + bytes((kind, flags))
        + struct.pack(">I", stream & 0x7FFFFFFF)
        + payload
    )


def _int(value: int, prefix: int, first: int = 0) -> bytes:
    """An HPACK integer with a ``prefix``-bit prefix (RFC 7541 5.1)."""
    limit = (1 << prefix) - 1
    if value < limit:
        return bytes((first | value,))
    out = [first | limit]
    value -= limit
    while value >= 128:
        out.append(value % 128 + 128)
        value //= 128
    out.append(value)
    return bytes(out)


def header_block(fields: list[tuple[str, str]]) -> bytes:
    """Literal header fields without indexing, new names, plain strings."""
    out = bytearray()
    for name, value in fields:
        n, v = name.encode(), value.encode()
        out += b"\x00" + _int(len(n), 7) + n + _int(len(v), 7) + v
    return bytes(out)


def grpc_headers(path: str, extra: list[tuple[str, str]] | None = None) -> bytes:
    return header_block(
        [
            (":method", "POST"),
            (":scheme", "http"),
            (":path", path),
            (":authority", "referee"),
            ("content-type", "application/grpc"),
            ("te", "trailers"),
            *(extra or []),
        ]
    )


def grpc_message(body: bytes) -> bytes:
    return b"\x00" + struct.pack(">I", len(body)) + body


HEALTH_CHECK = "/grpc.health.v1.Health/Check"
PLAY = "/truf.arena.v1.ArenaService/Play"


def loopback_sources(count: int, per_block: int) -> list[str]:
    """``count`` source addresses in 127.0.0.0/8, ``per_block`` in each /24, starting at
    127.1.0.2 (127.0.0.1, where honest bots dial from, is never one of them)."""
    out = []
    for i in range(count):
        block, host = divmod(i, per_block)
        address = f"127.{1 + block // 250}.{block % 250}.{2 + host}"
        assert ipaddress.ip_address(address) in ipaddress.ip_network("127.0.0.0/8")
        out.append(address)
    return out


def loopback_only(*addresses: str) -> None:
    """Refuse any address outside loopback: an attack here never leaves the machine."""
    if not all(ipaddress.ip_address(a).is_loopback for a in addresses):
        raise ValueError("loopback only")


class Conn:
    """One HTTP/2 connection from ``source`` to ``address`` (``host:port``, loopback).

    A thread reads what the server sends: the streams it ended, whether it sent GOAWAY,
    and when the connection closed. ``ended`` and ``closed`` are events to wait on."""

    def __init__(
        self, address: str, source: str = "127.0.0.1", timeout: float = 10.0, parse: bool = True
    ) -> None:
        host, port = address.rsplit(":", 1)
        loopback_only(host, source)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.bind((source, 0))
        self.sock.connect((host, int(port)))
        self.next_stream = 1
        self.lock = threading.Lock()
        self.ended_streams: set[int] = set()
        self.goaway = False
        self.closed = threading.Event()
        self.changed = threading.Condition(self.lock)
        self.received = 0  # bytes
        self.parse = parse  # False: only drain what the server sends (a flooder's reader)
        self.sock.sendall(PREFACE + frame(SETTINGS, 0, 0))
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        buf = b""
        try:
            while True:
                try:
                    chunk = self.sock.recv(65536)
                except TimeoutError:  # the socket's timeout is for sends: keep reading
                    continue
                if not chunk:
                    break
                self.received += len(chunk)
                if not self.parse:
                    continue
                buf += chunk
                while len(buf) >= 9:
                    length = int.from_bytes(buf[:3], "big")
                    if len(buf) < 9 + length:
                        break
                    kind, flags = buf[3], buf[4]
                    stream = int.from_bytes(buf[5:9], "big") & 0x7FFFFFFF
                    buf = buf[9 + length :]
                    with self.lock:
                        if kind == GOAWAY:
                            self.goaway = True
                        elif kind == RST_STREAM or (kind in (HEADERS, DATA) and flags & END_STREAM):
                            self.ended_streams.add(stream)
                        self.changed.notify_all()
        except OSError:
            pass
        finally:
            self.closed.set()
            with self.lock:
                self.changed.notify_all()

    def send(self, data: bytes) -> bool:
        """Write ``data``; False once the server has closed the connection, or has not
        read for the socket's timeout."""
        try:
            self.sock.sendall(data)
            return True
        except OSError:
            return False

    def new_stream(self) -> int:
        sid = self.next_stream
        self.next_stream += 2
        return sid

    def open_call(self, path: str, end_headers: bool = True) -> int:
        """A call's HEADERS, and nothing more: the call waits for its message."""
        sid = self.new_stream()
        self.send(frame(HEADERS, END_HEADERS if end_headers else 0, sid, grpc_headers(path)))
        return sid

    def wait_ended(self, streams: set[int], timeout: float) -> bool:
        """Wait until the server has ended every stream in ``streams`` (or closed the
        connection); whether it did within ``timeout``."""
        with self.lock:
            return self.changed.wait_for(
                lambda: streams <= self.ended_streams or self.closed.is_set(), timeout
            )

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        self.reader.join(5)
