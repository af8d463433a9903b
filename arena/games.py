"""The one interface between the arena and a game's rules.

The referee, the scheduler, the ratings and the CLI know games only through
``Game`` and ``Match``: seat counts, teams, legal actions, views and replay records
all come from here; a game joins by adding its ``GameEntry`` to ``REGISTRY``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from arena.ruff.game import RuffGame
from arena.ruff.rules import RuffRules
from arena.ruff.rules import rules_text as ruff_rules_text
from arena.seats import alternating_teams
from arena.truco.game import TrucoGame
from arena.truco.rules import TrucoRules
from arena.truco.rules import rules_text as truco_rules_text
from arena.truf.replay import public_deal
from arena.truf.rules import TrufRules
from arena.truf.rules import rules_text as truf_rules_text
from arena.truf.state import DealSpec, TrufMatch


class Match(Protocol):
    """One play-through: what a runner needs of a game's state."""

    game: str
    num_seats: int
    totals: list[int]
    finished: list[dict[str, Any]]  # replay records of finished deals, popped by the runner

    @property
    def is_over(self) -> bool: ...
    @property
    def ranks(self) -> list[int]: ...
    @property
    def teams(self) -> tuple[tuple[int, ...], ...]: ...
    def to_act(self) -> tuple[int, ...]: ...
    def legal_actions(self, seat: int) -> Sequence[Any]: ...
    def view(self, seat: int) -> Any: ...
    def lazy_view(self, seat: int) -> Any:
        """The same view as ``view(seat)``, free to build its fields when first read
        (what in-process bots get)."""
        ...

    def apply(self, seat: int, action: Any) -> None: ...
    def fallback_action(self, seat: int) -> Any: ...
    def decision_number(self) -> int:
        """The 1-based number, within the current deal (hand), of the decision being
        made now: where a fault record locates its decision (docs/results.md)."""
        ...

    def run(
        self,
        acts: list[Callable[[Any, Sequence[Any]], Any] | None],
        on_fault: Callable[[int, Exception], None],
        on_deal: Callable[[dict[str, Any]], None],
    ) -> int:
        """Play to the end in-process, as ``apply`` would step by step: ask
        ``acts[seat](lazy_view, legal)`` for each decision (None: the fallback, unasked),
        report a raising or illegal answer to ``on_fault`` and play the fallback, and pass
        each finished deal's record to ``on_deal``. Returns the decisions taken."""
        ...


