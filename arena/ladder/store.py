"""The ladder's database: ``DIR/ladder.db``, SQLite in WAL mode (docs/ladder.md).

Everything the ladder knows is here: its game and options, its secret, the entrants
(tokens stored as SHA-256 hashes), each entrant's versions (a version is a rating row),
every finished match with its replay and faults, and each rating row's TrueSkill after
every match it played. A finished match is written in one transaction with its seats and
ratings, so a ``kill -9`` at any moment loses only the matches still in play.

The schema is versioned by ``PRAGMA user_version`` (``SCHEMA``); a database of another
version is refused with a message saying so, never silently rewritten.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import sqlite3
import time
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.core.files import private_dir

DB = "ladder.db"
SCHEMA = 1
# Match ids are handed out in blocks, each reserved in the database before its first
# match starts: a match lost to a crash never has its id (and so its deals) used again.
ID_BLOCK = 64
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")
STATUSES = ("active", "removed", "banned")

DDL = """
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE entrants (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  token_hash TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'removed', 'banned')),
  reason TEXT NOT NULL DEFAULT '',
  added REAL NOT NULL,
  changed REAL NOT NULL
);
CREATE TABLE versions (
  id INTEGER PRIMARY KEY,
  entrant_id INTEGER NOT NULL REFERENCES entrants (id),
  version TEXT NOT NULL,
  label TEXT NOT NULL UNIQUE,
  first_seen REAL NOT NULL,
  UNIQUE (entrant_id, version)
);
CREATE TABLE matches (
  seq INTEGER PRIMARY KEY,
  match_id TEXT NOT NULL UNIQUE,
  started REAL NOT NULL,
  finished REAL NOT NULL,
  decisions INTEGER NOT NULL,
  record TEXT NOT NULL,
  replay BLOB NOT NULL
);
CREATE TABLE seats (
  seq INTEGER NOT NULL REFERENCES matches (seq),
  seat INTEGER NOT NULL,
  version_id INTEGER NOT NULL REFERENCES versions (id),
  rank INTEGER NOT NULL,
  total INTEGER NOT NULL,
  faults INTEGER NOT NULL,
  PRIMARY KEY (seq, seat)
);
CREATE INDEX seats_by_version ON seats (version_id, seq);
CREATE TABLE ratings (
  version_id INTEGER NOT NULL REFERENCES versions (id),
  seq INTEGER NOT NULL REFERENCES matches (seq),
  mu REAL NOT NULL,
  sigma REAL NOT NULL,
  PRIMARY KEY (version_id, seq)
);
"""


class LadderError(ValueError):
    """A ladder that cannot be created, opened or changed as asked (one line says why)."""


def hash_token(token: str) -> str:
    """What the database keeps of a token: its SHA-256. Tokens are 128 random bits, so
    no slow hash is needed against guessing; a stolen database reveals no token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def label_of(name: str, version: str) -> str:
    """A rating row's name in the results: ``alice@1.2``, or ``alice`` for a bot that
    announced no version. Entrant names cannot hold ``@`` (``NAME_RE``)."""
    return f"{name}@{version}" if version else name


def split_label(label: str) -> tuple[str, str]:
    name, _, version = label.partition("@")
    return name, version


@dataclass(frozen=True)
class EntrantRow:
    id: int
    name: str
    token_hash: str
    status: str
    reason: str


def connect(path: Path, *, create: bool = False) -> sqlite3.Connection:
    """A connection to the ladder database at ``path`` in autocommit mode (transactions are
    explicit), WAL, full sync, foreign keys on; a LadderError for a missing or foreign file."""
    if not create and not path.exists():
        raise LadderError(f"{path.parent} is not a ladder: no {path.name} (arena ladder init DIR)")
    try:
        db = sqlite3.connect(path, isolation_level=None, timeout=10.0, check_same_thread=False)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")  # a committed match survives power loss too
        db.execute("PRAGMA foreign_keys = ON")
        version = db.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise LadderError(f"{path}: not a ladder database ({exc})") from None
    if not create and version != SCHEMA:
        db.close()
        raise LadderError(
            f"{path}: ladder schema {version}, this arena reads schema {SCHEMA}"
            + (": not a ladder database" if version == 0 else "")
        )
    return db


