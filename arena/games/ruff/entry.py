"""Ruff and Trump's entry in the registry (``arena.games.registry``): its options, and
how the arena builds, shows, rates, replays and carries it. Everything the arena knows of
Ruff and Trump."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.core.game import Game, GameEntry, GameOption, StatColumn, lazy
from arena.games.ruff.game import RuffGame
from arena.games.ruff.rules import RuffRules, rules_text

OPTIONS = (
    GameOption(
        "--form", "form", str, "double",
        "partnerships at 4 seats (double) or every seat for itself (F1)",
        metavar="double|single", choices=("double", "single"), ruling="ruling F1",
    ),
    GameOption(
        "--seats", "seats", int, 4,
        "seats at a table: 4 in the double form; 4, 3 or 2 in the single form (F1)",
        metavar="N", choices=(4, 3, 2), ruling="F1",
    ),
    GameOption(
        "--alt-deals", "alt_deals", bool, False,
        "the seed's alternative deals, 16 cards each at 3 seats, 24 at 2 (F2)",
    ),
)  # fmt: skip


def check_options(values: Mapping[str, Any], given: frozenset[str]) -> None:
    """ruling F1: the double form is four seats in two partnerships; other seat counts
    play the single form (``--form double --seats 4`` says the same as the default)."""
    if values["form"] == "double" and values["seats"] != 4:
        raise ValueError(
            "--seats applies to --form single only: the double form is always four seats "
            "in two partnerships (ruling F1)"
        )


def build(values: Mapping[str, Any], deals_file: str | None) -> Game:
    from arena.games.ruff.dealsfile import load_deals

    rules = RuffRules(form=values["form"], seats=values["seats"], alt_deals=values["alt_deals"])
    return RuffGame(rules, tuple(load_deals(deals_file, rules)) if deals_file else ())


def headline(game: Game) -> str:
    rules = game.describe()
    alt = " · alternative deal" if rules["alt_deals"] else ""
    return f"{rules['form']} · {rules['seats']} seats{alt} · set of {rules['set']}"


def partners(game: Game) -> tuple[tuple[int, ...], ...] | None:
    rules = game.describe()
    return ((0, 2), (1, 3)) if rules["form"] == "double" else None


ENTRY = GameEntry(
    name="ruff",
    title="Ruff and Trump",
    options=OPTIONS,
    check_options=check_options,
    build=build,
    headline=headline,
    # Two of each bundled Ruff bot (house choice, as for Truco): six entrants fill
    # a table of 2, 3 or 4 and every bot meets its own kind as partner and opponent.
    default_entrants=lambda values: (
        "random",
        "random",
        "steady",
        "steady",
        "sharp",
        "sharp",
    ),
    replay_log=lazy("arena.games.ruff.replay", "replay_log"),
    check_dealt=lazy("arena.games.ruff.replay", "check_dealt"),
    stats=(
        StatColumn("points_per_deal", "points/deal", "totals"),
        StatColumn("ruffs_won_rate", "ruffs won", "ruffs_won", percent=True),
        StatColumn("card_points_per_deal", "cards/deal", "card_points"),
    ),
    rules_type=RuffRules,
    make=lambda rules, deals: RuffGame(rules, deals),
    teams=partners,  # ruling F1: partners opposite in double, none in single
    viewer="arena.games.ruff",
    seat_outcomes=lazy("arena.games.ruff.replay", "seat_outcomes"),
    duplicate=True,  # docs/rules.md, house choice on duplicate deals
    codec="arena.games.ruff.wire",
    check="arena.games.ruff.check",
    rules_text=rules_text,
    public_record=lazy("arena.games.ruff.public", "public_record"),
)
