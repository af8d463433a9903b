"""The results directory: append-only, written as each match ends.

Files (formats in ``docs/results.md``): ``tournament.json`` (the configuration),
``replays.jsonl`` (one line per deal), ``matches.jsonl`` (one line per finished match),
``leaderboard.csv`` and ``leaderboard.json``. A match's deal lines are written
before its match line, and both are flushed to disk before the next match is
reported, so a crash loses nothing that finished; ``matches.jsonl`` is the record of
which matches finished.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any, overload

REPLAYS = "replays.jsonl"
MATCHES = "matches.jsonl"
TOURNAMENT = "tournament.json"
SECRET = "secret"  # a secret run's key to its deals, mode 0600 (docs/results.md)


class ResultsDirError(ValueError):
    """A results directory that cannot be written or resumed."""


def dumps(obj: Any) -> str:
    """One JSON line, compact and deterministic."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class DealLines(Sequence[Mapping[str, Any]]):
    """A match's replay lines already encoded (``dumps``, one per line): what a worker
    process sends the arena instead of the deals themselves, so that the encoding is done
    in parallel and the arena's one process only writes the text (issue 29: it was a
    tenth of the CPU of a ``--workers 2`` run). Read as a sequence, it decodes the lines."""

    def __init__(self, text: str) -> None:
        self.text = text

    @classmethod
    def encode(cls, deals: Iterable[Mapping[str, Any]]) -> DealLines:
        return cls("".join(dumps(d) + "\n" for d in deals))

    def _decoded(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.text.splitlines()]

    @overload
    def __getitem__(self, index: int) -> Mapping[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Mapping[str, Any]]: ...
    def __getitem__(self, index: int | slice) -> Any:
        return self._decoded()[index]

    def __len__(self) -> int:
        return self.text.count("\n")


# A results directory holds every hand of the deals played (and a seeded run's
# tournament.json the seed that deals them all): while an event runs, nobody but the
# organiser may read it. So a directory the arena creates is its owner's alone, and so
# is every file it creates there; publish the results after the event (``chmod``).
PRIVATE_DIR, PRIVATE_FILE = 0o700, 0o600


def private_dir(directory: Path) -> None:
    """Create ``directory`` (and its parents) unless it exists; a new one is its owner's
    alone (an existing one keeps its mode: the organiser chose it)."""
    directory.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR)