class Store:
    """One ladder's database. Each method is one transaction."""

    def __init__(self, directory: Path) -> None:
        self.dir = Path(directory)
        self.path = self.dir / DB
        self.db = connect(self.path)

    # ------------------------------------------------------------------ creation

    @classmethod
    def create(cls, directory: Path, game_config: Mapping[str, Any]) -> Store:
        """A new ladder in ``directory`` for this game configuration (RunConfig fields)."""
        directory = Path(directory)
        path = directory / DB
        if path.exists():
            raise LadderError(f"{directory} already holds a ladder ({DB})")
        try:
            private_dir(directory)  # its owner's alone: the WAL beside the database too
            # The database holds the ladder's secret and every hand: its owner alone may
            # read it (SQLite gives its -wal and -shm files the database's mode).
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            os.close(fd)
        except OSError as exc:
            raise LadderError(f"cannot create {path}: {exc.strerror or exc}") from None
        db = connect(path, create=True)
        with transaction(db):
            for statement in DDL.split(";"):
                if statement.strip():
                    db.execute(statement)
            now = time.time()
            meta = {
                "game": json.dumps(dict(game_config), sort_keys=True),
                "secret": secrets.token_hex(16),
                "next_match": "1",
                "roster": "0",
                "created": repr(now),
            }
            db.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
            db.execute(f"PRAGMA user_version = {SCHEMA}")
        db.close()
        return cls(directory)

    def close(self) -> None:
        self.db.close()

    # ---------------------------------------------------------------------- meta

    def meta(self, key: str) -> str:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row is None:
            raise LadderError(f"{self.path}: meta {key!r} is missing")
        return str(row[0])

    def game_config(self) -> dict[str, Any]:
        config: dict[str, Any] = json.loads(self.meta("game"))
        return config

    def secret(self) -> str:
        return self.meta("secret")

    def roster_stamp(self) -> int:
        """Bumped by every change to the entrants, so a running ladder notices it."""
        return int(self.meta("roster"))

    def reserve_ids(self) -> range:
        """The next ``ID_BLOCK`` match numbers, reserved for this process."""
        with transaction(self.db):
            first = int(self.meta("next_match"))
            self.db.execute(
                "UPDATE meta SET value = ? WHERE key = 'next_match'", (str(first + ID_BLOCK),)
            )
        return range(first, first + ID_BLOCK)

    # ------------------------------------------------------------------ entrants

    def add(self, name: str) -> str:
        """Register ``name``; returns its token, which is stored only as a hash."""
        if not NAME_RE.fullmatch(name):
            raise LadderError(
                f"entrant name {name!r}: 1 to 32 letters, digits, '_', '.' or '-', "
                "starting with a letter or digit"
            )
        token = secrets.token_hex(16)
        now = time.time()
        with transaction(self.db):
            if self.db.execute("SELECT 1 FROM entrants WHERE name = ?", (name,)).fetchone():
                raise LadderError(f"entrant {name} is already registered in {self.dir}")
            self.db.execute(
                "INSERT INTO entrants (name, token_hash, added, changed) VALUES (?, ?, ?, ?)",
                (name, hash_token(token), now, now),
            )
            self._bump_roster()
        return token

    def set_status(self, name: str, status: str, reason: str = "") -> None:
        """Remove or ban an entrant (or make it active again); its history stays."""
        assert status in STATUSES
        with transaction(self.db):
            row = self.db.execute("SELECT status FROM entrants WHERE name = ?", (name,)).fetchone()
            if row is None:
                raise LadderError(f"no entrant {name} in {self.dir}")
            self.db.execute(
                "UPDATE entrants SET status = ?, reason = ?, changed = ? WHERE name = ?",
                (status, reason, time.time(), name),
            )
            self._bump_roster()

    def _bump_roster(self) -> None:
        self.db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'roster'")

    def entrants(self) -> list[EntrantRow]:
        rows = self.db.execute(
            "SELECT id, name, token_hash, status, reason FROM entrants ORDER BY id"
        ).fetchall()
        return [EntrantRow(*row) for row in rows]

    def version_id(self, name: str, version: str) -> int:
        """The rating row of ``name`` at ``version``, made on its first sight."""
        row = self.db.execute(
            "SELECT v.id FROM versions v JOIN entrants e ON e.id = v.entrant_id "
            "WHERE e.name = ? AND v.version = ?",
            (name, version),
        ).fetchone()
        if row is not None:
            return int(row[0])
        with transaction(self.db):
            (entrant_id,) = self.db.execute(
                "SELECT id FROM entrants WHERE name = ?", (name,)
            ).fetchone()
            cur = self.db.execute(
                "INSERT INTO versions (entrant_id, version, label, first_seen) VALUES (?, ?, ?, ?)",
                (entrant_id, version, label_of(name, version), time.time()),
            )
        return int(cur.lastrowid or 0)

    def versions(self) -> dict[str, int]:
        """Every rating row: label -> version id."""
        return {label: vid for vid, label in self.db.execute("SELECT id, label FROM versions")}

    # ------------------------------------------------------------------- matches

    def record_match(
        self,
        seq: int,
        record: Mapping[str, Any],
        deals: Sequence[Mapping[str, Any]],
        *,
        started: float,
        decisions: int,
        version_ids: Sequence[int],
        ratings: Mapping[int, tuple[float, float]],
    ) -> None:
        """One finished match, in one transaction: its record, its replay (zlib-packed JSON
        Lines, as in replays.jsonl), its seats, and each seat's rating after it."""
        replay = zlib.compress("".join(dumps(d) + "\n" for d in deals).encode("utf-8"))
        faults = record.get("faults", {})
        with transaction(self.db):
            self.db.execute(
                "INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?)",
                (seq, record["match"], started, time.time(), decisions, dumps(record), replay),
            )
            self.db.executemany(
                "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (
                        seq,
                        seat,
                        vid,
                        record["ranks"][seat],
                        record["totals"][seat],
                        sum(int(faults.get(k, [0] * (seat + 1))[seat]) for k in faults),
                    )
                    for seat, vid in enumerate(version_ids)
                ],
            )
            self.db.executemany(
                "INSERT INTO ratings VALUES (?, ?, ?, ?)",
                [(vid, seq, mu, sigma) for vid, (mu, sigma) in ratings.items()],
            )

    def last_seq(self) -> int:
        return int(self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM matches").fetchone()[0])

    def records(self) -> Iterator[dict[str, Any]]:
        """Every finished match's record, in the order they finished."""
        for (text,) in self.db.execute("SELECT record FROM matches ORDER BY seq"):
            yield json.loads(text)

    def replays(self) -> Iterator[tuple[str, bytes]]:
        """(match id, its deals as JSON Lines bytes) in the order they finished."""
        for match_id, blob in self.db.execute("SELECT match_id, replay FROM matches ORDER BY seq"):
            yield match_id, zlib.decompress(blob)


class transaction:  # noqa: N801 (used as a context manager, like sqlite3's own)
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK when the block raises."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind: object, *rest: object) -> None:
        self.db.execute("ROLLBACK" if kind is not None else "COMMIT")


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
