"""--duplicate (blocks of rotated deals) and --until-settled (stop once the order is known),
in-process and over gRPC, resumed and verified (issue 16)."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from test_cli import crash_after
from typer.testing import CliRunner

from arena.cli import app
from arena.standings.results import read_jsonl

runner = CliRunner()
FAST = ("--bots", "random,random,greedy,greedy")  # the quick bundled bots


def arena(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def duplicate_run(out: Path, *extra: str, rounds: int = 4, deals: int = 2) -> Path:
    code, text = arena(
        "tournament", "--in-process", "--duplicate", "--rounds", str(rounds), "--deals",
        str(deals), "--results", str(out), "--quiet", *FAST, *extra,
    )  # fmt: skip
    assert code == 0, text
    return out


def hands_by_entrant(deals: list[dict[str, Any]]) -> dict[tuple[int, int], dict[str, set[str]]]:
    """(block, deal) -> entrant -> the hands (as text) it held in that deal over the block."""
    out: dict[tuple[int, int], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for rec in deals:
        for seat, name in enumerate(rec["seats"]):
            out[rec["block"], rec["deal"]][name].add(" ".join(rec["hands"][seat]))
    return out


def test_over_a_block_every_entrant_plays_every_hand_of_every_deal_once(tmp_path: Path) -> None:
    run = duplicate_run(tmp_path / "r", "--seed", "5", rounds=8)
    deals = read_jsonl(run / "replays.jsonl")
    assert {(d["block"], d["rotation"]) for d in deals} == {
        (b, r) for b in (1, 2) for r in range(4)
    }
    for (block, deal), held in hands_by_entrant(deals).items():
        every = set().union(*held.values())
        assert len(every) == 4, (block, deal)  # the same four hands at every rotation
        assert all(hands == every for hands in held.values()), (block, deal)
    first = {d["block"]: d for d in deals if d["rotation"] == 0 and d["deal"] == 1}
    assert first[1]["hands"] != first[2]["hands"]  # each block deals fresh deals
    dealers = [d["dealer"] for d in deals if d["block"] == 1 and d["deal"] == 1]
    assert dealers == [(dealers[0] - r) % 4 for r in range(4)]  # the dealer turns too


def test_every_table_of_a_round_plays_the_same_deals(tmp_path: Path) -> None:
    code, text = arena(
        "tournament", "--in-process", "--duplicate", "--rounds", "2", "--deals", "1",
        "--bots", "random,random,random,random,greedy,greedy,greedy,greedy",
        "--results", str(tmp_path / "r"), "--quiet",
    )  # fmt: skip
    assert code == 0, text
    deals = read_jsonl(tmp_path / "r" / "replays.jsonl")
    by_round: dict[str, list[list[str]]] = defaultdict(list)
    for d in deals:
        by_round[d["match"][:5]].append(d["hands"])
    assert all(len(tables) == 2 and tables[0] == tables[1] for tables in by_round.values())


def test_verify_re_deals_a_duplicate_run_and_catches_a_wrong_rotation(tmp_path: Path) -> None:
    run = duplicate_run(tmp_path / "r")
    code, text = arena("verify", str(run))
    assert code == 0, text
    assert "8 dealt deals are the ones the run's secret deals" in " ".join(text.split())
    lines = (run / "replays.jsonl").read_text().splitlines()
    bad = json.loads(lines[2])
    bad["rotation"] = (bad["rotation"] + 1) % 4
    lines[2] = json.dumps(bad)
    (run / "replays.jsonl").write_text("\n".join(lines) + "\n")
    code, text = arena("verify", str(run))
    assert code == 1 and "not the ones the run's secret deals" in text


def test_a_deals_file_and_duplicate_are_refused_together(tmp_path: Path) -> None:
    deals = tmp_path / "deals.jsonl"
    deals.write_text("")
    code, text = arena("tournament", "--in-process", "--duplicate", "--deals-file", str(deals))
    assert code == 1 and "give one or the other" in text


def test_until_settled_stops_once_the_order_is_settled_and_says_so(tmp_path: Path) -> None:
    """Issue 29: a field with identical bots settles, the twins level as the same bot (one
    spec: untested), the others each above the next; the leaderboard agrees with the stop."""
    out = tmp_path / "s"
    code, text = arena(
        "tournament", "--in-process", "--until-settled", "--rounds", "80", "--seed", "11",
        "--bots", "random,greedy,tracker,tracker", "--results", str(out), "--quiet",
    )  # fmt: skip
    assert code == 0, text
    said = " ".join(text.split())
    rounds = max(m["round"] for m in read_jsonl(out / "matches.jsonl"))
    assert f"stopped after {rounds} of 80 rounds: the order is settled" in said
    assert rounds < 80
    assert re.search(r"the same bot, level untested: tracker#[12] and tracker#[12]$", said.strip())
    board = json.loads((out / "leaderboard.json").read_text())["rows"]
    assert [row["bot"] for row in board][2:] == ["greedy", "random"]
    assert all(row["p_better_next"] >= 0.5 for row in board[:-1])
    assert board[1]["p_better_next"] > 0.99  # the lower twin above greedy


def test_until_settled_says_when_it_reached_the_cap(tmp_path: Path) -> None:
    code, text = arena(
        "tournament", "--in-process", "--until-settled", "--rounds", "1", "--deals", "1",
        "--results", str(tmp_path / "r"), "--quiet", *FAST,
    )  # fmt: skip
    assert code == 0, text
    assert "reached the cap of 1 rounds (--rounds) before the order settled" in text


def test_a_resumed_duplicate_run_writes_what_an_uninterrupted_run_writes(tmp_path: Path) -> None:
    """Ratings rate a duplicate block when its last rotation is rated: a run resumed in the
    middle of a block rates (and stops) exactly as the uninterrupted one."""
    extra = ("--until-settled", "--seed", "4")
    whole = duplicate_run(tmp_path / "whole", *extra, rounds=6)
    crashed = duplicate_run(tmp_path / "crashed", *extra, rounds=6)
    crash_after(crashed, finished=2)
    code, text = arena("tournament", "--resume", str(crashed), "--quiet")
    assert code == 0, text
    for name in ("replays.jsonl", "matches.jsonl", "leaderboard.json", "leaderboard.csv"):
        assert (crashed / name).read_bytes() == (whole / name).read_bytes(), name


def test_a_duplicate_until_settled_run_over_grpc_deals_what_it_deals_in_process(
    tmp_path: Path,
) -> None:
    from test_grpc import run_arena

    local = duplicate_run(tmp_path / "local", "--seed", "6", rounds=4, deals=1)
    out = tmp_path / "grpc"
    code, text = run_arena(tmp_path, "tournament", "--duplicate", "--rounds", "4", "--deals",
                           "1", "--seed", "6", "--results", str(out), "--quiet",
                           "--until-settled", *FAST)  # fmt: skip
    assert code == 0, text
    assert "reached the cap of 4 rounds" in " ".join(text.split())  # twins never settle
    code, text = run_arena(tmp_path, "verify", str(out))
    assert code == 0, text

    def dealt(run: Path) -> list[tuple[Any, ...]]:
        return sorted(
            (d["match"], d["block"], d["rotation"], json.dumps(d["hands"]))
            for d in read_jsonl(run / "replays.jsonl")
        )

    assert dealt(out) == dealt(local)


def test_arena_serve_deals_duplicate_and_stops_when_settled_or_at_the_cap(
    tmp_path: Path,
) -> None:
    """``arena serve --duplicate --until-settled``: four bot programs play the blocks the
    in-process run deals, the run says which ended it, and ``arena verify`` accepts it."""
    from test_grpc import Serving, arena_cmd, run_arena

    local = duplicate_run(tmp_path / "local", "--seed", "6", rounds=4, deals=1)
    with Serving(tmp_path, "--entrants", "4", "--duplicate", "--until-settled", "--rounds",
                 "4", "--deals", "1", "--seed", "6") as s:  # fmt: skip
        for name in ("random", "random", "greedy", "greedy"):
            s.bot(arena_cmd("bot", name, "--connect", s.address))
        said = " ".join(s.finish().split())
    assert "reached the cap of 4 rounds" in said, said  # twins never settle
    code, text = run_arena(tmp_path, "verify", str(s.out))
    assert code == 0, text

    def dealt(run: Path) -> list[tuple[Any, ...]]:
        return sorted(
            (d["match"], d["block"], d["rotation"], json.dumps(d["hands"]))
            for d in read_jsonl(run / "replays.jsonl")
        )

    assert dealt(s.out) == dealt(local)
