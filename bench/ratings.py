"""How fast the leaderboard finds the true order, how honest its P(>next) is, and how
often ``--until-settled`` stops wrong (issue 29). Four tables, per Truf variant:

* **goal**: the share of seeds whose leaderboard shows the true order after R rounds, with
  its 95% (Wilson) interval, for the leaderboard's sort (the estimate, ``Ratings.ranked``),
  the plain mean of the points (score/deal) and TrueSkill's μ − 3σ; then the first round
  at which the leaderboard's share reaches 95%, and the deals per entrant played by then.
* **calibration**: every round of every seed, each pair of neighbours on the leaderboard:
  the P(>next) shown, in bins, against how often the upper one is truly better; for the
  bundled bots and for a field without the random bot (``FIELDS["norandom"]``: greedy,
  greedy, planner, tracker; the two greedies, equal, are left out of it).
* **stops**: ``--until-settled`` run on each seed's rounds as the CLI runs it (after every
  round, ``arena.standings.settle``): on the bundled bots (median stop, how often the order at the
  stop is the true one, how often a pair was found level); on identical bots, made by
  giving tracker's and planner's names to each other in each match with probability 1/2
  (the two are then equal in every respect, noise included), where any order declared
  between them is a wrong stop; and on bots a tenth of tracker–planner's gap apart (the
  names swapped with probability 0.45), where the wrong order is a wrong stop; and on the
  norandom field's real twins (greedy#1, greedy#2). ``--draws`` label draws per played
  run (the runs then share their deals: say so when quoting the count).

Run: ``python bench/ratings.py`` (``--seeds``, ``--rounds``, ``--stop-rounds``,
``--variants``, ``--tables`` make it smaller or larger; the README's figures came from the
command it quotes). Every tournament is played in-process with the bundled bots, through
the arena's own plan and runner, and kept under ``results/bench-ratings/`` (git ignores
``results/``), so a second run only re-rates; a run of R rounds is the start of any longer
run of the same seed, so the longer one serves. The true order comes from one long
tournament per variant (``--truth-rounds``), cached there too: the order of its
leaderboard, which must agree with its score per deal (the bench says so if not).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from stats import mean_se  # noqa: E402

from arena.core.seeding import seeded_secret  # noqa: E402
from arena.games.registry import REGISTRY  # noqa: E402
from arena.play.run import RunConfig, entrant_names_for, load_bots, make_plan  # noqa: E402
from arena.play.tournament import run_in_process  # noqa: E402
from arena.standings import settle  # noqa: E402
from arena.standings.ratings import BotEvidence, Ratings, match_order  # noqa: E402

CACHE = ROOT / "results" / "bench-ratings"
CHECKPOINTS = (5, 10, 16, 20, 30, 40, 80, 120)  # 16 and 20: the goals in target and classic
GOAL = 0.95
BINS = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0)  # P(>next) bins of the calibration table


class MemoryWriter:
    """What ``run_in_process`` writes to, kept in memory: the match lines."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def write_match(self, record: Mapping[str, Any], deals: object) -> None:
        self.records.append(dict(record))


# Fields other than the bundled bots: name -> entrants. "norandom": the random bot (whose
# own draws are most of the noise, issue 29) replaced by a twin of greedy, so the field has
# no random bot and one pair of identical bots.
FIELDS: dict[str, list[str]] = {"norandom": ["greedy", "greedy", "planner", "tracker"]}


def play_and_cache(config: RunConfig, seed: int, path: Path) -> list[dict[str, Any]]:
    """Play ``config`` in process from ``seed``'s secret and keep its match records in
    ``path`` (written whole, then renamed, so a cut run leaves no half file)."""
    secret = seeded_secret(seed)
    plan = make_plan(config, secret=secret)
    writer = MemoryWriter()
    run_in_process(plan, load_bots(config, secret), writer)  # type: ignore[arg-type]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(json.dumps(r) + "\n" for r in writer.records))
    tmp.replace(path)
    return writer.records


def play(
    variant: str,
    seed: int,
    rounds: int,
    *,
    duplicate: bool,
    cache: Path = CACHE,
    field: str | None = None,
) -> list[dict[str, Any]]:
    """The match records of one in-process tournament of the bundled bots, or of the bots
    of ``FIELDS[field]`` (cached)."""
    mode = "duplicate" if duplicate else "plain"
    kept = cached_run(variant, seed, rounds, cache, mode=mode, field=field)
    if kept is not None:
        records = [json.loads(line) for line in kept.read_text().splitlines() if line]
        return [r for r in records if int(r["round"]) <= rounds]
    config = RunConfig(
        rounds=rounds, variant=variant, seed=seed, transport="in-process", duplicate=duplicate
    )
    if field is not None:
        config.bots = list(FIELDS[field])
    return play_and_cache(config, seed, run_file(variant, seed, rounds, cache, mode, field))


