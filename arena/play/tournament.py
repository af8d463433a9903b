"""In-process play: one match between Python bots, and whole tournaments without a network.

``play_match`` is the referee loop without a transport: a view for every decision,
the sorted legal list, the bot's answer checked by ``apply``, the fallback for any
fault. ``run_in_process`` plays a round-robin schedule and writes the results files.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from arena.bot import Bot, call_hook, has_hook
from arena.core.errors import AnswerIndexError, RuleError
from arena.core.records import corrected_seats, deal_points
from arena.core.seeding import block_key, match_key, schedule_seed
from arena.games.registry import REGISTRY, DuplicateGame, Game, Match
from arena.play.faults import FaultBook, FaultKind
from arena.play.partners import rotate_partners
from arena.play.scheduler import Round, Table, schedule
from arena.standings.places import places
from arena.standings.results import ResultsWriter
from arena.standings.settle import UntilSettled


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
    seed: str = "0"  # the match key (arena.core.seeding.match_key): the game's only randomness
    # A duplicate run's block (1-based) and the rotation of its hands (0 .. seats - 1);
    # ``seed`` is then the block's key (arena.core.seeding.block_key), shared by its matches.
    block: int | None = None
    rotation: int = 0
    # --correct-random: the seats whose bot chooses uniformly among its legal actions (the
    # bundled random bot, run by the arena itself), whose luck the match record takes out
    # (``finish_match``); empty: none.
    uniform: tuple[int, ...] = ()

    def labels(self) -> dict[str, int]:
        """What a duplicate match's records say of its place: block and rotation."""
        return {} if self.block is None else {"block": self.block, "rotation": self.rotation}


def start_match(game: Game, ctx: MatchContext, names: Sequence[str]) -> Match:
    """The game's new match for ``ctx``: rotated when it is a duplicate run's."""
    if ctx.block is None:
        return game.new_match(match_id=ctx.match_id, seed=ctx.seed, names=names)
    duplicate = cast(DuplicateGame, game)
    return duplicate.new_match(
        match_id=ctx.match_id, seed=ctx.seed, names=names, rotation=ctx.rotation
    )


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
    """The matches.jsonl line for a finished match: ``ranks`` are the places
    (``arena.standings.places``: a disqualified or forfeiting seat below every other), ``raw_ranks``
    the game's own order by total."""
    summary = book.summary()
    raw = list(ranks)
    out = [d or f for d, f in zip(book.disqualified, book.forfeit, strict=True)]
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
        "ranks": places(raw, out, teams),
        "raw_ranks": raw,
        **ctx.labels(),
        **game.match_stats(deals),
        **summary,
        "deal_points": deal_points(deals, len(names)),
        **deal_luck(game, corrected_seats(ctx.uniform, out), deals),
    }


