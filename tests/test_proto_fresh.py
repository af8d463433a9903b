"""The committed generated code (arena/_proto) is what proto/*.proto generates today."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "arena" / "_proto"


def test_generated_code_matches_the_proto_files(
    missing_tool: Callable[[str, str], NoReturn],
) -> None:
    try:
        import grpc_tools.protoc  # noqa: F401 (scripts/gen_proto.py runs it)
    except ImportError:
        missing_tool(
            "grpcio-tools is not installed, so the generated code cannot be regenerated "
            "and compared",
            "pip install -e '.[test]' (the README's test command)",
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
