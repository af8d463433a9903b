"""A differential test: the Ruff and Trump engine's logs against tests/ruff_oracle.py.

The oracle was written from the seed text, the rulings (F1..F11), docs/rules.md's Ruff
house choices and docs/results.md alone, and imports nothing from ``arena`` (see its
docstring). Here real tournaments are played through the CLI in-process with the bundled
Ruff bots, in the double form and the single form at 4, 3 and 2 seats (12-card deals and
the alternative deals), and once with misbehaving bots so that faults and the referee's
fallback moves are logged too; the oracle must find nothing in any of them. Then single
errors are planted in copies of those logs, and the oracle must name each one, at the
right match and deal, under the right check: a check that can never fail proves nothing.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from ruff_oracle import (
    audit,
    audit_run,
    card_points,
    ruff_suit,
    ruff_value,
    ruff_winner,
    shown_cards,
    side_ranks,
    suit_sums,
    table,
    trick_winner,
    true_ruff,
)
from rules_oracle import load_jsonl
from typer.testing import CliRunner

from arena.bot import BaseBot
from arena.cli import app

Record = dict[str, Any]
ORACLE = Path(__file__).with_name("ruff_oracle.py")

# ------------------------------------------------------- the oracle against the seed


def test_ruff_values_are_f3s() -> None:
    assert [ruff_value(c) for c in ("2S", "9H", "TD", "JC", "QS", "KH", "AD")] == [
        2, 9, 10, 10, 10, 10, 11,
    ]  # fmt: skip
    hand = ["AS", "KS", "2S", "9H", "TH", "QD"]
    assert suit_sums(hand, "5H") == {"S": 23, "H": 24, "D": 10, "C": 0}  # turned 5H counts
    assert true_ruff(hand, "5H") == 24 and ruff_suit(hand, "5H") == "H"
    assert suit_sums(hand, "5C")["C"] == 5  # the turned card counts even in a void suit
    assert ruff_suit(["AS", "TH", "AH", "QS"], "2C") == "S"  # F6: equal sums, spades first


def test_the_ruff_goes_to_the_highest_and_ties_to_the_first_f4() -> None:
    assert ruff_winner([(1, 20), (2, 31), (3, 31), (0, 5)]) == 2
    assert ruff_winner([(3, 0), (0, 0), (1, 0), (2, 0)]) == 3  # all 0: eldest


def test_the_shown_ruff_is_f6s() -> None:
    dealt = ["AC", "KC", "QC", "JC", "8C", "7C", "2H"]
    assert shown_cards(dealt, "3S", 41) == ("C", ["AC", "KC", "QC", "JC"])
    assert shown_cards(dealt, "3S", 35) == ("C", ["AC", "KC", "QC", "JC"])  # until it reaches
    assert shown_cards(dealt, "3S", 11) == ("C", ["AC"])
    assert shown_cards(dealt, "3S", 0) == ("C", [])  # names the suit, shows no card
    trumps = ["9D", "4D", "2S"]  # trump diamonds, the turned AD makes the ruff 24
    assert shown_cards(trumps, "AD", 24) == ("D", ["9D", "4D", "AD"])  # the turned card last
    assert shown_cards(trumps, "AD", 13) == ("D", ["9D", "4D"])


def test_tricks_are_won_as_f7() -> None:
    assert trick_winner([(0, "KH"), (1, "AH"), (2, "2H"), (3, "QH")], "S") == 1
    assert trick_winner([(0, "KH"), (1, "AH"), (2, "2S"), (3, "AC")], "S") == 2  # trumped
    assert trick_winner([(0, "KH"), (1, "3S"), (2, "9S"), (3, "AC")], "S") == 2
    assert trick_winner([(0, "4H"), (1, "AD"), (2, "AC")], "S") == 0  # off-suit never wins


def test_tables_card_points_and_ranks_are_f8_to_f10() -> None:
    assert card_points(28, table("double", 4).par) == 4  # the seed's example
    assert card_points(20, 24) == 0 and card_points(13, table("single", 3).par) == 1
    sizes = {
        (f, n, alt): (t.hand, t.head, t.set, t.par)
        for f, n, alt in [("double", 4, False), ("single", 4, False), ("single", 3, False),
                          ("single", 2, False), ("single", 3, True), ("single", 2, True)]
        for t in [table(f, n, alt)]
    }  # fmt: skip
    assert sizes == {
        ("double", 4, False): (12, 4, 52, 24),
        ("single", 4, False): (12, 4, 52, 12),
        ("single", 3, False): (12, 16, 40, 12),
        ("single", 2, False): (12, 28, 36, 12),
        ("single", 3, True): (16, 4, 52, 16),
        ("single", 2, True): (24, 4, 52, 24),
    }
    assert side_ranks([56, 40]) == [1, 2]
    assert side_ranks([12, 12, 52, 52]) == [3, 3, 1, 1]  # F10: 1, 1, 3
    assert side_ranks([45, 3, 42]) == [1, 3, 2]


# ------------------------------------------------------------------ the runs


class Chaos(BaseBot):
    """A random legal action, but one decision in eight misbehaves (an index out of range,
    an exception, something that is no action): the referee logs a fault and plays its
    fallback (house choice 4), which the oracle checks like any other move."""

    name = "chaos"
    version = "1"
    games = ("ruff",)

    def __init__(self, seed: str = "0") -> None:
        self.rng = random.Random(seed)

    def act(self, view: Any, legal: Sequence[Any]) -> Any:
        roll = self.rng.randrange(24)
        if roll == 0:
            return len(legal) + 2
        if roll == 1:
            raise RuntimeError("chaos")
        if roll == 2:
            return "not an action"
        return self.rng.randrange(len(legal))


CHAOS = f"{__name__}:Chaos"  # this module, as pytest imported it


def run(*options: str, seed: int, rounds: int = 6) -> list[str]:
    return [*options, "--seed", str(seed), "--rounds", str(rounds)]


# Seeds chosen so that together the runs reach every case of
# test_the_runs_reach_the_cases_the_oracle_checks (single-4 seed 11 and single-3 seed 10:
# two sides reach the set in one scoring and share rank 1, F9/F10).
RUNS: dict[str, list[str]] = {
    "double": run(seed=1),
    "single-4": run("--form", "single", "--seats", "4", seed=11),
    "single-3": run("--form", "single", "--seats", "3", seed=10),
    "single-2": run("--form", "single", "--seats", "2", seed=2),
    "single-3-alt": run("--form", "single", "--seats", "3", "--alt-deals", seed=3),
    "single-2-alt": run("--form", "single", "--seats", "2", "--alt-deals", seed=4),
    "double-faults": run("--bots", f"{CHAOS},{CHAOS},random,sharp", seed=5, rounds=4),
}


TABLES = {  # (form, seats, alt deals) of each run
    "double": ("double", 4, False),
    "single-4": ("single", 4, False),
    "single-3": ("single", 3, False),
    "single-2": ("single", 2, False),
    "single-3-alt": ("single", 3, True),
    "single-2-alt": ("single", 2, True),
    "double-faults": ("double", 4, False),
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each configuration played once through the CLI, in-process, for the whole module."""
    out = {}
    for name, args in RUNS.items():
        directory = tmp_path_factory.mktemp(name)
        cmd = ["tournament", "--game", "ruff", "--in-process", "--workers", "1", *args]
        result = CliRunner().invoke(app, [*cmd, "--results", str(directory), "--quiet"])
        assert result.exit_code == 0, result.output
        out[name] = directory
    return out


