"""Damaged results directories: ``--resume``, ``verify`` and ``leaderboard`` say which file
and line in one line, exit 1, change nothing, and never resume into lost replays."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run") / "r"
    got = runner.invoke(
        app, ["tournament", "--in-process", "--rounds", "3", "--deals", "2",
              "--results", str(out), "--quiet"],
    )  # fmt: skip
    assert got.exit_code == 0, got.output
    return out


def copy_of(run: Path, tmp_path: Path) -> Path:
    out = tmp_path / "copy"
    out.mkdir()
    for f in run.iterdir():
        (out / f.name).write_bytes(f.read_bytes())
    return out


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def set_line(path: Path, number: int, text: str | bytes) -> None:
    raw = path.read_bytes().split(b"\n")
    raw[number - 1] = text.encode() if isinstance(text, str) else text
    path.write_bytes(b"\n".join(raw))


def edit_config(out: Path, change: Callable[[dict], object]) -> None:  # type: ignore[type-arg]
    path = out / "tournament.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(change(doc)), encoding="utf-8")


def one_line_error(args: list[str]) -> str:
    got = runner.invoke(app, args)
    assert got.exit_code == 1, got.output
    assert "Traceback" not in got.output
    assert got.output.startswith("error: ") and len(got.output.strip().splitlines()) == 1, (
        got.output
    )
    return got.output


def _rounds_as_text(doc: dict) -> dict:  # type: ignore[type-arg]
    doc["config"]["rounds"] = "three"
    return doc


def _nan_timeout(doc: dict) -> dict:  # type: ignore[type-arg]
    doc["config"]["decision_timeout"] = float("nan")
    return doc


DAMAGE: list[tuple[str, Callable[[Path], None], str]] = [
    ("an empty object line", lambda o: set_line(o / "matches.jsonl", 2, "{}"),
     "matches.jsonl line 2: unsupported schema None"),
    ("a line missing its match", lambda o: set_line(
        o / "matches.jsonl", 2, lines(o / "matches.jsonl")[1].replace('"match"', '"m"').strip()),
     "matches.jsonl line 2: missing field 'match'"),
    ("bytes that are not UTF-8", lambda o: set_line(o / "matches.jsonl", 2, b"\xff\xfe{}"),
     "matches.jsonl line 2: not UTF-8"),
    ("tournament.json a list", lambda o: edit_config(o, lambda d: [d]),
     "tournament.json: expected a JSON object with a 'config' object"),
    ("a wrong-typed config field", lambda o: edit_config(o, _rounds_as_text),
     "tournament.json: config field 'rounds' has the wrong type: 'three'"),
    ("a NaN in the config", lambda o: edit_config(o, _nan_timeout),
     "config field 'decision_timeout' has the wrong type: nan"),
    ("tournament.json cut short", lambda o: (o / "tournament.json").write_text('{\n "config": {'),
     "tournament.json line 2: not valid JSON"),
    ("a replay line that is not a deal", lambda o: set_line(o / "replays.jsonl", 3, "[1, 2]"),
     "replays.jsonl line 3: not a deal line"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("damage", "message"), [(d, m) for _, d, m in DAMAGE], ids=[i for i, _, _ in DAMAGE]
)
def test_resume_of_a_damaged_directory_names_the_file_and_line(
    finished_run: Path, tmp_path: Path, damage: Callable[[Path], None], message: str
) -> None:
    out = copy_of(finished_run, tmp_path)
    damage(out)
    before = {f.name: f.read_bytes() for f in out.iterdir()}
    text = one_line_error(["tournament", "--resume", str(out), "--quiet"])
    assert message in text
    assert {f.name: f.read_bytes() for f in out.iterdir()} == before  # nothing touched


def test_resume_refuses_when_finished_matches_lost_their_replays(
    finished_run: Path, tmp_path: Path
) -> None:
    out = copy_of(finished_run, tmp_path)
    replays = lines(out / "replays.jsonl")
    lost = json.loads(replays[2])["match"]
    (out / "replays.jsonl").write_text("".join(replays[:2] + replays[4:]), encoding="utf-8")
    # Cut the tail too, so that the run is unfinished and resume has work to do.
    matches = lines(out / "matches.jsonl")
    (out / "matches.jsonl").write_text("".join(matches[:-1]), encoding="utf-8")
    before = (out / "replays.jsonl").read_bytes()
    text = one_line_error(["tournament", "--resume", str(out), "--quiet"])
    assert f"match {lost} finished" in text and "0 of its 2 deal lines" in text
    assert (out / "replays.jsonl").read_bytes() == before


VERIFY_DAMAGE: list[tuple[str, Callable[[Path], None], str]] = [
    ("an empty object", lambda o: set_line(o / "replays.jsonl", 1, "{}"),
     "replays.jsonl line 1: missing field(s) 'schema'"),
    ("hands of the wrong type", lambda o: set_line(o / "replays.jsonl", 2, json.dumps(
        {**json.loads(lines(o / "replays.jsonl")[1]), "hands": "AS KS"})),
     "replays.jsonl line 2: field 'hands' must be a list of lists of card codes"),
    ("bytes that are not UTF-8", lambda o: set_line(o / "replays.jsonl", 4, b"\xc3\x28"),
     "replays.jsonl line 4: not UTF-8"),
    ("a list line", lambda o: set_line(o / "replays.jsonl", 5, "[]"),
     "replays.jsonl line 5: expected a JSON object"),
    ("a broken JSON line", lambda o: set_line(o / "replays.jsonl", 5, '{"match": '),
     "replays.jsonl line 5: not valid JSON"),
    ("a bad card code", lambda o: set_line(o / "replays.jsonl", 3, lines(
        o / "replays.jsonl")[2].replace('"hands":[["', '"hands":[["ZZ","', 1).strip()),
     "replays.jsonl lines 3-4 (match r0002-t01): a record the replay cannot read (CardError"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("damage", "message"),
    [(d, m) for _, d, m in VERIFY_DAMAGE],
    ids=[i for i, _, _ in VERIFY_DAMAGE],
)
def test_verify_of_a_damaged_log_names_the_file_and_line(
    finished_run: Path, tmp_path: Path, damage: Callable[[Path], None], message: str
) -> None:
    out = copy_of(finished_run, tmp_path)
    damage(out)
    assert message in one_line_error(["verify", str(out)])


def test_verify_names_the_line_of_a_deal_the_engine_does_not_reproduce(
    finished_run: Path, tmp_path: Path
) -> None:
    out = copy_of(finished_run, tmp_path)
    rec = json.loads(lines(out / "replays.jsonl")[3])
    rec["totals"] = [t + 1 for t in rec["totals"]]
    set_line(out / "replays.jsonl", 4, json.dumps(rec))
    text = one_line_error(["verify", str(out)])
    assert "replay mismatch:" in text and "replays.jsonl line 4: match" in text


def test_leaderboard_of_a_damaged_directory_names_the_file_and_line(
    finished_run: Path, tmp_path: Path
) -> None:
    out = copy_of(finished_run, tmp_path)
    set_line(out / "matches.jsonl", 3, "{}")
    assert "matches.jsonl line 3" in one_line_error(["leaderboard", str(out)])


def test_a_new_results_directory_and_its_files_are_the_organisers_alone(
    finished_run: Path,
) -> None:
    # replays.jsonl holds every hand dealt: another user on the machine (a bot run as
    # botuser, README) must not read it while the event runs (docs/results.md).
    assert finished_run.stat().st_mode & 0o777 == 0o700
    modes = {f.name: f.stat().st_mode & 0o777 for f in finished_run.iterdir()}
    assert set(modes) >= {"leaderboard.csv", "leaderboard.json", "matches.jsonl",
                          "tournament.json", "replays.jsonl", "report.html"}, modes  # fmt: skip
    assert set(modes.values()) == {0o600}, modes
    assert not any(name.endswith(".tmp") for name in modes)


def test_a_report_made_again_keeps_the_mode_the_organiser_gave_it(
    finished_run: Path, tmp_path: Path
) -> None:
    out = copy_of(finished_run, tmp_path)
    (out / "report.html").chmod(0o644)  # published after the event
    got = runner.invoke(app, ["report", str(out)])
    assert got.exit_code == 0, got.output
    assert (out / "report.html").stat().st_mode & 0o777 == 0o644


def test_a_results_directory_that_exists_keeps_its_mode(tmp_path: Path) -> None:
    out = tmp_path / "shared"
    out.mkdir(mode=0o750)
    out.chmod(0o750)  # whatever the umask
    got = runner.invoke(
        app, ["tournament", "--in-process", "--rounds", "1", "--deals", "1",
              "--results", str(out), "--quiet"],
    )  # fmt: skip
    assert got.exit_code == 0, got.output
    assert out.stat().st_mode & 0o777 == 0o750  # the organiser chose it
    assert (out / "replays.jsonl").stat().st_mode & 0o777 == 0o600
