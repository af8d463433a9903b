"""Loading a user's bot (``module:Class``), and reporting its bugs in its own terms.

A bot module is found the way ``python -m`` finds one: the current folder first, so
``arena tournament --in-process --bots mybot:MyBot`` works from the bot's folder. Any
failure in the user's code (a syntax error, an exception at import or in the
constructor) becomes one ``BotLoadError`` line naming the user's file and line, not a
traceback through the arena. ``BotErrorReport`` shows a bot's exception from ``act()``
once per bot and kind, with the bot's own frames only.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
import sysconfig
import traceback
from pathlib import Path
from types import ModuleType, TracebackType
from typing import Any, TextIO

_ARENA = Path(__file__).resolve().parents[1]  # the arena package (this is arena/play/)


class BotLoadError(ValueError):
    """A bot that cannot be loaded: the message says which file and line, and why."""


def _shown(filename: str) -> str:
    """A file name as the user would type it: relative to the current folder if below it."""
    try:
        rel = os.path.relpath(filename)
    except ValueError:  # another drive (Windows)
        return filename
    return filename if rel.startswith("..") else rel


def _is_user_frame(filename: str) -> bool:
    """A frame of the user's code: not the arena's, not importlib's machinery."""
    if filename.startswith("<"):  # <frozen importlib._bootstrap>, <string>
        return False
    try:
        Path(filename).resolve().relative_to(_ARENA)
    except ValueError:
        return True
    return False


def user_frames(tb: TracebackType | None) -> traceback.StackSummary:
    """The frames of ``tb`` that belong to the user's code, outermost first."""
    frames = traceback.extract_tb(tb)
    return traceback.StackSummary.from_list([f for f in frames if _is_user_frame(f.filename)])


def describe_error(exc: BaseException) -> str:
    """``mybot.py line 5: ValueError: boom``: where in the user's code ``exc`` arose."""
    what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{_shown(exc.filename)} line {exc.lineno}: {type(exc).__name__}: {exc.msg}"
    frames = user_frames(exc.__traceback__)
    if not frames:
        return what
    # The line in the user's own code that led to it, not the library's line that raised.
    own = [f for f in frames if not _is_library(f.filename)]
    last = (own or frames)[-1]
    return f"{_shown(last.filename)} line {last.lineno}: {what}"


def _is_library(filename: str) -> bool:
    """A file of Python's standard library or of an installed package."""
    paths = sysconfig.get_paths()
    roots = {paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths}
    resolved = str(Path(filename).resolve())
    return any(resolved.startswith(str(Path(r).resolve()) + os.sep) for r in roots)


def _current_folder_on_path() -> None:
    """What ``python -m`` does: the current folder first on the import path. The ``arena``
    command's own path starts with its bin folder instead."""
    cwd = os.getcwd()
    if not any(p in ("", cwd) for p in sys.path[:1]) and cwd not in sys.path:
        sys.path.insert(0, cwd)


def import_module(name: str, spec: str) -> ModuleType:
    """Import the module of bot ``spec`` (``name`` is its module part)."""
    _current_folder_on_path()
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
            raise BotLoadError(
                f"bot {spec!r}: no module named {name!r} in {os.getcwd()} or on the "
                "Python path (run from the bot's folder, or give its package's module path)"
            ) from None
        raise BotLoadError(f"bot {spec!r}: cannot import {name}: {describe_error(exc)}") from None
    except Exception as exc:  # the user's module is broken: show where
        raise BotLoadError(f"bot {spec!r}: cannot import {name}: {describe_error(exc)}") from None


def load_class(spec: str) -> Any:
    """The class (or factory) named by ``module:Class``."""
    module_name, _, attr = spec.partition(":")
    module = import_module(module_name, spec)
    cls = getattr(module, attr, None)
    if cls is None:
        where = _shown(module.__file__) if module.__file__ else module_name
        raise BotLoadError(f"bot {spec!r}: {where} has no {attr!r}")
    if not callable(cls):
        raise BotLoadError(f"bot {spec!r}: {attr} is not a class")
    return cls


