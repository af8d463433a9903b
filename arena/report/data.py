"""What the HTML report shows, computed from a results directory's files alone.

Reads ``tournament.json`` (optional: results copied without it still make a report),
``matches.jsonl`` and ``replays.jsonl`` (formats in ``docs/results.md``) and returns one
JSON-able summary plus each finished match's replay lines, compressed: the page inflates
a match's deals only when it is opened. Knows games only through ``arena.games.registry.REGISTRY``.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.games.registry import REGISTRY, GameEntry, record_game
from arena.play.run import RunConfig, load_config
from arena.standings.leaderboard import (
    ResultsError,
    build_leaderboard,
    format_cell,
    headers_of,
    load_matches,
    read_leaderboard_json,
    row_columns,
)
from arena.standings.places import record_places
from arena.standings.ratings import Ratings, match_order
from arena.standings.results import MATCHES, REPLAYS, TOURNAMENT, read_jsonl_numbered

LEADERBOARD_JSON = "leaderboard.json"
FAULT_LOG_LIMIT = 1000  # fault lines listed; the rest are counted
_FAULT_COLUMNS = frozenset({"timeouts", "illegal", "disconnects", "forfeits", "disqualified"})


@dataclass(frozen=True)
class ReportData:
    summary: dict[str, Any]  # everything but the replays
    replays: dict[str, str]  # match id -> its deal lines, zlib-compressed, base64


def collect(directory: Path) -> ReportData:
    """The report's data; a ``ValueError`` naming the file (and line) when one is broken."""
    if not directory.is_dir():
        raise ValueError(f"{directory} is not a directory")
    matches_path = directory / MATCHES
    if not matches_path.exists():
        raise ValueError(f"{directory} is not a results directory: no {MATCHES}")
    records = sorted(load_matches(matches_path), key=match_order)
    config, description = _tournament(directory)
    entrants = config.entrants() if config else None
    game = config.game if config else (record_game(records[0]) if records else "truf")
    entry = REGISTRY.get(game)
    if entry is None:
        raise ResultsError(f"{directory}: unknown game {game!r}")
    rows = _leaderboard_rows(directory, records, entrants, game)
    names = [row.bot for row in rows]
    replays, outcomes, faults = _replays(directory / REPLAYS, records, entry, names)
    summary = {
        "title": directory.resolve().name,
        "game": {
            "name": game,
            "title": entry.title,
            "rules": description,
            "about": _about(entry, description),
        },
        "viewer": entry.viewer.rsplit(".", 1)[-1] if entry.viewer else None,
        "entrants": names,
        "leaderboard": _leaderboard(rows),
        "ratings": _rating_history(records, names),
        "h2h": _head_to_head(records, names),
        "outcomes": outcomes,
        "faults": faults,
        "matches": [_match_row(r) for r in records],
    }
    return ReportData(summary, replays)


def _tournament(directory: Path) -> tuple[RunConfig | None, dict[str, Any]]:
    """The run's configuration and game description, or (None, {}) without the file."""
    if not (directory / TOURNAMENT).exists():
        return None, {}
    config = load_config(directory)  # names the file and line when it is broken
    data = json.loads((directory / TOURNAMENT).read_text(encoding="utf-8"))
    game = data.get("game")
    description = {k: v for k, v in (game.items() if isinstance(game, dict) else ()) if k != "game"}
    for key in ("randomness", "seed"):
        if data.get(key) is not None:
            description[key] = data[key]
    return config, description


def _about(entry: GameEntry, description: Mapping[str, Any]) -> list[str]:
    """The subtitle's parts in a reader's words: the game's rules (``GameEntry.rules_text``)
    and how the deals were made; [] when the game has no words for its rules."""
    if entry.rules_text is None:
        return []
    rules = {k: v for k, v in description.items() if k not in ("randomness", "seed")}
    out = list(entry.rules_text(rules))
    if "deals_file" in rules and isinstance(rules["deals_file"], Mapping):
        out.append(f"{rules['deals_file'].get('deals')} given {entry.deal_word}s first")
    if description.get("randomness") == "secret":
        out.append(f"secret {entry.deal_word}s")
    elif description.get("seed") is not None:
        out.append(f"seed {description['seed']} ({entry.deal_word}s not secret)")
    return out


def _leaderboard_rows(
    directory: Path,
    records: Sequence[Mapping[str, Any]],
    entrants: Sequence[str] | None,
    game: str,
) -> list[Any]:
    """The rows of ``leaderboard.json`` when it was written from these matches (a finished
    run's, just written: rating every match again would double the report's time), else
    the rows ``arena leaderboard`` builds from ``matches.jsonl``."""
    path = directory / LEADERBOARD_JSON
    if path.exists():
        rows, meta = read_leaderboard_json(path)
        if meta.get("matches") == len(records) and (
            {row.bot for row in rows}
            == {n for r in records for n in r["seats"]} | set(entrants or ())
        ):
            return rows
    return build_leaderboard(records, entrants, game=game)