def run_file(
    variant: str, seed: int, rounds: int, cache: Path, mode: str, field: str | None
) -> Path:
    """Where ``play`` keeps the run of this seed and number of rounds."""
    suffix = f"-{field}" if field else ""
    return cache / f"{variant}-{mode}-r{rounds}{suffix}" / f"seed{seed}.jsonl"


def cached_run(
    variant: str,
    seed: int,
    rounds: int,
    cache: Path,
    *,
    mode: str = "plain",
    field: str | None = None,
) -> Path | None:
    """The file of ``play``'s cached run of this seed, of ``rounds`` rounds or, failing
    that, of more (a longer run of the same seed starts with this one: the schedule and the
    deals of a round follow from the seed and the round alone, so its first rounds serve);
    None when there is neither."""
    exact = run_file(variant, seed, rounds, cache, mode, field)
    if exact.exists():
        return exact
    suffix = f"-{field}" if field else ""
    for longer in sorted(cache.glob(f"{variant}-{mode}-r*{suffix}/seed{seed}.jsonl")):
        stem = longer.parent.name.removeprefix(f"{variant}-{mode}-r").removesuffix(suffix)
        if stem.isdigit() and int(stem) > rounds:
            return longer
    return None


def is_cached(variant: str, seed: int, rounds: int, cache: Path, field: str | None = None) -> bool:
    """Whether ``play`` has this run (or a longer one of the same seed) cached."""
    return cached_run(variant, seed, rounds, cache, field=field) is not None


def seeds_to_play(
    variant: str, count: int, rounds: int, args: argparse.Namespace, field: str | None = None
) -> list[int]:
    """Seeds 1..``count``, or with --cached-only those whose run of ``rounds`` is cached."""
    return [
        s
        for s in range(1, count + 1)
        if not args.cached_only or is_cached(variant, s, rounds, args.cache, field)
    ]


def score_order(records: Sequence[Mapping[str, Any]]) -> list[str]:
    points: dict[str, float] = {}
    deals: dict[str, int] = {}
    for rec in records:
        for seat, name in enumerate(rec["seats"]):
            points[name] = points.get(name, 0.0) + rec["totals"][seat]
            deals[name] = deals.get(name, 0) + rec["deals"]
    return sorted(points, key=lambda n: (-points[n] / deals[n], n))


def truth(variant: str, rounds: int, cache: Path = CACHE) -> list[str]:
    """The true order: the leaderboard's after one long run (cached)."""
    started = time.perf_counter()
    records = play(variant, 0, rounds, duplicate=False, cache=cache)
    ratings = Ratings()
    ratings.rate_all(records)
    order = ratings.ranked(ratings.names())
    if order != score_order(records):
        mean = score_order(records)
        print(f"warning: {variant}: after {rounds} rounds the leaderboard orders {order} but "
              f"score per deal orders {mean}; the truth is the leaderboard's")  # fmt: skip
    print(f"{variant}: true order {' > '.join(order)} ({rounds} rounds, seed 0, "
          f"{time.perf_counter() - started:.0f}s)")  # fmt: skip
    return order


def true_skills(
    variant: str, rounds: int, field: str | None, cache: Path = CACHE
) -> dict[str, float]:
    """Each bot's estimate after one long run of the field (seed 0, cached; a bot's
    entrants averaged): the true gaps, in skill units, for the calibration table's "if the
    gap were known" column."""
    ratings = Ratings()
    ratings.rate_all(play(variant, 0, rounds, duplicate=False, cache=cache, field=field))
    skills: dict[str, list[float]] = {}
    for name in ratings.names():
        skills.setdefault(kind(name), []).append(ratings.estimate(name))
    return {bot: sum(values) / len(values) for bot, values in skills.items()}


def by_round(records: Sequence[Mapping[str, Any]]) -> dict[int, list[Mapping[str, Any]]]:
    out: dict[int, list[Mapping[str, Any]]] = {}
    for rec in records:
        out.setdefault(int(rec["round"]), []).append(rec)
    return out


def kind(name: str) -> str:
    """The bot behind an entrant: ``greedy#2`` is a greedy."""
    return name.split("#")[0]


def truly_above(a: str, b: str, true_order: Sequence[str]) -> bool | None:
    """Whether ``a`` is truly better than ``b`` (None: the same bot, neither is)."""
    ka, kb = kind(a), kind(b)
    if ka == kb:
        return None
    return true_order.index(ka) < true_order.index(kb)


