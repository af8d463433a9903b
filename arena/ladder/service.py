"""``arena ladder run``: the referee, the matchmaker, the ratings and the web page in one
asyncio process, with the database as the only state that outlives it.

Bots connect with today's protocol and their ladder token, whenever they like; each
connection's ``Hello.bot_version`` names the rating row it plays for (a new version is a
new row; the old one and its history stay). Tables start whenever the matchmaker finds
one among the connected bots' free capacity: the bots' declared capacities are the limit
(as in a tournament, where ``arena.referee.host.tables_at_once`` sets it).

A finished match is rated (TrueSkill, in the order matches finish), then written with its
ratings in one transaction on the writer thread, then announced to the web page. At start
the ratings are recomputed from the database in the same order, so a ladder restarted
after ``kill -9`` rates exactly as one that never stopped.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from arena.core.game import Game
from arena.core.seeding import match_key
from arena.games.registry import REGISTRY
from arena.ladder import fit
from arena.ladder.matchmaker import Matchmaker
from arena.ladder.store import Store, hash_token, label_of, split_label
from arena.play.run import RunConfig
from arena.play.tournament import MatchContext
from arena.referee.limits import Limits
from arena.referee.server import Entrant, HelloError, Referee, start_server
from arena.referee.table import BotFault, play_remote_match
from arena.standings.ratings import DEFAULT_PARAMS, Rating, Ratings

ROSTER_POLL = 0.5  # seconds between looks at the entrants table (arena ladder add/ban/remove)
REFIT_EVERY = 1.0  # seconds between re-fits of the whole evidence, when it has grown
# The ladder's TrueSkill tau: 0. A rating row is one version of one bot, which does not
# change, so its skill is a constant and sigma should keep shrinking as evidence comes;
# a bot that changes announces a new version and gets a new row (docs/ladder.md).
TAU = 0.0
PARAMS = DEFAULT_PARAMS


class HashedTokens(dict[str, Entrant]):
    """The referee's ``by_token``, keyed by the tokens' hashes: a lookup hashes the token
    given, so the ladder never holds a token in memory or on disk. Always truthy, so
    that an empty ladder still asks every bot for a token."""

    def get(self, token: str, default: Any = None) -> Any:
        return super().get(hash_token(token), default) if token else default

    def __contains__(self, token: object) -> bool:
        return isinstance(token, str) and bool(token) and super().__contains__(hash_token(token))

    def __bool__(self) -> bool:
        return True


class LadderReferee(Referee):
    """The tournament referee, admitting the ladder's entrants by hashed token at any time,
    and telling the service who arrived and who left."""

    def __init__(self, **options: Any) -> None:
        super().__init__(tokens=None, open_seats=0, **options)
        self.by_token = HashedTokens()
        self.barred: dict[str, str] = {}  # token hash -> why (removed, banned)
        self.arrivals: set[Entrant] = set()
        self.departures: set[Entrant] = set()

    def _admit(self, hello: Any) -> Entrant:
        why = self.barred.get(hash_token(hello.token)) if hello.token else None
        if why is not None:
            raise HelloError(grpc.StatusCode.PERMISSION_DENIED, why)
        entrant = super()._admit(hello)
        self.arrivals.add(entrant)
        return entrant

    def stream_ended(self, conn: Any) -> None:
        self.departures.add(conn.entrant)
        super().stream_ended(conn)

    def seat(self, name: str, token_hash: str) -> Entrant:
        entrant = Entrant(name, self, token_hash)
        self.entrants.append(entrant)
        dict.__setitem__(self.by_token, token_hash, entrant)
        self.by_credential[entrant.credential] = entrant
        self.barred.pop(token_hash, None)
        return entrant

    def unseat(self, entrant: Entrant, why: str) -> None:
        """The entrant was removed or banned: its bot is disconnected and refused from now
        on (its matches in play finish with the fallback)."""
        assert entrant.token is not None
        dict.pop(self.by_token, entrant.token, None)
        self.by_credential.pop(entrant.credential, None)
        self.barred[entrant.token] = why
        if entrant in self.entrants:
            self.entrants.remove(entrant)
        if entrant.conn is not None:
            entrant.conn.close()


class Seat:
    """A ``SeatLink`` for one rating row at one table: the entrant's connection under the
    row's label. A bot away longer than the grace period forfeits the rest of the match
    (the fallback plays); unlike a tournament, coming back clears that for later matches."""

    def __init__(self, entrant: Entrant, label: str) -> None:
        self.entrant = entrant
        self.name = label
        self.result: dict[str, Any] | None = None  # held until the match is recorded
        self.thinking = 0.0  # seconds this seat's bot spent answering in the match

    @property
    def forfeited(self) -> bool:
        gone = self.entrant.gone_since
        return gone is not None and time.monotonic() - gone > self.entrant.referee.grace

    async def decide(self, **kw: Any) -> Any:
        start = time.monotonic()
        try:
            return await self.entrant.decide(**kw)
        finally:
            self.thinking += time.monotonic() - start

    async def notify_deal(self, **kw: Any) -> None:
        await self.entrant.notify_deal(**kw)

    async def notify_match(self, **kw: Any) -> None:
        """Held: a bot is told a match's result only once it is in the database, so a
        result a bot saw is never lost to a crash (``tell``)."""
        self.result = kw

    async def tell(self) -> None:
        if self.result is not None:
            await self.entrant.notify_match(**self.result)

    def rejected(self, *, ctx: MatchContext, seat: int, fault: BotFault, strikes: int) -> None:
        self.entrant.rejected(ctx=ctx, seat=seat, fault=fault, strikes=strikes)


@dataclass
class Row:
    """One rating row's tally, for the leaderboard."""

    label: str
    matches: int = 0
    wins: float = 0.0
    faults: int = 0
    last_seq: int = 0