def deal_luck(
    game: Game, uniform: Sequence[int], deals: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """``--correct-random``'s fields of a match line: the seats that chose at random
    (``luck_seats``; not one disqualified or forfeiting, whose seat the fallback played
    unasked) and, per deal and seat, the points their choices brought beyond their
    average (``deal_luck``: ``GameEntry.deal_luck``), which the ratings subtract from
    ``deal_points``; nothing when no seat is corrected."""
    entry = REGISTRY.get(game.name)
    if not uniform or entry is None or entry.luck is None:
        return {}
    return {
        "luck_seats": list(uniform),
        "deal_luck": [entry.deal_luck(deal, uniform)[0] for deal in deals],
    }


def fault_kind(game: Game, exc: Exception) -> FaultKind:
    """The kind of an in-process bot's fault, as the same bot's answer over gRPC would be
    judged (the SDK reports act()'s exceptions as ``Answer.failure`` and sends an answer
    without a choice for a value that is no action): an exception from the bot's own code
    is a ``crash``; an index outside the legal list, or an action the rules refuse, is
    ``illegal``; a returned value that is no action of the game at all is ``unparseable``."""
    if isinstance(exc, AnswerIndexError):
        return FaultKind.ILLEGAL
    if not isinstance(exc, RuleError):
        return FaultKind.CRASH
    return FaultKind.ILLEGAL if is_action(game.name, exc.action) else FaultKind.UNPARSEABLE


def is_action(game: str, value: object) -> bool:
    """Whether ``value`` is an action of ``game`` as its wire codec can send it (an index
    is one too). Only asked on a fault's path: the codec (protobuf) loads then."""
    if type(value) is int:
        return True
    from arena._proto.truf.arena.v1 import arena_pb2 as pb
    from arena.games.codecs import codec_for
    from arena.wire.codecs import NOT_AN_ACTION

    try:
        codec_for(game).fill_answer(pb.Answer(), value)
    except NOT_AN_ACTION:
        return False
    return True


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
    match = start_match(game, ctx, names)
    book = FaultBook(len(bots), strike_limit)
    deals: list[dict[str, Any]] = []
    faults: list[dict[str, Any]] = []
    acts: list[Any] = [bot.act for bot in bots]

    def on_fault(seat: int, exc: Exception) -> None:
        # Called before the fallback is played: the match still stands at the decision.
        kind = fault_kind(game, exc)
        name = "IndexError" if isinstance(exc, AnswerIndexError) else type(exc).__name__
        detail = exc.detail if isinstance(exc, RuleError) else f"{name}: {exc}"
        played = str(match.fallback_action(seat))
        deal, decision = len(deals) + 1, match.decision_number()
        faults.append(book.record(seat, kind, detail, deal, decision=decision, played=played))
        if on_bot_error is not None:
            on_bot_error(names[seat], exc)
        if book.disqualified[seat]:
            acts[seat] = None  # its seat plays the fallback from now on, unasked

    def on_deal(record: dict[str, Any]) -> None:
        nonlocal faults
        record["faults"], faults = faults, []
        record.update(ctx.labels())
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
    """The matches of a run. ``secret`` is the run's secret (``arena.core.seeding``): each
    match's key, and so every deal, is derived from it and the match id."""

    game: Game
    entrants: list[str]
    rounds: int
    secret: str
    strike_limit: int = 3
    schedule: list[Round] = field(default_factory=list)
    # Duplicate deals: each round the scheduler draws becomes a block of ``table_size``
    # rounds at the same tables, one per rotation of the block's deals (the last block
    # is cut short at ``rounds``).
    duplicate: bool = False
    # --until-settled: asked before each new round, fed each finished match.
    stop: UntilSettled | None = None
    # --correct-random: the entrants whose luck the records take out (MatchContext.uniform).
    uniform: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not self.schedule:
            n, k = len(self.entrants), self.game.table_size
            drawn = -(-self.rounds // k) if self.duplicate else self.rounds
            self.schedule = schedule(n, k, drawn, schedule_seed(self.secret))
            entry = REGISTRY.get(self.game.name)
            teams = entry.teams(self.game) if entry is not None else None
            if teams is not None:
                self.schedule = rotate_partners(self.schedule, n, teams)
            if self.duplicate:
                self.schedule = blocks_of(self.schedule, k, self.rounds)

    def tables(self) -> list[Table]:
        return [t for r in self.schedule for t in r.tables]

    def block_of(self, round_number: int) -> tuple[int, int] | None:
        """A duplicate run's (block, rotation) of a round; None in any other run."""
        if not self.duplicate:
            return None
        block, rotation = divmod(round_number - 1, self.game.table_size)
        return block + 1, rotation

    def settles_after(self, round_number: int) -> bool:
        """Whether ``--until-settled`` may stop after this round: after any round, or in
        a duplicate run after a block's last rotation (and at the cap)."""
        place = self.block_of(round_number)
        last = place is None or place[1] == self.game.table_size - 1
        return last or round_number == self.rounds

    def context(self, table: Table) -> MatchContext:
        place = self.block_of(table.round)
        uniform = tuple(s for s, e in enumerate(table.seats) if self.entrants[e] in self.uniform)
        if place is None:
            key = match_key(self.secret, table.match_id)
            return MatchContext(table.match_id, table.round, table.table, key, uniform=uniform)
        block, rotation = place
        key = block_key(self.secret, block)
        return MatchContext(table.match_id, table.round, table.table, key, block, rotation, uniform)


def blocks_of(drawn: Sequence[Round], seats: int, rounds: int) -> list[Round]:
    """Each drawn round played ``seats`` times at the same tables (a duplicate block), the
    rounds numbered on, cut at ``rounds``."""
    out: list[Round] = []
    for base in drawn:
        for _ in range(seats):
            number = len(out) + 1
            if number > rounds:
                return out
            tables = tuple(Table(number, t.table, t.seats) for t in base.tables)
            out.append(Round(number, tables, base.sitting_out))
    return out


OnBotError = Callable[[str, Exception], None]


class MatchRunner(Protocol):
    """Where the matches of an in-process run are played: here, one after the other
    (``SerialRunner``), in worker processes (``arena.play.parallel``) or on a Ray cluster
    (``arena.play.cluster``). Each plays ``tables`` and yields their outcomes in the order
    given, whatever order they finish in; the caller may stop taking them at any point
    (the generator is then closed, and matches still in play are dropped unrecorded)."""

    def play(
        self, plan: TournamentPlan, tables: Sequence[Table], on_bot_error: OnBotError | None
    ) -> Generator[MatchOutcome, None, None]: ...


@dataclass
class SerialRunner:
    """Every match in this process, one after the other, with these bot instances."""

    bots: Mapping[str, Bot]

    def play(
        self, plan: TournamentPlan, tables: Sequence[Table], on_bot_error: OnBotError | None
    ) -> Generator[MatchOutcome, None, None]:
        for table in tables:
            yield play_table(plan, self.bots, table, on_bot_error)


def play_table(
    plan: TournamentPlan, bots: Mapping[str, Bot], table: Table, on_bot_error: OnBotError | None
) -> MatchOutcome:
    """Play one scheduled match of ``plan`` with these bot instances."""
    names = [plan.entrants[i] for i in table.seats]
    return play_match(
        plan.game,
        [bots[n] for n in names],
        ctx=plan.context(table),
        names=names,
        strike_limit=plan.strike_limit,
        on_bot_error=on_bot_error,
    )


def run_in_process(
    plan: TournamentPlan,
    bots: Mapping[str, Bot],
    writer: ResultsWriter,
    *,
    skip: frozenset[str] = frozenset(),
    on_match: Callable[[Progress], None] | None = None,
    on_bot_error: OnBotError | None = None,
    runner: MatchRunner | None = None,
) -> int:
    """Play every scheduled match not in ``skip`` and append its results as it ends, in
    schedule order (``runner``: where the matches are played; None: here, one after the
    other, with ``bots``). Returns the number of decisions taken."""
    tables = plan.tables()
    todo = [t for t in tables if t.match_id not in skip]
    decisions = 0
    done = len(skip)
    with closing((runner or SerialRunner(bots)).play(plan, todo, on_bot_error)) as outcomes:
        for outcome in outcomes:
            if plan.stop is not None and plan.stop.stop_before(outcome.record["round"]):
                break  # --until-settled: the order is known (matches in play are dropped)
            writer.write_match(outcome.record, outcome.deals)
            if plan.stop is not None:
                plan.stop.add(outcome.record)
            decisions += outcome.decisions
            done += 1
            if on_match is not None:
                on_match(Progress(done, len(tables), decisions, outcome))
    return decisions
