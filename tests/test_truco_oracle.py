"""A differential test: the Truco engine's logs against tests/truco_oracle.py.

The oracle was written from the seed text, the rulings (R1..R14) and docs/results.md alone,
without reading the engine, and imports nothing from ``arena`` (see its docstring). Here
matches are played in-process through the public API (``make_game("truco")`` and
``play_match``) at 2, 4 and 6 seats, to 30 and to 15, with both envido counts, the bundled
Truco bots, random bots and a faulty bot; the oracle must find nothing in their logs, and at
every decision the engine must offer exactly the actions the oracle derives from the
rulings. Then single errors are planted in copies of those logs and the oracle must name
each one under the right check: a check that can never fail proves nothing.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import cycle, islice
from pathlib import Path
from typing import Any

import pytest
from truco_oracle import (
    ENVIDO_SEQUENCES,
    Finding,
    audit,
    audit_run,
    envido_points,
    envido_score,
    falta_value,
    hand_outcome,
    legal_at_each_action,
    power,
)

from arena.bot import BaseBot
from arena.games.registry import make_game
from arena.games.truco.envido import EnvidoCount
from arena.games.truco.rules import TrucoRules
from arena.play.tournament import MatchContext, play_match
from arena.standings.results import dumps
from bots.truco import bot_class

Record = dict[str, Any]

# ------------------------------------------------------- the oracle against the seed


def test_the_oracle_orders_cards_as_r1() -> None:
    order = ["1E", "1B", "7E", "7O", "3C", "2O", "1O", "12B", "11E", "10C", "7B", "6E", "5O", "4C"]
    strengths = [power(c) for c in order]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == len(order)
    assert power("1O") == power("1C") and power("7B") == power("7C")  # R1: these tie


def test_the_oracle_counts_envido_as_the_seed() -> None:
    assert envido_score(["6O", "7O", "1E"], "seed") == 33  # "the highest possible"
    assert envido_score(["11C", "5C", "4E"], "seed") == 25  # "a suited 11 and 5"
    assert envido_score(["7E", "6B", "12O"], "seed") == 13  # R9: best two, no suit
    assert envido_score(["7E", "6B", "12O"], "traditional") == 7  # the highest single value
    assert envido_score(["12E", "11E", "10E"], "traditional") == 20


def test_the_oracle_prices_envido_as_the_seed_table() -> None:
    rows = {  # the seed's table: accepted, refused
        ("envido",): (2, 1),
        ("real-envido",): (3, 2),
        ("envido", "envido"): (4, 3),
        ("envido", "real-envido"): (5, 4),
        ("real-envido", "real-envido"): (6, 5),
        ("envido", "envido", "real-envido"): (7, 6),
    }
    for calls, (yes, no) in rows.items():
        assert envido_points(list(calls), True, 30) == yes
        assert envido_points(list(calls), False, 30) == no
    assert len(ENVIDO_SEQUENCES) == 13  # R8: the six, each with Falta after it, Falta alone
    falta = falta_value(30, [12, 25])
    assert falta == 5 and falta_value(15, [15, 15]) == 1  # R8: max(1, target - higher)
    chain = ["envido", "envido", "real-envido", "falta-envido"]
    assert envido_points(chain, True, falta) == 5  # Falta replaces the sum
    assert envido_points(chain, False, falta) == 5  # 7 + 1, capped at the Falta (R8)
    assert envido_points(chain, False, 30) == 8


def test_the_oracle_decides_tricks_as_r5() -> None:
    a, b, tie = 0, 1, None
    assert hand_outcome([a], b) is None
    assert hand_outcome([a, a], b) == a
    assert hand_outcome([tie, b], a) == b  # trick 1 tied: the next decides
    assert hand_outcome([a, tie], b) is None  # the seed: trick 3 decides
    assert hand_outcome([a, tie, b], a) == b
    assert hand_outcome([a, b, tie], b) == b  # undecided after trick 3: mano's team
    assert hand_outcome([tie, tie, tie], a) == a


# ------------------------------------------------------------------ the logs


class Chaos(BaseBot):
    """A random legal action, but one decision in six misbehaves (an index out of range,
    a card it does not hold, an exception): the referee logs a fault and plays a fallback,
    which the oracle checks like any other action."""

    name = "chaos"

    def __init__(self) -> None:
        self.rng = random.Random(7)

    def act(self, view: Any, legal: Sequence[Any]) -> Any:
        roll = self.rng.randrange(18)
        if roll == 0:
            return len(legal) + 2
        if roll == 1:
            return "play 8E"
        if roll == 2:
            raise RuntimeError("chaos")
        return self.rng.randrange(len(legal))


class Spy(BaseBot):
    """Plays as ``inner`` and writes down what the engine offered at each decision."""

    def __init__(self, inner: BaseBot, offered: list[tuple[int, list[str]]]) -> None:
        self.inner, self.offered = inner, offered

    def act(self, view: Any, legal: Sequence[Any]) -> Any:
        self.offered.append((view.seat, [str(a) for a in legal]))
        return self.inner.act(view, legal)


@dataclass
class Log:
    """One run's records, as plain JSON, and per match what the engine offered."""

    replays: list[Record] = field(default_factory=list)
    matches: list[Record] = field(default_factory=list)
    offered: dict[str, list[tuple[int, list[str]]]] = field(default_factory=dict)