@pytest.fixture(scope="module")
def logs(runs: dict[str, Path]) -> dict[str, tuple[list[Record], list[Record]]]:
    return {
        name: (load_jsonl(d / "replays.jsonl"), load_jsonl(d / "matches.jsonl"))
        for name, d in runs.items()
    }


def show(findings: list[str]) -> str:
    return "\n".join(findings[:20])


@pytest.mark.parametrize("name", RUNS)
def test_the_engine_logs_agree_with_the_independent_oracle(
    runs: dict[str, Path], name: str
) -> None:
    config = json.loads((runs[name] / "tournament.json").read_text())["game"]
    got = (config["form"], config["seats"], config["alt_deals"])
    assert got == TABLES[name], got  # the run is the configuration it is named after
    findings = audit_run(runs[name])
    assert findings == [], show(findings)


CASES = (
    "double at 4 seats",
    "single at 4 seats",
    "single at 3 seats",
    "single at 2 seats",
    "single at 3 seats (alt deals)",
    "single at 2 seats (alt deals)",
    "announced below the true ruff",
    "equal top announcements (the first wins)",
    "the ruff won below another seat's true ruff",
    "the ruff's 12 reach the set",
    "rubber: the trump ace's holder",
    "rubber: the dealer (the trump ace turned)",
    "rubber: the dealer (the trump ace unseen in the head)",
    "the trump ace dead in the head",
    "a head card discarded",
    "the turned card discarded",
    "the shown ruff lists the turned card",
    "the shown ruff lists a discarded card",
    "a seat void in the led suit trumps",
    "a seat void in the led suit throws off",
    "a trick won by a trump on a side-suit lead",
    "no side scores card points",
    "the set passed (scores uncapped)",
    "two sides reach the set in one scoring",
    "shared first rank",
    "faults",
    "a seat disqualified",
)


