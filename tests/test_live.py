"""The CLI's live display: provisional standings while a run plays, gone once it ends."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from arena.report.live import LiveDisplay

RECORD = {
    "match": "r0001-t01",
    "seats": ["a", "b", "c", "d"],
    "teams": [[0], [1], [2], [3]],
    "ranks": [1, 2, 3, 4],
}


def _console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, force_terminal=False, width=100), buf


def test_a_finished_run_leaves_only_its_progress_bar() -> None:
    # The leaderboard printed next rates in schedule order; the live standings rated in
    # the order matches ended, so leaving them up would show two sets of figures.
    console, buf = _console()
    with LiveDisplay(console, 1, RECORD["seats"]) as display:
        display.update(RECORD, 56)
    out = buf.getvalue()
    assert "1/1" in out
    assert "standings" not in out


def test_an_interrupted_run_keeps_its_last_standings() -> None:
    console, buf = _console()
    with pytest.raises(KeyboardInterrupt), LiveDisplay(console, 2, RECORD["seats"]) as display:
        display.update(RECORD, 56)
        raise KeyboardInterrupt
    out = buf.getvalue()
    assert "1/2" in out
    assert "standings" in out
    assert out.index(" a ") < out.index(" d ")  # a won the one match rated
