"""The ``pimc`` bot (bots/truf/pimc.py) and bot options (``pimc:budget=0.5``).

Its strength is measured by ``bench/pimc_strength.py``, never asserted here; these tests
check that it plays legally in both variants, takes every kind of decision, repeats its
play from its seed, and that options reach a bot's constructor with clear errors.
"""

from __future__ import annotations

import random
import re
import sys
from typing import Any

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.games.registry import make_game
from arena.games.truf import sim
from arena.games.truf.actions import ChooseMode
from arena.games.truf.quick import heuristic_card
from arena.games.truf.rules import TrufRules
from arena.games.truf.state import TrufMatch
from arena.play.loading import BotLoadError, split_options
from arena.play.run import ConfigError, entrant_names_for, load_bot
from arena.play.tournament import MatchContext, play_match
from arena.referee.host import bot_command
from bots import bundled_names
from bots.random import Bot as RandomBot
from bots.truf.pimc import Bot as Pimc

NAMES = ["a", "b", "c", "d"]


def play(variant: str, bots: list[Any], match: str, deals: int = 3) -> Any:
    game = make_game(rules=TrufRules(variant=variant, deals=deals))  # type: ignore[arg-type]
    return play_match(game, bots, ctx=MatchContext(match, seed=f"pimc:{match}"), names=NAMES)


@pytest.mark.parametrize("variant", ["classic", "target"])
def test_pimc_plays_only_legal_actions_in_every_phase(variant: str) -> None:
    bots = [Pimc(seed="1", samples=3), RandomBot(seed=2), Pimc(seed="3", samples=2), RandomBot(4)]
    out = play(variant, bots, f"legal-{variant}", deals=4)
    assert all(n == 0 for counts in out.record["faults"].values() for n in counts)


@pytest.mark.parametrize("variant", ["classic", "target"])
def test_with_a_fixed_number_of_worlds_the_same_seed_plays_the_same_match(variant: str) -> None:
    def run() -> list[dict[str, Any]]:
        bots = [Pimc(seed="7", samples=2) for _ in range(4)]
        return play(variant, bots, f"repeat-{variant}", deals=2).deals

    assert run() == run()


def test_pimc_chooses_the_mode_when_the_bids_total_13() -> None:
    rng = random.Random(5)
    for seed in range(200):
        m = TrufMatch(TrufRules(), match_id=f"mode{seed}", seed=seed)
        for seat in range(4):
            legal = m.legal_actions(seat)
            m.apply(seat, legal[rng.randrange(len(legal))])
        if m.phase == "mode":
            (seat,) = m.to_act()
            legal = m.legal_actions(seat)
            choice = Pimc(seed="1", samples=4).act(m.view(seat), legal)
            assert isinstance(legal[choice], ChooseMode)  # type: ignore[index]
            return
    pytest.fail("no deal of 200 totalled 13")


def test_the_search_stops_when_its_budget_is_spent(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock that moves 10 ms each time it is read: a 50 ms budget looks at a handful
    of worlds, never fewer than one, whatever the machine's speed."""
    now = [0.0]

    def clock() -> float:
        now[0] += 0.01
        return now[0]

    drawn = []
    real_sample = sim.Sampler.sample

    def sample(self: sim.Sampler, rng: random.Random) -> sim.Hands:
        drawn.append(1)
        return real_sample(self, rng)

    monkeypatch.setattr("bots.truf.pimc.time.perf_counter", clock)
    monkeypatch.setattr(sim.Sampler, "sample", sample)
    m = TrufMatch(TrufRules(), match_id="budget", seed=1)
    legal = m.legal_actions(0)
    Pimc(seed="1", budget=0.05).act(m.view(0), legal)
    assert 1 <= len(drawn) <= 5
    drawn.clear()
    Pimc(seed="1", budget=0.001).act(m.view(0), legal)
    assert len(drawn) == 1


def test_the_playout_policy_plays_only_legal_cards() -> None:
    rng = random.Random(2)
    for variant in ("classic", "target"):
        rules = TrufRules(variant=variant)  # type: ignore[arg-type]
        for _ in range(100):
            state = sim.Sim.start(rules, sim.random_deal(rng), -1)
            for seat in range(4):
                moves = state.legal(seat)
                state.bid(seat, moves[rng.randrange(len(moves))])  # type: ignore[arg-type]
            if state.phase == sim.MODE:
                state.choose_mode(True)
            while not state.is_over:
                card = heuristic_card(state, rng)
                assert state.legal_mask() >> card & 1
                state.play(card)


# ---------------------------------------------------------------------- options


def test_options_follow_the_bot_and_split_from_it() -> None:
    assert split_options("pimc") == ("pimc", {})
    assert split_options("pimc:budget=0.5") == ("pimc", {"budget": "0.5"})
    assert split_options("my.bot:Mine:depth=3:fast=yes") == (
        "my.bot:Mine",
        {"depth": "3", "fast": "yes"},
    )
    with pytest.raises(BotLoadError, match="come after"):
        split_options("budget=1:pimc")
    with pytest.raises(BotLoadError, match="not an option"):
        split_options("pimc:2x=1")


def test_an_option_reaches_the_constructor_as_its_parameter_type() -> None:
    bot = load_bot("pimc:budget=0.5:samples=3", seed="9")
    assert isinstance(bot, Pimc)
    assert (bot.budget, bot.samples, bot.seed) == (0.5, 3, "9")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("pimc:budget=fast", "option budget='fast' is not a float"),
        ("pimc:depth=3", "has no option 'depth' (its options: budget, samples)"),
        ("greedy:budget=1", "has no option 'budget' (it takes none)"),
        ("pimc:budget=-1", "budget must be more than 0"),
        ("pimc:seed=3", "option 'seed' cannot be given here"),
    ],
)
def test_a_bad_option_is_one_clear_error(spec: str, message: str) -> None:
    with pytest.raises((BotLoadError, ConfigError), match=re.escape(message)):
        load_bot(spec, seed="0")


def test_options_stay_in_the_entrant_name() -> None:
    assert entrant_names_for(["pimc:budget=0.5", "pimc", "random"]) == [
        "pimc:budget=0.5",
        "pimc",
        "random",
    ]
    assert "pimc" in bundled_names()


def test_over_grpc_a_bot_with_options_starts_through_the_sdk() -> None:
    cmd = bot_command("pimc:budget=0.5", "h:1", "tok", "s")
    assert cmd[:4] == [sys.executable, "-m", "arena.sdk", "pimc:budget=0.5"]
    assert cmd[4:6] == ["--game", "truf"]


def test_the_sdk_refuses_a_bad_option_before_it_connects(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from arena.sdk import main

    with pytest.raises(SystemExit) as exit_info:
        main(argv=["pimc:budget=soon", "--connect", "127.0.0.1:9"])
    assert exit_info.value.code == 1
    assert "option budget='soon' is not a float" in capsys.readouterr().err


def test_a_tournament_takes_a_bot_with_options(tmp_path: Any) -> None:
    result = CliRunner().invoke(
        app,
        [
            "tournament",
            "--in-process",
            "--rounds",
            "1",
            "--deals",
            "1",
            "--seed",
            "3",
            "--bots",
            "pimc:samples=2,random,greedy,tracker",
            "--results",
            str(tmp_path / "r"),
        ],  # fmt: skip
    )
    assert result.exit_code == 0, result.output
    assert "pimc:samples=2" in result.output