def test_the_runs_reach_the_cases_the_oracle_checks(runs: dict[str, Path]) -> None:
    """Agreement means little if the cases never came up."""
    seen: Counter[str] = Counter()
    for directory in runs.values():
        audit_run(directory, seen)
    missing = [case for case in CASES if not seen[case]]
    assert not missing, f"no run reached {missing} (try other seeds): {dict(seen)}"


# ------------------------------------------------------------------ planted errors

# A mutation changes one match's deal lines and match line in place and says where the
# error now is: the deal number, None for the match line, or False when it found nothing
# to change in this match.
Where = int | None | bool
Mutation = Callable[[list[Record], Record], Where]


def played(rs: list[Record]) -> list[Record]:
    return [r for r in rs if r["ended"] == "played"]


def play_index(r: Record, seat: int, card: str) -> int:
    actions: list[list[Any]] = r["actions"]
    return actions.index([seat, f"play {card}"])


def deal_no(r: Record) -> int:
    return int(r["deal"])


def wrong_trick_winner(rs: list[Record], m: Record) -> Where:
    r = played(rs)[0]
    t = r["tricks"][3]
    t["winner"] = next(s for s, _ in t["cards"] if s != t["winner"])
    return deal_no(r)


def trump_does_not_win(rs: list[Record], m: Record) -> Where:
    """F7: a trump on a side-suit lead wins; the log gives the trick to the led suit."""
    for r in played(rs):
        for t in r["tricks"]:
            led = t["cards"][0][1][1]
            if led != r["trump"] and any(c[1] == r["trump"] for _, c in t["cards"]):
                t["winner"] = max(
                    (s for s, c in t["cards"] if c[1] == led),
                    key=lambda s: "23456789TJQKA".index(dict(t["cards"])[s][0]),
                )
                return deal_no(r)
    return False


def revoke(rs: list[Record], m: Record) -> Where:
    """F7: a seat that follows suit in one trick and plays another suit later swaps the two
    cards (in the actions and the tricks): now it fails to follow while it could."""
    for r in played(rs):
        for i, ti in enumerate(r["tricks"]):
            led = ti["cards"][0][1][1]
            for seat, a in ti["cards"][1:]:
                if a[1] != led:
                    continue
                for tj in r["tricks"][i + 1 :]:
                    b = dict(tj["cards"])[seat]
                    if b[1] != led:
                        ka, kb = play_index(r, seat, a), play_index(r, seat, b)
                        r["actions"][ka][1], r["actions"][kb][1] = f"play {b}", f"play {a}"
                        for t in (ti, tj):
                            t["cards"] = [
                                [s, {a: b, b: a}.get(c, c) if s == seat else c]
                                for s, c in t["cards"]
                            ]
                        return deal_no(r)
    return False


def card_not_held(rs: list[Record], m: Record) -> Where:
    r = played(rs)[0]
    seat, card = r["tricks"][0]["cards"][1]
    other = next(c for h in r["hands"] for c in h if c not in r["hands"][seat])
    r["actions"][play_index(r, seat, card)][1] = f"play {other}"
    return deal_no(r)


def play_out_of_turn(rs: list[Record], m: Record) -> Where:
    r = played(rs)[0]
    (s0, c0), (s1, c1) = r["tricks"][2]["cards"][:2]
    k0, k1 = play_index(r, s0, c0), play_index(r, s1, c1)
    r["actions"][k0], r["actions"][k1] = r["actions"][k1], r["actions"][k0]
    return deal_no(r)


