"""A tournament run: its configuration, its results directory, and what it loads.

The CLI parses options into a ``RunConfig``; this module turns that into a game,
a schedule, bots and a results directory, so that ``--in-process`` and the gRPC
referee share one setup and write the same files.
"""

from __future__ import annotations

import gc
import importlib
import importlib.machinery
import importlib.metadata
import json
import math
import os
import platform
import secrets
import socket
import sys
import tempfile
import time
import types
import typing
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from arena import __version__
from arena.bot import Bot
from arena.core.files import private_dir, write_secret
from arena.core.seeding import bot_seed, new_secret, seeded_secret
from arena.games.registry import REGISTRY, Game, game_entry
from arena.play.botgames import check_plays
from arena.play.loading import instantiate, load_class, split_options
from arena.play.tournament import TournamentPlan, entrant_names
from arena.standings.results import (
    MATCHES,
    SECRET,
    TOURNAMENT,
    ResultsDirError,
    read_jsonl,
)
from arena.standings.settle import MARGIN, UntilSettled

DEFAULT_BOTS = REGISTRY["truf"].default_entrants({})  # the default game's
CONFIG_SCHEMA = 1


class ConfigError(ValueError):
    """Options that do not make a tournament."""


@dataclass
class RunConfig:
    rounds: int = 100
    bots: list[str] = field(default_factory=lambda: list(DEFAULT_BOTS))
    game: str = "truf"
    variant: str = "classic"
    scoring: str = "1"
    multiplier: int = 2
    deals: int = 0  # 0: the variant's default
    seats: int = 4  # Truco: 2, 4 or 6 (R2); Ruff: 4, 3 or 2 (F1)
    points: int = 30  # Truco: the target, 30 or 15 (R11)
    form: str = "double"  # Ruff: double or single (F1)
    alt_deals: bool = False  # Ruff: the seed's alternative deals (F2)
    envido_count: str = "seed"  # Truco: "seed" or "traditional" (R9)
    deals_file: str | None = None
    seed: int | None = None  # None: secret deals (a fresh run secret); an int: --seed
    transport: str = "grpc"  # or "in-process"
    listen: str = "127.0.0.1:0"
    decision_timeout: float = 1.0
    time_bank: float = 0.0  # seconds per seat per match beyond the decision timeouts
    grace: float = 30.0  # seconds a dropped bot has to reconnect before it forfeits
    tls_cert: str | None = None  # PEM certificate chain: serve over TLS
    tls_key: str | None = None  # and its private key
    strikes: int = 3
    external: bool = False  # arena serve: the bots connect on their own (none is started)
    # arena serve --tokens FILE (absolute) / --issue-tokens (relative to the results directory)
    tokens_file: str | None = None
    # Duplicate deals: each round of the schedule becomes a block of table-size rounds that
    # play the same fresh deals with the hands rotated among the seats (arena.play.tournament).
    duplicate: bool = False
    # Stop once the leaderboard's order is settled (arena.standings.settle); rounds: the cap.
    until_settled: bool = False
    # --margin: neighbours within this share of a deal's spread may be found level (settle)
    settle_margin: float = MARGIN
    # --correct-random: the records take the bundled random bot's luck out of the points
    # the ratings read (``GameEntry.luck``; the arena runs that bot itself, so its policy,
    # uniform among the legal actions, is known).
    correct_random: bool = False
    # The entrants' names, in the order of ``bots``, fixed when the run starts (each
    # bot's own name: ``entrant_names_for``); None: the names are ``bots`` made unique.
    names: list[str] | None = None

    def make_game(self) -> Game:
        """The game this run plays, under its options and deals file (a ValueError says
        which is wrong)."""
        return game_entry(self.game).build(asdict(self), self.deals_file)

    def entrants(self) -> list[str]:
        return list(self.names) if self.names else entrant_names(self.bots)

    def spec_of(self, entrant: str) -> str:
        """The bot (a bundled name or ``module:Class``) that plays as ``entrant``."""
        return dict(zip(self.entrants(), self.bots, strict=True))[entrant]

    def tls(self) -> tuple[bytes, bytes] | None:
        """The referee's (certificate, key), PEM, or None for plain HTTP/2."""
        if not self.tls_cert and not self.tls_key:
            return None
        if not (self.tls_cert and self.tls_key):
            raise ConfigError("TLS needs both --tls-cert and --tls-key")
        try:
            return Path(self.tls_cert).read_bytes(), Path(self.tls_key).read_bytes()
        except OSError as exc:
            raise ConfigError(f"cannot read {exc.filename}: {exc.strerror}") from None

    def to_json(self) -> dict[str, Any]:
        """The fields saved in ``tournament.json``: every field but the options of the
        other games (a Truf run's file is as it was before Truco joined), and but an
        option added later that is at its default (a run's file is as it was before:
        ``correct_random`` too)."""
        entry = REGISTRY.get(self.game)
        mine = {o.field for o in entry.options} if entry else set()
        foreign = {o.field for e in REGISTRY.values() for o in e.options} - mine
        if entry:  # options added later are saved when chosen (GameOption.saved_at_default)
            foreign |= {
                o.field
                for o in entry.options
                if not o.saved_at_default and getattr(self, o.field) == o.default
            }
        if not self.correct_random:
            foreign.add("correct_random")
        return {k: v for k, v in asdict(self).items() if k not in foreign}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunConfig:
        """The configuration saved in ``tournament.json``; a ConfigError names a field
        whose value has the wrong type."""
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        hints = typing.get_type_hints(cls)
        for name, value in known.items():
            if not _has_type(value, hints[name]):
                raise ConfigError(f"config field {name!r} has the wrong type: {value!r}")
        return cls(**known)