MIXES = [("basic", "random"), ("random", "basic"), ("random", "random")]


@dataclass(frozen=True)
class Run:
    seats: int
    points: int
    matches: int
    count: str = "seed"
    mixes: tuple[tuple[str, str], ...] = tuple(MIXES)
    chaos: bool = False  # seat 0 misbehaves now and then


# Together these runs reach every rare case of test_the_logs_reach_the_rare_cases.
RUNS = {
    "2-seats-to-30": Run(2, 30, 12),
    "2-seats-to-15": Run(2, 15, 12),
    "4-seats-to-30": Run(4, 30, 12),
    "4-seats-to-15": Run(4, 15, 12),
    "6-seats-to-30": Run(6, 30, 12),
    "6-seats-to-15": Run(6, 15, 12),
    "4-seats-traditional": Run(4, 15, 12, count="traditional"),
    "4-seats-traditional-random": Run(
        4, 15, 12, count="traditional", mixes=(("random", "random"),)
    ),
    "shrewd-2-seats": Run(2, 15, 1, mixes=(("shrewd", "basic"),)),
    "shrewd-4-seats": Run(4, 15, 1, mixes=(("basic", "shrewd"),)),
    "shrewd-6-seats": Run(6, 15, 1, mixes=(("shrewd", "random"),)),
    "4-seats-random": Run(4, 30, 40, mixes=(("random", "random"),)),
    "6-seats-random": Run(6, 15, 40, mixes=(("random", "random"),)),
    "faults": Run(4, 15, 6, chaos=True),
}


def json_copy(obj: Any) -> Any:
    return json.loads(dumps(obj))  # exactly what a results file holds


def play_run(name: str, run: Run) -> Log:
    log = Log()
    game = make_game(
        "truco",
        rules=TrucoRules(seats=run.seats, points=run.points, envido_count=EnvidoCount(run.count)),
    )
    for i, mix in enumerate(islice(cycle(run.mixes), run.matches)):
        mid = f"{name}-{i + 1}"
        offered: list[tuple[int, list[str]]] = []
        kinds = [mix[s % 2] for s in range(run.seats)]
        inner = [Chaos() if run.chaos and s == 0 else bot_class(k)() for s, k in enumerate(kinds)]
        out = play_match(
            game,
            [Spy(b, offered) for b in inner],
            ctx=MatchContext(mid, seed=f"{name}:{i}"),
            names=[f"{k}#{s}" for s, k in enumerate(kinds)],
            strike_limit=1000,
        )
        log.replays += json_copy(out.deals)
        log.matches.append(json_copy(out.record))
        log.offered[mid] = offered
    return log


@pytest.fixture(scope="module")
def logs() -> dict[str, Log]:
    return {name: play_run(name, run) for name, run in RUNS.items()}


def show(findings: list[Finding]) -> str:
    return "\n".join(map(str, findings[:20]))