def wrong_trick_leader(rs: list[Record], m: Record) -> Where:
    r = played(rs)[0]
    t = r["tricks"][1]
    t["leader"] = t["cards"][1][0]
    return deal_no(r)


def trick_cards_not_played(rs: list[Record], m: Record) -> Where:
    r = played(rs)[0]
    cards = r["tricks"][4]["cards"]
    cards[0], cards[1] = cards[1], cards[0]
    return deal_no(r)


def announce_above_the_true_ruff(rs: list[Record], m: Record) -> Where:
    r = rs[0]
    k = next(k for k, (_, t) in enumerate(r["actions"]) if t.startswith("announce "))
    seat = r["actions"][k][0]
    r["actions"][k][1] = f"announce {r['ruffs'][seat] + 1}"
    r["announcements"][0][1] = r["ruffs"][seat] + 1
    return deal_no(r)


def announcing_out_of_turn(rs: list[Record], m: Record) -> Where:
    r = rs[0]
    r["actions"][0], r["actions"][1] = r["actions"][1], r["actions"][0]
    return deal_no(r)


def ruff_tie_to_the_later(rs: list[Record], m: Record) -> Where:
    """F4: equal announcements go to the seat that announced first."""
    for r in rs:
        top = max(x for _, x in r["announcements"])
        tied = [s for s, x in r["announcements"] if x == top]
        if len(tied) > 1:
            r["ruff_winner"] = tied[1]
            return deal_no(r)
    return False


def wrong_ruff_winner(rs: list[Record], m: Record) -> Where:
    r = rs[0]
    r["ruff_winner"] = (r["ruff_winner"] + 1) % len(r["seats"])
    return deal_no(r)


def turned_card_not_counted(rs: list[Record], m: Record) -> Where:
    """F3: the trump suit's sum includes the turned card; the log reckons a seat's ruff on
    its hand alone."""
    values = {"A": 11, "K": 10, "Q": 10, "J": 10, "T": 10}
    for r in rs:
        for s, hand in enumerate(r["hands"]):
            sums = {
                u: sum(values.get(c[0]) or int(c[0]) for c in hand if c[1] == u) for u in "SHDC"
            }
            if max(sums.values()) != r["ruffs"][s]:
                r["ruffs"][s] = max(sums.values())
                return deal_no(r)
    return False


def wrong_rubber(rs: list[Record], m: Record) -> Where:
    r = played(rs)[0]
    r["rubber"] = (r["rubber"] + 1) % len(r["seats"])
    return deal_no(r)


def ace_holder_does_not_rub(rs: list[Record], m: Record) -> Where:
    """F5: the trump ace's holder rubs; here the dealer takes the head instead (the discard
    action is moved to the dealer's seat, discarding the head's four)."""
    for r in played(rs):
        if r["rubber"] != r["dealer"]:
            k = next(k for k, (_, t) in enumerate(r["actions"]) if t.startswith("discard "))
            r["actions"][k][0] = r["rubber"] = r["dealer"]
            return deal_no(r)
    return False


def discard_a_dead_head_card(rs: list[Record], m: Record) -> Where:
    """F5: with 3 or 2 seats the rubber takes only the head's top four; the rest is dead."""
    for r in played(rs):
        if len(r["head"]) > 4:
            k = next(k for k, (_, t) in enumerate(r["actions"]) if t.startswith("discard "))
            cards = r["actions"][k][1].split()[1:]
            cards[0] = r["head"][4]
            r["actions"][k][1] = "discard " + " ".join(cards)
            r["discards"] = cards
            return deal_no(r)
    return False


def wrong_discards_field(rs: list[Record], m: Record) -> Where:
    r = played(rs)[0]
    r["discards"] = r["discards"][1:] + [r["hands"][r["rubber"]][0]]
    return deal_no(r)


def wrong_shown(rs: list[Record], m: Record) -> Where:
    for r in played(rs):
        if len(r["shown"]["cards"]) > 1:
            r["shown"]["cards"].pop()
            return deal_no(r)
    return False


def wrong_cards_won(rs: list[Record], m: Record) -> Where:
    r = played(rs)[0]
    r["cards_won"][0] += len(r["seats"])
    r["cards_won"][1] -= len(r["seats"])
    return deal_no(r)