def _leaderboard(rows: Sequence[Any]) -> dict[str, Any]:
    """The terminal's columns and cells (``arena.standings.leaderboard.headers_of``,
    ``format_cell``)."""
    if not rows:
        return {"columns": [], "rows": []}
    headers = headers_of(row_columns(rows[0]))
    return {
        "columns": [
            {"key": c, "header": h, "fault": c in _FAULT_COLUMNS, "text": c == "bot"}
            for c, h in headers
        ],
        "rows": [[format_cell(c, getattr(row, c)) for c, _ in headers] for row in rows],
    }


def _rating_history(records: Sequence[Mapping[str, Any]], names: Sequence[str]) -> dict[str, Any]:
    """Every entrant's mu and sigma after each match, in schedule order (the rating's)."""
    ratings = Ratings()
    mu = {n: [round(ratings.rating(n).mu, 2)] for n in names}
    sigma = {n: [round(ratings.rating(n).sigma, 2)] for n in names}
    for record in records:
        ratings.rate_match(record)
        for n in names:
            r = ratings.rating(n)
            mu[n].append(round(r.mu, 2))
            sigma[n].append(round(r.sigma, 2))
    return {"mu": mu, "sigma": sigma, "labels": ["start", *(str(r["match"]) for r in records)]}


def _head_to_head(records: Sequence[Mapping[str, Any]], names: Sequence[str]) -> dict[str, Any]:
    """above[a][b]: matches in which a finished above b (a better rank); shared[a][b]:
    matches they played on opposing teams (partners never play against each other)."""
    index = {n: i for i, n in enumerate(names)}
    size = len(names)
    above = [[0] * size for _ in range(size)]
    shared = [[0] * size for _ in range(size)]
    for record in records:
        team_of = {s: t for t, team in enumerate(record["teams"]) for s in team}
        seats, ranks = record["seats"], record_places(record)
        for a, name_a in enumerate(seats):
            for b, name_b in enumerate(seats):
                if team_of[a] == team_of[b]:
                    continue
                i, j = index[name_a], index[name_b]
                shared[i][j] += 1
                above[i][j] += ranks[a] < ranks[b]
    return {"above": above, "shared": shared}


def _match_row(record: Mapping[str, Any]) -> list[Any]:
    faults = sum(sum(counts) for counts in record["faults"].values())
    return [
        record["match"],
        record["round"],
        record["table"],
        record["seats"],
        record["totals"],
        record_places(record),
        record["deals"],
        faults,
    ]


def _replays(
    path: Path,
    records: Sequence[Mapping[str, Any]],
    entry: GameEntry,
    names: Sequence[str],
) -> tuple[dict[str, str], dict[str, Any] | None, dict[str, Any]]:
    """Each finished match's deal lines (compressed), the per-entrant deal outcomes and
    the fault log. Lines of a match with no match line (unfinished) are left out."""
    finished = {str(r["match"]) for r in records}
    lines: dict[str, list[tuple[int, str]]] = defaultdict(list)
    scores: dict[str, Counter[int]] = defaultdict(Counter)
    bids: dict[str, Counter[tuple[int, int]]] = defaultdict(Counter)
    faults: list[list[Any]] = []
    total_faults = 0
    numbered = read_jsonl_numbered(path)  # names the line of a bad one
    # The lines as written (numbered from 1; a torn last line is -1, the list's last):
    # packed as they are, not encoded again.
    texts = path.read_text(encoding="utf-8").split("\n") if numbered else []
    for number, record in numbered:
        match = record.get("match")
        if match not in finished:
            continue
        try:
            deal = int(record["deal"])
            seats = list(record["seats"])
            outcomes = entry.seat_outcomes(record) if entry.seat_outcomes else []
            for seat, (score, bid, took) in enumerate(outcomes):
                scores[seats[seat]][score] += 1
                if bid is not None and took is not None:
                    bids[seats[seat]][bid, took] += 1
            for fault in record["faults"]:
                total_faults += 1
                if len(faults) < FAULT_LOG_LIMIT:
                    faults.append(_fault_row(match, fault, seats))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ResultsError(f"{path} line {number}: not a readable deal ({_why(exc)})") from None
        lines[match].append((deal, texts[number - 1 if number > 0 else -1]))
    replays = {
        match: _pack("\n".join(text for _, text in sorted(deals))) for match, deals in lines.items()
    }
    outcomes_out = None
    if entry.seat_outcomes is not None:
        outcomes_out = {
            n: {
                "scores": sorted(scores[n].items()),
                "bids": [[b, t, c] for (b, t), c in sorted(bids[n].items())],
            }
            for n in names
        }
    return replays, outcomes_out, {"rows": faults, "total": total_faults}


def _fault_row(match: str, fault: Mapping[str, Any], seats: Sequence[str]) -> list[Any]:
    return [
        match,
        fault["deal"],
        seats[fault["seat"]],
        fault["kind"],
        fault.get("detail", ""),
        fault.get("strikes"),
        bool(fault.get("disqualified")),
    ]


def _why(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]!r}"
    return str(exc) or type(exc).__name__


def _pack(text: str) -> str:
    """zlib (the browser's DecompressionStream "deflate"), then base64 for the page."""
    return base64.b64encode(zlib.compress(text.encode("utf-8"), 6)).decode("ascii")