@pytest.mark.parametrize("run", RUNS)
def test_the_engine_logs_agree_with_the_independent_oracle(logs: dict[str, Log], run: str) -> None:
    log = logs[run]
    findings = audit(log.replays, log.matches)
    assert findings == [], show(findings)


@pytest.mark.parametrize("run", RUNS)
def test_the_engine_offers_exactly_the_actions_the_rulings_allow(
    logs: dict[str, Log], run: str
) -> None:
    """R6..R10 both ways: every action offered is legal, and every legal action is offered."""
    log = logs[run]
    for m in log.matches:
        hands = sorted(
            (r for r in log.replays if r["match"] == m["match"]), key=lambda r: r["deal"]
        )
        derived = [step for r in hands for step in legal_at_each_action(r)]
        offered = log.offered[m["match"]]
        assert len(derived) == len(offered), m["match"]
        for k, ((seat, legal), (asked, given)) in enumerate(zip(derived, offered, strict=True)):
            assert (asked, sorted(given)) == (seat, sorted(legal)), f"{m['match']} decision {k + 1}"


RARE_CASES = (
    "call retruco",
    "call vale-cuatro",
    "truco refused",
    "retruco refused",
    "vale-cuatro refused",
    *(f"envido calls: {' '.join(seq)}" for seq in sorted(ENVIDO_SEQUENCES)),
    "envido settled",
    "envido refused",
    "falta envido settled",
    "falta envido refused",
    "refused falta envido capped",
    "envido in answer to truco",
    "truco answered after the envido",
    "envido on one's turn after a truco was accepted",
    "a raise at the next decision after accepting",
    "the answer passes over a folded seat",
    "a later declaration beats the best",
    "an equal envido, closer to mano, beats the best",
    "a seat passed over while its team was best declares",
    "a folded seat takes no part in the envido",
    "son buenas",
    "shown: one card (traditional count, no suited pair)",
    "al mazo",
    "al mazo, partners play on",
    "leader went al mazo",
    "parda in trick 1",
    "parda in a later trick",
    "undecided after trick 3: mano's team",
    "six-seat duel hand",
    "game ended by an envido",
    "equal scores at the target",
    "faults",
)


def test_the_logs_reach_the_rare_cases(logs: dict[str, Log]) -> None:
    """Agreement means little if the cases never came up."""
    seen: Counter[str] = Counter()
    for log in logs.values():
        audit(log.replays, log.matches, seen)
    missing = [case for case in RARE_CASES if not seen[case]]
    assert not missing, f"no run reached {missing} (try other seeds): {dict(seen)}"


# ------------------------------------------------------------------ planted errors

Mutation = Callable[[list[Record], Record], bool]  # (a match's hands, its line) -> applied


def plays(rs: list[Record]) -> list[tuple[Record, Record]]:
    return [(r, p) for r in rs for p in r["plays"]]


def first(rs: list[Record], test: Callable[[Record, Record], bool]) -> tuple[Record, Record] | None:
    return next(((r, p) for r, p in plays(rs) if test(r, p)), None)


def after_call(p: Record, call: str) -> int | None:
    """The index of the action that answers the first ``call`` of the play."""
    texts = [t for _, t in p["actions"]]
    return texts.index(f"call {call}") + 1 if f"call {call}" in texts else None


def wrong_trick_winner(rs: list[Record], m: Record) -> bool:
    hit = first(rs, lambda r, p: any(t["winner"] is not None for t in p["tricks"]))
    if hit is None:
        return False
    t = next(t for t in hit[1]["tricks"] if t["winner"] is not None)
    t["winner"] = next(s for s, _ in t["cards"] if s % 2 != t["winner"] % 2)
    return True


def parda_as_a_win(rs: list[Record], m: Record) -> bool:
    hit = first(rs, lambda r, p: any(t["winner"] is None for t in p["tricks"]))
    if hit is None:
        return False
    t = next(t for t in hit[1]["tricks"] if t["winner"] is None)
    t["winner"] = t["cards"][0][0]
    return True


