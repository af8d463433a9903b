"""Files the arena writes that hold what bots may not see: owner-only, written whole.

A results directory holds every hand of the deals played (and a seeded run's
tournament.json the seed that deals them all); a ladder's database every hand it has
dealt. While an event runs nobody but the organiser may read them, not even a bot run as
another user on the same machine (docs/results.md). So a directory the arena creates is
its owner's alone, and so is every file it creates; the organiser publishes the results
after the event (``chmod``).
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path
from typing import IO

PRIVATE_DIR, PRIVATE_FILE = 0o700, 0o600


def private_dir(directory: Path) -> None:
    """Create ``directory`` (and its parents) unless it exists; a new one is its owner's
    alone (an existing one keeps its mode: the organiser chose it)."""
    directory.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR)


def open_private(path: Path, mode: str) -> IO[str]:
    """Open ``path`` for text ("a" or "w"); a file it creates is its owner's alone (one
    that exists keeps its mode, as a directory does: the organiser chose it)."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if mode == "a" else os.O_TRUNC)
    return os.fdopen(os.open(path, flags, PRIVATE_FILE), mode, encoding="utf-8")


def write_secret(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole (as ``write_atomic`` does), its owner's alone even
    where a file left there had another mode: a run's secret, the tokens (every hand, or
    another entrant's seat), a bot's reconnect token."""
    _write_whole(path, text, PRIVATE_FILE)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` via a new file in the same directory, then rename it over ``path``:
    a reader never sees half a file, and two writers never share a temporary. The file
    is its owner's alone, or keeps the mode ``path`` had (a report made again after the
    organiser published the directory stays published)."""
    try:
        mode: int | None = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = None  # a new file: os.open's owner-only mode
    _write_whole(path, text, mode)


def _write_whole(path: Path, text: str, mode: int | None) -> None:
    """``text`` into a new file beside ``path`` (created owner-only, then given ``mode``
    exactly when one is named: os.open's is narrowed by the umask), renamed over it."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