def card_points_below_the_par(rs: list[Record], m: Record) -> Where:
    """F8: in double the par is twice the hand (24), not the hand."""
    for r in played(rs):
        if r["form"] == "double":
            r["card_points"] = [max(0, w - 12) for w in r["cards_won"]]
            return deal_no(r)
    return False


def wrong_points(rs: list[Record], m: Record) -> Where:
    rs[0]["points"][1] += 1
    return 1


def wrong_deal_score(rs: list[Record], m: Record) -> Where:
    rs[0]["scores"][0] += 1
    return 1


def wrong_totals(rs: list[Record], m: Record) -> Where:
    rs[0]["totals"][-1] += 1
    return 1


def wrong_scores_before(rs: list[Record], m: Record) -> Where:
    if len(rs) < 2:
        return False
    rs[1]["scores_before"][0] += 1
    return 2


def dealer_does_not_pass(rs: list[Record], m: Record) -> Where:
    if len(rs) < 2:
        return False
    rs[1]["dealer"] = rs[0]["dealer"]
    return 2


def wrong_eldest(rs: list[Record], m: Record) -> Where:
    rs[0]["eldest"] = rs[0]["dealer"]
    return 1


def wrong_trump(rs: list[Record], m: Record) -> Where:
    rs[0]["trump"] = next(s for s in "SHDC" if s != rs[0]["trump"])
    return 1


def card_dealt_twice(rs: list[Record], m: Record) -> Where:
    rs[0]["hands"][1][0] = rs[0]["hands"][0][0]
    return 1


def wrong_set(rs: list[Record], m: Record) -> Where:
    rs[0]["set"] = 52 if rs[0]["set"] != 52 else 40
    return 1


def played_on_after_the_ruff_reached_the_set(rs: list[Record], m: Record) -> Where:
    """F9: the ruff's 12 reaching the set end the deal at once."""
    for r in rs:
        if r["ended"] == "ruff":
            r["ended"] = "played"
            return deal_no(r)
    return False


def a_deal_after_the_set(rs: list[Record], m: Record) -> Where:
    extra = copy.deepcopy(rs[-1])
    extra["deal"] += 1
    extra["dealer"] = (extra["dealer"] + 1) % len(extra["seats"])
    extra["eldest"] = (extra["dealer"] + 1) % len(extra["seats"])
    rs.append(extra)
    m["deals"] += 1
    return deal_no(extra)


def the_match_stops_short(rs: list[Record], m: Record) -> Where:
    if len(rs) < 2:
        return False
    rs.pop()
    m["deals"] -= 1
    m["deal_points"].pop()
    m["totals"] = rs[-1]["totals"]
    return None


def wrong_match_rank(rs: list[Record], m: Record) -> Where:
    m["ranks"] = [1 if x != 1 else 2 for x in m["ranks"]]
    return None


def shared_first_rank_split(rs: list[Record], m: Record) -> Where:
    """F9/F10: equal totals at the set share rank 1."""
    if len(m["seats"]) == 4 and m["teams"] == [[0, 2], [1, 3]]:
        return False
    if m["ranks"].count(1) < 2:
        return False
    second = [s for s, x in enumerate(m["ranks"]) if x == 1][1]
    m["ranks"][second] = 2
    return None


def wrong_deal_points(rs: list[Record], m: Record) -> Where:
    m["deal_points"][0][0] += 1
    return None


def wrong_match_totals(rs: list[Record], m: Record) -> Where:
    m["totals"][0] += 12
    return None


def wrong_ruffs_won(rs: list[Record], m: Record) -> Where:
    m["ruffs_won"][1] += 1
    return None


def wrong_rubs(rs: list[Record], m: Record) -> Where:
    m["rubs"] = m["rubs"][1:] + m["rubs"][:1]
    return None if len(set(m["rubs"])) > 1 else False


def fault_dropped(rs: list[Record], m: Record) -> Where:
    for r in rs:
        if r["faults"]:
            r["faults"].pop()
            return None
    return False


def undocumented_field(rs: list[Record], m: Record) -> Where:
    rs[0]["extra"] = 1
    return 1


