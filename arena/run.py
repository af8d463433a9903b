"""A tournament run: its configuration, its results directory, and what it loads.

The CLI parses options into a ``RunConfig``; this module turns that into a game,
a schedule, bots and a results directory, so that ``--in-process`` and the gRPC
referee share one setup and write the same files.
"""

from __future__ import annotations

import gc
import importlib
import importlib.metadata
import json
import os
import platform
import secrets
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from arena import __version__
from arena.bot import Bot
from arena.games import make_game
from arena.results import MATCHES, TOURNAMENT, ResultsDirError, read_jsonl
from arena.tournament import TournamentPlan, entrant_names
from arena.truf.dealsfile import load_deals
from arena.truf.rules import TrufRules

DEFAULT_BOTS = ("random", "greedy", "planner", "tracker")
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
    deals_file: str | None = None
    seed: int = 0
    transport: str = "grpc"  # or "in-process"
    listen: str = "127.0.0.1:0"
    decision_timeout: float = 1.0
    time_bank: float = 0.0  # seconds per seat per match beyond the decision timeouts
    grace: float = 30.0  # seconds a dropped bot has to reconnect before it forfeits
    tls_cert: str | None = None  # PEM certificate chain: serve over TLS
    tls_key: str | None = None  # and its private key
    strikes: int = 3

    def rules(self) -> TrufRules:
        return TrufRules(
            variant=self.variant,  # type: ignore[arg-type]
            scoring=self.scoring,  # type: ignore[arg-type]
            multiplier=self.multiplier,
            deals=self.deals,
        )

    def entrants(self) -> list[str]:
        return entrant_names(self.bots)

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
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunConfig:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)


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
    """``HOST:PORT`` as (host, port); an empty host is loopback. A ConfigError otherwise."""
    host, sep, port = listen.rpartition(":")
    if not sep or not port.isdigit() or int(port) > 65535:
        raise ConfigError(f"--listen must be HOST:PORT (port 0: any free port), got {listen!r}")
    return host or "127.0.0.1", port


def make_plan(config: RunConfig, *, entrants_option: str = "--bots") -> TournamentPlan:
    """Check the options and build the game and schedule; raises a ValueError that says
    which option is wrong (``entrants_option``: the option that set the entrants)."""
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
    deals = load_deals(config.deals_file) if config.deals_file else ()
    game = make_game(config.game, rules=config.rules(), deals=deals)
    entrants = config.entrants()
    if len(entrants) < game.table_size:
        raise ConfigError(
            f"a {game.name} table seats {game.table_size}; {entrants_option} gives only "
            f"{len(entrants)} entrant(s): {', '.join(entrants) or 'none'}"
        )
    return TournamentPlan(game, entrants, config.rounds, config.seed, config.strikes)


def load_bot(spec: str, seed: str) -> Bot:
    """A bundled bot by name (``greedy``), or any Python class as ``module:Class``."""
    from bots import EXTERNAL

    if spec in EXTERNAL:  # bots/js/ would import as an empty namespace package: say why not
        ext = EXTERNAL[spec]
        raise ConfigError(
            f"{spec} runs only over gRPC; drop --in-process (it is a {ext.language} program: "
            f"{ext.program} bots/{ext.script} --connect HOST:PORT)"
        )
    module_name, _, attr = spec.partition(":")
    if not attr:
        module_name, attr = f"bots.{spec}", "Bot"
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        from bots import BUNDLED

        raise ConfigError(
            f"unknown bot {spec!r} ({exc}); bundled bots: {', '.join(BUNDLED)} "
            f"(over gRPC also {', '.join(EXTERNAL)}), or give a Python class as module:Class"
        ) from None
    cls = getattr(module, attr, None)
    if cls is None:
        raise ConfigError(f"bot {spec!r}: module {module_name} has no {attr}")
    try:
        bot = cls(seed=seed)
    except TypeError:
        bot = cls()
    if not callable(getattr(bot, "act", None)):
        raise ConfigError(f"bot {spec!r} has no act(view, legal) method")
    return bot  # type: ignore[no-any-return]


def base_name(entrant: str) -> str:
    return entrant.split("#", 1)[0]


def load_bots(config: RunConfig) -> dict[str, Bot]:
    return {e: load_bot(base_name(e), f"{config.seed}:{e}") for e in config.entrants()}


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
        "entrants": [
            {
                "name": e,
                "bot": base_name(e),
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
    except (OSError, json.JSONDecodeError) as exc:
        raise ResultsDirError(f"cannot read {path}: {exc}") from None
    return RunConfig.from_json(data.get("config", {}))


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
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


def parse_bots(values: Sequence[str]) -> list[str]:
    """``--bots a,b --bots c`` -> [a, b, c]."""
    out = [b.strip() for v in values for b in v.split(",") if b.strip()]
    if not out:
        raise ConfigError("--bots names no bot")
    return out
