"""Truf's entry in the registry (``arena.games.registry``): its options, and how the
arena builds, shows, rates, replays and carries it. Everything the arena knows of Truf."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.core.game import Game, GameEntry, GameOption, StatColumn, lazy
from arena.games.truf.game import TrufGame
from arena.games.truf.rules import TrufRules, rules_text

OPTIONS = (
    GameOption(
        "--variant", "variant", str, "classic", "rule variant (rulings C* or T*)",
        metavar="classic|target", choices=("classic", "target"),
    ),
    GameOption(
        "--scoring", "scoring", str, "1", "classic scoring method (ruling C13)",
        metavar="1|2|3|2+3", choices=("1", "2", "3", "2+3"), ruling="ruling C13",
    ),
    GameOption(
        "--multiplier", "multiplier", int, 2,
        "multiplier of scoring methods 3 and 2+3 (C13)", metavar="N", least=1,
    ),
    GameOption(
        "--deals", "deals", int, 0,
        "deals per match; 0 = the variant's default (13 classic, 6 target)",
        metavar="N", least=0,
    ),
)  # fmt: skip


def check_options(values: Mapping[str, Any], given: frozenset[str]) -> None:
    """A scoring option that cannot apply is refused rather than silently ignored
    (ruling C13: scoring methods are the classic variant's; the multiplier is methods 3
    and 2+3's)."""
    if values["variant"] == "target" and given & {"scoring", "multiplier"}:
        flag = "--scoring" if "scoring" in given else "--multiplier"
        raise ValueError(
            f"{flag} applies to the classic variant only (ruling C13); "
            "the target variant scores by T6"
        )
    if "multiplier" in given and values["scoring"] not in ("3", "2+3"):
        method = values["scoring"] if "scoring" in given else "1 (the default)"
        raise ValueError(
            f"--multiplier applies to scoring methods 3 and 2+3 (ruling C13), "
            f"not to method {method}"
        )


def build(values: Mapping[str, Any], deals_file: str | None) -> Game:
    from arena.games.truf.dealsfile import load_deals

    rules = TrufRules(
        variant=values["variant"],
        scoring=values["scoring"],
        multiplier=values["multiplier"],
        deals=values["deals"],
    )
    return TrufGame(rules, tuple(load_deals(deals_file)) if deals_file else ())


ENTRY = GameEntry(
    name="truf",
    title="Truf",
    options=OPTIONS,
    check_options=check_options,
    build=build,
    headline=lambda game: str(game.describe()["variant"]),
    default_entrants=lambda values: ("random", "greedy", "planner", "tracker"),
    replay_log=lazy("arena.games.truf.replay", "replay_log"),
    check_dealt=lazy("arena.games.truf.replay", "check_dealt"),
    stats=(
        StatColumn("avg_score_per_deal", "score/deal", "totals"),
        StatColumn("exact_rate", "exact", "exact", percent=True),
    ),
    rules_type=TrufRules,
    make=lambda rules, deals: TrufGame(rules, deals),
    viewer="arena.games.truf",
    seat_outcomes=lazy("arena.games.truf.replay", "seat_outcomes"),
    duplicate=True,
    codec="arena.games.truf.wire",
    check="arena.games.truf.check",
    rules_text=rules_text,
    luck=lazy("arena.games.truf.luck", "luck"),
    public_record=lazy("arena.games.truf.public", "public_record"),
)