@dataclass
class Walk:
    """One run rated round by round as the leaderboard and --until-settled do."""

    right: dict[str, list[bool]]  # sort -> whether round r's order is the true one
    # (P(>next) shown, the upper one truly better, the chance it is if the gap were known)
    calibration: list[tuple[float, bool, float]]
    stop: int | None  # the round --until-settled stopped after (None: not by the cap)
    ranked: list[str]  # the order at the stop (or at the cap)
    found: list[str]  # the verdicts on its neighbours
    deals: list[float]  # deals per entrant by the end of each round
    # (upper, lower) true neighbours -> (the gap's estimate, its standard error) each round
    gaps: dict[tuple[str, str], list[tuple[float, float]]]
    # --alternatives: other ways to compute P(>next) (``Alternatives``), each as calibration
    alternatives: dict[str, list[tuple[float, bool, float]]] = field(default_factory=dict)


def walk(
    records: Sequence[Mapping[str, Any]],
    rounds: int,
    true_order: Sequence[str] | None,
    *,
    sorts: bool = True,
    skills: Mapping[str, float] | None = None,
    alternatives: bool = False,
) -> Walk:
    """Rate ``records`` round by round: each sort's order against ``true_order`` (the
    bots' kinds), the calibration pairs, and where --until-settled would stop."""
    rounds_of = by_round(records)
    ratings = Ratings()
    seen: list[Mapping[str, Any]] = []
    right: dict[str, list[bool]] = {"leaderboard": [], "score/deal": [], "μ − 3σ": []}
    calibration: list[tuple[float, bool, float]] = []
    others: dict[str, list[tuple[float, bool, float]]] = {}
    stop: int | None = None
    ranked: list[str] = []
    found: list[str] = []
    deals: list[float] = []
    gaps: dict[tuple[str, str], list[tuple[float, float]]] = {}
    played: dict[str, int] = {}
    for r in range(1, rounds + 1):
        for record in sorted(rounds_of.get(r, []), key=match_order):
            ratings.rate_match(record)
            seen.append(record)
            for name in record["seats"]:
                played[name] = played.get(name, 0) + int(record["deals"])
        deals.append(sum(played.values()) / max(len(played), 1))
        ranked = ratings.ranked(ratings.names())
        if sorts and true_order is not None:
            kinds = [kind(n) for n in ranked]
            right["leaderboard"].append(kinds == list(true_order))
            right["score/deal"].append([kind(n) for n in score_order(seen)] == list(true_order))
            cons = sorted(ratings.names(), key=lambda n: (-ratings.expose(n), n))
            right["μ − 3σ"].append([kind(n) for n in cons] == list(true_order))
            for a, b in zip(ranked, ranked[1:], strict=False):
                truly = truly_above(a, b, true_order)
                if truly is not None:
                    calibration.append((ratings.prob_better(a, b), truly,
                                        known_gap(ratings, a, b, skills)))  # fmt: skip
            other = Alternatives(ratings) if alternatives else None
            for a, b in zip(ranked, ranked[1:], strict=False):
                truly = truly_above(a, b, true_order)
                if other is None or truly is None:
                    continue
                for name, p in other.probs(a, b).items():
                    # folded: a P under a half says the lower one is better
                    row = (p, truly, math.nan) if p >= 0.5 else (1.0 - p, not truly, math.nan)
                    others.setdefault(name, []).append(row)
            for a, b in zip(true_order, true_order[1:], strict=False):
                if a in ratings and b in ratings:
                    gap, variance = ratings.gap(a, b)
                    gaps.setdefault((a, b), []).append((gap, math.sqrt(variance)))
        if stop is None:
            found = settle.verdicts(ratings, ranked)
            if all(v != settle.OPEN for v in found):
                stop = r
                if not sorts:
                    break
    if stop is None:
        found = settle.verdicts(ratings, ranked)
    return Walk(right, calibration, stop, ranked, found, deals, gaps, others)


def t_below(z: float, df: float) -> float:
    """P(T <= z) for Student's t with ``df`` degrees of freedom: with t = sqrt(df) tan(u),
    P(0 < T < x) = Gamma((df + 1) / 2) / (sqrt(pi) Gamma(df / 2)) times the integral of
    cos(u)^(df - 1) from 0 to atan(x / sqrt(df)), a smooth integrand (Simpson's rule)."""
    if not math.isfinite(df):
        return 0.5 * math.erfc(-z / math.sqrt(2.0))
    top = math.atan(abs(z) / math.sqrt(df))
    steps = 200
    h = top / steps
    total = sum(
        (1 if k in (0, steps) else 4 if k % 2 else 2) * math.cos(k * h) ** (df - 1.0)
        for k in range(steps + 1)
    )
    scale = math.exp(math.lgamma((df + 1.0) / 2.0) - math.lgamma(df / 2.0)) / math.sqrt(math.pi)
    return 0.5 + math.copysign(min(0.5, scale * total * h / 3.0), z)