class Game(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def table_size(self) -> int: ...
    def new_match(self, *, match_id: str, seed: str, names: Sequence[str]) -> Match: ...
    def describe(self) -> dict[str, Any]: ...
    def match_stats(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]: ...
    def deal_summary(self, record: dict[str, Any]) -> dict[str, Any]:
        """What a bot's ``deal_over`` hook gets: the public part of a deal's record."""
        ...


class DuplicateGame(Protocol):
    """A game that offers ``--duplicate`` (``GameEntry.duplicate``): a match whose deals
    are those of ``seed`` with the hands (and the first dealer) turned by ``rotation``
    seats, so that seat ``s`` holds what seat ``s + rotation`` holds at rotation 0."""

    def new_match(
        self, *, match_id: str, seed: str, names: Sequence[str], rotation: int
    ) -> Match: ...


@dataclass(frozen=True)
class TrufGame:
    """Truf under a set of rules, optionally playing given deals (a deal file)."""

    rules: TrufRules = field(default_factory=TrufRules)
    deals: tuple[DealSpec, ...] = ()
    name: str = "truf"

    @property
    def table_size(self) -> int:
        return self.rules.seats

    def new_match(
        self, *, match_id: str, seed: str, names: Sequence[str], rotation: int = 0
    ) -> TrufMatch:
        """A match keyed by ``seed``; ``rotation`` turns its hands (``DuplicateGame``)."""
        return TrufMatch(
            self.rules,
            match_id=match_id,
            seed=seed,
            names=names,
            deals=self.deals,
            rotation=rotation,
        )

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.name, **self.rules.describe()}
        if self.deals:
            out["deals_file"] = {"deals": len(self.deals), "first": self.deals[0].source}
        return out

    def deal_summary(self, record: dict[str, Any]) -> dict[str, Any]:
        return public_deal(record)

    def match_stats(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Per-seat statistics for ``matches.jsonl``: deals played and exact bids."""
        seats = self.rules.seats
        exact = [0] * seats
        for rec in records:
            for s in range(seats):
                if rec["tricks_won"][s] == rec["final_bids"][s]:
                    exact[s] += 1
        return {"deals": len(records), "exact": exact}


def make_game(name: str = "truf", *, rules: Any = None, deals: Sequence[Any] = ()) -> Game:
    """The game ``name`` (a ``REGISTRY`` key) under ``rules`` (that game's rules class,
    or its defaults), playing the given ``deals`` first (that game's deal specs)."""
    entry = game_entry(name)
    if rules is not None and not isinstance(rules, entry.rules_type):
        raise ValueError(
            f"{entry.title} takes {entry.rules_type.__name__}, not {type(rules).__name__}"
        )
    return entry.make(rules if rules is not None else entry.rules_type(), tuple(deals))


# --- the registry: what the runner, CLI, leaderboard and verify know of each game ----


@dataclass(frozen=True)
class StatColumn:
    """A leaderboard column a game adds: per entrant, the sum over its matches of the
    match records' per-seat ``field`` divided by the deals (hands) it played."""

    name: str  # the column in leaderboard.csv / .json
    header: str  # shown in the terminal and markdown tables
    field: str  # a per-seat list in every matches.jsonl line of the game
    percent: bool = False  # shown as a percentage


SeatOutcome = tuple[int, int | None, int | None]  # one seat's (score, bid, tricks) in a deal


@dataclass(frozen=True)
class GameEntry:
    """One game as the arena runs it. Adding a game is adding an entry to ``REGISTRY``:
    the runner, the CLI, the leaderboard and ``arena verify`` read nothing else."""

    name: str
    title: str  # as people write it: "Truf"
    # The options only this game takes: CLI option -> RunConfig field (and its default).
    options: Mapping[str, tuple[str, Any]]
    # The game under the run's option values (RunConfig fields) and deals file (a path).
    build: Callable[[Mapping[str, Any], str | None], Game]
    # What the header line says of the rules: "classic", "4 seats · to 30 points".
    headline: Callable[[Game], str]
    # Bundled bots are looked up in ``bots.bundled_bots(name)``; these play by default,
    # chosen by the run's option values (RunConfig fields: a field may suit the seats).
    default_entrants: Callable[[Mapping[str, Any]], tuple[str, ...]]
    # Replays a whole replays.jsonl of the game, (line number, record) pairs -> (deals,
    # matches); raises ValueError or arena.replaycheck.ReplayMismatch naming the line.
    replay_log: Callable[[Sequence[tuple[int, Mapping[str, Any]]], str], tuple[int, int]]
    # Checks one match's deals against its match key (the hands the secret deals).
    check_dealt: Callable[[Sequence[Mapping[str, Any]], str], int]
    stats: tuple[StatColumn, ...]  # the leaderboard columns of the game
    # The game's rules class (its defaults: ``rules_type()``), and the game under given
    # rules and deal specs: what ``make_game`` builds.
    rules_type: type[Any]
    make: Callable[[Any, tuple[Any, ...]], Game]
    # The seats of each team at the game's table, when partners depend on the seating
    # (the scheduler then rotates partners: arena.partners); None: every seat for itself.
    teams: Callable[[Game], tuple[tuple[int, ...], ...] | None] = lambda game: None
    # The HTML report (arena/report): the package whose ``viewer.js`` steps through the
    # game's replays, and per seat of a replay record its (score, bid, tricks taken), bid
    # and tricks None where the game has no bids. None: the report says the game's replays
    # are not yet viewable / shows no per-deal distributions.
    viewer: str | None = None
    seat_outcomes: Callable[[Mapping[str, Any]], list[SeatOutcome]] | None = None
    # Whether the game deals duplicate (``--duplicate``): its Game is a ``DuplicateGame``
    # and its ``check_dealt`` turns the hands back by each record's ``rotation``.
    duplicate: bool = False
    # What the game calls one line of replays.jsonl, as people say it ("hand" in Truco).
    deal_word: str = "deal"
    # The rules of a results file (``describe()``'s dict) in a reader's words: the
    # report's subtitle. None: the keys and values as they are.
    rules_text: Callable[[Mapping[str, Any]], list[str]] | None = None


def _truf(values: Mapping[str, Any], deals_file: str | None) -> Game:
    from arena.truf.dealsfile import load_deals

    rules = TrufRules(
        variant=values["variant"],
        scoring=values["scoring"],
        multiplier=values["multiplier"],
        deals=values["deals"],
    )
    return TrufGame(rules, tuple(load_deals(deals_file)) if deals_file else ())


def _truco(values: Mapping[str, Any], deals_file: str | None) -> Game:
    from arena.truco.dealsfile import load_hands

    rules = TrucoRules(seats=values["seats"], points=values["points"])
    return TrucoGame(rules, tuple(load_hands(deals_file, rules.seats)) if deals_file else ())


def _ruff(values: Mapping[str, Any], deals_file: str | None) -> Game:
    from arena.ruff.dealsfile import load_deals as load_ruff_deals

    rules = RuffRules(form=values["form"], seats=values["seats"], alt_deals=values["alt_deals"])
    return RuffGame(rules, tuple(load_ruff_deals(deals_file, rules)) if deals_file else ())


def _ruff_headline(game: Game) -> str:
    rules = game.describe()
    alt = " · alternative deal" if rules["alt_deals"] else ""
    return f"{rules['form']} · {rules['seats']} seats{alt} · set of {rules['set']}"


def _ruff_partners(game: Game) -> tuple[tuple[int, ...], ...] | None:
    rules = game.describe()
    return ((0, 2), (1, 3)) if rules["form"] == "double" else None


def _lazy(module: str, name: str) -> Callable[..., Any]:
    """``module.name``, imported when first called (a game's replay code loads only when
    ``arena verify`` needs it)."""

    def call(*args: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args)

    return call


def _truco_field(values: Mapping[str, Any]) -> tuple[str, ...]:
    """Truco's default field (house choice): at 2 and 4 seats one random, one basic and
    two shrewd, so that every entrant plays every round and the order of strength shows in
    100 rounds (with six entrants at four seats, partners and sit-outs blurred basic and
    shrewd); at 6 seats two of each fill the table, every bot meeting its own kind."""
    if values.get("seats", 4) == 6:
        return ("random", "random", "basic", "basic", "shrewd", "shrewd")
    return ("random", "basic", "shrewd", "shrewd")


def _truco_headline(game: Game) -> str:
    rules = game.describe()
    return f"{rules['seats']} seats · to {rules['points']} points"


REGISTRY: dict[str, GameEntry] = {
    entry.name: entry
    for entry in (
        GameEntry(
            name="truf",
            title="Truf",
            options={
                "--variant": ("variant", "classic"),
                "--scoring": ("scoring", "1"),
                "--multiplier": ("multiplier", 2),
                "--deals": ("deals", 0),
            },
            build=_truf,
            headline=lambda game: str(game.describe()["variant"]),
            default_entrants=lambda values: ("random", "greedy", "planner", "tracker"),
            replay_log=_lazy("arena.truf.replay", "replay_log"),
            check_dealt=_lazy("arena.truf.replay", "check_dealt"),
            stats=(
                StatColumn("avg_score_per_deal", "score/deal", "totals"),
                StatColumn("exact_rate", "exact", "exact", percent=True),
            ),
            rules_type=TrufRules,
            make=lambda rules, deals: TrufGame(rules, deals),
            viewer="arena.truf",
            seat_outcomes=_lazy("arena.truf.replay", "seat_outcomes"),
            duplicate=True,
            rules_text=truf_rules_text,
        ),
        GameEntry(
            name="truco",
            title="Truco",
            options={"--seats": ("seats", 4), "--points": ("points", 30)},  # R2, R11
            build=_truco,
            headline=_truco_headline,
            default_entrants=_truco_field,
            replay_log=_lazy("arena.truco.replay", "replay_log"),
            check_dealt=_lazy("arena.truco.replay", "check_dealt"),
            stats=(
                StatColumn("points_for_per_hand", "for/hand", "totals"),
                StatColumn("points_against_per_hand", "against/hand", "points_against"),
                StatColumn("envido_points_per_hand", "envido/hand", "envido_points"),
                StatColumn("truco_points_per_hand", "truco/hand", "truco_points"),
                StatColumn("envidos_won_rate", "envido won", "envidos_won", percent=True),
                StatColumn("truco_refused_rate", "refused", "truco_refused", percent=True),
            ),
            rules_type=TrucoRules,
            make=lambda rules, hands: TrucoGame(rules, hands),
            teams=lambda game: alternating_teams(game.table_size),  # ruling R2
            viewer="arena.truco",
            seat_outcomes=_lazy("arena.truco.replay", "seat_outcomes"),
            deal_word="hand",  # ruling R3: a Truco deal is a hand
            rules_text=truco_rules_text,
        ),
        GameEntry(
            name="ruff",
            title="Ruff and Trump",
            options={
                "--form": ("form", "double"),  # ruling F1
                "--seats": ("seats", 4),
                "--alt-deals": ("alt_deals", False),  # ruling F2
            },
            build=_ruff,
            headline=_ruff_headline,
            # Two of each bundled Ruff bot (house choice, as for Truco): six entrants fill
            # a table of 2, 3 or 4 and every bot meets its own kind as partner and opponent.
            default_entrants=lambda values: (
                "random",
                "random",
                "steady",
                "steady",
                "sharp",
                "sharp",
            ),
            replay_log=_lazy("arena.ruff.replay", "replay_log"),
            check_dealt=_lazy("arena.ruff.replay", "check_dealt"),
            stats=(
                StatColumn("points_per_deal", "points/deal", "totals"),
                StatColumn("ruffs_won_rate", "ruffs won", "ruffs_won", percent=True),
                StatColumn("card_points_per_deal", "cards/deal", "card_points"),
            ),
            rules_type=RuffRules,
            make=lambda rules, deals: RuffGame(rules, deals),
            teams=_ruff_partners,  # ruling F1: partners opposite in double, none in single
            viewer="arena.ruff",
            seat_outcomes=_lazy("arena.ruff.replay", "seat_outcomes"),
            rules_text=ruff_rules_text,
        ),
    )
}


GAMES = tuple(REGISTRY)  # every game this arena plays, by name


def game_entry(name: str) -> GameEntry:
    """The registry entry of game ``name``; a ValueError naming the games otherwise."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise ValueError(
            f"unknown game {name!r}; this arena plays: {', '.join(REGISTRY)}"
        ) from None


def record_game(record: Mapping[str, Any]) -> str:
    """The game a results line belongs to (lines written before Truco have no "game")."""
    game = record.get("game", "truf")
    return game if isinstance(game, str) else repr(game)