@dataclass
class LadderState:
    """What the web page reads: the leaderboard, kept current by the service."""

    game: str
    title: str
    rows: dict[str, Row] = field(default_factory=dict)
    matches: int = 0
    published: dict[str, Rating] = field(default_factory=dict)  # the last re-fit
    fitted_through: int = 0  # the matches in that re-fit
    connected: dict[str, str] = field(default_factory=dict)  # entrant name -> label
    status: dict[str, str] = field(default_factory=dict)  # entrant name -> status
    in_play: int = 0


class LadderService:
    def __init__(
        self,
        directory: Path,
        *,
        listen: str,
        http: str | None,
        limits: Limits | None = None,
        decision_timeout: float | None = None,
    ) -> None:
        self.dir = Path(directory)
        self.store = Store(self.dir)
        self.config = RunConfig.from_json(self.store.game_config())
        self.game: Game = self.config.make_game()
        entry = REGISTRY[self.game.name]
        self.listen, self.http = listen, http
        self.limits = limits
        self.secret = self.store.secret()
        self.referee = LadderReferee(
            decision_timeout=decision_timeout or self.config.decision_timeout,
            time_bank=self.config.time_bank,
            grace=self.config.grace,
            strike_limit=self.config.strikes,
            game=self.game.name,
        )
        self.wake = self.referee.changed  # set by connects, drops, ends and roster changes
        self.ratings = Ratings(PARAMS)
        self.evidence = fit.Evidence(PARAMS)
        self.state = LadderState(game=self.game.name, title=entry.title)
        teams = entry.teams(self.game)
        self.matchmaker = Matchmaker(self.game.table_size, teams, self._rating)
        self.versions: dict[str, int] = {}  # label -> version id
        self.entrants: dict[str, Entrant] = {}  # by name
        self.live: dict[str, str] = {}  # entrant name -> the label its connection plays
        self.busy: dict[str, int] = {}  # label -> tables in play
        self.tasks: set[asyncio.Task[None]] = set()
        self.writer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="ladder-db")
        self.write_store: Store | None = None
        self.listeners: set[asyncio.Queue[dict[str, Any]]] = set()
        self.ids: range = range(0)
        self.next_id = 0
        self.seq = 0
        self.roster = -1
        self.grpc_port = 0
        self.http_port = 0
        self.matchmaking_seconds = 0.0  # time spent in Matchmaker.tables (bench/ladder.py)
        self.matchmaker_tables = 0
        self._load()

    # ------------------------------------------------------------------ state

    def _load(self) -> None:
        """Everything the database holds, rated again from scratch in finish order."""
        self.versions = self.store.versions()
        records = list(self.store.records())
        for record in records:
            self._tally(record)
        self.ratings.rate_all(records)  # in (round, table) order: round is the finish order
        for record in records:
            self.evidence.add(record)
        self.seq = self.store.last_seq()
        self.state.matches = len(records)
        self._publish_fit(fit.solve(self.evidence.snapshot()), self.seq)

    def _rating(self, label: str) -> Rating:
        return self.state.published.get(label) or self.ratings.rating(label)

    def _tally(self, record: dict[str, Any]) -> None:
        seats: Sequence[str] = record["seats"]
        firsts = [s for s, r in enumerate(record["ranks"]) if r == 1]
        teams_first = [t for t in record["teams"] if set(t) & set(firsts)]
        faults = record.get("faults", {})
        for seat, label in enumerate(seats):
            row = self.state.rows.setdefault(label, Row(label))
            row.matches += 1
            row.last_seq = int(record["round"])
            if seat in firsts and teams_first:
                row.wins += 1.0 / len(teams_first)
            row.faults += sum(int(v[seat]) for v in faults.values())

    def _publish_fit(self, fitted: dict[str, Rating], through: int) -> None:
        self.state.published = fitted
        self.state.fitted_through = through

    def leaderboard(self) -> list[dict[str, Any]]:
        """The rows, best first: by the re-fit's conservative rating where the re-fit has
        the row, else by TrueSkill's (rows rated only by places)."""
        out: list[dict[str, Any]] = []
        live = set(self.live.values())
        for label, row in self.state.rows.items():
            name, version = split_label(label)
            ts = self.ratings.rating(label)
            published = self.state.published.get(label, ts)
            out.append(
                {
                    "name": name,
                    "version": version,
                    "label": label,
                    "matches": row.matches,
                    "wins": round(row.wins, 3),
                    "faults": row.faults,
                    "mu": round(published.mu, 3),
                    "sigma": round(published.sigma, 3),
                    "conservative": round(published.conservative, 3),
                    "trueskill_mu": round(ts.mu, 3),
                    "trueskill_sigma": round(ts.sigma, 3),
                    "connected": label in live,
                    "status": self.state.status.get(name, "active"),
                }
            )
        out.sort(key=lambda r: (-r["conservative"], -r["mu"], r["label"]))
        for rank, r in enumerate(out, start=1):
            r["rank"] = rank
        return out

    # ------------------------------------------------------------------ running

    async def run(self, on_ready: Any = None) -> None:
        from arena.ladder.web import start_web

        server, self.grpc_port = await start_server(self.referee, self.listen, None, self.limits)
        runner = None
        self.write_store = Store(self.dir)
        try:
            self._roster()
            if self.http is not None:
                runner, self.http_port = await start_web(self, self.http)
            if on_ready is not None:
                on_ready(self)
            background = [
                asyncio.create_task(self._poll_roster()),
                asyncio.create_task(self._refit_loop()),
            ]
            try:
                await self._matchmaking()
            finally:
                for task in background:
                    task.cancel()
        finally:
            for task in list(self.tasks):  # matches in play are not recorded
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)
            # No TournamentOver: the ladder is not over. The streams end, and the SDK's
            # bots retry (30 s by default), so a quick restart keeps them.
            for entrant in self.referee.entrants:
                if entrant.conn is not None:
                    entrant.conn.close()
            await self.referee.wait_all_gone(2.0)
            if runner is not None:
                await runner.cleanup()
            await server.stop(grace=1.0)
            self.writer.shutdown(wait=True)
            self.write_store.close()
            self.store.close()

    async def _matchmaking(self) -> None:
        while True:
            self.wake.clear()
            self._reconcile()
            start = time.perf_counter()
            tables = self.matchmaker.tables()
            self.matchmaking_seconds += time.perf_counter() - start
            self.matchmaker_tables += len(tables)
            for labels in tables:
                self._start(labels)
            await self.wake.wait()

    def _reconcile(self) -> None:
        """Tell the matchmaker who left and who came (a new version is a new row)."""
        referee = self.referee
        departures, referee.departures = referee.departures, set()
        arrivals, referee.arrivals = referee.arrivals, set()
        for entrant in departures | arrivals:
            label = self.live.get(entrant.name)
            if label is not None and not entrant.connected_now:
                self.matchmaker.leave(label)
                del self.live[entrant.name]
        for entrant in arrivals:
            if not entrant.connected_now:
                continue
            label = label_of(entrant.name, entrant.bot_version)
            old = self.live.get(entrant.name)
            if old == label and old in self.matchmaker.bots:
                continue
            if old is not None:
                self.matchmaker.leave(old)
            if label not in self.versions:
                self.versions[label] = self.store.version_id(entrant.name, entrant.bot_version)
            self.live[entrant.name] = label
            self.state.rows.setdefault(label, Row(label))
            row = self.state.rows[label]
            self.matchmaker.join(label, entrant.capacity, row.matches, self.busy.get(label, 0))

    def _next_match(self) -> int:
        if self.next_id not in self.ids:
            self.ids = self.store.reserve_ids()
            self.next_id = self.ids.start
        n = self.next_id
        self.next_id += 1
        return n

    def _start(self, labels: list[str]) -> None:
        entrants = [self.entrants[split_label(label)[0]] for label in labels]
        n = self._next_match()
        match_id = f"L{n:07d}"
        ctx = MatchContext(match_id, n, 1, match_key(self.secret, match_id))
        for label in labels:
            self.busy[label] = self.busy.get(label, 0) + 1
        self.state.in_play += 1
        task = asyncio.create_task(self._play(labels, entrants, ctx))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _play(self, labels: list[str], entrants: list[Entrant], ctx: MatchContext) -> None:
        started = time.time()
        seats = [Seat(e, label) for e, label in zip(entrants, labels, strict=True)]
        try:
            outcome = await play_remote_match(
                self.game, seats, ctx=ctx, strike_limit=self.config.strikes
            )
        except Exception as exc:  # a defect of ours, never a bot's: say so, free the seats
            print(f"ladder: match {ctx.match_id} abandoned: {exc!r}", file=sys.stderr)
            self.matchmaker.abandoned(labels)
            self.wake.set()
            return
        finally:
            self.state.in_play -= 1
            for label in labels:
                self.busy[label] -= 1
        record = outcome.record
        self.seq += 1
        seq = self.seq
        record["round"] = seq  # a ladder's matches are rated and listed in finish order
        self.ratings.rate_match(record)
        self.evidence.add(record)
        after = {self.versions[label]: self.ratings.rating(label) for label in labels}
        faults = record.get("faults", {})
        faulted = [
            any(int(v[s]) for v in faults.values()) or bool(record["disqualified"][s])
            for s in range(len(labels))
        ]
        self.matchmaker.finished(labels, [seat.thinking for seat in seats], faulted)
        self.wake.set()
        assert self.write_store is not None
        write = self.write_store.record_match
        await asyncio.get_running_loop().run_in_executor(
            self.writer,
            lambda: write(
                seq,
                record,
                outcome.deals,
                started=started,
                decisions=outcome.decisions,
                version_ids=[self.versions[label] for label in labels],
                ratings={vid: (r.mu, r.sigma) for vid, r in after.items()},
            ),
        )
        # Recorded: now it counts, and the bots and the page hear of it.
        self._tally(record)
        self.state.matches += 1
        for seat in seats:
            await seat.tell()
        event = {
            "seq": seq,
            "match": record["match"],
            "seats": record["seats"],
            "ranks": record["ranks"],
            "totals": record["totals"],
        }
        for queue in list(self.listeners):
            if queue.qsize() < 256:  # a reader that does not read misses events, no more
                queue.put_nowait(event)

    # ------------------------------------------------------------- background

    async def _poll_roster(self) -> None:
        while True:
            await asyncio.sleep(ROSTER_POLL)
            self._roster()

    def _roster(self) -> None:
        """Seat entrants added since the last look; unseat the removed and banned."""
        stamp = self.store.roster_stamp()
        if stamp == self.roster:
            return
        self.roster = stamp
        for row in self.store.entrants():
            self.state.status[row.name] = row.status
            entrant = self.entrants.get(row.name)
            why = f"entrant {row.name} is {row.status} from this ladder" + (
                f": {row.reason}" if row.reason else ""
            )
            if row.status == "active" and entrant is None:
                self.entrants[row.name] = self.referee.seat(row.name, row.token_hash)
            elif row.status != "active" and entrant is not None:
                self.referee.unseat(entrant, why)
                del self.entrants[row.name]
                self.referee.departures.add(entrant)
            elif row.status != "active":
                self.referee.barred[row.token_hash] = why
        self.wake.set()

    async def _refit_loop(self) -> None:
        pause = REFIT_EVERY
        while True:
            await asyncio.sleep(pause)
            if self.state.fitted_through == self.seq:
                continue
            through = self.seq
            snapshot = self.evidence.snapshot()
            start = time.perf_counter()
            fitted = await asyncio.to_thread(fit.solve, snapshot)
            # An N x N solve grows as N^3: at most a tenth of the time goes to it.
            pause = max(REFIT_EVERY, 9 * (time.perf_counter() - start))
            self._publish_fit(fitted, through)
            for queue in list(self.listeners):
                if queue.qsize() < 256:
                    queue.put_nowait({"refit": through})