def wrong_trick_leader(rs: list[Record], m: Record) -> bool:
    hit = first(rs, lambda r, p: len(p["tricks"]) >= 2 and not p["folded"])
    if hit is None:
        return False
    t = hit[1]["tricks"][1]
    t["leader"] = t["cards"][1][0]
    return True


def trick_cards_reordered(rs: list[Record], m: Record) -> bool:
    hit = first(rs, lambda r, p: bool(p["tricks"]))
    if hit is None:
        return False
    cards = hit[1]["tricks"][0]["cards"]
    cards[0], cards[1] = cards[1], cards[0]
    return True


def duplicate_card(rs: list[Record], m: Record) -> bool:
    rs[0]["hands"][0][0] = rs[0]["hands"][1][0]
    return True


def card_not_in_the_deck(rs: list[Record], m: Record) -> bool:
    rs[0]["hands"][1][2] = "8E"  # R1: no 8s
    return True


def wrong_dealer(rs: list[Record], m: Record) -> bool:
    if len(rs) < 2:
        return False
    rs[1]["dealer"] = (rs[1]["dealer"] + 1) % len(rs[1]["hands"])
    return True


def wrong_mano(rs: list[Record], m: Record) -> bool:
    rs[0]["mano"] = rs[0]["dealer"]
    return True


def duels_not_alternating(rs: list[Record], m: Record) -> bool:
    r = next((r for r in rs if r["kind"] == "duels"), None)
    if r is None:
        return False
    r["kind"] = "team"
    return True


def duels_in_the_wrong_order(rs: list[Record], m: Record) -> bool:
    r = next((r for r in rs if r["kind"] == "duels"), None)
    if r is None:
        return False
    r["plays"][0], r["plays"][1] = r["plays"][1], r["plays"][0]
    return True


def wrong_envido_points(rs: list[Record], m: Record) -> bool:
    hit = first(rs, lambda r, p: bool(p["envido"]) and p["envido"]["result"] == "settled")
    if hit is None:
        return False
    hit[1]["envido"]["points"] += 1
    return True


def falta_refusal_not_capped(rs: list[Record], m: Record) -> bool:
    """R8: a refused Falta Envido is capped at what it would be worth accepted."""

    def capped(r: Record, p: Record) -> bool:
        e = p["envido"]
        if not e or e["result"] != "refused" or e["calls"][-1] != "falta-envido":
            return False
        return bool(envido_points(e["calls"], False, 10**6) > e["points"])

    hit = first(rs, capped)
    if hit is None:
        return False
    e = hit[1]["envido"]
    e["points"] = envido_points(e["calls"], False, 10**6)
    return True


def wrong_envido_result(rs: list[Record], m: Record) -> bool:
    hit = first(rs, lambda r, p: bool(p["envido"]) and p["envido"]["result"] == "refused")
    if hit is None:
        return False
    hit[1]["envido"]["result"] = "settled"
    return True


def wrong_envido_team(rs: list[Record], m: Record) -> bool:
    hit = first(rs, lambda r, p: bool(p["envido"]))
    if hit is None:
        return False
    hit[1]["envido"]["team"] = 1 - hit[1]["envido"]["team"]
    return True


def wrong_shown_cards(rs: list[Record], m: Record) -> bool:
    hit = first(rs, lambda r, p: bool(p["envido"]) and p["envido"]["shown"] is not None)
    if hit is None:
        return False
    r, p = hit
    seat, shown = p["envido"]["shown"]
    other = next(c for c in r["hands"][seat] if c not in shown)
    p["envido"]["shown"] = [seat, [shown[0], other] if len(shown) == 2 else [other]]
    return envido_score([shown[0], other], r["envido_count"]) != envido_score(
        r["hands"][seat], r["envido_count"]
    )


def wrong_declarations(rs: list[Record], m: Record) -> bool:
    hit = first(rs, lambda r, p: bool(p["envido"]) and len(p["envido"]["declarations"]) >= 2)
    if hit is None:
        return False
    hit[1]["envido"]["declarations"].pop()
    return True