PLANTED: list[tuple[Mutation, str]] = [
    (wrong_trick_winner, "trick winner F7"),
    (trump_does_not_win, "trick winner F7"),
    (revoke, "follow suit F7"),
    (card_not_held, "play F7"),
    (play_out_of_turn, "turn F7"),
    (wrong_trick_leader, "trick leader F7"),
    (trick_cards_not_played, "tricks F7"),
    (announce_above_the_true_ruff, "announce F4"),
    (announcing_out_of_turn, "turn F4"),
    (ruff_tie_to_the_later, "ruff winner F4"),
    (wrong_ruff_winner, "ruff winner F4"),
    (turned_card_not_counted, "ruffs F3"),
    (wrong_rubber, "rubber F5"),
    (ace_holder_does_not_rub, "turn F5"),
    (discard_a_dead_head_card, "discard F5"),
    (wrong_discards_field, "discards F5"),
    (wrong_shown, "shown F6"),
    (wrong_cards_won, "cards won F8"),
    (card_points_below_the_par, "card points F8"),
    (wrong_points, "points F4/F8"),
    (wrong_deal_score, "scores F9"),
    (wrong_totals, "totals F9"),
    (wrong_scores_before, "scores_before F9"),
    (dealer_does_not_pass, "dealer F2"),
    (wrong_eldest, "eldest F2"),
    (wrong_trump, "trump F2"),
    (card_dealt_twice, "deal F2"),
    (wrong_set, "set F9"),
    (played_on_after_the_ruff_reached_the_set, "ended F9"),
    (a_deal_after_the_set, "set end F9"),
    (the_match_stops_short, "set end F9"),
    (wrong_match_rank, "ranks F10"),
    (shared_first_rank_split, "ranks F10"),
    (wrong_deal_points, "deal_points"),
    (wrong_match_totals, "match totals F9"),
    (wrong_ruffs_won, "match stats"),
    (wrong_rubs, "match stats"),
    (fault_dropped, "faults"),
    (undocumented_field, "format"),
]


@pytest.mark.parametrize(("mutation", "check"), PLANTED, ids=[fn.__name__ for fn, _ in PLANTED])
def test_a_planted_error_is_named_by_the_oracle(
    logs: dict[str, tuple[list[Record], list[Record]]], mutation: Mutation, check: str
) -> None:
    """The first match (over all runs) where the mutation applies gets it; the oracle,
    shown that match alone, must name the match, the deal and the check."""
    for replays, matches in logs.values():
        for m in matches:
            rs = copy.deepcopy(sorted((r for r in replays if r["match"] == m["match"]),
                                      key=lambda r: r["deal"]))  # fmt: skip
            line = copy.deepcopy(m)
            assert audit(rs, [line]) == []
            where = mutation(rs, line)
            if where is False:
                continue
            findings = audit(rs, [line])
            prefix = m["match"] + ("" if where is None else f" deal {where}") + f": {check}: "
            assert any(f.startswith(prefix) for f in findings), (prefix, show(findings))
            return
    pytest.fail("the mutation found nothing to change in any run")


# ------------------------------------------------------------------ a results directory


def test_the_manual_entry_point_reads_a_directory(runs: dict[str, Path], tmp_path: Path) -> None:
    """``python tests/ruff_oracle.py DIR`` prints nothing wrong on a clean run (exit 0), and
    on a run whose file was edited on disk prints the finding (exit 1)."""
    clean = subprocess.run(
        [sys.executable, str(ORACLE), str(runs["single-3"])], capture_output=True, text=True
    )
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "0 findings" in clean.stdout
    for name in ("replays.jsonl", "matches.jsonl"):
        text = (runs["single-3"] / name).read_text()
        (tmp_path / name).write_text(text)
    lines = (tmp_path / "matches.jsonl").read_text().splitlines(keepends=True)
    first = json.loads(lines[0])
    first["ranks"] = [x + 1 for x in first["ranks"]]
    lines[0] = json.dumps(first) + "\n"
    (tmp_path / "matches.jsonl").write_text("".join(lines))
    tampered = subprocess.run(
        [sys.executable, str(ORACLE), str(tmp_path)], capture_output=True, text=True
    )
    assert tampered.returncode == 1, tampered.stdout + tampered.stderr
    assert f"{first['match']}: ranks F10: " in tampered.stdout
    assert audit_run(tmp_path)[0].startswith(f"{first['match']}: ranks F10: ")
