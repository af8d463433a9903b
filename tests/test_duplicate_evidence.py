"""The leaderboard's evidence in a duplicate run (--duplicate, rated by points): a block at
one table is one independent unit of the gaps' variance, since its rotations play the
same deals and their cards' luck cancels in their sum (``PointsEvidence``)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_ratings import record, with_deals

from arena.standings.ratings import DEFAULT_PARAMS, BotEvidence, PointsEvidence, Ratings

SKILL = {"a": 1.0, "b": 0.0, "c": -1.0}  # points a deal above the field's mean


def duplicate_blocks(blocks: int, seed: int) -> list[dict[str, Any]]:
    """``blocks`` duplicate blocks at one table of three seats (a, b, c): three deals a
    match, each hand's luck ten times the skill gap, every rotation playing the block's
    hands from the next seat (seat s holds hand s + rotation)."""
    rnd = random.Random(seed)
    seats = ["a", "b", "c"]
    out = []
    for block in range(blocks):
        deals = [[rnd.gauss(0.0, 10.0) for _ in seats] for _ in range(3)]
        for turn in range(3):
            points = [
                [round(luck[(s + turn) % 3] + SKILL[name] + rnd.gauss(0.0, 1.0))
                 for s, name in enumerate(seats)]
                for luck in deals
            ]  # fmt: skip
            rec = with_deals(record(seats, [0, 0, 0], round=3 * block + turn + 1), points)
            rec["block"], rec["rotation"] = block + 1, turn
            out.append(rec)
    return out


def rated(records: list[dict[str, Any]]) -> Ratings:
    ratings = Ratings(DEFAULT_PARAMS)
    ratings.rate_all(records)
    return ratings


def test_a_duplicate_block_is_one_unit_so_its_shared_luck_leaves_the_gaps_variance() -> None:
    blocks = duplicate_blocks(30, seed=3)
    plain = [{k: v for k, v in r.items() if k not in ("block", "rotation")} for r in blocks]
    by_block, by_match = rated(blocks), rated(plain)
    for x, y in (("a", "b"), ("b", "c"), ("a", "c")):
        gap, spread = by_block.gap(x, y)
        same_gap, match_spread = by_match.gap(x, y)
        assert gap == pytest.approx(same_gap)  # the units move no estimate, only the spread
        assert spread < match_spread / 5, (x, y)  # the luck (10 a hand) cancels in a block
        assert by_block.prob_better(x, y) > by_match.prob_better(x, y)
    assert by_block.prob_better("a", "b") > 0.99  # a gap of one point, shown through the luck


def test_units_of_interleaved_tables_stay_apart() -> None:
    """A round's tables are rated in turn (table 1, table 2, then the next rotation of
    each): each block at its table stays one unit however they interleave."""
    rnd = random.Random(5)
    tables = {1: [["a"], ["b"]], 2: [["c"], ["d"]]}
    deals = [(block, turn, table, [rnd.gauss(0.0, 3.0), rnd.gauss(0.0, 3.0)])
             for block in range(6) for turn in range(2) for table in (1, 2)]  # fmt: skip
    interleaved, one_by_one = PointsEvidence(), PointsEvidence()
    for block, turn, table, points in deals:
        interleaved.observe(tables[table], points, (block, table))
        if turn == 1:
            interleaved.close((block, table))
    for table in (1, 2):
        for _block, turn, at, points in deals:
            if at == table:
                one_by_one.observe(tables[table], points)
                if turn == 1:
                    one_by_one.close()
    assert interleaved.clusters == one_by_one.clusters == 12
    for x, y in (("a", "b"), ("c", "d")):
        assert interleaved.gap(x, y, 9.0, 20.0) == pytest.approx(one_by_one.gap(x, y, 9.0, 20.0))


def test_bots_tested_as_bots_also_count_a_duplicate_block_as_one_unit() -> None:
    """``BotEvidence`` (--until-settled with twins, issue 29) joins the deals into the
    same units as the leaderboard: with each match its own unit the luck stays in."""
    blocks = duplicate_blocks(30, seed=3)
    plain = [{k: v for k, v in r.items() if k not in ("block", "rotation")} for r in blocks]
    bots = {"a": "a", "b": "b", "c": "c"}
    by_block, by_match = BotEvidence(bots), BotEvidence(bots)
    for rec, same in zip(blocks, plain, strict=True):
        by_block.add(rec)
        by_match.add(same)
    found, unblocked = by_block.gap_and_spread("a", "b"), by_match.gap_and_spread("a", "b")
    assert found is not None and unblocked is not None
    assert found[0] == pytest.approx(unblocked[0])
    assert found[1] < unblocked[1] / 5