def false_declaration(rs: list[Record], m: Record) -> bool:
    for _, p in plays(rs):
        for a in p["actions"]:
            if a[1].startswith("declare "):
                a[1] = f"declare {int(a[1].split()[1]) + 1}"
                return True
    return False


def son_buenas_by_the_caller(rs: list[Record], m: Record) -> bool:
    """R9: the last caller declares first and may not say son buenas."""
    for _, p in plays(rs):
        for a in p["actions"]:
            if a[1].startswith("declare "):
                a[1] = "son-buenas"
                return True
    return False


def declaration_that_does_not_beat(rs: list[Record], m: Record) -> bool:
    """A seat whose score does not beat the best declares it instead of son buenas."""
    for r in rs:
        steps = iter(legal_at_each_action(r))
        for p in r["plays"]:
            for a, (_, legal) in zip(p["actions"], steps, strict=False):
                if a[1] == "son-buenas" and legal == ["son-buenas"]:
                    a[1] = f"declare {envido_score(r['hands'][a[0]], r['envido_count'])}"
                    return True
    return False


def call_skipping_the_ladder(rs: list[Record], m: Record) -> bool:
    hit = first(rs, lambda r, p: "call truco" in (t for _, t in p["actions"]))
    if hit is None:
        return False
    a = next(a for a in hit[1]["actions"] if a[1] == "call truco")
    a[1] = "call vale-cuatro"
    return True


def raise_by_the_team_that_did_not_accept(rs: list[Record], m: Record) -> bool:
    """R7: after Truco is accepted, a seat of the calling team calls Retruco."""
    for _, p in plays(rs):
        acts = p["actions"]
        for k in range(len(acts) - 1):
            if acts[k][1] == "call truco" and acts[k + 1][1] == "quiero":
                caller = acts[k][0]
                later = next(
                    (j for j in range(k + 2, len(acts)) if acts[j][0] % 2 == caller % 2), None
                )
                if later is not None and acts[later][1].startswith("play "):
                    acts.insert(later, [acts[later][0], "call retruco"])
                    return True
    return False


def envido_after_trick_one(rs: list[Record], m: Record) -> bool:
    for _, p in plays(rs):
        if len(p["tricks"]) < 2 or p["envido"] or p["folded"]:
            continue
        t2 = p["tricks"][1]["cards"][0]
        k = p["actions"].index([t2[0], f"play {t2[1]}"])
        p["actions"].insert(k, [t2[0], "call envido"])
        return True
    return False


def envido_raise_outside_the_table(rs: list[Record], m: Record) -> bool:
    """R8: nothing raises a Falta Envido."""
    for _, p in plays(rs):
        k = after_call(p, "falta-envido")
        if k is not None and k < len(p["actions"]):
            p["actions"][k][1] = "call real-envido"
            return True
    return False


def mazo_out_of_turn(rs: list[Record], m: Record) -> bool:
    """R10: al mazo only on one's turn to play, not as an answer."""
    for _, p in plays(rs):
        k = after_call(p, "truco")
        if k is not None and p["actions"][k][1] == "quiero":
            p["actions"][k][1] = "mazo"
            return True
    return False


def acting_out_of_turn(rs: list[Record], m: Record) -> bool:
    hit = first(rs, lambda r, p: len(p["tricks"]) >= 1 and not p["folded"])
    if hit is None:
        return False
    acts = hit[1]["actions"]
    for k in range(len(acts) - 1):
        both_play = acts[k][1].startswith("play ") and acts[k + 1][1].startswith("play ")
        if both_play and acts[k][0] != acts[k + 1][0]:
            acts[k], acts[k + 1] = acts[k + 1], acts[k]
            return True
    return False


def card_not_held(rs: list[Record], m: Record) -> bool:
    r = rs[0]
    p = r["plays"][0]
    for a in p["actions"]:
        if a[1].startswith("play "):
            other = next(h for s, h in enumerate(r["hands"]) if s != a[0])
            a[1] = f"play {other[0]}"
            return True
    return False


