"""In-process tournaments on several cores (issue 18.1): ``--workers N`` writes the same
bytes as one process, whatever order matches finish in; a bot that cannot travel, a
worker that dies, Ctrl-C and a resume all behave as a one-process run does."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from parallelbots import ExitingBot, FaultyBot, PickBot, SlowBot
from procs import alive, group_of
from typer.testing import CliRunner

from arena.cli import app
from arena.core.seeding import seeded_secret
from arena.games.registry import REGISTRY
from arena.play.parallel import ProcessRunner, WorkerError
from arena.play.run import RunConfig, make_plan
from arena.play.tournament import SerialRunner, TournamentPlan, run_in_process
from arena.standings.results import ResultsWriter, read_jsonl

HERE = Path(__file__).resolve().parent
FILES = ("replays.jsonl", "matches.jsonl")
ARENA = shutil.which("arena") or ""


def small_plan(game: str, rounds: int = 6, entrants: int = 5) -> TournamentPlan:
    config = RunConfig(game=game, rounds=rounds, seed=11, deals=2, points=15)
    config.bots, config.names = ["pick"] * entrants, [f"p{i}" for i in range(entrants)]
    return make_plan(config, secret=seeded_secret(11))


def play(plan: TournamentPlan, bots: dict[str, object], out: Path, runner: object) -> Path:
    with ResultsWriter(out, fsync=False) as writer:
        run_in_process(plan, bots, writer, runner=runner)  # type: ignore[arg-type]
    return out


def same_files(a: Path, b: Path, names: tuple[str, ...] = FILES) -> None:
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


@pytest.mark.parametrize("game", list(REGISTRY))
def test_two_workers_write_the_bytes_one_process_writes_for_every_game(
    tmp_path: Path, game: str
) -> None:
    plan = small_plan(game)
    bots = {e: SlowBot(seed=e) for e in plan.entrants}  # odd rounds end last: out of order
    one = play(plan, bots, tmp_path / "one", SerialRunner(bots))
    two = play(plan, bots, tmp_path / "two", ProcessRunner(bots, 2, serial_below=0))
    same_files(one, two)
    assert len(read_jsonl(two / "matches.jsonl")) == len(plan.tables())


def test_matches_played_here_while_the_workers_start_change_no_byte(tmp_path: Path) -> None:
    """With the first match timed (serial_below > 0) this process plays on while the
    workers start, then hands them the rest: however many it played, the same bytes."""
    plan = small_plan("truf", rounds=10)
    bots = {e: SlowBot(seed=e) for e in plan.entrants}
    one = play(plan, bots, tmp_path / "one", SerialRunner(bots))
    runner = ProcessRunner(bots, 2, serial_below=1e-9)  # never short: the workers start
    two = play(plan, bots, tmp_path / "two", runner)
    same_files(one, two)
    assert len(read_jsonl(two / "matches.jsonl")) == len(plan.tables())


def test_a_bots_errors_are_shown_as_one_process_shows_them(tmp_path: Path) -> None:
    from arena.play.loading import BotErrorReport

    plan = small_plan("truf")
    bots = {e: FaultyBot(seed=e) if e in ("p0", "p3") else PickBot(seed=e) for e in plan.entrants}
    shown = []
    for name, runner in (
        ("one", SerialRunner(bots)),
        ("two", ProcessRunner(bots, 2, serial_below=0)),
    ):
        stream = _Text()
        with ResultsWriter(tmp_path / name, fsync=False) as writer:
            run_in_process(plan, bots, writer, runner=runner, on_bot_error=BotErrorReport(stream))  # type: ignore[arg-type]
        shown.append(stream.text)
    same_files(tmp_path / "one", tmp_path / "two")
    assert shown[0] == shown[1]
    assert shown[1].count("act() raised ValueError") == 2  # once per bot
    assert "parallelbots.py" in shown[1] and "no first choices" in shown[1]


class _Text:
    def __init__(self) -> None:
        self.text = ""

    def write(self, s: str) -> None:
        self.text += s

    def flush(self) -> None:
        pass


def test_a_match_whose_worker_dies_is_played_again_from_its_key(tmp_path: Path) -> None:
    plan = small_plan("truf", rounds=4, entrants=4)
    marks = tmp_path / "marks"
    marks.mkdir()
    bots = {e: ExitingBot(seed=e) for e in plan.entrants}
    for bot in bots.values():
        bot.marks = str(marks)
    one = play(plan, {e: PickBot(seed=e) for e in plan.entrants}, tmp_path / "one", None)
    two = play(plan, bots, tmp_path / "two", ProcessRunner(bots, 2, serial_below=0))
    assert list(marks.iterdir())  # a worker did end mid-match
    same_files(one, two)


def test_a_match_that_always_ends_its_worker_is_an_error_naming_it(tmp_path: Path) -> None:
    plan = small_plan("truf", rounds=4, entrants=4)
    bots = {e: ExitingBot(seed=e) for e in plan.entrants}
    with pytest.raises(WorkerError, match=r"match r0002-t01 \(.*\) ended its worker process 2"):
        play(plan, bots, tmp_path / "run", ProcessRunner(bots, 2, serial_below=0))
    assert len(read_jsonl(tmp_path / "run" / "matches.jsonl")) == 1  # r0001 kept, in order


def test_stopping_early_drops_the_matches_in_play_and_stops_the_workers() -> None:
    plan = small_plan("truf", rounds=8)
    bots = {e: SlowBot(seed=e) for e in plan.entrants}
    outcomes = ProcessRunner(bots, 2, serial_below=0).play(plan, plan.tables(), None)
    first = next(outcomes)
    frame = outcomes.gi_frame
    assert frame is not None
    pool = frame.f_locals["pool"]
    outcomes.close()  # as --until-settled would between rounds
    assert first.record["match"] == "r0001-t01"
    assert all(not w.process.is_alive() for w in pool.workers)


def test_a_bot_that_cannot_be_sent_to_a_worker_is_named(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["tournament", "--in-process", "--workers", "2", "--rounds", "2", "--deals", "1",
         "--bots", "random,greedy,parallelbots:LockedBot,planner", "--results",
         str(tmp_path / "run"), "--quiet"],
    )  # fmt: skip
    assert result.exit_code == 1
    message = result.output.strip()
    assert len(message.splitlines()) == 1 and "Traceback" not in message
    assert "parallelbots:LockedBot" in message and "locked" in message
    assert "--workers 1" in message
    assert not (tmp_path / "run" / "matches.jsonl").exists()


ENV = {**os.environ, "PYTHONPATH": str(HERE)}


def command(out: Path, *extra: str) -> list[str]:
    """A tournament of four slow bots: long enough to stop halfway, on two workers."""
    bots = ",".join(["parallelbots:SlowBot"] * 4)
    return [ARENA, "tournament", "--in-process", "--rounds", "10", "--deals", "2", "--seed",
            "5", "--bots", bots, "--results", str(out), "--quiet", *extra]  # fmt: skip


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, timeout=300, env=ENV, cwd=HERE)


@pytest.mark.skipif(not ARENA, reason="the arena command is not installed")
def test_ctrl_c_stops_the_workers_and_the_run_resumes_to_the_same_bytes(tmp_path: Path) -> None:
    one = tmp_path / "one"
    assert cli(*command(one, "--workers", "1")).returncode == 0
    out = tmp_path / "two"
    job = subprocess.Popen(
        command(out, "--workers", "2"), cwd=HERE, env=ENV, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        matches = out / "matches.jsonl"
        while not (matches.exists() and len(read_jsonl(matches)) >= 2):
            assert time.monotonic() < deadline and job.poll() is None, job.stderr
            time.sleep(0.05)
        group = group_of(job.pid)
        os.killpg(job.pid, signal.SIGINT)  # Ctrl-C: the terminal signals the whole group
        _, err = job.communicate(timeout=60)
    finally:
        if job.poll() is None:
            os.killpg(job.pid, signal.SIGKILL)
    assert job.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    time.sleep(0.5)
    assert not [p for p in group if alive(p)]  # workers and their forkserver gone
    kept = len(read_jsonl(out / "matches.jsonl"))
    assert 2 <= kept < 10
    done = cli(ARENA, "tournament", "--resume", str(out), "--quiet", "--workers", "2")
    assert done.returncode == 0, done.stderr
    same_files(one, out, (*FILES, "leaderboard.csv", "leaderboard.json"))


def test_workers_is_refused_over_grpc_and_checked() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["tournament", "--workers", "2", "--rounds", "1"])
    assert result.exit_code == 1 and "--in-process" in result.output
    result = runner.invoke(app, ["tournament", "--in-process", "--workers", "0"])
    assert result.exit_code == 1 and "--workers must be at least 1" in result.output
    result = runner.invoke(app, ["tournament", "--in-process", "--workers", "2", "--ray", "auto"])
    assert result.exit_code == 1 and "exclude each other" in result.output


if sys.platform != "linux":  # /proc, process groups
    pytestmark = pytest.mark.skip(reason="Linux only")


FORKSERVER_SIGNALS = """
import signal
from multiprocessing import forkserver
from arena.play import parallel
ctx = parallel._context()
if ctx.get_start_method() != "forkserver":
    print("none")
