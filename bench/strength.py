"""What the search bots' strength benches share (bench/truco_strength.py,
bench/ruff_strength.py): one seeded in-process tournament per seat count or form, and a
report of its leaderboard: the order, each bot's wins and points per hand or deal, and
for the search bot against each other bot the leaderboard's own probability that it is
the better player (``arena.standings.ratings.prob_better``) beside TrueSkill's chance that it
finishes above the other in one match.

The goal (issue 30): the search bot first, and P(better than the best heuristic bot)
>= 0.99, in every form.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from arena.standings.leaderboard import build_leaderboard, load_matches
from arena.standings.ratings import DEFAULT_PARAMS, Rating, Ratings, prob_better

GOAL = 0.99


def strength_parser(doc: str, per: str) -> argparse.ArgumentParser:
    """The options every strength bench takes; the caller adds which forms to play, then
    reads them with ``parse``. ``per`` names the subfolder of ``--results`` per run."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--pimc", default="pimc", help="the search entrant, options included")
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument(
        "--minutes", type=float, help="stop each tournament after this long, rate what was played"
    )
    parser.add_argument("--results", type=Path, help=f"keep each run in DIR/{per}")
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help="play duplicate deals (arena tournament --duplicate): every deal once from "
        "every seat of its table, so the luck of the cards cancels",
    )
    return parser


def parse(parser: argparse.ArgumentParser) -> argparse.Namespace:
    """The parsed options, with a one-line error for a round count that plays nothing."""
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    return args


def match_chance(me: Rating, other: Rating, beta: float = DEFAULT_PARAMS.beta) -> float:
    """TrueSkill's chance that ``me`` finishes above ``other`` in one match."""
    z = (me.mu - other.mu) / math.sqrt(2 * beta**2 + me.sigma**2 + other.sigma**2)
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def points_per(row: object) -> str:
    """A row's points per hand (Truco: for and against) or per deal (Ruff)."""
    made = getattr(row, "points_for_per_hand", None)
    if made is not None:
        return f"{made:.2f} (against {getattr(row, 'points_against_per_hand', 0):.2f})"
    for name in ("points_per_deal", "avg_score_per_deal"):
        value = getattr(row, name, None)
        if value is not None:
            return f"{value:.2f}"
    return "—"


def run_form(
    game: str,
    label: str,
    options: Sequence[str],
    bots: Sequence[str],
    best: str,
    rounds: int,
    seed: int,
    results: Path,
    unit: str,
    minutes: float | None = None,
    duplicate: bool = False,
) -> bool:
    """One tournament of ``bots`` (the search bot first, ``best`` the heuristic to beat);
    prints its standings and returns whether the goal is met. With ``minutes``, the
    tournament is stopped then (SIGTERM: it keeps every finished match) and the matches
    played are rated as they stand, and said to be fewer. With ``duplicate`` the
    tournament deals duplicate (``--duplicate``: ``rounds`` is still the number of rounds,
    in blocks of as many rounds as a table has seats)."""
    cmd = [
        sys.executable, "-m", "arena.cli", "tournament", "--in-process", "--quiet",
        "--game", game, *options, "--rounds", str(rounds), "--seed", str(seed),
        "--bots", ",".join(bots), "--results", str(results),
        *(["--duplicate"] if duplicate else []),
    ]  # fmt: skip
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    timed_out = False
    try:
        code = proc.wait(timeout=None if minutes is None else minutes * 60)
    except subprocess.TimeoutExpired:
        timed_out = True
        proc.terminate()  # SIGTERM stops a run as Ctrl-C does (arena.signals)
        code = proc.wait()
    took = time.perf_counter() - started
    records = load_matches(results / "matches.jsonl")
    if (code == 0) == timed_out or not records:
        raise SystemExit(f"the {game} {label} tournament failed (exit {code})")
    rows = build_leaderboard(records, None, game=game)
    cut = f", stopped after {took / 60:.1f} min" if timed_out else ""
    dealt = ", duplicate" if duplicate else ""
    print(f"{game} {label}{dealt}, {len(records)} matches of {rounds} rounds{cut}, seed {seed} "
          f"({took:.0f}s): " + " > ".join(r.bot for r in rows))  # fmt: skip

    def base(name: str) -> str:
        return name.split("#", 1)[0]

    me = next(r for r in rows if base(r.bot) == bots[0])  # the best-placed copy
    for row in rows:
        per = points_per(row)
        share = row.wins / max(row.matches, 1)
        print(
            f"  {row.bot:>8}: wins {row.wins:g}/{row.matches} ({share:.0%}), "
            f"points/{unit} {per}, mu {row.mu:.2f} sigma {row.sigma:.2f}"
        )
    goal = base(rows[0].bot) == bots[0]
    rival = next(r for r in rows if base(r.bot) == best)  # the best-placed copy
    mine = Rating(me.mu, me.sigma)
    for other in rows:
        if base(other.bot) == bots[0]:
            continue
        theirs = Rating(other.mu, other.sigma)
        p = prob_better(mine, theirs)
        print(
            f"  P({me.bot} better than {other.bot}) = {p:.4f} "
            f"(finishes above it in one match: {match_chance(mine, theirs):.4f})"
        )
        if other is rival:
            goal = goal and p >= GOAL
    print(f"  goal (first, P(better than {best}) >= {GOAL}): {'met' if goal else 'NOT met'}")
    evidence(records, me.bot, rival.bot, duplicate)
    if duplicate:
        by_boards(records, game, bots[0], best)
    return goal


def evidence(records: Sequence[Mapping[str, Any]], me: str, rival: str, duplicate: bool) -> None:
    """For comparison (not the goal, which reads the TrueSkill ratings above): P(me better
    than rival) as the leaderboard's P(>next) column computes it, from the whole evidence
    of points (``Ratings.prob_better``). In a duplicate run also with each match as its own
    unit of the variance (what the arena did before a block became one unit)."""
    ratings = Ratings(DEFAULT_PARAMS)
    ratings.rate_all(records)
    line = f"  evidence (P(>next)'s way): P({me} better than {rival}) = "
    line += f"{ratings.prob_better(me, rival):.4f}"
    if duplicate:
        apart = Ratings(DEFAULT_PARAMS)
        apart.rate_all([{k: v for k, v in r.items() if k not in ("block", "rotation")}
                        for r in records])  # fmt: skip
        line += f" (each match its own unit: {apart.prob_better(me, rival):.4f})"
    print(line)


def by_boards(records: Sequence[Mapping[str, Any]], game: str, me: str, best: str) -> None:
    """For comparison only (not the goal): the same duplicate run rated board by board
    (``RatingParams(boards=True)``: each hand's holders over a block ranked against each
    other), which the leaderboard does not do by default. Boards need every side to be
    one seat; a run with partners is rated as it is and said to be."""
    if any(len(team) > 1 for record in records for team in record["teams"]):
        print("  by boards: not applicable (partners: a board needs one-seat sides)")
        return
    rows = build_leaderboard(records, None, params=replace(DEFAULT_PARAMS, boards=True), game=game)
    mine = next(r for r in rows if r.bot.split("#", 1)[0] == me)
    rival = next(r for r in rows if r.bot.split("#", 1)[0] == best)
    p = prob_better(Rating(mine.mu, mine.sigma), Rating(rival.mu, rival.sigma))
    order = " > ".join(r.bot for r in rows)
    print(f"  by boards (RatingParams(boards=True), not the goal): {order}; "
          f"P({mine.bot} better than {rival.bot}) = {p:.4f}")  # fmt: skip
