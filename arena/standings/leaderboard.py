"""The leaderboard: ratings and per-entrant statistics from ``matches.jsonl``.

Builds one row per entrant (TrueSkill rating plus placement, the game's own statistics
(``arena.games.registry.REGISTRY[game].stats``: Truf's score per deal and exact bids, Truco's points
per hand...) and fault statistics) and reads and writes ``leaderboard.csv`` and ``leaderboard.json``
(formats in ``docs/results.md``). Numbers are rounded to ``DECIMALS`` places so that
the same matches always give the same bytes. Knows nothing of any game's rules:
seats, teams and ranks come from the records.
"""

from __future__ import annotations

import csv
import io
import json
import os
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, make_dataclass
from functools import cache
from pathlib import Path
from typing import Any

from arena.games.registry import REGISTRY, StatColumn, record_game
from arena.standings.places import record_places
from arena.standings.ratings import DEFAULT_PARAMS, RatingError, RatingParams, Ratings
from arena.standings.results import PRIVATE_FILE

SCHEMA = 1  # of the match lines read here
# leaderboard.json: 2 since wins count a shared first as a fraction and the p_better_next
# and *_ci95 columns came (issue 16); 3 since rows are sorted by the estimate column
# (issue 29). Schema-1 and -2 files are still read.
LEADERBOARD_SCHEMA = 3
DECIMALS = 3
Z95 = 1.959964  # the normal quantile of a two-sided 95% interval

COLUMNS = (
    "rank",
    "bot",
    "mu",
    "sigma",
    "conservative",
    "estimate",
    "p_better_next",
    "matches",
    "wins",
    "avg_placement",
    "avg_score_per_deal",
    "avg_score_per_deal_ci95",
    "exact_rate",
    "timeouts",
    "illegal",
    "disconnects",
    "forfeits",
    "disqualified",
)
_HEAD = COLUMNS[:10]  # rank .. avg_placement: every game's
_TAIL = COLUMNS[-5:]  # the faults: every game's
_STATS = {s.name: s for entry in REGISTRY.values() for s in entry.stats}
_FLOATS = frozenset({"mu", "sigma", "conservative", "wins"})


def ci_column(stat: StatColumn) -> str | None:
    """The 95% interval column that follows a game's points column (the stat of the match
    lines' ``totals``: Truf's score per deal, Truco's points per hand)."""
    return f"{stat.name}_ci95" if stat.field == "totals" else None


def _stat_columns(stats: Sequence[StatColumn]) -> list[str]:
    out: list[str] = []
    for stat in stats:
        out.append(stat.name)
        if (ci := ci_column(stat)) is not None:
            out.append(ci)
    return out


_CIS = frozenset(c for e in REGISTRY.values() for s in e.stats if (c := ci_column(s)))
# Columns a schema-1 (or -2) leaderboard file does not have: read as None.
_NEW_IN_2 = frozenset({"p_better_next", "estimate", *_CIS})
_OPTIONAL_FLOATS = frozenset({"avg_placement", *_STATS, *_NEW_IN_2})
_FAULTS = ("timeout", "illegal", "disconnect")  # keys of a match record's "faults"


class ResultsError(ValueError):
    """A results file that cannot be read: the message names the file and line."""


@dataclass(frozen=True, kw_only=True)
class LeaderboardRow:
    """One entrant's standing. The averages are None until it has played a match."""

    rank: int  # 1-based position in the sorted leaderboard
    bot: str
    mu: float
    sigma: float
    conservative: float  # mu - 3 sigma
    # the sort key: the best estimate of skill (arena.standings.ratings.Ratings.estimate); None
    # only in files written before it (schema 1 and 2)
    estimate: float | None
    p_better_next: float | None  # P(skill above the next row's); None on the last row
    matches: int
    wins: float  # matches finished first; a first shared by k teams counts 1/k
    avg_placement: float | None
    avg_score_per_deal: float | None
    avg_score_per_deal_ci95: float | None  # half-width of its 95% interval
    exact_rate: float | None  # deals with exactly the final bid / deals played
    timeouts: int
    illegal: int
    disconnects: int
    forfeits: int  # matches forfeited
    disqualified: int  # matches in which it was disqualified

    def as_dict(self) -> dict[str, Any]:
        return {c: getattr(self, c) for c in COLUMNS}


Row = Any  # a LeaderboardRow, or another game's row (``row_class``): the same but its stats


