"""SIGTERM stops a run the way Ctrl-C does, however the run was started.

A background job of a non-interactive shell (``arena serve ... &`` in a script) starts
with SIGINT ignored, so SIGTERM cannot simply be turned into SIGINT (security issue,
SIGTERM): it raises ``KeyboardInterrupt`` itself in plain code, and inside an event
loop it cancels the main task, so that every ``finally`` runs (bots told and stopped,
files closed) before ``KeyboardInterrupt`` reaches the command.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def stop_on_sigterm() -> None:
    """From now on SIGTERM raises ``KeyboardInterrupt`` (SIGINT is left as it is)."""
    signal.signal(signal.SIGTERM, _terminate)


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coro)``, where SIGTERM cancels ``coro`` and, once it has unwound,
    raises ``KeyboardInterrupt`` as Ctrl-C does."""
    stopped = False

    async def main() -> T:
        nonlocal stopped
        task = asyncio.current_task()
        assert task is not None
        loop = asyncio.get_running_loop()

        def stop() -> None:
            nonlocal stopped
            stopped = True
            task.cancel()

        before = signal.getsignal(signal.SIGTERM)
        loop.add_signal_handler(signal.SIGTERM, stop)
        try:
            return await coro
        finally:
            loop.remove_signal_handler(signal.SIGTERM)  # which leaves SIG_DFL: put back ours
            signal.signal(signal.SIGTERM, before if before is not None else signal.SIG_DFL)

    try:
        result = asyncio.run(main())
    except asyncio.CancelledError:
        if not stopped:
            raise
        raise KeyboardInterrupt from None
    if stopped:  # the coroutine finished its work all the same
        raise KeyboardInterrupt
    return result


async def uninterrupted(coro: Coroutine[Any, Any, T]) -> T:
    """Await ``coro`` to its end even if the caller is cancelled meanwhile (a shutdown that
    SIGTERM interrupts halfway would leave bots running and the server unstopped); the
    caller's cancellation is raised once it has finished."""
    task = asyncio.ensure_future(coro)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        await task
        raise
