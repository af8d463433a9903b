"""Truco's entry in the registry (``arena.games.registry``): its options, and how the
arena builds, shows, rates, replays and carries it. Everything the arena knows of Truco."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.core.game import Game, GameEntry, GameOption, StatColumn, lazy
from arena.core.seats import alternating_teams
from arena.games.truco.envido import EnvidoCount
from arena.games.truco.game import TrucoGame
from arena.games.truco.rules import TrucoRules, rules_text

OPTIONS = (
    GameOption(
        "--seats", "seats", int, 4, "seats at a table, 2, 4 or 6 (ruling R2)",
        metavar="N", choices=(2, 4, 6), ruling="R2",
    ),
    GameOption(
        "--points", "points", int, 30, "the game is to 30 or 15 points (R11)",
        metavar="N", choices=(30, 15), ruling="R11",
    ),
    GameOption(
        "--envido-count", "envido_count", str, "seed",
        "how a hand with no two cards of one suit counts its envido: the best two cards "
        "(seed) or its best card (traditional) (ruling R9)",
        metavar="seed|traditional", choices=tuple(c.value for c in EnvidoCount),
        ruling="ruling R9", saved_at_default=False,
    ),
)  # fmt: skip


def build(values: Mapping[str, Any], deals_file: str | None) -> Game:
    from arena.games.truco.dealsfile import load_hands

    rules = TrucoRules(
        seats=values["seats"],
        points=values["points"],
        envido_count=EnvidoCount(values.get("envido_count", "seed")),
    )
    return TrucoGame(rules, tuple(load_hands(deals_file, rules.seats)) if deals_file else ())


def default_field(values: Mapping[str, Any]) -> tuple[str, ...]:
    """Truco's default field (house choice): at 2 and 4 seats one random, one basic and
    two shrewd, so that every entrant plays every round and the order of strength shows in
    100 rounds (with six entrants at four seats, partners and sit-outs blurred basic and
    shrewd); at 6 seats two of each fill the table, every bot meeting its own kind."""
    if values.get("seats", 4) == 6:
        return ("random", "random", "basic", "basic", "shrewd", "shrewd")
    return ("random", "basic", "shrewd", "shrewd")


def headline(game: Game) -> str:
    rules = game.describe()
    count = " · traditional envido" if rules["envido_count"] != "seed" else ""
    return f"{rules['seats']} seats · to {rules['points']} points{count}"


ENTRY = GameEntry(
    name="truco",
    title="Truco",
    options=OPTIONS,
    build=build,
    headline=headline,
    default_entrants=default_field,
    replay_log=lazy("arena.games.truco.replay", "replay_log"),
    check_dealt=lazy("arena.games.truco.replay", "check_dealt"),
    stats=(
        StatColumn("points_for_per_hand", "for/hand", "totals"),
        StatColumn("points_against_per_hand", "against/hand", "points_against"),
        StatColumn("envido_points_per_hand", "envido/hand", "envido_points"),
        StatColumn("truco_points_per_hand", "truco/hand", "truco_points"),
        StatColumn("envidos_won_rate", "envido won", "envidos_won", percent=True),
        StatColumn("truco_refused_rate", "refused", "truco_refused", percent=True),
    ),
    rules_type=TrucoRules,
    make=lambda rules, hands: TrucoGame(rules, hands),
    teams=lambda game: alternating_teams(game.table_size),  # ruling R2
    viewer="arena.games.truco",
    seat_outcomes=lazy("arena.games.truco.replay", "seat_outcomes"),
    duplicate=True,  # docs/rules.md, house choice on duplicate deals
    codec="arena.games.truco.wire",
    check="arena.games.truco.check",
    deal_word="hand",  # ruling R3: a Truco deal is a hand
    rules_text=rules_text,
    public_record=lazy("arena.games.truco.public", "public_record"),
)
