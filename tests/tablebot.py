"""A bot on the raw generated stub that keeps its state per ``table_id``, as the proto
invites, for tests/test_check.py:

    python tests/tablebot.py --connect HOST:PORT

It answers index 0 and prints one JSON line per message that names a table (decision
requests, deal and match results), so that the test can check that every table it saw
was one consistent table: one seat, one match, a position that only moves forward.
"""

from __future__ import annotations

import argparse
import json
import queue
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena._proto.truf.arena.v1 import arena_pb2 as pb  # noqa: E402
from arena._proto.truf.arena.v1 import arena_pb2_grpc as pb_grpc  # noqa: E402


def seen(msg: pb.PlayResponse) -> dict[str, Any] | None:
    """What a table-keeping bot would file under the message's table id."""
    kind = msg.WhichOneof("message")
    if kind == "decision_request":
        req = msg.decision_request
        view = req.truf.view
        return {
            "kind": kind,
            "table_id": req.table_id,
            "match_id": req.match_id,
            "view_match_id": view.match_id,
            "seat": req.seat,
            "deal": req.deal,
            "phase": view.phase,
            "hand": list(view.hand),
            "tricks": [[c.card for c in t.cards] for t in view.tricks],
            "totals": list(view.totals),
        }
    if kind in ("deal_result", "match_result"):
        res = getattr(msg, kind)
        return {"kind": kind, "table_id": res.table_id, "match_id": res.match_id}
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connect", required=True)
    address = parser.parse_args().connect
    outbox: queue.SimpleQueue[pb.PlayRequest | None] = queue.SimpleQueue()
    hello = pb.PlayRequest()
    hello.hello.protocol_version, hello.hello.bot_name = 1, "tablebot"
    outbox.put(hello)

    def requests() -> Iterator[pb.PlayRequest]:
        while (out := outbox.get()) is not None:
            yield out

    # Started with the checker: retry the connection every 0.1 s until it listens.
    options = [("grpc.initial_reconnect_backoff_ms", 100), ("grpc.max_reconnect_backoff_ms", 100)]
    with grpc.insecure_channel(address, options=options) as channel:
        for msg in pb_grpc.ArenaServiceStub(channel).Play(requests(), wait_for_ready=True):
            if (record := seen(msg)) is not None:
                print(json.dumps(record), flush=True)
            if msg.WhichOneof("message") == "decision_request":
                answer = pb.PlayRequest()
                answer.answer.request_id = msg.decision_request.request_id
                answer.answer.index = 0
                outbox.put(answer)
            elif msg.WhichOneof("message") == "tournament_over":
                break
    outbox.put(None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