def open_private(path: Path, mode: str) -> IO[str]:
    """Open ``path`` for text ("a" or "w"); a file it creates is its owner's alone."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if mode == "a" else os.O_TRUNC)
    return os.fdopen(os.open(path, flags, PRIVATE_FILE), mode, encoding="utf-8")


def write_json_atomic(path: Path, obj: Any) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open_private(tmp, "w") as f:
        f.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")
    os.replace(tmp, path)


def _cut_torn_tail(path: Path) -> int:
    """Drop a last line that a crash left without its newline; returns 1 if it did."""
    if not path.exists():
        return 0
    data = path.read_bytes()
    if not data or data.endswith(b"\n"):
        return 0
    with open(path, "r+b") as f:
        f.truncate(data.rfind(b"\n") + 1)
    return 1


def repair(directory: Path) -> int:
    """Make a results directory that a crash interrupted ready to be appended to again:
    cut a torn last line off both files, and drop the deal lines of a match whose match
    line never made it (a crash between the two writes): that match is played again.
    Returns how many lines were dropped. A bad line anywhere else is an error, and so is
    a finished match whose deal lines are not all there: resuming would lose its replays."""
    from arena.standings.leaderboard import load_matches

    dropped = _cut_torn_tail(directory / MATCHES) + _cut_torn_tail(directory / REPLAYS)
    matches_path = directory / MATCHES
    records = load_matches(matches_path) if matches_path.exists() else []
    finished = {str(r["match"]): r for r in records}
    path = directory / REPLAYS
    lines = [line + "\n" for _, line in _lines(path)] if path.exists() else []
    keep = []
    deals: dict[str, set[int]] = {}
    for number, line in enumerate(lines, start=1):
        try:
            deal = json.loads(line)
            match, number_in_match = str(deal["match"]), deal["deal"]
            if type(number_in_match) is not int:
                raise TypeError(number_in_match)
        except (json.JSONDecodeError, KeyError, TypeError):
            raise ResultsDirError(
                f"{path} line {number}: not a deal line (a JSON object with 'match' and 'deal')"
            ) from None
        if match in finished:
            keep.append(line)
            deals.setdefault(match, set()).add(number_in_match)
    for match, record in finished.items():
        want = set(range(1, record["deals"] + 1))
        if not want <= deals.get(match, set()):  # extra lines are for `arena verify` to judge
            have = len(deals.get(match, set()) & want)
            raise ResultsDirError(
                f"{path}: match {match} finished (it is in {MATCHES}) but only {have} of its "
                f"{record['deals']} deal lines are here; resuming would lose its replays: "
                "restore the file, or start a new run"
            )
    if len(keep) != len(lines):
        tmp = path.with_name(path.name + ".tmp")
        with open_private(tmp, "w") as f:
            f.write("".join(keep))
        os.replace(tmp, path)
        dropped += len(lines) - len(keep)
    return dropped


class ResultsWriter:
    """Appends replay and match lines to a results directory."""

    def __init__(self, directory: str | Path, *, fsync: bool = True) -> None:
        self.dir = Path(directory)
        try:
            private_dir(self.dir)
        except OSError as exc:
            raise ResultsDirError(f"cannot create results directory {self.dir}: {exc}") from None
        self._fsync = fsync
        self._replays: IO[str] = open_private(self.dir / REPLAYS, "a")
        self._matches: IO[str] = open_private(self.dir / MATCHES, "a")

    def write_config(self, config: Mapping[str, Any]) -> None:
        write_json_atomic(self.dir / TOURNAMENT, dict(config))

    def write_match(self, record: Mapping[str, Any], deals: Iterable[Mapping[str, Any]]) -> None:
        if isinstance(deals, DealLines):  # encoded by a worker process
            self._replays.write(deals.text)
        else:
            self._replays.write("".join(dumps(d) + "\n" for d in deals))
        self._flush(self._replays)
        self._matches.write(dumps(record) + "\n")
        self._flush(self._matches)

    def _flush(self, f: IO[str]) -> None:
        f.flush()
        if self._fsync:
            os.fsync(f.fileno())

    def close(self) -> None:
        self._replays.close()
        self._matches.close()

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Read a JSON Lines results file; a torn last line (a crash mid-write) is ignored,
    any other bad line is an error naming the file and line."""
    return [obj for _, obj in read_jsonl_numbered(path)]


def _lines(path: Path) -> list[tuple[int, str]]:
    """The lines of a text file with their numbers (from 1), each decoded on its own so
    that bytes which are not UTF-8 are an error naming the file and line. A last line
    without its newline (torn by a crash) comes with number -1."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ResultsDirError(f"cannot read {path}: {exc.strerror or exc}") from None
    raw = data.split(b"\n")
    out = []
    for number, chunk in enumerate(raw, start=1):
        if number == len(raw) and not chunk:
            break  # the file ended with a newline
        try:
            line = chunk.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ResultsDirError(
                f"{path} line {number}: not UTF-8 text (byte {exc.start + 1}: {exc.reason})"
            ) from None
        out.append((-1 if number == len(raw) else number, line))
    return out


def read_jsonl_numbered(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """``read_jsonl`` with each object's line number."""
    out: list[tuple[int, dict[str, Any]]] = []
    if not path.exists():
        return out
    for number, line in _lines(path):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            if number == -1:  # no newline after it: torn by a crash
                break
            raise ResultsDirError(f"{path} line {number}: not valid JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            where = f"line {number}" if number > 0 else "its last line"
            raise ResultsDirError(f"{path} {where}: expected a JSON object")
        out.append((number, obj))
    return out