def columns_of(game: str) -> tuple[str, ...]:
    """The leaderboard columns of ``game``: the shared ones around the game's stats."""
    return (*_HEAD, *_stat_columns(REGISTRY[game].stats), *_TAIL)


def row_columns(row: Row) -> tuple[str, ...]:
    return tuple(f.name for f in fields(row))


def _as_dict(self: Any) -> dict[str, Any]:
    return {c: getattr(self, c) for c in row_columns(self)}


@cache
def row_class(game: str) -> type[Any]:
    """The frozen row dataclass of ``game``'s leaderboard (Truf's is ``LeaderboardRow``)."""
    if columns_of(game) == COLUMNS:
        return LeaderboardRow
    types = {f.name: f.type for f in fields(LeaderboardRow)}
    spec = [(c, types.get(c, "float | None")) for c in columns_of(game)]
    return make_dataclass(
        f"{REGISTRY[game].title}LeaderboardRow",
        spec,
        frozen=True,
        kw_only=True,
        namespace={"as_dict": _as_dict},
    )


def _game_of(records: Sequence[Mapping[str, Any]], game: str | None) -> str:
    """The one game ``records`` are of (``game`` when there are none; Truf by default)."""
    games = {record_game(r) for r in records}
    if len(games) > 1:
        raise ResultsError(f"the matches are of several games: {', '.join(sorted(games))}")
    if games:
        found = games.pop()
        if game is not None and found != game:
            raise ResultsError(f"the matches are of {found}, not of {game}")
        return found
    return game or "truf"


# --- match records ------------------------------------------------------------------


def check_match_record(record: object) -> None:
    """Raise ``ResultsError`` (without a location) unless ``record`` is a schema-1 match
    line with everything the leaderboard needs. Unknown fields are ignored."""
    if not isinstance(record, Mapping):
        raise ResultsError("expected a JSON object")
    if record.get("schema") != SCHEMA:
        raise ResultsError(f"unsupported schema {record.get('schema')!r} (expected {SCHEMA})")
    game = record_game(record)
    if game not in REGISTRY:
        raise ResultsError(f"unknown game {game!r} (this arena knows {', '.join(REGISTRY)})")
    stats = [s.field for s in REGISTRY[game].stats if s.field != "totals"]
    for name in ("match", "round", "table", "seats", "teams", "totals", "ranks", "deals",
                 *stats, "faults", "disqualified", "forfeit"):  # fmt: skip
        if name not in record:
            raise ResultsError(f"missing field {name!r}")
    if not isinstance(record["match"], str):
        raise ResultsError("'match' must be a string")
    for name in ("round", "table", "deals"):
        if not _is_int(record[name]) or record[name] < 0:
            raise ResultsError(f"{name!r} must be a non-negative integer")
    seats = record["seats"]
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise ResultsError("'seats' must be a list of entrant names")
    n = len(seats)
    if n < 2:
        raise ResultsError(f"'seats' lists {n} seat(s); a match needs at least 2")
    if len(set(seats)) != n:
        raise ResultsError(f"an entrant holds two seats: {seats}")
    teams = record["teams"]
    if (
        not isinstance(teams, list)
        or not all(isinstance(t, list) and t and all(_is_int(s) for s in t) for t in teams)
        or sorted(s for t in teams for s in t) != list(range(n))
    ):
        raise ResultsError(f"'teams' must split seats 0..{n - 1} into non-empty lists")
    if len(teams) < 2:
        raise ResultsError("'teams' must hold at least 2 teams")
    _check_per_seat(record["totals"], "totals", n, _is_number)
    _check_per_seat(record["ranks"], "ranks", n, lambda r: _is_int(r) and 1 <= r <= n)
    if "raw_ranks" in record:  # since issue 25: the game's order; ranks are the places
        _check_per_seat(record["raw_ranks"], "raw_ranks", n, lambda r: _is_int(r) and 1 <= r <= n)
    for name in stats:
        _check_per_seat(record[name], name, n, lambda e: _is_int(e) and e >= 0)
    _check_per_seat(record["disqualified"], "disqualified", n, lambda b: isinstance(b, bool))
    _check_per_seat(record["forfeit"], "forfeit", n, lambda b: isinstance(b, bool))
    faults = record["faults"]
    if not isinstance(faults, dict):
        raise ResultsError("'faults' must be an object")
    for kind in _FAULTS:
        if kind not in faults:
            raise ResultsError(f"missing field 'faults.{kind}'")
        _check_per_seat(faults[kind], f"faults.{kind}", n, lambda c: _is_int(c) and c >= 0)


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: object) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _check_per_seat(values: object, name: str, n: int, ok: Any) -> None:
    if not isinstance(values, list) or len(values) != n:
        raise ResultsError(f"{name!r} must be a list of {n} values, one per seat")
    for seat, v in enumerate(values):
        if not ok(v):
            raise ResultsError(f"{name!r} has a bad value for seat {seat}: {v!r}")