def _has_type(value: object, hint: Any) -> bool:
    """Whether a JSON value fits a RunConfig field's type (int, float, str, bool, None,
    list[X] and unions of these; anything else is not checked)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_has_type(value, h) for h in typing.get_args(hint))
    if origin is list:
        (item,) = typing.get_args(hint)
        return isinstance(value, list) and all(_has_type(v, item) for v in value)
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:  # JSON's NaN and Infinity are no config's values
        return (
            isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        )
    if hint is str:
        return isinstance(value, str)
    return True


def tune_gc() -> None:
    """Garbage-collector settings for a process that plays a tournament (the CLI's, where
    the referee or the in-process bots run; never a bot's own process).

    Play allocates many small containers (events, views, records) that die young and
    form almost no cycles, so the young generation is collected every 10,000
    allocations instead of 700, and what start-up built (modules, bots, lookup tables)
    is frozen out of the collector's way. ``bench/engine.py`` counts 6% fewer
    instructions per deal with these settings, 7% with no collector at all.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


def split_listen(listen: str) -> tuple[str, str]:
    """``HOST:PORT`` as (host, port); an empty host is loopback. A ConfigError otherwise.
    ``unix:PATH`` (a referee behind ``arena edge``) is (``unix:PATH``, "")."""
    if listen.startswith("unix:") and len(listen) > 5:
        return listen, ""
    host, sep, port = listen.rpartition(":")
    if not sep or not port.isdigit() or int(port) > 65535:
        raise ConfigError(f"--listen must be HOST:PORT (port 0: any free port), got {listen!r}")
    return host or "127.0.0.1", port


def check_listen(listen: str) -> None:
    """Bind ``--listen`` once before anything starts: a busy port or an address that is
    not this machine's is one line naming it (issue 13.4), not a gRPC log message."""
    host, port = split_listen(listen)
    if not port:  # a Unix socket: its folder must exist; grpc replaces a stale socket
        folder = Path(listen[5:]).parent
        if not folder.is_dir():
            raise ConfigError(f"cannot listen on {listen}: {folder} is not a directory")
        return
    host = host.strip("[]")  # [::1]:50051
    try:
        found = socket.getaddrinfo(
            host, int(port), type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
        family, kind, proto, _, address = found[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gRPC binds
            probe.bind(address)
    except OSError as exc:  # socket.gaierror included
        raise ConfigError(f"cannot listen on {listen}: {exc.strerror or exc}") from None


def check_writable(directory: Path) -> None:
    """Fail now, not after the bots have come, when the results cannot be written
    (issue 13.8). Leaves nothing behind: the probe file is removed, no folder is made."""
    parent = directory
    while not parent.exists():
        if parent.parent == parent:
            break
        parent = parent.parent
    if not parent.is_dir():
        raise ResultsDirError(f"cannot write results in {directory}: {parent} is not a directory")
    try:
        with tempfile.TemporaryFile(dir=parent):
            pass
    except OSError as exc:
        raise ResultsDirError(
            f"cannot write results in {directory}: {exc.strerror or exc} ({parent})"
        ) from None


def check_bot_names(entrants: Sequence[str], game: str = "truf") -> None:
    """Before a gRPC run starts its bots: every name is a bundled bot of ``game`` or an
    importable ``module:Class`` that declares ``game`` in its ``games`` (issue 13.3; in
    process, loading the bots does this)."""
    from bots import EXTERNAL, bundled_module

    for spec in dict.fromkeys(split_options(base_name(e))[0] for e in entrants):
        module_name, _, attr = spec.partition(":")
        if not attr:
            known = bundled_module(spec, game) is not None or spec in EXTERNAL
        else:
            # Where the bot's own process will look: the current folder first (python -m).
            top = module_name.split(".", 1)[0]
            path = [os.getcwd(), *sys.path]
            finder = importlib.machinery.PathFinder
            known = bool(top) and (top in sys.modules or finder.find_spec(top, path) is not None)
        if not known:
            raise ConfigError(unknown_bot(spec, game))
        # The games it declares, checked as in-process play checks them (a bundled bot of
        # another game, truco.basic in a Truf run, too).
        bundled = None if attr or spec in EXTERNAL else bundled_module(spec, game)
        if attr or bundled:
            check_plays(load_class(spec if attr else f"{bundled}:Bot"), game, spec)


def unknown_bot(spec: str, game: str) -> str:
    """The one-line error for a bot name that is no bundled bot of ``game``; it names the
    games that have a bundled bot of that name."""
    from bots import EXTERNAL, bundled_names, games_with_bot

    others = [g for g in games_with_bot(spec) if g != game and g in REGISTRY]
    hint = (
        f"; {spec} is a bundled {' and '.join(REGISTRY[g].title for g in others)} bot "
        f"(--game {others[0]})"
        if others
        else ""
    )
    return (
        f"unknown bot {spec!r}; bundled {game} bots: {', '.join(bundled_names(game)) or 'none'} "
        f"(over gRPC also {', '.join(EXTERNAL)}), or give a Python class as module:Class{hint}"
    )


def make_plan(config: RunConfig, *, secret: str, entrants_option: str = "--bots") -> TournamentPlan:
    """Check the options and build the game and schedule, every match keyed by ``secret``
    (see ``run_secret``); raises a ValueError that says which option is wrong
    (``entrants_option``: the option that set the entrants)."""
    if config.rounds < 1:
        raise ConfigError(f"--rounds must be at least 1, got {config.rounds}")
    if config.decision_timeout <= 0:
        raise ConfigError(f"--decision-timeout must be positive, got {config.decision_timeout}")
    config.tls()  # both or neither, and readable
    split_listen(config.listen)
    if config.grace < 0:
        raise ConfigError(f"--grace must be 0 or more, got {config.grace}")
    if config.time_bank < 0:
        raise ConfigError(f"--time-bank must be 0 or more, got {config.time_bank}")
    if config.strikes < 1:
        raise ConfigError(f"--strikes must be at least 1, got {config.strikes}")
    if config.duplicate:
        entry = game_entry(config.game)
        if not entry.duplicate:
            raise ConfigError(
                f"--duplicate: {entry.title} does not deal duplicate yet (its matches cannot "
                "rotate one deal's hands among the seats); drop --duplicate"
            )
        if config.deals_file:
            raise ConfigError(
                "--duplicate deals fresh deals for every block; a --deals-file fixes the "
                "deals: give one or the other"
            )
    game = config.make_game()
    entrants = config.entrants()
    if len(entrants) < game.table_size:
        raise ConfigError(
            f"a {game.name} table seats {game.table_size}; {entrants_option} gives only "
            f"{len(entrants)} entrant(s): {', '.join(entrants) or 'none'}"
        )
    plan = TournamentPlan(
        game, entrants, config.rounds, secret, config.strikes, duplicate=config.duplicate
    )
    if config.correct_random:
        plan.uniform = uniform_entrants(config, entrants)
    if config.until_settled:
        bots = {e: config.spec_of(e) for e in entrants}
        plan.stop = UntilSettled(plan, entrants, margin=config.settle_margin, bots=bots)
    return plan


def uniform_entrants(config: RunConfig, entrants: Sequence[str]) -> frozenset[str]:
    """``--correct-random``: the entrants played by the bundled random bot, whose luck the
    records take out; a ConfigError when the game cannot, the bots are not the arena's to
    run (``arena serve``) or no entrant is that bot."""
    entry = game_entry(config.game)
    if entry.luck is None:
        raise ConfigError(
            f"--correct-random: {entry.title} cannot take a random bot's luck out of its "
            "points yet (Truf can); drop --correct-random"
        )
    if config.external:
        raise ConfigError(
            "--correct-random needs the arena to run the random bot itself (its policy must "
            "be known); the bots of arena serve are their own"
        )
    uniform = frozenset(e for e in entrants if is_random_bot(config.spec_of(e), config.game))
    if not uniform:
        raise ConfigError(
            "--correct-random: no entrant is the bundled random bot (add random to --bots, "
            "or drop --correct-random)"
        )
    return uniform


def is_random_bot(spec: str, game: str) -> bool:
    """Whether ``spec`` runs the bundled random bot (``random``, ``truf.random``,
    ``bots.random:Bot``; no option changes its play)."""
    from bots import bundled_module

    name = split_options(spec)[0]
    if ":" in name:
        return name in ("bots.random:Bot", "bots.random:RandomBot")
    return bundled_module(name, game) == "bots.random"


def load_bot(spec: str, seed: str, game: str = "truf", *, check_games: bool = True) -> Bot:
    """A bundled bot of ``game`` by name (``greedy``), or any Python class as
    ``module:Class``, either with options (``pimc:budget=0.5``, ``loading.split_options``).
    A bot whose ``games`` lacks ``game`` is refused (``arena.play.botgames.check_plays``) unless
    ``check_games`` is off (``arena bot`` without ``--game``: the referee will tell)."""
    from bots import EXTERNAL, bundled_module

    full_spec = spec
    spec, options = split_options(spec)
    if spec in EXTERNAL:  # bots/js/ would import as an empty namespace package: say why not
        ext = EXTERNAL[spec]
        raise ConfigError(
            f"{spec} runs only over gRPC; drop --in-process (it is a {ext.language} program: "
            f"{ext.program} bots/{ext.script} --connect HOST:PORT)"
        )
    if ":" not in spec:
        module = bundled_module(spec, game)  # also truco.basic in any game
        if module is None:
            raise ConfigError(unknown_bot(spec, game))
        spec_to_load = f"{module}:Bot"
    else:
        spec_to_load = spec
    bot = instantiate(load_class(spec_to_load), seed, full_spec, options)
    if not callable(getattr(bot, "act", None)):
        raise ConfigError(f"bot {spec!r} has no act(view, legal) method")
    if check_games:  # as the referee checks Hello.games over gRPC
        check_plays(bot, game, full_spec)
    return bot  # type: ignore[no-any-return]


def base_name(entrant: str) -> str:
    return entrant.split("#", 1)[0]


def bot_name(spec: str) -> str:
    """The name a bot plays under, in-process and over gRPC alike: its class's own
    ``name`` (what the SDK says in its hello), else the class's name; a bundled bot's
    name is the one it is given by. Options stay in the name (``pimc:budget=0.5``)."""
    base, _ = split_options(spec)
    if ":" not in base:
        return spec
    cls = load_class(base)
    name = getattr(cls, "name", None)
    own = name if isinstance(name, str) and name.strip() else str(cls.__name__)
    return own + spec[len(base) :]


def entrant_names_for(specs: Sequence[str]) -> list[str]:
    """Each bot's own name (``bot_name``), made unique with #1, #2... when repeated."""
    return entrant_names([bot_name(s) for s in specs])


def load_bots(config: RunConfig, secret: str) -> dict[str, Bot]:
    return {
        e: load_bot(config.spec_of(e), bot_seed(secret, e), config.game) for e in config.entrants()
    }


def versions() -> dict[str, str]:
    out = {"arena": __version__, "python": platform.python_version()}
    for dist in ("grpcio", "protobuf", "trueskill"):
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            out[dist] = "absent"
    return out


def tournament_json(
    config: RunConfig, plan: TournamentPlan, bots: dict[str, Any]
) -> dict[str, Any]:
    """The ``tournament.json`` of a run: everything needed to run it again."""
    return {
        "schema": CONFIG_SCHEMA,
        "config": config.to_json(),
        "game": plan.game.describe(),
        "seed": config.seed,
        "randomness": "seeded" if config.seed is not None else "secret",
        "entrants": [
            {
                "name": e,
                "bot": config.spec_of(e),
                "version": str(getattr(bots.get(e), "version", "external")),
            }
            for e in plan.entrants
        ],
        "matches": len(plan.tables()),
        "versions": versions(),
    }


def default_results_dir(root: Path = Path("results")) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = root / stamp
    n = 1
    while path.exists():
        n += 1
        path = root / f"{stamp}-{n}"
    return path


def check_fresh(directory: Path) -> None:
    """Refuse to mix two runs' results in one directory."""
    if (directory / MATCHES).exists() and (directory / MATCHES).stat().st_size > 0:
        raise ResultsDirError(
            f"{directory} already holds results ({MATCHES}); continue it with "
            f"--resume {directory}, or choose another --results directory"
        )


def load_config(directory: Path) -> RunConfig:
    path = directory / TOURNAMENT
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ResultsDirError(f"{directory} is not a results directory: no {TOURNAMENT}") from None
    except json.JSONDecodeError as exc:
        raise ResultsDirError(f"{path} line {exc.lineno}: not valid JSON ({exc.msg})") from None
    except UnicodeDecodeError as exc:
        raise ResultsDirError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise ResultsDirError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("config"), dict):
        raise ResultsDirError(f"{path}: expected a JSON object with a 'config' object")
    try:
        return RunConfig.from_json(data["config"])
    except ConfigError as exc:
        raise ResultsDirError(f"{path}: {exc}") from None


def saved_randomness(directory: Path) -> str | None:
    """``tournament.json``'s ``randomness`` ("secret" or "seeded"), or None for a run that
    an arena before secret deals started (its deals came from an older derivation)."""
    try:
        data = json.loads((directory / TOURNAMENT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    value = data.get("randomness") if isinstance(data, dict) else None
    return value if value in ("secret", "seeded") else None


def run_secret(config: RunConfig, directory: Path, *, resuming: bool = False) -> str:
    """The secret every deal of the run is derived from (security issue: predictable deals).

    With ``--seed`` it is derived from the seed in public, so the run can be repeated.
    Otherwise a resumed run reads the one its start saved in ``DIR/secret``, and a new run
    gets 128 fresh random bits, saved by ``save_secret`` once its directory exists."""
    if resuming and saved_randomness(directory) is None:
        raise ResultsDirError(
            f"{directory} was started by an arena from before secret deals, which dealt "
            "differently: finish it with that version"
        )
    if config.seed is not None:
        return seeded_secret(config.seed)
    if not resuming:
        return new_secret()
    path = directory / SECRET
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise ResultsDirError(
            f"{path} is missing: this run's deals came from that secret, and without it "
            "the remaining matches cannot be dealt as the run would have dealt them"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ResultsDirError(f"cannot read {path}: {exc}") from None
    if len(text) != 32 or any(c not in "0123456789abcdef" for c in text):
        raise ResultsDirError(f"{path}: expected 32 hex digits (the run secret)")
    return text


def save_secret(config: RunConfig, directory: Path, secret: str) -> None:
    """Keep a new secret run's secret in ``DIR/secret``, readable by its owner only, so
    that ``--resume`` deals on as the run would have (a seeded run has none to keep)."""
    if config.seed is not None:
        return
    write_secret(directory / SECRET, secret + "\n")


def finished_matches(directory: Path) -> list[dict[str, Any]]:
    return read_jsonl(directory / MATCHES)


def load_tokens(path: Path) -> dict[str, str]:
    """A tokens file for ``arena serve --tokens``: one ``NAME TOKEN`` per line (blank lines
    and ``#`` comments are skipped). Returns token -> entrant name; every mistake is an
    error naming the line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ConfigError(f"cannot read the tokens file {path}: {exc.strerror or exc}") from None
    tokens: dict[str, str] = {}
    for number, line in enumerate(lines, start=1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        where = f"{path} line {number}"
        if len(words) != 2:
            raise ConfigError(f"{where}: expected NAME TOKEN, got {line.strip()!r}")
        name, token = words
        if len(token) < 8:
            raise ConfigError(f"{where}: the token for {name} is too short (8 characters at least)")
        if token in tokens:
            raise ConfigError(f"{where}: token given twice (also for {tokens[token]})")
        if name in tokens.values():
            raise ConfigError(f"{where}: entrant {name} is named twice")
        tokens[token] = name
    if not tokens:
        raise ConfigError(f"{path}: no tokens (one NAME TOKEN per line)")
    return tokens


def issue_tokens(count: int) -> dict[str, str]:
    """Fresh random tokens for ``count`` entrants named entrant1, entrant2, ...: 128 bits
    in hex, safe on any command line (never a leading '-' to be read as an option)."""
    return {secrets.token_hex(16): f"entrant{i + 1}" for i in range(count)}


def write_tokens(path: Path, tokens: dict[str, str]) -> None:
    """Save tokens in the ``--tokens`` format, readable by the owner only."""
    text = "# NAME TOKEN: give each entrant its line\n" + "".join(
        f"{name} {token}\n" for token, name in tokens.items()
    )
    private_dir(path.parent)
    write_secret(path, text)


def parse_bots(values: Sequence[str]) -> list[str]:
    """``--bots a,b --bots c`` -> [a, b, c]."""
    out = [b.strip() for v in values for b in v.split(",") if b.strip()]
    if not out:
        raise ConfigError("--bots names no bot")
    return out
