"""The ladder's web page and JSON API (aiohttp), served by the ladder process itself.

Read-only: nothing here changes the ladder (admin stays on the command line). Every
text a bot or organiser chose (names, versions, fault details) reaches the page as JSON
and is set as ``textContent``, never as HTML; the one server-side text, a page title,
is escaped. The leaderboard follows the ladder through server-sent events
(``/api/events``): each finished match and each re-fit is an event, and the page fetches
``/api/leaderboard`` again, without a reload.

Routes: ``/`` (leaderboard and latest matches), ``/entrant/NAME`` (rating over time,
versions, recent matches, faults), ``/match/ID`` (the replay, with the report's viewers),
and ``/api/leaderboard``, ``/api/matches``, ``/api/entrant/NAME``, ``/api/match/ID``,
``/api/events`` and ``/api/status``.

Anyone may read these, so no route serves a card that no other seat saw (rulings R14,
F11, Truf's "What every seat may know"): a replay is served only as the game's public
record (``GameEntry.public_record``), a game without one has its deals withheld, and a
fault's detail (which may list the faulting seat's cards) is never served. The full
replays stay in the database, for the organiser's ``arena ladder export``.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import sqlite3
import zlib
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from arena.core.public import public_faults
from arena.games.registry import REGISTRY
from arena.ladder.store import DB
from arena.play.run import split_listen

if TYPE_CHECKING:
    from arena.ladder.service import LadderService

MAX_LISTENERS = 256  # event streams open at once; more are refused (503)
RECENT = 20  # matches on a page
KEEPALIVE = 15.0  # seconds between comments on an idle event stream
SERVICE: web.AppKey[LadderService] = web.AppKey("service")


async def start_web(service: LadderService, http: str) -> tuple[web.AppRunner, int]:
    """Serve the page on ``http`` (HOST:PORT, port 0: any); returns the runner and port."""
    app = web.Application()
    app[SERVICE] = service
    app.add_routes(
        [
            web.get("/", page_leaderboard),
            web.get("/entrant/{name}", page_entrant),
            web.get("/match/{match}", page_match),
            web.get("/api/leaderboard", api_leaderboard),
            web.get("/api/matches", api_matches),
            web.get("/api/entrant/{name}", api_entrant),
            web.get("/api/match/{match}", api_match),
            web.get("/api/events", api_events),
            web.get("/api/status", api_status),
        ]
    )
    runner = web.AppRunner(app, access_log=None, handle_signals=False)
    await runner.setup()
    host, port = split_listen(http)
    site = web.TCPSite(runner, host.strip("[]"), int(port))
    await site.start()
    return runner, int(runner.addresses[0][1])  # the bound port, when port 0 was asked


# ---------------------------------------------------------------------- reads


def _read(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10.0)


async def _query(service: LadderService, fn: Any, *args: Any) -> Any:
    """Run ``fn(db, *args)`` on a read-only connection away from the event loop."""

    def work() -> Any:
        db = _read(service.dir / DB)
        try:
            return fn(db, *args)
        finally:
            db.close()

    return await asyncio.to_thread(work)


def _recent(db: sqlite3.Connection, limit: int, label: str | None = None) -> list[dict[str, Any]]:
    if label is None:
        rows = db.execute(
            "SELECT seq, finished, record FROM matches ORDER BY seq DESC LIMIT ?", (limit,)
        ).fetchall()
    else:
        rows = db.execute(
            "SELECT m.seq, m.finished, m.record FROM matches m JOIN seats s ON s.seq = m.seq "
            "JOIN versions v ON v.id = s.version_id WHERE v.label = ? "
            "ORDER BY m.seq DESC LIMIT ?",
            (label, limit),
        ).fetchall()
    out = []
    for seq, finished, text in rows:
        record = json.loads(text)
        out.append(
            {
                "seq": seq,
                "finished": finished,
                "match": record["match"],
                "seats": record["seats"],
                "ranks": record["ranks"],
                "totals": record["totals"],
                "faults": record.get("faults", {}),
                "disqualified": record.get("disqualified", []),
            }
        )
    return out


def _deals(blob: bytes) -> list[dict[str, Any]]:
    """A match's replay records, as stored (every hand: never served as they are)."""
    return [json.loads(line) for line in zlib.decompress(blob).decode("utf-8").splitlines()]


def _public_faults(deal: dict[str, Any], game: str) -> list[dict[str, Any]]:
    """A deal's faults as its public record has them (no detail; the fallback played as
    the other seats saw it); for a game without one, neither detail nor fallback."""
    public = REGISTRY[game].public_record
    if public is None:
        return [{**f, "played": None} for f in public_faults(deal.get("faults", []))]
    faults: list[dict[str, Any]] = public(deal)["faults"]
    return faults


