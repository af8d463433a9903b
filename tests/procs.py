"""Processes as the tests see them: a process's children, read from /proc (Linux), and
the benches run as a user runs them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_bench(script: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python bench/SCRIPT ARGS`` from the repository's root, its output captured."""
    return subprocess.run(
        [sys.executable, f"bench/{script}", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _where(field: int, value: int) -> list[int]:
    """The pids whose /proc stat field ``field`` (after the name: 0 state, 1 ppid, 2 pgrp)
    is ``value``."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[field]) == value:
            out.append(int(stat.parent.name))
    return out


def children_of(pid: int) -> list[int]:
    """The pids whose parent is ``pid``."""
    return _where(1, pid)


def group_of(pgid: int) -> list[int]:
    """The pids in process group ``pgid``."""
    return _where(2, pgid)


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