else:
    parallel._start_server(ctx)  # a fresh one: this process has none yet
    pid = forkserver._forkserver._forkserver_pid
    status = open(f"/proc/{pid}/status").read()  # at once: it is still importing
    ignored = int(next(x for x in status.splitlines() if x.startswith("SigIgn:")).split()[1], 16)
    ours = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    print(bool(ignored & (1 << (signal.SIGINT - 1))), ours)
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
def test_the_forkserver_ignores_ctrl_c_from_its_start() -> None:
    """It is started while this process may be playing, so a Ctrl-C can come while it
    still imports its modules: it must ignore SIGINT from its start (else a traceback),
    and this process must get its own handler back."""
    done = subprocess.run(
        [sys.executable, "-c", FORKSERVER_SIGNALS], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    if done.stdout.strip() == "none":
        pytest.skip("no forkserver here")
    assert done.stdout.split() == ["True", "True"]


def test_deal_lines_encoded_in_a_worker_read_and_write_as_the_deals(tmp_path: Path) -> None:
    from arena.standings.results import DealLines

    deals = [{"match": "r0001-t01", "deal": 1, "é": [1, 2]}, {"match": "r0001-t01", "deal": 2}]
    lines = DealLines.encode(deals)
    assert len(lines) == 2 and list(lines) == deals and lines[1] == deals[1]
    record = {"match": "r0001-t01", "round": 1}
    for name, given in (("dicts", deals), ("lines", lines)):
        with ResultsWriter(tmp_path / name, fsync=False) as writer:
            writer.write_match(record, given)
    same_files(tmp_path / "dicts", tmp_path / "lines")