def _entrant(db: sqlite3.Connection, name: str, game: str) -> dict[str, Any] | None:
    row = db.execute("SELECT id, status, reason FROM entrants WHERE name = ?", (name,)).fetchone()
    if row is None:
        return None
    entrant_id, status, reason = row
    versions = []
    history: dict[str, list[list[float]]] = {}
    faults: list[dict[str, Any]] = []
    recent: list[dict[str, Any]] = []
    for vid, version, label, first_seen in db.execute(
        "SELECT id, version, label, first_seen FROM versions WHERE entrant_id = ? ORDER BY id",
        (entrant_id,),
    ).fetchall():
        points = db.execute(
            "SELECT seq, mu, sigma FROM ratings WHERE version_id = ? ORDER BY seq", (vid,)
        ).fetchall()
        history[label] = [[s, round(m, 3), round(g, 3)] for s, m, g in points]
        versions.append(
            {"version": version, "label": label, "first_seen": first_seen, "matches": len(points)}
        )
        recent.extend(_recent(db, RECENT, label))
    recent.sort(key=lambda m: -m["seq"])
    recent = recent[:RECENT]
    labels = {v["label"] for v in versions}
    for m in recent:
        seats = m["seats"]
        if not any(sum(int(v[s]) for v in m["faults"].values()) for s, lab in enumerate(seats)
                   if lab in labels):  # fmt: skip
            continue
        (blob,) = db.execute("SELECT replay FROM matches WHERE seq = ?", (m["seq"],)).fetchone()
        for deal in _deals(blob):
            for fault in _public_faults(deal, game):
                if seats[fault["seat"]] in labels:
                    faults.append({"match": m["match"], "label": seats[fault["seat"]], **fault})
    return {
        "name": name,
        "status": status,
        "reason": reason,
        "versions": versions,
        "history": history,
        "recent": recent,
        "faults": faults[:200],
    }


def _match(db: sqlite3.Connection, match_id: str, game: str) -> dict[str, Any] | None:
    """A finished match's line and its deals as the game's public records; with
    ``public`` false and no deals when the game does not say what of a deal is public."""
    row = db.execute(
        "SELECT record, replay FROM matches WHERE match_id = ?", (match_id,)
    ).fetchone()
    if row is None:
        return None
    text, blob = row
    public = REGISTRY[game].public_record
    deals = [] if public is None else [public(deal) for deal in _deals(blob)]
    return {"record": json.loads(text), "deals": deals, "public": public is not None}


# ----------------------------------------------------------------------- API


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, dumps=lambda d: json.dumps(d, ensure_ascii=False))


async def api_leaderboard(request: web.Request) -> web.Response:
    service = request.app[SERVICE]
    state = service.state
    return _json(
        {
            "game": state.game,
            "title": state.title,
            "matches": state.matches,
            "in_play": state.in_play,
            "fitted_through": state.fitted_through,
            "rows": service.leaderboard(),
        }
    )


async def api_status(request: web.Request) -> web.Response:
    """How the ladder runs: connected bots, tables in play and started, and the time the
    matchmaker has spent choosing them (bench/ladder.py reads it)."""
    service = request.app[SERVICE]
    return _json(
        {
            "connected": len(service.live),
            "in_play": service.state.in_play,
            "matches": service.state.matches,
            "tables_started": service.matchmaker_tables,
            "matchmaking_seconds": service.matchmaking_seconds,
        }
    )


async def api_matches(request: web.Request) -> web.Response:
    try:
        limit = max(1, min(200, int(request.query.get("limit", RECENT))))
    except ValueError:
        return _json({"error": "limit must be a whole number"}, 400)
    return _json(await _query(request.app[SERVICE], _recent, limit))


async def api_entrant(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    service = request.app[SERVICE]
    found = await _query(service, _entrant, name, service.game.name)
    if found is None:
        return _json({"error": f"no entrant {name}"}, 404)
    return _json(found)


async def api_match(request: web.Request) -> web.Response:
    match_id = request.match_info["match"]
    service = request.app[SERVICE]
    found = await _query(service, _match, match_id, service.game.name)
    if found is None:
        return _json({"error": f"no finished match {match_id}"}, 404)
    return _json(found)


async def api_events(request: web.Request) -> web.StreamResponse:
    """Server-sent events: ``match`` (a match finished and is recorded) and ``refit``."""
    service = request.app[SERVICE]
    if len(service.listeners) >= MAX_LISTENERS:
        return _json({"error": "too many event streams open; try again later"}, 503)
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
    )
    await response.prepare(request)
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    service.listeners.add(queue)
    try:
        await response.write(b": connected\n\n")
        while True:
            try:
                event = await asyncio.wait_for(queue.get(), KEEPALIVE)
            except TimeoutError:
                await response.write(b": keepalive\n\n")
                continue
            kind = "refit" if "refit" in event else "match"
            data = json.dumps(event, ensure_ascii=False)
            await response.write(f"event: {kind}\ndata: {data}\n\n".encode())
    except (ConnectionResetError, asyncio.CancelledError):
        pass
    finally:
        service.listeners.discard(queue)
    with contextlib.suppress(Exception):
        await response.write_eof()
    return response


