"""What every game's deal file (``--deals-file``) shares: JSON Lines read from a UTF-8 file,
blank lines skipped, and errors that name the file and the line. Each game parses its own
lines (``arena/games/truf/dealsfile.py``, ``arena/games/truco/dealsfile.py``,
``arena/games/ruff/dealsfile.py``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from arena.core.errors import DealError

T = TypeVar("T")


def json_line(text: str, where: str, error: type[DealError]) -> Any:
    """One line's JSON value; ``error`` naming ``where`` ("FILE line N") if it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})") from None


def load_lines(
    path: str | Path,
    parse: Callable[[str, str, int, str], T],
    error: type[DealError],
    what: str = "deals",
) -> list[T]:
    """Every non-blank line of the deal file ``path``, read by ``parse(text, file name, line
    number, file as shown)``; ``error`` for a file that cannot be read or holds nothing."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"cannot read deal file {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise error(f"deal file {path} is not UTF-8 text") from None
    out = [
        parse(line, path.name, number, str(path))
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip()
    ]
    if not out:
        raise error(f"deal file {path} holds no {what}")
    return out
