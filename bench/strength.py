"""What the search bots' strength benches share (bench/truco_strength.py,
bench/ruff_strength.py): one seeded in-process tournament per seat count or form, and a
report of its leaderboard: the order, each bot's wins and points per hand or deal, and
for the search bot against each other bot the leaderboard's own probability that it is
the better player (``Ratings.prob_better``: the whole evidence of points, what the
leaderboard's P(>next) shows since issue 29), beside the same probability from TrueSkill's
mu and sigma alone (``arena.standings.ratings.prob_better``, what this bench read before
2026-11-26) and TrueSkill's chance that it finishes above the other in one match.

The goal (issue 30): the search bot first, and the leaderboard's own P(better than the
best heuristic bot) >= 0.99, in every form.

``--duplicate`` plays duplicate deals (``arena tournament --duplicate``: each round a
block of as many rounds as a table has seats, every deal once from every seat), and then
also prints, for comparison only, P with each match its own unit of the variance (as
before a block became one) and the run rated by boards (``RatingParams(boards=True)``,
one-seat sides only).
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
    cut = f", stopped after {took / 60:.1f} min" if timed_out else ""
    dealt = ", duplicate" if duplicate else ""
    heading = f"{game} {label}{dealt}, {len(records)} matches of {rounds} rounds{cut}, "
    return report(records, game, f"{heading}seed {seed} ({took:.0f}s)", bots, best, unit, duplicate)


def report(
    records: Sequence[Mapping[str, Any]],
    game: str,
    heading: str,
    bots: Sequence[str],
    best: str,
    unit: str,
    duplicate: bool,
) -> bool:
    """Print a run's standings under ``heading`` (see ``run_form``; also for a kept
    run's matches.jsonl) and return whether the goal is met."""
    rows = build_leaderboard(records, None, game=game)
    print(f"{heading}: " + " > ".join(r.bot for r in rows))

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
    ratings = Ratings(DEFAULT_PARAMS)  # the leaderboard's own: its P(>next)
    ratings.rate_all(records)
    mine = Rating(me.mu, me.sigma)
    for other in rows:
        if base(other.bot) == bots[0]:
            continue
        theirs = Rating(other.mu, other.sigma)
        p = ratings.prob_better(me.bot, other.bot)
        print(
            f"  P({me.bot} better than {other.bot}) = {p:.4f} (from TrueSkill's mu and "
            f"sigma: {prob_better(mine, theirs):.4f}; finishes above it in one match: "
            f"{match_chance(mine, theirs):.4f})"
        )
        if other is rival:
            goal = goal and p >= GOAL
    print(f"  goal (first, P(better than {best}) >= {GOAL}): {'met' if goal else 'NOT met'}")
    if duplicate:
        apart = Ratings(DEFAULT_PARAMS)
        apart.rate_all([{k: v for k, v in r.items() if k not in ("block", "rotation")}
                        for r in records])  # fmt: skip
        print(f"  not the goal: with each match its own unit, P({me.bot} better than "
              f"{rival.bot}) = {apart.prob_better(me.bot, rival.bot):.4f}")  # fmt: skip
        by_boards(records, me.bot, rival.bot)
    return goal


def by_boards(records: Sequence[Mapping[str, Any]], me: str, rival: str) -> None:
    """For comparison only (not the goal): the same duplicate run rated board by board
    (``RatingParams(boards=True)``: each hand's holders over a block ranked against each
    other), which the leaderboard does not do by default. Boards need every side to be
    one seat; a run with partners is rated as it is and said to be."""
    if any(len(team) > 1 for record in records for team in record["teams"]):
        print("  by boards: not applicable (partners: a board needs one-seat sides)")
        return
    ratings = Ratings(replace(DEFAULT_PARAMS, boards=True))
    ratings.rate_all(records)
    order = " > ".join(ratings.ranked({n for r in records for n in r["seats"]}))
    print(f"  not the goal: rated by boards (RatingParams(boards=True)), {order}; "
          f"P({me} better than {rival}) = {ratings.prob_better(me, rival):.4f}")  # fmt: skip
