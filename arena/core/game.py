"""The one interface between the arena and a game's rules.

The referee, the scheduler, the ratings and the CLI know games only through ``Game``
and ``Match``: seat counts, teams, legal actions, views and replay records all come
from here; a game joins by defining its ``GameEntry`` (in its own folder,
``arena/games/<game>/entry.py``) and adding it to ``arena.games.registry.REGISTRY``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


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
class GameOption:
    """One option a game takes on the command line (``arena tournament|serve --game G``):
    the RunConfig field it sets, its type and default, its help, and the values it may
    take. The CLI builds its option from this, and checks a given value here; which values
    are valid together is the entry's ``check_options``."""

    flag: str  # "--seats"
    field: str  # the RunConfig field it sets: "seats"
    type: type[Any]  # int, str, or bool (a flag that takes no value)
    default: Any
    help: str  # what it chooses, citing its ruling
    metavar: str = ""  # shown in the help; "" for a flag, or the choices
    choices: tuple[Any, ...] = ()  # the valid values; (): any value of its type
    least: int | None = None  # an int option's least valid value
    ruling: str = ""  # the ruling that fixes the choices ("R2"), cited when one is refused
    # Saved in tournament.json only when not at its default: an option added after the
    # game's results format was fixed, so that a run at the defaults writes the same file
    # as before (and older files, which lack it, mean the default).
    saved_at_default: bool = True

    def check(self, value: Any) -> None:
        """A ValueError naming the option when ``value`` is not one of its choices."""
        if self.choices and value not in self.choices:
            shown = [str(c) for c in self.choices]
            valid = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"
            cite = f" ({self.ruling})" if self.ruling else ""
            raise ValueError(f"{self.flag} must be {valid}, not {value!r}{cite}")
        if self.least is not None and value < self.least:
            raise ValueError(f"{self.flag} must be at least {self.least}, not {value!r}")


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
    """One game as the arena runs it: each game's folder defines its entry
    (``arena/games/<game>/entry.py``), and adding a game is adding that entry to
    ``arena.games.registry.REGISTRY``: the runner, the CLI, the leaderboard, the referee
    and ``arena verify`` read nothing else."""

    name: str
    title: str  # as people write it: "Truf"
    # The options only this game takes (``arena tournament|serve --game NAME``), each
    # setting the RunConfig field of its name; the CLI builds its options from these.
    options: tuple[GameOption, ...]
    # The game under the run's option values (RunConfig fields) and deals file (a path).
    build: Callable[[Mapping[str, Any], str | None], Game]
    # What the header line says of the rules: "classic", "4 seats · to 30 points".
    headline: Callable[[Game], str]
    # Bundled bots are looked up in ``bots.bundled_bots(name)``; these play by default,
    # chosen by the run's option values (RunConfig fields: a field may suit the seats).
    default_entrants: Callable[[Mapping[str, Any]], tuple[str, ...]]
    # Replays a whole replays.jsonl of the game, (line number, record) pairs -> (deals,
    # matches); raises ValueError or arena.core.replaycheck.ReplayMismatch naming the line.
    replay_log: Callable[[Sequence[tuple[int, Mapping[str, Any]]], str], tuple[int, int]]
    # Checks one match's deals against its match key (the hands the secret deals).
    check_dealt: Callable[[Sequence[Mapping[str, Any]], str], int]
    stats: tuple[StatColumn, ...]  # the leaderboard columns of the game
    # The game's rules class (its defaults: ``rules_type()``), and the game under given
    # rules and deal specs: what ``make_game`` builds.
    rules_type: type[Any]
    make: Callable[[Any, tuple[Any, ...]], Game]
    # The seats of each team at the game's table, when partners depend on the seating
    # (the scheduler then rotates partners: arena.play.partners); None: every seat for itself.
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
    # Which option values are valid together: raises ValueError (one line, naming the
    # options and the ruling) for the run's option values (fields) given ``given``, the
    # fields set on the command line. Each value alone is checked by its GameOption.
    check_options: Callable[[Mapping[str, Any], frozenset[str]], None] = lambda v, g: None
    # The module whose ``CODEC`` (an ``arena.wire.codecs.GameCodec``) carries the game over
    # the bot protocol: what the referee and the SDK use (``arena.games.codecs``).
    codec: str = ""
    # The module of the game's ``arena check`` cases (``find_cases()`` and
    # ``check_bot(entrant, cases)``, for ``arena.referee.check``); "": none.
    check: str = ""
    # ``--correct-random``: (a deal's replay record, the seats that chose uniformly among
    # their legal actions) -> per seat, the points those choices brought it beyond their
    # average (a value correction, AIVAT: ``arena.games.truf.luck``), which the ratings
    # subtract. None: the game offers no such correction yet.
    luck: Callable[[Mapping[str, Any], Collection[int]], list[float]] | None = None
    # What anyone may see of a finished deal: its replay record, a fresh copy, with every
    # card no other seat saw replaced by None (``arena.core.public``; docs/ladder.md, "What
    # is public"): what the ladder's web page serves. None: the game has not said, and
    # the ladder serves none of its deals.
    public_record: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None

    def deal_luck(
        self, deal: Mapping[str, Any], seats: Collection[int]
    ) -> tuple[list[float], str | None]:
        """One deal's ``deal_luck`` (``luck``, rounded to 6 decimals) and None; or zeros
        and why, when the game's simulator cannot follow the deal (an arena defect, which
        ``arena verify`` reports; the run still finishes, that deal's points as played)."""
        if self.luck is None:
            raise ValueError(f"{self.title} has no luck correction")
        try:
            return [round(x, 6) for x in self.luck(deal, seats)], None
        except ValueError as exc:
            return [0.0] * len(deal["seats"]), str(exc)

    def option(self, flag: str) -> GameOption | None:
        """This game's option ``flag`` ("--seats"), or None."""
        return next((o for o in self.options if o.flag == flag), None)

    def option_defaults(self) -> dict[str, Any]:
        """Every option's RunConfig field and default value."""
        return {o.field: o.default for o in self.options}


def lazy(module: str, name: str) -> Callable[..., Any]:
    """``module.name``, imported when first called (a game's replay code loads only when
    ``arena verify`` needs it; the registry names it without importing it)."""

    def call(*args: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args)

    return call
