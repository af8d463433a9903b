"""In-process tournaments on a Ray cluster (``--ray auto|local|ADDRESS``; Ray is optional:
``pip install 'truf-arena[ray]'``).

Only play leaves the arena's process: each match is a Ray task that gets the game, the
pickled bots and the match's key, and returns its outcome; the journal, resume and the
ratings stay here, and outcomes are written in schedule order, so the results are
byte-identical to ``--workers 1``. The bots' code travels in Ray's runtime environment
(the current folder, or ``--ray-working-dir``), and the arena's own packages with it, so
every node plays by this arena's rules. A task whose worker dies is run again by Ray
from the same key (``max_retries``): nothing recorded is lost or changed.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.bot import Bot
from arena.play.parallel import (
    WINDOW_PER_WORKER,
    BotErrors,
    InOrder,
    Job,
    Setup,
    WorkerError,
    job_for,
    load_setup,
    pickled_bots,
    play_job,
)
from arena.play.run import ConfigError
from arena.play.scheduler import Table
from arena.play.tournament import MatchOutcome, OnBotError, TournamentPlan

RETRIES = 3  # times Ray runs a match again whose worker died (then the run stops, resumable)
# Not sent to the cluster with the working folder: environments, results, caches.
EXCLUDES = [".git", ".venv", "venv", "node_modules", "results", "__pycache__", ".mypy_cache"]
INSTALL = "pip install 'truf-arena[ray]' (in a clone: pip install -e '.[ray]')"

# In a Ray worker process: the bots of the run it last played for (a worker keeps its
# bot instances from match to match, as a --workers process does).
_LOADED: dict[str, tuple[dict[str, Bot], BotErrors]] = {}


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ConfigError(f"--ray needs Ray, which is not installed: {INSTALL}") from None
    return ray


def play_remote(
    run: str, setup: Setup, job: Job
) -> tuple[MatchOutcome, list[tuple[str, str, str]]]:
    """A Ray task: play one match with this worker's instances of the run's bots."""
    loaded = _LOADED.get(run)
    if loaded is None:
        _LOADED.clear()
        loaded = _LOADED[run] = (load_setup(setup), BotErrors())
    bots, errors = loaded
    return play_job(setup, bots, job, errors), errors.take()


def runtime_env(working_dir: Path) -> dict[str, Any]:
    """What travels to every Ray worker: the bots' folder, and the arena's own packages
    (so that a node plays by this arena's rules, whatever it has installed)."""
    import arena
    import bots

    packages = [str(Path(m.__file__).parent) for m in (arena, bots) if m.__file__]
    return {"working_dir": str(working_dir), "py_modules": packages, "excludes": EXCLUDES}


def connect(address: str, working_dir: Path, *, num_cpus: int | None = None) -> None:
    """Join the Ray cluster at ``address`` (``auto``: the running one; ``local``: start one
    here, with ``num_cpus`` CPUs or all) with ``runtime_env(working_dir)``."""
    ray = import_ray()
    local = address == "local"
    for attempt in (1, 2):
        try:
            ray.init(
                address=None if local else address,
                num_cpus=num_cpus if local else None,
                runtime_env=runtime_env(working_dir),
                include_dashboard=False,
                logging_level="ERROR",  # not its notes on packaging the working folder
            )
            return
        except ConnectionError as exc:
            raise WorkerError(
                f"--ray {address}: no Ray cluster there ({exc}); start one with `ray start "
                "--head`, or use --ray local"
            ) from None
        except Exception as exc:  # Ray raises a bare Exception when its node does not start
            ray.shutdown()
            if not local or "timed out during startup" not in str(exc) or attempt == 2:
                raise WorkerError(f"--ray {address}: Ray did not start: {exc}") from None
            # A local node's raylet sometimes misses Ray's 30 s registration window on a
            # loaded machine: start it once more before giving up.


class RayRunner:
    """Plays matches as Ray tasks (a ``MatchRunner``). ``address``: ``auto`` (the running
    cluster), ``local`` (start one on this machine) or a cluster's address. It joins the
    cluster when made and leaves it when its play ends; if this process is already
    connected to Ray (``ray.init``), that connection is used as it is, and kept."""

    def __init__(
        self,
        bots: Mapping[str, Bot],
        address: str,
        *,
        working_dir: str | None = None,
        specs: Mapping[str, str] | None = None,
    ) -> None:
        self.ray = import_ray()
        self.address = address
        self.working_dir = Path(working_dir or os.getcwd())
        if not self.working_dir.is_dir():
            raise ConfigError(f"--ray-working-dir {working_dir}: not a folder")
        self.blobs = pickled_bots(bots, specs or {})
        # Joined now, so that a cluster that is not there is said before any file is written.
        self.connected = self._connect()

    def _connect(self) -> bool:
        """Connect to the cluster unless already connected; whether this call connected."""
        if self.ray.is_initialized():
            return False
        connect(self.address, self.working_dir)
        return True

    def play(
        self, plan: TournamentPlan, tables: Sequence[Table], on_bot_error: OnBotError | None
    ) -> Generator[MatchOutcome, None, None]:
        ray = self.ray
        pending: dict[Any, Job] = {}
        try:
            task = ray.remote(num_cpus=1, max_retries=RETRIES, retry_exceptions=False)(play_remote)
            setup = ray.put(Setup(None, None, plan.game, plan.strike_limit, self.blobs))
            run = os.urandom(8).hex()
            cpus = max(int(ray.cluster_resources().get("CPU", 1)), 1)
            window = WINDOW_PER_WORKER * cpus
            jobs = [job_for(plan, i, t) for i, t in enumerate(tables)]
            done = InOrder(on_bot_error)
            sent = 0
            while done.next < len(jobs):
                while sent < len(jobs) and sent < done.next + window:
                    pending[task.remote(run, setup, jobs[sent])] = jobs[sent]
                    sent += 1
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    job = pending.pop(ref)
                    done.add(job.index, self._result(ref, job))
                yield from done.ready()
        finally:
            for ref in pending:  # a run stopped early: what is still in play is dropped
                ray.cancel(ref, force=True)
            if self.connected:  # this runner joined the cluster: it leaves it
                ray.shutdown()
                self.connected = False

    def _result(self, ref: Any, job: Job) -> Any:
        try:
            return self.ray.get(ref)
        except self.ray.exceptions.RayError as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise WorkerError(
                f"match {job.ctx.match_id} ({', '.join(job.names)}) failed on the Ray cluster "
                f"after {RETRIES} retries: {first}; it is played again on --resume"
            ) from None
