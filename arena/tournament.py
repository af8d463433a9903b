"""In-process play: one match between Python bots, and whole tournaments without a network.

``play_match`` is the referee loop without a transport: a view for every decision,
the sorted legal list, the bot's answer checked by ``apply``, the fallback for any
fault. ``run_in_process`` plays a round-robin schedule and writes the results files.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.bot import Bot, call_hook, has_hook
from arena.errors import RuleError
from arena.faults import FaultBook, FaultKind
from arena.games import REGISTRY, Game
from arena.partners import rotate_partners
from arena.results import ResultsWriter
from arena.scheduler import Round, Table, schedule
from arena.seeding import match_key, schedule_seed


def entrant_names(bot_names: Sequence[str]) -> list[str]:
    """``random,random,greedy`` -> ``random#1, random#2, greedy``."""
    totals = {n: bot_names.count(n) for n in bot_names}
    seen: dict[str, int] = {}
    out = []
    for n in bot_names:
        if totals[n] > 1:
            seen[n] = seen.get(n, 0) + 1
            out.append(f"{n}#{seen[n]}")
        else:
            out.append(n)
    return out


@dataclass
class MatchOutcome:
    record: dict[str, Any]  # the matches.jsonl line
    deals: list[dict[str, Any]]  # the replays.jsonl lines
    decisions: int = 0


@dataclass
class MatchContext:
    """Where a match sits in a tournament; copied into its records."""

    match_id: str
    round: int = 1
    table: int = 1
    seed: str = "0"  # the match key (arena.seeding.match_key): the game's only randomness


def finish_match(
    game: Game,
    ctx: MatchContext,
    names: Sequence[str],
    totals: Sequence[int],
    ranks: Sequence[int],
    teams: Sequence[Sequence[int]],
    deals: list[dict[str, Any]],
    book: FaultBook,
) -> dict[str, Any]:
    """The matches.jsonl line for a finished match."""
    return {
        "schema": 1,
        "game": game.name,
        **{k: v for k, v in game.describe().items() if k in ("variant",)},
        "match": ctx.match_id,
        "round": ctx.round,
        "table": ctx.table,
        "seats": list(names),
        "teams": [list(t) for t in teams],
        "totals": list(totals),
        "ranks": list(ranks),
        **game.match_stats(deals),
        **book.summary(),
    }


def play_match(
    game: Game,
    bots: Sequence[Bot],
    *,
    ctx: MatchContext,
    names: Sequence[str],
    strike_limit: int = 3,
    on_bot_error: Callable[[str, Exception], None] | None = None,
) -> MatchOutcome:
    """Play one match in-process. A bot that raises, or answers with something
    illegal, gets a strike and its seat plays the fallback; nothing else changes.
    ``on_bot_error(entrant, exc)`` sees every such exception (to show the bot's bugs)."""
    match = game.new_match(match_id=ctx.match_id, seed=ctx.seed, names=names)
    book = FaultBook(len(bots), strike_limit)
    deals: list[dict[str, Any]] = []
    faults: list[dict[str, Any]] = []
    acts: list[Any] = [bot.act for bot in bots]

    def on_fault(seat: int, exc: Exception) -> None:
        kind = FaultKind.ILLEGAL if isinstance(exc, RuleError | IndexError) else FaultKind.CRASH
        detail = exc.detail if isinstance(exc, RuleError) else f"{type(exc).__name__}: {exc}"
        faults.append(book.record(seat, kind, detail, deal=len(deals) + 1))
        if on_bot_error is not None:
            on_bot_error(names[seat], exc)
        if book.disqualified[seat]:
            acts[seat] = None  # its seat plays the fallback from now on, unasked

    def on_deal(record: dict[str, Any]) -> None:
        nonlocal faults
        record["faults"], faults = faults, []
        deals.append(record)
        for bot in bots:
            if has_hook(bot, "deal_over"):
                call_hook(bot, "deal_over", game.deal_summary(record))

    decisions = match.run(acts, on_fault, on_deal)
    record = finish_match(game, ctx, names, match.totals, match.ranks, match.teams, deals, book)
    for seat, bot in enumerate(bots):
        if has_hook(bot, "match_over"):
            result = {k: list(record[k]) for k in ("seats", "totals", "ranks")}
            call_hook(bot, "match_over", {"match": record["match"], **result, "seat": seat})
    return MatchOutcome(record, deals, decisions)


@dataclass
class Progress:
    """What a runner reports after each match."""

    done: int
    total: int
    decisions: int
    outcome: MatchOutcome


@dataclass
class TournamentPlan:
    """The matches of a run. ``secret`` is the run's secret (``arena.seeding``): each
    match's key, and so every deal, is derived from it and the match id."""

    game: Game
    entrants: list[str]
    rounds: int
    secret: str
    strike_limit: int = 3
    schedule: list[Round] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.schedule:
            n, k = len(self.entrants), self.game.table_size
            self.schedule = schedule(n, k, self.rounds, schedule_seed(self.secret))
            entry = REGISTRY.get(self.game.name)
            teams = entry.teams(self.game) if entry is not None else None
            if teams is not None:
                self.schedule = rotate_partners(self.schedule, n, teams)

    def tables(self) -> list[Table]:
        return [t for r in self.schedule for t in r.tables]

    def context(self, table: Table) -> MatchContext:
        return MatchContext(
            table.match_id, table.round, table.table, match_key(self.secret, table.match_id)
        )


def run_in_process(
    plan: TournamentPlan,
    bots: Mapping[str, Bot],
    writer: ResultsWriter,
    *,
    skip: frozenset[str] = frozenset(),
    on_match: Callable[[Progress], None] | None = None,
    on_bot_error: Callable[[str, Exception], None] | None = None,
) -> int:
    """Play every scheduled match not in ``skip`` and append its results as it ends.
    Returns the number of decisions taken."""
    tables = plan.tables()
    decisions = 0
    done = len(skip)
    for table in tables:
        if table.match_id in skip:
            continue
        names = [plan.entrants[i] for i in table.seats]
        outcome = play_match(
            plan.game,
            [bots[n] for n in names],
            ctx=plan.context(table),
            names=names,
            strike_limit=plan.strike_limit,
            on_bot_error=on_bot_error,
        )
        writer.write_match(outcome.record, outcome.deals)
        decisions += outcome.decisions
        done += 1
        if on_match is not None:
            on_match(Progress(done, len(tables), decisions, outcome))
    return decisions