def load_matches(path: str | Path) -> list[dict[str, Any]]:
    """Read and check a ``matches.jsonl``. Blank lines are skipped, and so is a torn last
    line (bad JSON with no newline after it: a crash mid-write). Any other bad line, or a
    match id seen twice, raises ``ResultsError`` naming the file and line."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ResultsError(f"{path}: no such file") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = data.count(b"\n", 0, exc.start) + 1
        raise ResultsError(f"{path} line {where}: not UTF-8 text ({exc.reason})") from None
    lines = text.split("\n")
    out: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            if number == len(lines):  # no newline after it: torn by a crash
                break
            raise ResultsError(f"{path} line {number}: not valid JSON ({exc.msg})") from None
        try:
            check_match_record(record)
        except ResultsError as exc:
            raise ResultsError(f"{path} line {number}: {exc}") from None
        match = record["match"]
        if match in seen:
            raise ResultsError(
                f"{path} line {number}: match {match!r} already finished on line {seen[match]}"
            )
        seen[match] = number
        out.append(record)
    return out


# --- building -----------------------------------------------------------------------


@dataclass
class _Tally:
    matches: int = 0
    wins: float = 0.0
    placements: int = 0
    deals: int = 0
    # (points, deals) of each match: the 95% interval of points per deal
    per_match: list[tuple[float, int]] = field(default_factory=list)
    timeouts: int = 0
    illegal: int = 0
    disconnects: int = 0
    forfeits: int = 0
    disqualified: int = 0
    stats: dict[str, float] = field(default_factory=dict)  # a stat's field -> its sum


def build_leaderboard(
    records: Iterable[Mapping[str, Any]],
    entrants: Sequence[str] | None = None,
    *,
    params: RatingParams = DEFAULT_PARAMS,
    game: str | None = None,
    ratings: Ratings | None = None,
) -> list[Row]:
    """One row per entrant (every name in ``entrants`` and in the records), best first.

    Ratings are computed in schedule order, so the order of ``records`` does not matter
    (``ratings``: these records already rated so, by the run's ``RunRatings``: none is
    rated again). Rows are sorted by ``Ratings.ranked``: the estimate, then mu, then name;
    ``p_better_next`` is ``Ratings.prob_better`` of a row and the next, from the same
    estimates, so it is 50% or more on every row but the last. ``wins`` and
    ``avg_placement`` use each match's places (``arena.standings.places``: a disqualified or
    forfeiting seat below every seat that was not). A first place shared by k teams is 1/k
    of a win, so the wins add up to the matches. The columns are those of the records'
    game (``game`` when there are none).
    """
    records = list(records)
    seen: set[str] = set()
    for record in records:
        try:
            check_match_record(record)
        except ResultsError as exc:
            raise ResultsError(f"match {record.get('match')!r}: {exc}") from None
        if record["match"] in seen:
            raise ResultsError(f"match {record['match']!r} appears twice")
        seen.add(record["match"])
    game = _game_of(records, game)
    stats = REGISTRY[game].stats
    row = row_class(game)

    if ratings is None:
        ratings = Ratings(params)
        try:
            ratings.rate_all(records)
        except RatingError as exc:
            raise ResultsError(str(exc)) from None

    tallies: dict[str, _Tally] = {name: _Tally() for name in entrants or ()}
    for record in records:
        faults = record["faults"]
        place = record_places(record)
        firsts = sum(any(place[s] == 1 for s in team) for team in record["teams"])
        for seat, name in enumerate(record["seats"]):
            t = tallies.setdefault(name, _Tally())
            t.matches += 1
            t.wins += 1 / firsts if place[seat] == 1 else 0
            t.placements += place[seat]
            t.per_match.append((record["totals"][seat], record["deals"]))
            t.deals += record["deals"]
            for stat in stats:
                t.stats[stat.field] = t.stats.get(stat.field, 0.0) + record[stat.field][seat]
            t.timeouts += faults["timeout"][seat]
            t.illegal += faults["illegal"][seat]
            t.disconnects += faults["disconnect"][seat]
            t.forfeits += record["forfeit"][seat]
            t.disqualified += record["disqualified"][seat]

    rows = []
    ranked = ratings.ranked(tallies)
    for position, name in enumerate(ranked, start=1):
        t, r = tallies[name], ratings.rating(name)
        below = ranked[position] if position < len(ranked) else None
        rows.append(
            row(
                rank=position,
                bot=name,
                mu=_round(r.mu),
                sigma=_round(r.sigma),
                conservative=_round(r.conservative),
                estimate=_round(ratings.estimate(name)),
                p_better_next=None if below is None else _round(ratings.prob_better(name, below)),
                matches=t.matches,
                wins=_round(t.wins),
                avg_placement=_ratio(t.placements, t.matches),
                **{s.name: _ratio(t.stats.get(s.field, 0.0), t.deals) for s in stats},
                **{ci: interval95(t.per_match) for s in stats if (ci := ci_column(s))},
                timeouts=t.timeouts,
                illegal=t.illegal,
                disconnects=t.disconnects,
                forfeits=t.forfeits,
                disqualified=t.disqualified,
            )
        )
    return rows


def _round(x: float) -> float:
    return round(x, DECIMALS) + 0.0  # + 0.0 turns -0.0 into 0.0


def _ratio(num: float, den: int) -> float | None:
    return _round(num / den) if den else None


def interval95(per_match: Sequence[tuple[float, int]]) -> float | None:
    """Half the width of the 95% interval of points per deal, sum(points) / sum(deals),
    from ``(points, deals)`` per match: the ratio estimator's standard error (matches as
    the independent units) times 1.96. None under two matches (no spread to measure)."""
    n = len(per_match)
    deals = sum(d for _, d in per_match)
    if n < 2 or not deals:
        return None
    mean = sum(p for p, _ in per_match) / deals
    spread = sum((p - mean * d) ** 2 for p, d in per_match) / (n - 1)
    return _round(Z95 * (spread / n) ** 0.5 / (deals / n))


# --- writing and reading ------------------------------------------------------------


def _write_atomic(path: Path, text: str) -> None:
    """Write via a temporary file in the same directory, then rename over ``path``:
    a reader never sees half a file."""
    # The mode every other results file gets (``PRIVATE_FILE``, docs/results.md: the
    # organiser's alone until the event is over).
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _csv_cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.{DECIMALS}f}"
    return str(value)


def to_csv(rows: Sequence[Row]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    columns = row_columns(rows[0]) if rows else COLUMNS
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_csv_cell(getattr(row, c)) for c in columns])
    return out.getvalue()


def write_csv(rows: Sequence[Row], path: str | Path) -> None:
    _write_atomic(Path(path), to_csv(rows))


def to_json(
    rows: Sequence[Row],
    meta: Mapping[str, Any],
    *,
    params: RatingParams = DEFAULT_PARAMS,
) -> str:
    doc = {
        "schema": LEADERBOARD_SCHEMA,
        "rating": params.as_dict(),
        "meta": dict(meta),
        "rows": [row.as_dict() for row in rows],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def write_json(
    rows: Sequence[Row],
    path: str | Path,
    meta: Mapping[str, Any],
    *,
    params: RatingParams = DEFAULT_PARAMS,
) -> None:
    _write_atomic(Path(path), to_json(rows, meta, params=params))


def _row_from(values: Mapping[str, Any], where: str) -> Row:
    """A row from JSON values or CSV strings (of the game whose stat columns are there;
    Truf's by default); ``where`` prefixes any error."""
    game = next(
        (g for g, e in REGISTRY.items() if e.stats and all(s.name in values for s in e.stats)),
        "truf",
    )
    columns = columns_of(game)
    missing = [c for c in columns if c not in values and c not in _NEW_IN_2]
    if missing:
        raise ResultsError(f"{where}: missing column(s) {', '.join(missing)}")
    out: dict[str, Any] = {}
    try:
        for c in columns:
            v = values.get(c)
            if c == "bot":
                if not isinstance(v, str):
                    raise ValueError(v)
                out[c] = v
            elif c in _OPTIONAL_FLOATS and v in (None, ""):
                out[c] = None
            elif c in _FLOATS or c in _OPTIONAL_FLOATS:
                if isinstance(v, bool) or v is None:
                    raise ValueError(v)
                out[c] = float(v)
            else:
                if isinstance(v, bool | float) or v is None:
                    raise ValueError(v)
                out[c] = int(v)
    except (TypeError, ValueError):
        raise ResultsError(f"{where}: bad value for {c!r}: {values[c]!r}") from None
    return row_class(game)(**out)


def read_leaderboard_json(path: str | Path) -> tuple[list[Row], dict[str, Any]]:
    """Read a ``leaderboard.json``: its rows and its ``meta``."""
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ResultsError(f"{path}: no such file") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ResultsError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("schema") not in range(1, LEADERBOARD_SCHEMA + 1):
        raise ResultsError(f"{path}: not a schema-1 to -{LEADERBOARD_SCHEMA} leaderboard")
    if not isinstance(doc.get("rows"), list) or not isinstance(doc.get("meta", {}), dict):
        raise ResultsError(f"{path}: expected 'rows' (a list) and 'meta' (an object)")
    rows = []
    for i, values in enumerate(doc["rows"]):
        if not isinstance(values, dict):
            raise ResultsError(f"{path} row {i + 1}: expected an object")
        rows.append(_row_from(values, f"{path} row {i + 1}"))
    return rows, dict(doc.get("meta", {}))


def read_csv(path: str | Path) -> list[Row]:
    """Read a ``leaderboard.csv``."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ResultsError(f"{path}: no such file") from None
    reader = csv.DictReader(io.StringIO(text))
    # Line numbers count the header as line 1.
    return [_row_from(values, f"{path} line {i}") for i, values in enumerate(reader, start=2)]


# --- markdown -----------------------------------------------------------------------

_CORE_HEADERS = (
    ("rank", "#"),
    ("bot", "bot"),
    ("conservative", "μ−3σ"),
    ("estimate", "estimate"),
    ("p_better_next", "P(>next)"),
    ("mu", "μ"),
    ("sigma", "σ"),
    ("matches", "matches"),
    ("wins", "wins"),
    ("avg_placement", "avg place"),
    ("timeouts", "timeouts"),
    ("illegal", "illegal"),
    ("disconnects", "disconnects"),
    ("forfeits", "forfeits"),
    ("disqualified", "DQ"),
)


def headers_of(columns: Sequence[str]) -> list[tuple[str, str]]:
    """(column, header as shown) in the order of the markdown and console tables: the
    shared columns, the game's stats after ``avg_placement``."""
    core = dict(_CORE_HEADERS) | dict.fromkeys(_CIS, "±95%")
    return [(c, core[c] if c in core else _STATS[c].header) for c in _display_order(columns)]


def _display_order(columns: Sequence[str]) -> list[str]:
    """The order people see: rank, bot, the estimate that sorts, P(>next), μ, σ, then the
    rest as in the files."""
    first = ["rank", "bot", "estimate", "p_better_next", "mu", "sigma"]
    return [*first, *(c for c in columns if c not in first)]


def format_cell(column: str, value: object) -> str:
    """A cell as shown to people (markdown and the console): 2 decimals, a percentage
    for a rate (Truf's ``exact_rate``...), a dash for no data."""
    if value is None:
        return "—"
    if column in _STATS and _STATS[column].percent and isinstance(value, float):
        return f"{value:.1%}"
    if column == "p_better_next" and isinstance(value, float):
        return ">99.9%" if value > 0.999 else f"{value:.1%}"
    if column in _CIS and isinstance(value, float):
        return f"±{value:.2f}"
    if column == "wins" and isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def to_markdown(rows: Sequence[Row]) -> str:
    """A GitHub-flavoured markdown table, numbers right-aligned."""
    headers = headers_of(row_columns(rows[0]) if rows else COLUMNS)
    head = "| " + " | ".join(h for _, h in headers) + " |"
    rule = "|" + "|".join(":---" if c == "bot" else "---:" for c, _ in headers) + "|"
    lines = [head, rule]
    for row in rows:
        cells = [format_cell(c, getattr(row, c)) for c, _ in headers]
        cells[1] = cells[1].replace("|", "\\|")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
