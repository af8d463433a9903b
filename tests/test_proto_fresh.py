"""The committed generated code (arena/_proto) is what proto/*.proto generates today."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "arena" / "_proto"


def test_generated_code_matches_the_proto_files() -> None:
    pytest.importorskip(
        "grpc_tools.protoc",
        reason="grpcio-tools is not installed (pip install -e '.[test]'), so the generated "
        "code cannot be regenerated and compared",
    )
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_proto.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_generated_modules_import_from_inside_the_package() -> None:
    """Never a flat ``import arena_pb2`` or ``from truf.arena.v1 import ...``."""
    for path in sorted(GENERATED.rglob("*.py*")):
        if path.suffix not in (".py", ".pyi"):
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith(("import ", "from ")) and "_pb2" in line:
                ours = line.startswith("from arena._proto.")
                assert ours or line.startswith("from google.protobuf "), f"{path.name}: {line}"


def test_message_classes_live_in_their_package_module() -> None:
    from arena._proto.truf.arena.v1 import arena_pb2, truf_pb2

    assert arena_pb2.PlayRequest.__module__ == "arena._proto.truf.arena.v1.arena_pb2"
    assert truf_pb2.TrufView.__module__ == "arena._proto.truf.arena.v1.truf_pb2"
