"""The tournament report: one self-contained HTML file, ``DIR/report.html``.

Built from a results directory's files alone (``arena.report.data``), it holds its own
styles, scripts and charts (uPlot, vendored in ``assets/``), so it opens offline from
disk. Each game's replay viewer is its package's ``viewer.js``, named by the game's
``REGISTRY`` entry; a game without one gets a note that its replays are not yet viewable.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from arena.core.files import write_atomic
from arena.games.registry import REGISTRY
from arena.report.data import ReportData, collect

REPORT = "report.html"
_ASSETS = resources.files("arena.report") / "assets"


def write_report(directory: Path, *, run: Any = None) -> Path:
    """Write ``directory/report.html`` and return its path; a ``ValueError`` that names
    the file and line when a results file is broken. ``run``: the run's finished
    ``arena.standings.runratings.RunRatings``, whose history the rating chart shows (None:
    the matches are rated again)."""
    data = collect(directory, run=run)
    path = directory / REPORT
    write_atomic(path, render(data))
    return path


def _asset(name: str) -> str:
    return (_ASSETS / name).read_text(encoding="utf-8")


def _script_json(value: object) -> str:
    """JSON safe inside a <script> element: no "</" can close it early."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def _viewers() -> str:
    """Every registered game's viewer script (they are small); each one registers
    itself in ``window.arenaViewers`` under its package's last name."""
    out = []
    for entry in REGISTRY.values():
        if entry.viewer:
            out.append((resources.files(entry.viewer) / "viewer.js").read_text(encoding="utf-8"))
    return "\n".join(out)


def render(data: ReportData) -> str:
    title = f"{data.summary['game']['title']} tournament · {data.summary['title']}"
    return _asset("report.html").format_map(
        {
            "title": _html_escape(title),
            "uplot_css": _asset("uPlot.min.css"),
            "css": _asset("report.css"),
            "uplot_js": _asset("uPlot.iife.min.js"),
            "summary": _script_json(data.summary),
            "replays": _script_json(data.replays),
            "viewers": _viewers(),
            "js": _asset("report.js"),
        }
    )


def _html_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
