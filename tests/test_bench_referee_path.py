"""bench/referee_path.py runs the referee's real per-decision code without a network:
whole matches, every request answered (not timed: speed is the bench's to report)."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[1] / "bench" / "referee_path.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("referee_path_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    saved = list(sys.path)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved
    return module


def test_the_referee_path_plays_whole_matches_and_the_floor_the_round_trips_asked() -> None:
    bench = load()
    done, _ = asyncio.run(bench.referee_path(1))
    # One whole match: 13 deals of 4 bids, perhaps a mode choice (C5), and 52 plays.
    assert 13 * 56 <= done <= 13 * 57
    done, _ = asyncio.run(bench.floor_path(200))
    assert done == 200
