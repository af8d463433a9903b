"""Adversarial bots on the raw generated stub, as programs, for tests/test_adversaries.py.

    python tests/rawbots.py KIND --connect HOST:PORT --token TOKEN

Each plays index 0 (the first legal action) except for its one kind of misbehaviour.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena._proto.truf.arena.v1 import arena_pb2 as pb  # noqa: E402

METHOD = "/truf.arena.v1.ArenaService/Play"
KINDS = ("sleeper", "illegal", "garbage", "wrongid", "disconnector", "reconnector", "flooder",
         "oversized", "impersonator")  # fmt: skip


def answer(request_id: int, index: int = 0) -> pb.PlayRequest:
    msg = pb.PlayRequest()
    msg.answer.request_id = request_id
    msg.answer.index = index
    return msg


class Connection:
    def __init__(self, address: str, token: str) -> None:
        self.channel = grpc.insecure_channel(address)
        self.outbox: queue.SimpleQueue[pb.PlayRequest | bytes | None] = queue.SimpleQueue()
        hello = pb.PlayRequest()
        hello.hello.protocol_version, hello.hello.bot_name = 1, "adversary"
        hello.hello.token, hello.hello.capacity = token, 4
        self.outbox.put(hello)
        play = self.channel.stream_stream(
            METHOD,
            request_serializer=lambda m: m if isinstance(m, bytes) else m.SerializeToString(),
            response_deserializer=pb.PlayResponse.FromString,
        )
        self.call = play(self._requests())

    def _requests(self) -> Iterator[pb.PlayRequest | bytes]:
        while (msg := self.outbox.get()) is not None:
            yield msg

    def send(self, msg: pb.PlayRequest | bytes) -> None:
        self.outbox.put(msg)

    def close(self) -> None:
        self.outbox.put(None)
        self.call.cancel()
        self.channel.close()


def play(kind: str, address: str, token: str, sleep: float = 0.5) -> int:
    """Returns the exit code. The sleeper sleeps ``sleep`` seconds every fifth decision."""
    decisions = 0
    conn = Connection(address, token)
    while True:
        try:
            for msg in conn.call:
                what = msg.WhichOneof("message")
                if what == "tournament_over":
                    conn.close()
                    return 0
                if what != "decision_request":
                    continue
                rid = msg.decision_request.request_id
                decisions += 1
                nth = decisions % 5 == 0
                if kind == "sleeper" and nth:
                    time.sleep(sleep)  # past the referee's decision timeout
                if kind == "illegal" and nth:
                    conn.send(answer(rid, index=99))
                elif kind == "garbage" and nth:
                    conn.send(b"\xff\xff\xff\xffnot a protobuf message")
                elif kind == "wrongid" and nth:
                    conn.send(answer(rid + 1000))
                elif kind in ("disconnector", "reconnector") and decisions == 10:
                    conn.close()
                    if kind == "disconnector":
                        return 0  # and never comes back
                    time.sleep(0.2)
                    conn = Connection(address, token)  # the same token: the same seat
                    break
                elif kind == "flooder" and decisions == 10:
                    for n in range(500):
                        conn.send(answer(rid + 10_000 + n))
                elif kind == "oversized" and decisions == 10:
                    big = answer(rid)
                    big.answer.truf.declare.cards.extend(["AS"] * 40_000)
                    conn.send(big)
                else:
                    conn.send(answer(rid))
            else:
                return 0
        except grpc.RpcError as exc:
            print(f"{kind}: {exc.code().name}: {exc.details()}", flush=True)
            return 1


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=KINDS)
    parser.add_argument("--connect", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--sleep", type=float, default=0.5, help="the sleeper's nap, s")
    args = parser.parse_args()
    if args.kind == "impersonator":  # someone else's token, while its owner is connected
        conn = Connection(args.connect, args.token)
        try:
            next(iter(conn.call))
        except grpc.RpcError as exc:
            print(f"impersonator: {exc.code().name}: {exc.details()}", flush=True)
            sys.exit(1)
        sys.exit(0)
    sys.exit(play(args.kind, args.connect, args.token, args.sleep))


if __name__ == "__main__":
    main()