class Alternatives:
    """Other ways to compute P(>next) from the same evidence, for ``--alternatives`` (issue
    29 asked for them; none is the leaderboard's): "t", Student's t tail with the
    sandwich's D - N + 1 degrees of freedom (D matches, N entrants) in place of the
    normal; "eb", an empirical-Bayes normal prior on the skills whose width is the field's
    own spread of estimates less their sampling variance (method of moments: the mean over
    pairs of ((m_i - m_j)^2 - V_ij) / 2, solved with the estimates it shrinks, three
    rounds), in place of TrueSkill's sigma0; "eb+t", both; "g", a prior on the size of
    a gap fitted to the field's own pairs (``gap_prior``). Reads ``Ratings``' evidence
    (bench only)."""

    def __init__(self, ratings: Ratings) -> None:
        self.evidence = ratings._evidence
        self.variance = ratings._scale.variance()
        usable = self.variance > 0.0 and self.evidence.usable()
        self.flat = ratings.params.sigma * math.sqrt(self.variance) / ratings.params.beta
        self.width = self.flat
        names = list(self.evidence.index)
        units = self.evidence.clusters + (self.evidence._open is not None)
        self.df = units - len(names) + 1.0 if units > len(names) else math.inf
        if not usable:
            self.evidence = None
            return
        for _ in range(3):
            estimates = self.evidence.estimates(self.variance, self.width)
            excess = [
                ((estimates[x] - estimates[y]) ** 2
                 - self.evidence.gap(x, y, self.variance, self.width)[1]) / 2.0
                for i, x in enumerate(names) for y in names[i + 1:]
            ]  # fmt: skip
            self.width = math.sqrt(max(sum(excess) / len(excess), 1e-6 * self.variance))

        self.grid, self.weights = self.gap_prior(names)

    def gap_prior(self, names: Sequence[str]) -> tuple[list[float], list[float]]:
        """The prior of "g": on the size of a gap, |skill a - skill b|, fitted to the field's
        own pairs (a nonparametric maximum likelihood, Kiefer-Wolfowitz, by EM on a grid of
        sizes from 0 up; each pair's sign equally likely): the gaps that this field's
        entrants actually show, some level and some far apart, in place of one normal."""
        pairs = []
        for i, x in enumerate(names):
            for y in names[i + 1 :]:
                gap, variance, _ = self.evidence.gap(x, y, self.variance, self.flat)
                if variance > 0.0:
                    pairs.append((abs(gap), math.sqrt(variance)))
        if not pairs:
            return [0.0], [1.0]
        top = max(g + 4.0 * s for g, s in pairs)
        least = min(s for _, s in pairs) / 4.0
        grid = [0.0]
        while grid[-1] < top:
            grid.append(max(least, grid[-1] * 1.25))
        weights = [1.0 / len(grid)] * len(grid)
        table = [
            [math.exp(-0.5 * ((g - d) / s) ** 2) + math.exp(-0.5 * ((g + d) / s) ** 2)
             for d in grid]
            for g, s in pairs
        ]  # fmt: skip
        for _ in range(60):
            new = [0.0] * len(grid)
            for row in table:
                total = sum(w * v for w, v in zip(weights, row, strict=True)) or 1e-300
                for k, (w, v) in enumerate(zip(weights, row, strict=True)):
                    new[k] += w * v / total
            weights = [w / len(table) for w in new]
        return grid, weights

    def by_sizes(self, a: str, b: str) -> float:
        """P(skill a > skill b) under the fitted sizes (``gap_prior``): a size d weighs
        each sign by the likelihood of the gap seen, x, at +d and at -d."""
        gap, variance, _ = self.evidence.gap(a, b, self.variance, self.flat)
        if variance <= 0.0:
            return float(gap > 0.0) if gap else 0.5
        s = math.sqrt(variance)
        sizes = list(zip(self.weights, self.grid, strict=True))
        up = sum(w * math.exp(-0.5 * ((gap - d) / s) ** 2) for w, d in sizes)
        down = sum(w * math.exp(-0.5 * ((gap + d) / s) ** 2) for w, d in sizes)
        return up / (up + down) if up + down > 0.0 else float(gap > 0.0)

    def probs(self, a: str, b: str) -> dict[str, float]:
        if self.evidence is None or a not in self.evidence.index or b not in self.evidence.index:
            return {}
        out = {"g": self.by_sizes(a, b)}
        for name, width, df in (("t", self.flat, self.df), ("eb", self.width, math.inf),
                                ("eb+t", self.width, self.df)):  # fmt: skip
            gap, variance, _ = self.evidence.gap(a, b, self.variance, width)
            z = gap / math.sqrt(variance) if variance > 0.0 else math.copysign(math.inf, gap)
            out[name] = t_below(z, df) if math.isfinite(z) else float(z > 0.0)
        return out


