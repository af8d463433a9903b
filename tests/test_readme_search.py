"""The README's Truco and Ruff simulator examples (after ``<!-- example: truco-sim -->`` and
``<!-- example: ruff-sim -->``) run as written: the Truco bot plays whole matches
in-process, the Ruff bot a whole deal at every seat, legally."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from arena.games.registry import make_game
from arena.games.ruff.rules import RuffRules
from arena.games.ruff.state import RuffMatch
from arena.games.truco.rules import TrucoRules
from arena.play.tournament import MatchContext, play_match
from bots.random import Bot as RandomBot

README = Path(__file__).resolve().parents[1] / "README.md"


def example_class(tag: str, name: str) -> Any:
    pattern = re.compile(rf"<!-- example: {tag} -->\n+```python\n(.*?)```", re.DOTALL)
    found = pattern.search(README.read_text(encoding="utf-8"))
    assert found, f"README.md has no '<!-- example: {tag} -->' python block"
    code = found[1]
    assert len([line for line in code.splitlines() if line.strip()]) <= 22  # short
    namespace: dict[str, Any] = {"__name__": f"readme_{tag}"}
    exec(compile(code, f"README.md (example: {tag})", "exec"), namespace)
    return namespace[name]


@pytest.mark.parametrize("seats", [2, 6])
def test_the_readme_truco_example_plays_a_legal_match(seats: int) -> None:
    bot = example_class("truco-sim", "TrucoSampler")
    bots = [bot() if s % 2 == 0 else RandomBot(seed=s) for s in range(seats)]
    game = make_game("truco", rules=TrucoRules(seats=seats, points=15))
    out = play_match(game, bots, ctx=MatchContext(f"readme-truco-{seats}", seed=3),
                     names=[f"s{s}" for s in range(seats)])  # fmt: skip
    assert all(n == 0 for counts in out.record["faults"].values() for n in counts)


@pytest.mark.parametrize(
    "rules",
    [RuffRules(), RuffRules(form="single", seats=3)],
    ids=["double", "single-3"],  # type: ignore[arg-type]
)
def test_the_readme_ruff_example_plays_a_legal_deal(rules: RuffRules) -> None:
    """One whole deal (the sides start 13 short of the set: the ruff's 12 alone cannot
    end it), the example's bot asked every decision of every seat."""
    bot = example_class("ruff-sim", "RuffSampler")()
    start = [rules.set_points - 13] * len(rules.teams)
    match = RuffMatch(rules, seed="readme", scores=start)
    while match.deal_no == 1 and not match.is_over:
        (seat,) = match.to_act()
        legal = match.legal_actions(seat)
        picked = bot.act(match.view(seat), legal)
        match.apply(seat, legal[picked] if isinstance(picked, int) else picked)
    assert match.finished[0]["ended"] == "played"
