"""The proto passes ``buf lint`` (STANDARD rules, buf.yaml), and the lint does bite."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "tools" / "buf"
BUF = TOOLS / "node_modules" / ".bin" / "buf"


@pytest.fixture(scope="module")
def buf(missing_tool: Callable[[str, str], NoReturn]) -> Path:
    # The npm package's `buf` is a Node.js launcher (#!/usr/bin/env node), so both are needed.
    missing = [tool for tool in ("npm", "node") if shutil.which(tool) is None]
    if missing:
        missing_tool(
            f"{' and '.join(missing)} not on PATH: cannot run buf (tools/buf/package.json)",
            "Node.js >= 20 with npm (e.g. apt-get install nodejs npm); this test then runs "
            "npm install --prefix tools/buf --no-package-lock itself, as .ci/run does",
        )
    if not BUF.exists():
        # No lockfile: the registry mirror lacks buf's other-platform packages, so npm writes
        # a lockfile that `npm ci` refuses; package.json pins the exact version instead.
        install = ["npm", "install", "--prefix", str(TOOLS), "--no-package-lock", "--no-audit"]
        done = subprocess.run(install, capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, f"{' '.join(install)} failed:\n{done.stdout}{done.stderr}"
    return BUF


def lint(buf: Path, root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(buf), "lint"], cwd=root, capture_output=True, text=True, timeout=120, check=False
    )


def test_the_proto_passes_buf_lint(buf: Path) -> None:
    done = lint(buf, ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_buf_lint_catches_a_bad_proto(buf: Path, tmp_path: Path) -> None:
    shutil.copy(ROOT / "buf.yaml", tmp_path / "buf.yaml")
    shutil.copytree(ROOT / "proto", tmp_path / "proto")
    bad = tmp_path / "proto" / "truf" / "arena" / "v1" / "truf.proto"
    bad.write_text(bad.read_text() + "\nenum bad_enum {\n  ZERO = 0;\n}\n")
    done = lint(buf, tmp_path)
    assert done.returncode != 0
    assert "bad_enum" in done.stdout + done.stderr