def known_gap(ratings: Ratings, a: str, b: str, skills: Mapping[str, float] | None) -> float:
    """How often the upper of neighbours ``a`` and ``b`` is truly better given what the
    board shows, if the size of their true gap, delta, were known: with the estimate x of
    the gap and its variance V, the posterior under the two-point prior +-delta,
    1 / (1 + exp(-2 |x| delta / V)). The best calibrated P(>next) there is; no estimator
    knows delta, and P(>next) (the flat prior on the gap) matches it only where the true
    gaps are spread around zero (NaN: no ``skills``)."""
    if skills is None:
        return math.nan
    gap, variance = ratings.gap(a, b)
    delta = abs(skills[kind(a)] - skills[kind(b)])
    if variance <= 0.0:
        return 1.0
    return 1.0 / (1.0 + math.exp(min(700.0, -2.0 * abs(gap) * delta / variance)))


def declared(walk_: Walk, upper: str, lower: str) -> bool:
    """Whether the stop put ``upper`` above ``lower``: some verdict between them, in the
    order at the stop, says above (a level pair orders nothing)."""
    if walk_.stop is None:
        return False
    i, j = walk_.ranked.index(upper), walk_.ranked.index(lower)
    return i < j and any(v == settle.ABOVE for v in walk_.found[i:j])


def swapped(
    records: Sequence[Mapping[str, Any]], a: str, b: str, chance: float, rng: random.Random
) -> list[dict[str, Any]]:
    """The records with ``a``'s and ``b``'s names exchanged in each match with probability
    ``chance``: at 1/2 the two names are identical bots; at c, the bot called ``a`` is
    (1 - c) of ``a`` and c of ``b``, so their gap is (1 - 2c) of the real one."""
    out = []
    for record in records:
        copy = dict(record)
        if rng.random() < chance:
            names = {a: b, b: a}
            copy["seats"] = [names.get(n, n) for n in record["seats"]]
        out.append(copy)
    return out


