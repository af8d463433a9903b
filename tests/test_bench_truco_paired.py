"""bench/truco_paired.py plays each hand twice, one seat changed: a bot against itself
gains exactly nothing (the same hands, the same other seats, every bot seeded by the
hand), and its breakdown adds up to the hand's points as the engine scored them."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from procs import run_bench

from arena.games.truco.actions import MAZO, QUIERO, Call, Play
from arena.games.truco.calls import TrucoCall
from arena.games.truco.cards import Card
from arena.games.truco.rules import TrucoRules
from arena.play.run import load_bot

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import truco_paired  # noqa: E402


def test_a_bot_against_itself_gains_nothing_hand_for_hand() -> None:
    out = run_bench(
        "truco_paired.py", "--seats", "6", "--hands", "6", "--every", "6",
        "--bot", "shrewd", "--base", "shrewd", "--others", "shrewd,basic,random",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    first = out.stdout.splitlines()[0]
    assert re.fullmatch(r"6 seats, 6 hands \(\d+s\): shrewd - shrewd = \+0\.000 ± 0\.000 .*", first)
    assert "first same: 6 hands" in out.stdout


@pytest.mark.parametrize("i", range(6))
def test_the_parts_add_up_to_the_hands_points(i: int) -> None:
    """Team hands and duel hands (R13), after 0..5 warm-up hands: envido plus truco is
    the team's points less the other's; in a duel hand, own duel plus other duels."""
    rules = TrucoRules(seats=6)
    names = ["basic", "random", "shrewd", "basic", "random", "shrewd"]
    record, log = truco_paired.play_hand(rules, names, 100 + i, i)
    seat = i % 6
    team = seat % 2
    parts = truco_paired.parts(record, seat)
    assert parts["total"] == record["points"][team] - record["points"][1 - team]
    truco = sum(v for k, v in parts.items() if k.startswith("truco "))
    assert truco == parts.get("truco", 0.0)
    if record["kind"] == "duels":
        assert parts.get("own duel", 0.0) + parts.get("other duels", 0.0) == parts["total"]
    assert log and all(0 <= s < 6 for s, _, _ in log)


def test_the_first_difference_is_named_by_the_seat_that_made_it() -> None:
    card, other = Play(Card.parse("4C")), Play(Card.parse("5C"))
    truco = Call(TrucoCall.TRUCO)
    same = [(0, "play", card), (1, "answer-truco", QUIERO)]
    assert truco_paired.first_difference(same, list(same), 0) == "same"
    assert truco_paired.first_difference(same, [(0, "play", other), *same[1:]], 0) == ("play: card")
    assert truco_paired.first_difference([(0, "play", truco)], [(0, "play", card)], 0) == (
        "play: truco call (base: card)"
    )
    assert truco_paired.first_difference([(1, "play", MAZO)], [(1, "play", card)], 0) == (
        "other seat"
    )


def test_shuffle_seats_the_others_in_an_order_drawn_for_each_hand() -> None:
    """Without ``--shuffle`` the others sit in turn from the tested seat on; with it,
    each hand seats the same bots in its own order, the same both ways (seeded by the
    hand), and over hands every one of them sits right after the tested seat (its
    first answerer, R6)."""
    others = ["pimc", "shrewd", "shrewd", "basic", "random"]
    assert truco_paired.seating(others, 2, 6, 8, False) == [
        "basic", "random", "", "pimc", "shrewd", "shrewd",
    ]  # fmt: skip
    after: set[str] = set()
    orders = set()
    for i in range(60):
        names = truco_paired.seating(others, i % 6, 6, i, True)
        assert names == truco_paired.seating(others, i % 6, 6, i, True)
        assert names[i % 6] == "" and sorted(n for n in names if n) == sorted(others)
        after.add(names[(i + 1) % 6])
        orders.add(tuple(names[(i % 6 + k) % 6] for k in range(1, 6)))
    assert after == set(others)
    assert len(orders) > 20


def test_compare_pairs_two_runs_hand_by_hand(tmp_path: Path) -> None:
    """--compare reads two --out files of the same hands: a run against itself pairs to
    exactly zero, and another run's paired gain over it is that run's own mean gain
    (the first run's is zero: shrewd against shrewd)."""
    files = {}
    for bot in ("shrewd", "basic"):
        files[bot] = tmp_path / f"{bot}.jsonl"
        out = run_bench(
            "truco_paired.py", "--seats", "4", "--hands", "4", "--every", "4", "--bot", bot,
            "--base", "shrewd", "--others", "shrewd,basic,random", "--out", str(files[bot]),
        )  # fmt: skip
        assert out.returncode == 0, out.stderr
    same = truco_paired.compare(files["shrewd"], files["shrewd"])
    assert same[0].startswith("4 hands in both")
    assert all(line.endswith("paired +0.000 ± 0.000") for line in same[1:])
    rows = [json.loads(line) for line in files["basic"].read_text().splitlines()]
    mean = sum(r["gain"] for r in rows) / len(rows)
    total = truco_paired.compare(files["basic"], files["shrewd"])[1]
    assert total.startswith("  total: ") and f"paired {mean:+.3f}" in total


def test_compare_says_what_is_wrong_with_a_file_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    out = run_bench("truco_paired.py", "--compare", str(bad), str(bad))
    assert out.returncode != 0
    assert out.stderr.strip().startswith("--compare: ") and "Traceback" not in out.stderr


def rows_file(path: Path, **change: object) -> Path:
    """Two hand rows as --out writes them (every compared part, the run's setting)."""
    parts = {key: 0.0 for key in truco_paired.COMPARED}
    rows = [
        {"hand": h, "seat": h % 4, "kind": "team", "seats": 4, "shuffle": False,
         "against": "shrewd", "gain": 0.0, "bot": dict(parts), "base": dict(parts), **change}
        for h in (1, 2)
    ]  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_compare_refuses_runs_of_other_hands_or_rows_without_a_part(tmp_path: Path) -> None:
    """No row is read with a part taken as zero, and two runs whose seats, shuffling or
    base differ are not paired: each refused in one line that names what differs."""
    plain = rows_file(tmp_path / "a.jsonl")
    assert truco_paired.compare(plain, plain)[0].startswith("2 hands in both")
    shuffled = rows_file(tmp_path / "b.jsonl", shuffle=True)
    with pytest.raises(SystemExit, match=r"hand 1: shuffle is False in .* but True in "):
        truco_paired.compare(plain, shuffled)
    parts = {key: 0.0 for key in truco_paired.COMPARED if key != "envido"}
    short = rows_file(tmp_path / "c.jsonl", base=parts)
    with pytest.raises(
        SystemExit, match=r"c.jsonl:1: not a truco_paired --out row \(no base.envido\)"
    ):
        truco_paired.compare(short, plain)
    out = run_bench("truco_paired.py", "--compare", str(plain), str(shuffled))
    assert out.returncode != 0 and "Traceback" not in out.stderr
    assert out.stderr.strip().startswith("--compare: hand 1: shuffle")


class _Watcher:
    """A stand-in for a learning bot: plays as basic, and records the views shown it."""

    def __init__(self) -> None:
        self.shown: list[tuple[int, int]] = []  # (hand number, seat) of each view
        self.inner = load_bot("basic", "0", "truco")

    def observe(self, view: Any) -> None:
        self.shown.append((view.hand_no, view.seat))

    def act(self, view: Any, legal: Any) -> Any:
        return self.inner.act(view, legal)


def test_history_shows_the_tested_bot_the_hands_before_and_pairs_the_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """--history: the hands before the tested one are played by the seating (shrewd in
    the tested seat), the tested bot and the base bot are each served that seat's views
    of them (a base that learns must know the match as well, or the bot under test is
    favoured), and then both ways play the same hand from the same position: a bot
    against itself gains nothing."""
    watchers: dict[str, _Watcher] = {}
    real = truco_paired.load_bot

    def load(n: str, s: str, g: str) -> Any:
        if n.startswith("watcher"):
            return watchers.setdefault(n, _Watcher())
        return real(n, s, g)

    monkeypatch.setattr(truco_paired, "load_bot", load)
    rules = TrucoRules(seats=6)
    names = ["", "random", "shrewd", "basic", "random", "shrewd"]
    (rec_a, log_a), (rec_b, log_b) = truco_paired.play_both(
        rules, names, 0, "watcher", "watcher-base", 100, 3
    )
    assert set(watchers) == {"watcher", "watcher-base"}
    for watcher in watchers.values():
        assert {hand for hand, _ in watcher.shown} == {1, 2, 3}
        assert {seat for _, seat in watcher.shown} == {0}
    assert watchers["watcher"].shown == watchers["watcher-base"].shown
    assert rec_a["deal"] == rec_b["deal"] == 4  # the hand after the three before it
    assert log_a == log_b and rec_a["points"] == rec_b["points"]