def play_after_the_hand_is_decided(rs: list[Record], m: Record) -> bool:
    """R5: no trick is played once the outcome is decided."""
    for r, p in plays(rs):
        if p["ended"] == "tricks" and len(p["tricks"]) == 2:
            seat = p["tricks"][1]["winner"] or p["tricks"][1]["leader"]
            played = {c for t in p["tricks"] for s, c in t["cards"] if s == seat}
            card = next(c for c in r["hands"][seat] if c not in played)
            p["actions"].append([seat, f"play {card}"])
            return True
    return False


def wrong_stake(rs: list[Record], m: Record) -> bool:
    hit = first(rs, lambda r, p: p["stake"] < 4)
    if hit is None:
        return False
    hit[1]["stake"] += 1
    return True


def refused_truco_scores_the_call(rs: list[Record], m: Record) -> bool:
    """R7: No Quiero gives the caller's team the stake before the call, not the call's."""
    hit = first(rs, lambda r, p: p["ended"] == "no-quiero")
    if hit is None:
        return False
    hit[1]["truco"][1] += 1
    return True


def wrong_ended(rs: list[Record], m: Record) -> bool:
    hit = first(rs, lambda r, p: p["ended"] == "mazo")
    if hit is None:
        return False
    hit[1]["ended"] = "tricks"
    return True


def wrong_tricks_team(rs: list[Record], m: Record) -> bool:
    hit = first(rs, lambda r, p: p["trick_winner"] is not None)
    if hit is None:
        return False
    hit[1]["trick_winner"] = 1 - hit[1]["trick_winner"]
    return True


def folded_not_listed(rs: list[Record], m: Record) -> bool:
    hit = first(rs, lambda r, p: bool(p["folded"]))
    if hit is None:
        return False
    hit[1]["folded"].pop()
    return True


def wrong_hand_points(rs: list[Record], m: Record) -> bool:
    rs[0]["points"][0] += 1
    return True


def wrong_scores(rs: list[Record], m: Record) -> bool:
    rs[0]["scores"][1] += 1
    return True


def wrong_totals(rs: list[Record], m: Record) -> bool:
    rs[0]["totals"][0] += 1
    return True


def wrong_scores_before(rs: list[Record], m: Record) -> bool:
    if len(rs) < 2:
        return False
    rs[1]["scores_before"][0] += 1
    return True


def game_stops_short(rs: list[Record], m: Record) -> bool:
    """R11: the match line closes a game whose last hand leaves no winner."""
    if len(rs) < 2:
        return False
    rs.pop()
    m["deals"] -= 1
    m["totals"] = rs[-1]["totals"]
    return True


def hand_after_the_game_ends(rs: list[Record], m: Record) -> bool:
    """R11: the game ends at the hand that puts a team at the target, ahead."""
    extra = copy.deepcopy(rs[-1])
    extra["deal"] += 1
    extra["scores_before"] = extra["scores"]
    extra["scores"] = [a + b for a, b in zip(extra["scores"], extra["points"], strict=True)]
    extra["totals"] = [extra["scores"][s % 2] for s in range(len(extra["totals"]))]
    rs.append(extra)
    m["deals"] += 1
    return True


def points_against_own_score(rs: list[Record], m: Record) -> bool:
    """docs/results.md: points_against is the other team's score, not the seat's own."""
    m["points_against"] = list(m["totals"])
    return m["totals"][0] != m["totals"][1]


def wrong_ranks(rs: list[Record], m: Record) -> bool:
    m["ranks"] = [3 - x for x in m["ranks"]]
    return True


def wrong_match_totals(rs: list[Record], m: Record) -> bool:
    m["totals"][0] += 1
    return True


def wrong_envidos_won(rs: list[Record], m: Record) -> bool:
    m["envidos_won"] = [x + 1 for x in m["envidos_won"]]
    return True


def fault_dropped(rs: list[Record], m: Record) -> bool:
    r = next((r for r in rs if r["faults"]), None)
    if r is None:
        return False
    r["faults"].pop()
    return True


def undocumented_field(rs: list[Record], m: Record) -> bool:
    rs[0]["plays"][0]["extra"] = 1
    return True