def wilson(hits: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a share ``hits / n``."""
    if n == 0:
        return (0.0, 1.0)
    z = 1.959964
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def share(hits: int, n: int) -> str:
    low, high = wilson(hits, n)
    return f"{hits / n:.3f} [{low:.3f}, {high:.3f}]" if n else "—"


def goal_table(variant: str, walks: Sequence[Walk], rounds: int) -> None:
    n = len(walks)
    checkpoints = [c for c in CHECKPOINTS if c <= rounds]
    print(f"\n{variant}: share of {n} seeds in the true order after R rounds "
          "(95% interval)")  # fmt: skip
    print(f"  {'R':>4}  {'deals/entrant':>13}  " + "  ".join(f"{s:<22}" for s in walks[0].right))
    for r in checkpoints:
        deals = sum(w.deals[r - 1] for w in walks) / n
        cells = "  ".join(
            f"{share(sum(w.right[s][r - 1] for w in walks), n):<22}" for s in walks[0].right
        )
        print(f"  {r:>4}  {deals:>13.0f}  {cells}")
    for r in (c for c in (16, 20) if c <= rounds):
        diffs = [w.right["leaderboard"][r - 1] - w.right["score/deal"][r - 1] for w in walks]
        mean, se = mean_se(diffs)
        half = 1.959964 * se
        print(f"  round {r}: leaderboard − score/deal, paired over the same seeds: "
              f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]")  # fmt: skip
    shares = [sum(w.right["leaderboard"][r] for w in walks) / n for r in range(rounds)]
    first = next((r + 1 for r, x in enumerate(shares) if x >= GOAL), None)
    if first is None:
        print(f"  the leaderboard's share stays under {GOAL:.0%} up to round {rounds}")
    else:
        deals = sum(w.deals[first - 1] for w in walks) / n
        print(f"  the leaderboard's share first reaches {GOAL:.0%} at round {first}: "
              f"{deals:.0f} deals per entrant")  # fmt: skip


def spread_table(variant: str, walks: Sequence[Walk], rounds: int) -> None:
    """Whether each gap's variance is right: the standard deviation of its estimate across
    seeds against the standard error the leaderboard gave it (mean over seeds)."""
    print(f"\n{variant}: each true neighbour pair's gap (skill units) across "
          f"{len(walks)} seeds: its spread against the standard error shown")  # fmt: skip
    for pair in walks[0].gaps:
        cells = []
        for r in (c for c in (10, 20, 40) if c <= rounds):
            seen = [w.gaps[pair][r - 1] for w in walks if len(w.gaps.get(pair, ())) >= r]
            if len(seen) < 3:
                continue
            mean = sum(g for g, _ in seen) / len(seen)
            spread = math.sqrt(sum((g - mean) ** 2 for g, _ in seen) / (len(seen) - 1))
            shown = sum(e for _, e in seen) / len(seen)
            cells.append(f"round {r}: gap {mean:.3f}, spread {spread:.3f}, shown {shown:.3f}")
        print(f"  {pair[0]} > {pair[1]}: " + "; ".join(cells))


def calibration_table(title: str, walks: Sequence[Walk], alternative: str | None = None) -> None:
    pairs = [p for w in walks for p in (w.alternatives.get(alternative, [])
                                         if alternative else w.calibration)]  # fmt: skip
    if alternative:
        title = f"{title}, P(>next) by {alternative!r} (--alternatives)"
    print(f"\n{title}: P(>next) shown against how often it was right "
          f"({len(pairs)} neighbour pairs, every round of {len(walks)} seeds), and how often "
          "it would be right by the known true gap")  # fmt: skip
    print(f"  {'bin':<12} {'pairs':>6}  {'shown':>6}  {'right (95% interval)':<24}  "
          "if the gap were known")  # fmt: skip
    for low, high in zip(BINS, BINS[1:], strict=False):
        inside = [p for p in pairs if low <= p[0] < high or (high == 1.0 and p[0] == 1.0)]
        if not inside:
            continue
        shown = sum(p for p, _, _ in inside) / len(inside)
        hits = sum(ok for _, ok, _ in inside)
        known = sum(k for _, _, k in inside) / len(inside)
        said = "—" if math.isnan(known) else f"{known:.3f}"  # --alternatives: not computed
        print(f"  [{low:.2f}, {high:.2f}) {len(inside):>6}  {shown:>6.3f}  "
              f"{share(hits, len(inside)):<24}  {said}")  # fmt: skip


def stops_table(variant: str, bundled: Sequence[Walk], true_order: Sequence[str],
                twins: Sequence[Walk], tenth: Sequence[Walk], real: Sequence[Walk],
                rounds: int) -> None:  # fmt: skip
    print(f"\n{variant}: --until-settled checked after every round, cap {rounds} rounds")
    stopped = [w for w in bundled if w.stop is not None]
    if not stopped:
        print(f"  bundled bots: none of {len(bundled)} runs stopped")
    else:
        median = sorted(w.stop for w in stopped if w.stop)[len(stopped) // 2]
        right = sum(
            all(not declared(w, b, a) for a, b in zip(true_order, true_order[1:], strict=False))
            for w in stopped
        )
        level = sum(settle.LEVEL in w.found for w in stopped)
        print(f"  bundled bots: {len(stopped)} of {len(bundled)} runs stopped, median stop "
              f"{median} rounds; no pair in the wrong order at the stop in "
              f"{share(right, len(stopped))}; a pair found level in {level}")  # fmt: skip
    for title, walks, wrong in (
        (
            "identical bots (tracker and planner, names swapped at 1/2)",
            twins,
            lambda w: declared(w, "tracker", "planner") or declared(w, "planner", "tracker"),
        ),
        (
            "a tenth of tracker-planner's gap (names swapped at 0.45)",
            tenth,
            lambda w: declared(w, "planner", "tracker"),
        ),
        (
            "real twins (norandom field: greedy#1, greedy#2)",
            real,
            lambda w: declared(w, "greedy#1", "greedy#2") or declared(w, "greedy#2", "greedy#1"),
        ),
    ):
        if not walks:
            continue
        bad = [w.stop for w in walks if wrong(w)]
        done = [w.stop for w in walks if w.stop is not None]
        median = sorted(done)[len(done) // 2] if done else None
        capped = len(walks) - len(done)
        when = f" (after rounds {', '.join(map(str, sorted(bad)))})" if bad else ""
        print(f"  {title}: wrong stops {share(len(bad), len(walks))} of {len(walks)} runs"
              f"{when}; {len(done)} stopped (median {median}), {capped} at the cap")  # fmt: skip


# The default fields of the other games (``--tables fields``): each holds every bundled
# bot twice but Truco's basic and random, so --until-settled tests bots (``BotEvidence``).
# The pair whose label is swapped at random to make two identical bots from real runs:
# Ruff's field has two of each, so sharp#i and steady#i swap (one coin a match).
FIELD_GAMES = ("truco", "ruff")
SWAPS: dict[str, tuple[str, str]] = {"ruff": ("sharp", "steady")}


def play_default(game: str, seed: int, rounds: int, cache: Path = CACHE) -> list[dict[str, Any]]:
    """The match records of one in-process run of ``game``'s default field at its default
    options, as ``arena tournament --in-process --game GAME --seed S --rounds R`` plays it
    (cached). Only a run of exactly R rounds serves: where some entrants sit out each
    round (Ruff's six at one table of four), who sits out when depends on R."""
    path = cache / f"{game}-default-r{rounds}" / f"seed{seed}.jsonl"
    if path.exists():
        return [json.loads(line) for line in path.read_text().splitlines() if line]
    specs = list(REGISTRY[game].default_entrants({}))
    config = RunConfig(rounds=rounds, game=game, seed=seed, transport="in-process",
                       bots=specs, names=entrant_names_for(specs))  # fmt: skip
    return play_and_cache(config, seed, path)


def swapped_pairs(
    records: Sequence[Mapping[str, Any]], a: str, b: str, chance: float, rng: random.Random
) -> list[dict[str, Any]]:
    """``swapped`` for bots with several entrants: in each match, with probability
    ``chance``, every ``a#i`` and ``b#i`` exchange names (one coin for the match)."""
    names = {a: b, b: a}
    out = []
    for record in records:
        copy = dict(record)
        if rng.random() < chance:
            copy["seats"] = [
                names.get(kind(n), kind(n)) + n.removeprefix(kind(n)) for n in record["seats"]
            ]
        out.append(copy)
    return out


def walk_field(records: Sequence[Mapping[str, Any]], rounds: int) -> Walk:
    """Where --until-settled stops on a run of a default field, as the CLI runs it: each
    entrant's bot known from its name (``sharp#2`` is a sharp), twins the same bot, the
    bots tested with all their entrants' deals (``BotEvidence``)."""
    rounds_of = by_round(records)
    names = sorted({n for r in records for n in r["seats"]})
    bots = {n: kind(n) for n in names}
    ratings = Ratings()
    pooled = BotEvidence(bots) if settle.has_twins(bots) else None
    ranked: list[str] = []
    found: list[str] = []
    for r in range(1, rounds + 1):
        for record in sorted(rounds_of.get(r, []), key=match_order):
            ratings.rate_match(record)
            if pooled is not None:
                pooled.add(record)
        ranked = ratings.ranked(names)
        found = settle.verdicts(ratings, ranked, None, bots, pooled)
        if all(v != settle.OPEN for v in found):
            return Walk({}, [], r, ranked, found, [], {})
    return Walk({}, [], None, ranked, found, [], {})


def bot_order_declared(walk_: Walk, upper: str, lower: str) -> bool:
    """Whether the stop put some entrant of bot ``upper`` above one of bot ``lower`` by an
    above verdict (``declared`` for bots with several entrants)."""
    if walk_.stop is None:
        return False
    for i, a in enumerate(walk_.ranked):
        for j in range(i + 1, len(walk_.ranked)):
            b = walk_.ranked[j]
            if kind(a) == upper and kind(b) == lower and declared(walk_, a, b):
                return True
    return False


def fields_table(game: str, runs: Sequence[Sequence[Mapping[str, Any]]], rounds: int,
                 draws: int, rng: random.Random) -> None:  # fmt: skip
    """The default field's stops (each seed's round and verdicts) and, where the field has
    two bots of two entrants each, wrong stops between identical bots made by swapping
    their labels."""
    print(f"\n{game}, default field: --until-settled checked after every round, cap {rounds}")
    walks = [walk_field(r, rounds) for r in runs]
    for seed, w in enumerate(walks, start=1):
        verdicts = ", ".join(f"{a} {v} {b}" for a, b, v in
                             zip(w.ranked, w.ranked[1:], w.found, strict=False))  # fmt: skip
        print(f"  seed {seed}: " + (f"stopped after {w.stop}" if w.stop else "open at the cap")
              + f": {verdicts}")  # fmt: skip
    done = sorted(w.stop for w in walks if w.stop is not None)
    if done:
        print(f"  {len(done)} of {len(walks)} stopped by round {rounds}, median "
              f"{done[len(done) // 2]}, by round 100: {sum(s <= 100 for s in done)}")  # fmt: skip
    if game not in SWAPS or not draws:
        return
    a, b = SWAPS[game]
    for title, chance, wrong in (
        (f"identical bots ({a} and {b} labels swapped at 1/2)", 0.5,
         lambda w: bot_order_declared(w, a, b) or bot_order_declared(w, b, a)),
        ("a tenth of their gap (swapped at 0.45)", 0.45,
         lambda w: bot_order_declared(w, b, a)),
    ):  # fmt: skip
        made = [walk_field(swapped_pairs(r, a, b, chance, rng), rounds)
                for r in runs for _ in range(draws)]  # fmt: skip
        bad = [w.stop for w in made if wrong(w)]
        stops = sorted(w.stop for w in made if w.stop is not None)
        median = stops[len(stops) // 2] if stops else None
        print(f"  {title}: wrong stops {share(len(bad), len(made))} of {len(made)} runs "
              f"({len(runs)} played x {draws} label draws); {len(stops)} stopped "
              f"(median {median})")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="tournaments for goal/calibration")
    parser.add_argument("--rounds", type=int, default=40, help="their rounds")
    parser.add_argument("--other-seeds", type=int, default=None,
                        help="tournaments of the norandom field (default: --seeds)")  # fmt: skip
    parser.add_argument("--stop-seeds", type=int, default=10, help="tournaments for the stops")
    parser.add_argument("--stop-rounds", type=int, default=120, help="their rounds (the cap)")
    parser.add_argument("--draws", type=int, default=1, help="label draws per stop run")
    parser.add_argument("--draw-seed", type=int, default=29, help="seed of the label draws")
    parser.add_argument("--truth-rounds", type=int, default=2000)
    parser.add_argument("--variants", default="classic,target")
    parser.add_argument("--tables", default="goal,calibration,stops",
                        help="any of goal, calibration, stops, fields (the Truco and Ruff "
                        "default fields' stops)")  # fmt: skip
    parser.add_argument("--alternatives", action="store_true",
                        help="calibration: also P(>next) with a t tail, an empirical-Bayes "
                        "prior, both, and fitted gap sizes (Alternatives)")  # fmt: skip
    parser.add_argument("--field-games", default=",".join(FIELD_GAMES))
    parser.add_argument("--field-seeds", type=int, default=8, help="runs per default field")
    parser.add_argument("--field-rounds", type=int, default=250, help="their rounds (the cap)")
    parser.add_argument("--field-draws", type=int, default=50,
                        help="label draws per run for the identical-bots check")  # fmt: skip
    parser.add_argument("--cache", type=Path, default=CACHE, help="where runs are kept")
    parser.add_argument("--cached-only", action="store_true",
                        help="only the seeds among 1..--seeds already played")  # fmt: skip
    args = parser.parse_args()
    tables = set(args.tables.split(","))
    if "fields" in tables:
        rng = random.Random(args.draw_seed)
        for game in args.field_games.split(","):
            runs = [play_default(game, seed, args.field_rounds, args.cache)
                    for seed in range(1, args.field_seeds + 1)]  # fmt: skip
            fields_table(game, runs, args.field_rounds, args.field_draws, rng)
        tables.discard("fields")
        if not tables:
            return
    for variant in args.variants.split(","):
        true_order = truth(variant, args.truth_rounds, args.cache)
        started = time.perf_counter()
        if tables & {"goal", "calibration"}:
            seeds = seeds_to_play(variant, args.seeds, args.rounds, args)
            if args.cached_only:
                print(f"{variant}: {len(seeds)} of seeds 1..{args.seeds} played "
                      f"({args.rounds} rounds or more)")  # fmt: skip
            skills = (
                true_skills(variant, args.truth_rounds, None, args.cache)
                if "calibration" in tables else None
            )  # fmt: skip
            walks = [
                walk(
                    play(variant, seed, args.rounds, duplicate=False, cache=args.cache),
                    args.rounds,
                    true_order,
                    skills=skills,
                    alternatives=args.alternatives,
                )  # fmt: skip
                for seed in seeds
            ]
            if "goal" in tables:
                goal_table(variant, walks, args.rounds)
            if "calibration" in tables:
                spread_table(variant, walks, args.rounds)
                calibration_table(f"{variant}, bundled bots", walks)
                for name in ("t", "eb", "eb+t", "g") if args.alternatives else ():
                    calibration_table(f"{variant}, bundled bots", walks, name)
                alone = true_skills(variant, args.truth_rounds, "norandom", args.cache)
                others = args.other_seeds or args.seeds
                other = [
                    walk(play(variant, seed, args.rounds, duplicate=False, cache=args.cache,
                              field="norandom"),
                         args.rounds, true_order, skills=alone, alternatives=args.alternatives)
                    for seed in seeds_to_play(variant, others, args.rounds, args, "norandom")
                ]  # fmt: skip
                calibration_table(f"{variant}, no random bot (norandom)", other)
                for name in ("t", "eb", "eb+t", "g") if args.alternatives else ():
                    calibration_table(f"{variant}, no random bot (norandom)", other, name)
        if "stops" in tables:
            stop_seeds = seeds_to_play(variant, args.stop_seeds, args.stop_rounds, args)
            runs = [
                play(variant, seed, args.stop_rounds, duplicate=False, cache=args.cache)
                for seed in stop_seeds
            ]
            bundled = [walk(r, args.stop_rounds, true_order, sorts=False) for r in runs]
            rng = random.Random(args.draw_seed)
            twins, tenth = [], []
            for records in runs:
                for _ in range(args.draws):
                    pair = swapped(records, "tracker", "planner", 0.5, rng)
                    twins.append(walk(pair, args.stop_rounds, None, sorts=False))
                    near = swapped(records, "tracker", "planner", 0.45, rng)
                    tenth.append(walk(near, args.stop_rounds, None, sorts=False))
            real = [
                walk(play(variant, seed, args.stop_rounds, duplicate=False, cache=args.cache,
                          field="norandom"),
                     args.stop_rounds, None, sorts=False)
                for seed in seeds_to_play(variant, args.stop_seeds, args.stop_rounds, args,
                                          "norandom")
            ] if variant == "classic" else []  # fmt: skip
            stops_table(variant, bundled, true_order, twins, tenth, real, args.stop_rounds)
        print(f"({variant}: {time.perf_counter() - started:.0f}s)")


if __name__ == "__main__":
    main()