# ---------------------------------------------------------------------- pages


def _asset(name: str) -> str:
    return (resources.files("arena.report") / "assets" / name).read_text(encoding="utf-8")


def _script(name: str) -> str:
    """A page's script: the shared helpers, then its own (``assets/NAME.js``)."""
    assets = resources.files("arena.ladder") / "assets"
    return "\n".join((assets / f).read_text(encoding="utf-8") for f in ("common.js", name))


def _page(title: str, body: str, script: str, extra: str = "") -> web.Response:
    text = PAGE.format(title=html.escape(title), body=body, script=_script(script), extra=extra)
    return web.Response(text=text, content_type="text/html", charset="utf-8")


async def page_leaderboard(request: web.Request) -> web.Response:
    state = request.app[SERVICE].state
    return _page(f"{state.title} ladder", LEADERBOARD_BODY, "leaderboard.js")


async def page_entrant(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    return _page(f"{name} · ladder", ENTRANT_BODY, "entrant.js")


async def page_match(request: web.Request) -> web.Response:
    service = request.app[SERVICE]
    entry = REGISTRY[service.game.name]
    viewers = ""
    if entry.viewer:
        viewers = (resources.files(entry.viewer) / "viewer.js").read_text(encoding="utf-8")
    viewer_name = entry.viewer.rsplit(".", 1)[-1] if entry.viewer else ""
    extra = (
        f"<style>{_asset('report.css')}</style>"
        f"<script>window.arenaViewers = {{}};</script><script>{viewers}</script>"
        f'<script id="viewer-name" type="application/json">{json.dumps(viewer_name)}</script>'
    )
    return _page(f"match {request.match_info['match']}", MATCH_BODY, "match.js", extra)


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><link rel="icon" href="data:,">
<style>
body {{ font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1100px; padding: 1em; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ padding: .25em .5em; border-bottom: 1px solid #ddd; text-align: left; }}
td.num, th.num {{ text-align: right; font-variant-numeric: tabular-nums; }}
.muted {{ color: #666; }} .on {{ color: #16a34a; }} .bad {{ color: #dc2626; }}
#recent li.fresh {{ background: #fef9c3; }}
</style>{extra}</head>
<body><p><a href="/">Leaderboard</a></p>{body}<script>{script}</script></body></html>"""

LEADERBOARD_BODY = """<h1 id="title">Ladder</h1>
<p id="summary" class="muted"></p>
<table id="leaderboard"><thead><tr><th class="num">#</th><th>entrant</th><th>version</th>
<th class="num">matches</th><th class="num">μ</th><th class="num">σ</th>
<th class="num">μ−3σ</th><th class="num">wins</th><th class="num">faults</th><th></th></tr>
</thead><tbody></tbody></table>
<p class="muted">Sorted by μ−3σ of the re-fit of every match at once (the exact posterior of
the points model; the order the matches came in does not matter). Updates live.</p>
<h2>Latest matches</h2><ol id="recent"></ol>"""


ENTRANT_BODY = """<h1 id="name"></h1><p id="status" class="muted"></p>
<h2>Rating over time</h2><div id="chart"></div><p class="muted">TrueSkill μ after each of the
version's matches (± 3σ dotted).</p>
<h2>Versions</h2><table id="versions"><thead><tr><th>version</th><th>first seen</th>
<th class="num">matches</th></tr></thead><tbody></tbody></table>
<h2>Recent matches</h2><ol id="matches"></ol>
<h2>Faults</h2><table id="faults"><thead><tr><th>match</th><th>version</th><th>deal</th>
<th>kind</th><th>detail</th></tr></thead><tbody></tbody></table>"""


MATCH_BODY = """<h1 id="title"></h1><p id="result" class="muted"></p>
<div class="viewer-nav"><button class="btn" id="prev-step">◀</button>
<span id="step-label" class="step-label"></span><button class="btn" id="next-step">▶</button></div>
<p class="muted keys">Keys: ← → one step</p><div id="viewer-body"></div>"""
