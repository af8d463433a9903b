"""bench/ruff_duplicate.py plays each deal twice, seat 0 changed: a bot against itself
gains exactly nothing and never leaves its own choice; a different bot's gain is split
by its first different decision (F5, F7) and the parts add up; ``--late`` plays a deal
near the set's end (F9) and scores the match's ranks (F10)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from procs import run_bench

from arena.games.ruff.rules import RuffRules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import ruff_duplicate  # noqa: E402


def test_a_bot_against_itself_gains_nothing_and_never_departs() -> None:
    out = run_bench("ruff_duplicate.py", "--form", "single", "--seats", "3", "--deals", "4",
                    "--bot", "sharp", "--base", "sharp", "--others", "sharp,random")  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "4 deals: sharp - sharp = +0.00 ± 0.00 points a deal" in out.stdout
    assert re.search(r"^  same\s+4 deals  \+0\.000 a deal", out.stdout, re.M)
    quiet = run_bench("ruff_duplicate.py", "--deals", "2", "--bot", "sharp", "--no-split")
    assert quiet.returncode == 0, quiet.stderr
    assert "2 deals: sharp - sharp = +0.00" in quiet.stdout and "first decision" not in quiet.stdout


def test_the_split_names_the_first_departure_and_adds_up() -> None:
    rules = RuffRules(form="single", seats=2)
    gains, parts = [], {}
    for i in range(6):
        mine, first = ruff_duplicate.one_deal(rules, "steady", ["sharp"], i, base="sharp")
        base, same = ruff_duplicate.one_deal(rules, "sharp", ["sharp"], i, base="sharp")
        assert same == "same"  # sharp never leaves its own choice
        assert first == "discard" or re.fullmatch(r"play [ \d]\d", first) or first == "same"
        if first == "same":
            assert mine == base  # the same moves, the same points
        gains.append(mine - base)
        parts[first] = parts.get(first, 0.0) + mine - base
    assert sum(parts.values()) == sum(gains)
    assert set(parts) - {"same"}  # steady plays other cards than sharp


def test_a_late_deal_scores_ranks_and_a_bot_against_itself_gains_nothing() -> None:
    rules = RuffRules(form="single", seats=3)
    played = 0
    for i in range(4):
        one = ruff_duplicate.late_deal(rules, "sharp", "sharp", ["steady", "random"], i, 15)
        two = ruff_duplicate.late_deal(rules, "sharp", "sharp", ["steady", "random"], i, 15)
        assert one == two
        if one is not None:
            played += 1
            assert -1.0 <= one[1] <= 1.0
    assert played
    other = [ruff_duplicate.late_deal(rules, "steady", "sharp", ["sharp"], i, 15)
             for i in range(4)]  # fmt: skip
    assert any(o is not None for o in other)


def test_the_oracle_searches_the_true_deal_and_only_in_the_bench() -> None:
    """``--oracle`` (a ceiling: pimc's search on the real cards) must see the match's own
    deal at every decision, and no tournament or gRPC bot may be one: it is no bundled
    bot, and it takes pimc's options but not the number of worlds."""
    from arena.core.cards import mask_of
    from arena.games.ruff import sim
    from arena.games.ruff.state import RuffMatch
    from arena.play.loading import BotLoadError
    from arena.play.run import ConfigError, load_bot

    rules = RuffRules(form="double", seats=4)
    match = RuffMatch(rules, seed="dup3")
    bot = ruff_duplicate.oracle("pimc:margin=0", "3", match)
    assert bot.options.samples == 1 and bot.margin == 0.0
    steps = 0
    deal = match.view(0).deal
    while not match.is_over and match.view(0).deal == deal:
        (seat,) = match.to_act()
        view = match.view(seat)
        world = sim.from_view(view, bot.sampler(view).sample())
        # the oracle's one world is the real deal as it stands (F2, F5, F7)
        assert [world.hands[s] for s in range(4)] == [mask_of(match.hand(s)) for s in range(4)]
        picked = bot.act(view, match.legal_actions(seat))
        legal = match.legal_actions(seat)
        match.apply(seat, legal[picked] if isinstance(picked, int) else picked)
        steps += 1
    assert steps > 40  # a played deal: announcements, the rub, 48 cards
    for spec in ("sharp", "pimc:samples=70", "pimc:budget=1"):
        with pytest.raises(ValueError, match="one world"):
            ruff_duplicate.oracle(spec, "0", match)
    with pytest.raises((ConfigError, BotLoadError)):
        load_bot("oracle", "0", "ruff")


def test_the_oracle_runs_from_the_command_line() -> None:
    out = run_bench("ruff_duplicate.py", "--form", "single", "--seats", "2", "--deals", "3",
                    "--oracle", "--bot", "pimc")  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert re.search(r"3 deals: oracle pimc - sharp = [+-]\d", out.stdout)
    bad = run_bench("ruff_duplicate.py", "--deals", "3", "--oracle", "--bot", "pimc:samples=9")
    assert bad.returncode == 2 and "one world" in bad.stderr and "Traceback" not in bad.stderr


def test_the_lookahead_knows_the_future_so_it_never_loses_a_deal_to_its_bot() -> None:
    """``--lookahead`` tries each candidate in copies of the match whose other seats play
    as they really will (their bots copied): with no random seat, deal for deal it can
    only gain on the bot it rolls out (sharp), and it must gain somewhere. A random seat
    it plays out with fresh draws, ``rolls`` futures (not its real one), and the deal
    repeats."""
    rules = RuffRules(form="double", seats=4)
    gains = []
    for i in range(12):
        ahead, _ = ruff_duplicate.one_deal(
            rules, "sharp", ["sharp", "steady"], i, cheat="lookahead"
        )
        plain, _ = ruff_duplicate.one_deal(rules, "sharp", ["sharp", "steady"], i)
        gains.append(ahead - plain)
    assert min(gains) >= 0 < max(gains)
    from arena.games.ruff.state import RuffMatch

    names = ["sharp", "sharp", "random", "steady"]
    match = RuffMatch(rules, seed="dup0")
    ahead = ruff_duplicate.Lookahead(match, [None] * 4, None, names, 5)
    assert (ahead.randoms, ahead.rolls) == ([2], 5)  # the random seat, drawn afresh
    assert ruff_duplicate.Lookahead(match, [None] * 4, None, names[:2] * 2, 5).rolls == 1
    real, _ = ruff_duplicate.one_deal(rules, "sharp", names[1:], 0, cheat="lookahead", rolls=2)
    assert real == ruff_duplicate.one_deal(rules, "sharp", names[1:], 0, cheat="lookahead",
                                           rolls=2)[0]  # fmt: skip
    both = run_bench("ruff_duplicate.py", "--deals", "3", "--oracle", "--lookahead")
    assert both.returncode == 2 and "not both" in both.stderr