def split_options(spec: str) -> tuple[str, dict[str, str]]:
    """A bot spec and its options: ``pimc:budget=0.5`` -> ``("pimc", {"budget": "0.5"})``,
    ``mybot:MyBot:depth=3:fast=yes`` -> ``("mybot:MyBot", {...})``. Options follow the
    bot, each ``:NAME=VALUE``; a bot without options is its spec as it was."""
    parts = spec.split(":")
    base = [p for p in parts if "=" not in p]
    if parts[: len(base)] != base:
        raise BotLoadError(f"bot {spec!r}: options (NAME=VALUE) come after the bot's name")
    options: dict[str, str] = {}
    for part in parts[len(base) :]:
        name, _, value = part.partition("=")
        if not name.isidentifier():
            raise BotLoadError(f"bot {spec!r}: {part!r} is not an option NAME=VALUE")
        if name in options or name == "seed":
            raise BotLoadError(f"bot {spec!r}: option {name!r} cannot be given here")
        options[name] = value
    return ":".join(base), options


def _convert(spec: str, name: str, value: str, default: Any) -> Any:
    """An option's text as the type of its parameter's default (bool, int, float, str)."""
    try:
        if isinstance(default, bool):
            if value.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise ValueError(value)
            return value.lower() in ("true", "yes", "1")
        if isinstance(default, int | float):
            return type(default)(value)
    except ValueError:
        kind = type(default).__name__
        raise BotLoadError(f"bot {spec!r}: option {name}={value!r} is not a {kind}") from None
    return value


def instantiate(cls: Any, seed: str, spec: str, options: dict[str, str] | None = None) -> Any:
    """``cls(seed=seed, **options)`` if its constructor takes a seed, else ``cls(**options)``;
    each option's text becomes the type of the parameter's default. An option the
    constructor does not take, or an exception in it, becomes a ``BotLoadError`` that
    names the option or the line."""
    options = options or {}
    try:
        params = inspect.signature(cls).parameters
        takes_seed = "seed" in params
    except (TypeError, ValueError):  # no signature to read (a builtin): try both
        params, takes_seed = {}, True  # type: ignore[assignment]
    kwargs: dict[str, Any] = {}
    for name, value in options.items():
        param = params.get(name)
        if param is None or param.kind not in (param.KEYWORD_ONLY, param.POSITIONAL_OR_KEYWORD):
            takes = [p for p in params if p != "seed" and params[p].kind != params[p].VAR_KEYWORD]
            raise BotLoadError(
                f"bot {spec!r} has no option {name!r}"
                + (f" (its options: {', '.join(takes)})" if takes else " (it takes none)")
            )
        kwargs[name] = _convert(spec, name, value, param.default)
    try:
        return cls(seed=seed, **kwargs) if takes_seed else cls(**kwargs)
    except Exception as exc:
        raise BotLoadError(f"bot {spec!r}: its constructor raised: {describe_error(exc)}") from None


def bot_error_text(exc: BaseException) -> str | None:
    """The traceback of a bot's exception from ``act()``, the bot's own frames only; None
    when no frame is the bot's (the rules refused its answer: a fault, not a bug)."""
    frames = user_frames(exc.__traceback__)
    if not frames:
        return None
    text = "".join(frames.format()) + "".join(traceback.format_exception_only(exc))
    return f"Traceback (most recent call last):\n{text}"


class RemoteBotError(Exception):
    """A bot's exception from ``act()`` in another process, as ``bot_error_text`` showed it
    there (a traceback does not travel between processes)."""

    def __init__(self, kind: str, text: str) -> None:
        super().__init__(kind)
        self.kind = kind
        self.text = text


class BotErrorReport:
    """Shows an in-process bot's exception from ``act()`` on stderr, as the SDK does, but
    once per bot and kind of exception: the seat plays its fallback, and the count is in
    the leaderboard. The traceback holds the bot's frames only."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream
        self._seen: set[tuple[str, str]] = set()

    def __call__(self, entrant: str, exc: BaseException) -> None:
        if isinstance(exc, RemoteBotError):
            kind, text = exc.kind, exc.text
        else:
            kind, shown = type(exc).__name__, bot_error_text(exc)
            if shown is None:
                return
            text = shown
        key = (entrant, kind)
        if key in self._seen:
            return
        self._seen.add(key)
        stream = self._stream or sys.stderr  # looked up now: the live display redirects it
        stream.write(
            f"[bot {entrant}] act() raised {kind}; its seat played the fallback "
            f"(shown once per bot and kind of error):\n{text}"
        )
        stream.flush()
