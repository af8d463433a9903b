"""The README's simulator example (after ``<!-- example: sim -->``) runs as written: its
bot plays a whole match in-process, legally, in both variants."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from arena.games.registry import make_game
from arena.games.truf.rules import TrufRules
from arena.play.tournament import MatchContext, play_match
from bots.random import Bot as RandomBot

README = Path(__file__).resolve().parents[1] / "README.md"
EXAMPLE = re.compile(r"<!-- example: sim -->\n+```python\n(.*?)```", re.DOTALL)


def example_bot_class() -> Any:
    found = EXAMPLE.search(README.read_text(encoding="utf-8"))
    assert found, "README.md has no '<!-- example: sim -->' python block"
    code = found[1]
    assert len([line for line in code.splitlines() if line.strip()]) <= 20  # short
    namespace: dict[str, Any] = {"__name__": "readme_sim"}
    exec(compile(code, "README.md (example: sim)", "exec"), namespace)
    return namespace["Sampler"]


@pytest.mark.parametrize("variant", ["classic", "target"])
def test_the_readme_simulator_example_plays_a_legal_match(variant: str) -> None:
    bot = example_bot_class()()
    game = make_game(rules=TrufRules(variant=variant, deals=2))  # type: ignore[arg-type]
    bots = [bot, RandomBot(seed=1), RandomBot(seed=2), RandomBot(seed=3)]
    out = play_match(game, bots, ctx=MatchContext(f"readme-{variant}", seed=5), names=list("abcd"))
    assert all(n == 0 for counts in out.record["faults"].values() for n in counts)
    assert len(out.deals) == 2