PLANTED: list[tuple[Mutation, str, str]] = [
    (points_against_own_score, "error", "match stats"),
    (wrong_trick_winner, "error", "trick winner R4"),
    (parda_as_a_win, "error", "trick winner R4"),
    (wrong_trick_leader, "error", "trick leader R4"),
    (trick_cards_reordered, "error", "trick R4"),
    (duplicate_card, "error", "hands R1/R3"),
    (card_not_in_the_deck, "error", "hands R1/R3"),
    (wrong_dealer, "error", "dealer R3/R13"),
    (wrong_mano, "error", "mano R3/R13"),
    (duels_not_alternating, "error", "kind R13"),
    (duels_in_the_wrong_order, "error", "play seats R2/R13"),
    (wrong_envido_points, "error", "envido points R8"),
    (falta_refusal_not_capped, "error", "envido points R8"),
    (wrong_envido_result, "error", "envido R8"),
    (wrong_envido_team, "error", "envido winner R8/R9"),
    (wrong_shown_cards, "error", "shown R9"),
    (wrong_declarations, "error", "declarations R9"),
    (false_declaration, "error", "declare R9"),
    (son_buenas_by_the_caller, "error", "declare R9"),
    (declaration_that_does_not_beat, "error", "declare R9"),
    (call_skipping_the_ladder, "error", "truco R7"),
    (raise_by_the_team_that_did_not_accept, "error", "truco R7"),
    (envido_after_trick_one, "error", "envido R8"),
    (envido_raise_outside_the_table, "error", "envido R8"),
    (mazo_out_of_turn, "error", "mazo R10"),
    (acting_out_of_turn, "error", "turn R6"),
    (card_not_held, "error", "play R4"),
    (play_after_the_hand_is_decided, "error", "actions R5"),
    (wrong_stake, "error", "stake R7"),
    (refused_truco_scores_the_call, "error", "truco points R7"),
    (wrong_ended, "error", "ended R5/R7/R10"),
    (wrong_tricks_team, "error", "trick winner R5"),
    (folded_not_listed, "error", "folded R10"),
    (wrong_hand_points, "error", "hand points R11"),
    (wrong_scores, "error", "scores R11"),
    (wrong_totals, "error", "totals"),
    (wrong_scores_before, "error", "scores_before R11"),
    (game_stops_short, "error", "game end R11"),
    (hand_after_the_game_ends, "error", "game end R11"),
    (wrong_ranks, "error", "ranks R12"),
    (wrong_match_totals, "error", "match totals"),
    (wrong_envidos_won, "error", "match stats"),
    (fault_dropped, "doc", "fault tally"),
    (undocumented_field, "doc", "play fields"),
]


@pytest.mark.parametrize(
    ("mutation", "category", "check"), PLANTED, ids=[fn.__name__ for fn, _, _ in PLANTED]
)
def test_a_planted_error_is_named_by_the_oracle(
    logs: dict[str, Log], mutation: Mutation, category: str, check: str
) -> None:
    """The first match (over all runs) where the mutation applies gets it; the oracle,
    shown that match alone, must name the error under ``check``."""
    for log in logs.values():
        for m in log.matches:
            hands = [r for r in log.replays if r["match"] == m["match"]]
            hands, line = copy.deepcopy(hands), copy.deepcopy(m)
            if mutation(hands, line):
                findings = audit(hands, [line])
                assert (category, check) in {(f.category, f.check) for f in findings}, show(
                    findings
                )
                return
    pytest.fail("the mutation found nothing to change in any run")


def test_the_oracle_reads_a_results_directory(logs: dict[str, Log], tmp_path: Path) -> None:
    log = logs["6-seats-to-15"]
    for name, lines in (("replays.jsonl", log.replays), ("matches.jsonl", log.matches)):
        (tmp_path / name).write_text("".join(dumps(x) + "\n" for x in lines), encoding="utf-8")
    assert audit_run(tmp_path) == []
    with (tmp_path / "matches.jsonl").open("a", encoding="utf-8") as f:
        f.write(dumps({**log.matches[0], "ranks": [1] * 6}) + "\n")  # a second, wrong line
    assert {f.check for f in audit_run(tmp_path)} == {"match ids", "ranks R12"}
