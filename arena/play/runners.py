"""Which runner plays an in-process run's matches: this process, worker processes
(``arena.play.parallel``) or a Ray cluster (``arena.play.cluster``). Here, above both, so
that neither imports the other's chooser: the cluster builds on the workers' pieces, and
the workers know nothing of the cluster."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from arena.bot import Bot
from arena.play.parallel import ProcessRunner, default_workers
from arena.play.tournament import MatchRunner


@dataclass(frozen=True)
class PlayOptions:
    """Where an in-process run plays its matches: how many worker processes (None: one per
    core), or a Ray cluster (``--ray auto|ADDRESS``). Not part of the run's configuration:
    the results are the same either way, and a resumed run may choose again."""

    workers: int | None = None
    ray: str | None = None
    ray_working_dir: str | None = None

    def check(self) -> None:
        """A ValueError naming the option that cannot be honoured."""
        if self.workers is not None and self.workers < 1:
            raise ValueError(f"--workers must be at least 1, got {self.workers}")
        if self.ray is not None and self.workers is not None:
            raise ValueError("--workers and --ray exclude each other: give one")
        if self.ray_working_dir is not None and self.ray is None:
            raise ValueError("--ray-working-dir applies only with --ray")

    def runner(self, bots: Mapping[str, Bot], specs: Mapping[str, str]) -> MatchRunner:
        """The runner for these options; bots that cannot travel are named now."""
        self.check()
        if self.ray is not None:
            from arena.play.cluster import RayRunner

            return RayRunner(bots, self.ray, working_dir=self.ray_working_dir, specs=specs)
        return ProcessRunner(bots, self.workers or default_workers(), specs)
