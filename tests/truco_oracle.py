"""An independent rules oracle for Truco results logs.

``audit(replays, matches)`` takes the plain JSON of a run's ``replays.jsonl`` and
``matches.jsonl`` lines (``audit_run(directory)`` reads them from a results directory) and
re-derives, hand by hand, what the rulings say every logged field must be: the dealt hands
(the 40-card deck, three cards each, R1/R3), the dealer and mano (R3, and R13's six-seat
alternation of a team hand and a hand of three duels), the legality of every action at its
point (R6: who is asked; R7: the Truco ladder and who may raise; R8: the Envido ladder, Envido
in answer to the first Truco; R9: true declarations that beat the best, *son buenas*; R10:
*al mazo*), every trick's cards, leader and winner or *parda* (R1, R4), how each play ended
and who won its tricks (R5), the stake and the Truco and Envido points (R7, R8 with Falta
Envido and its cap), the hand's points, scores and per-seat totals (R11), where the game
ends (R11) and the ranks (R12), and each match line's totals, ranks and per-seat statistics.
It returns a list of ``Finding`` (the Truf oracle's type):

- ``"error"``: the log contradicts a ruling; ``check`` names it (``"trick winner R4"``).
- ``"doc"``: the data does not have the shape docs/results.md (its Truco section) gives.

Why it is independent: it was written only from the rule text
(shared/seeds/003_61c568949130fec7.txt), the rulings (shared/spec/truco-rulings.md) and the
Truco section of docs/results.md, without reading the engine (arena/games/truco/) or the Truco
bots. It imports nothing from ``arena``: only the game-neutral parts of the Truf oracle,
tests/rules_oracle.py (``Finding``, ``load_jsonl``, the fault columns and the field checks),
which imports nothing from ``arena`` either.
tests/test_truco_oracle.py plays matches and holds the engine's logs to it. When the two
disagree, settle it from the rulings, never by copying the engine.

Readings where the documents leave the log open (each is accepted in every form listed):

- ``tricks`` lists the finished tricks; a trick cut short by No Quiero or *al mazo* is not
  listed (its cards are in ``actions``).
- A trick's ``leader`` when the seat due to lead goes *al mazo* on that turn: that seat, or
  the seat that then played first.
- ``folded`` in the order the seats folded, or sorted.
- ``shown``: any pair (or, under the traditional count without a suited pair, any single
  card) of the winner's dealt cards that makes its envido.
- The limit of tied hands at the target (R11: 10) is not logged; ``audit`` takes it as an
  argument.

Manual use, on a results directory: ``cd tests && python -c "import truco_oracle as o;
print(*o.audit_run('DIR'), sep='\n')"``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from itertools import combinations
from pathlib import Path
from typing import Any, TypeGuard

import rules_oracle
from rules_oracle import COMMON_MATCH_FIELDS, Finding, load_jsonl, place_findings, read_faults

__all__ = ["Finding", "Illegal", "Play", "audit", "audit_run", "legal_at_each_action"]

SUITS = "EBOC"  # swords, clubs, coins, cups
RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
DECK = frozenset(f"{r}{s}" for s in SUITS for r in RANKS)  # R1: 40 cards

# R1: 1E > 1B > 7E > 7O > 3 > 2 > 1O = 1C > 12 > 11 > 10 > 7B = 7C > 6 > 5 > 4
TOP = {"1E": 14, "1B": 13, "7E": 12, "7O": 11}
BY_RANK = {3: 10, 2: 9, 1: 8, 12: 7, 11: 6, 10: 5, 7: 4, 6: 3, 5: 2, 4: 1}

TRUCO_LADDER = ("truco", "retruco", "vale-cuatro")  # R7: to stakes 2, 3, 4
ENVIDO_CALLS = ("envido", "real-envido", "falta-envido")
ACCEPTED = {"envido": 2, "real-envido": 3}  # R8 (Falta Envido: see envido_points)
REFUSED = {"envido": 1, "real-envido": 2, "falta-envido": 1}
# R8: the seed table's sequences, each also with Falta Envido after it, and Falta alone
_BASE: tuple[tuple[str, ...], ...] = (
    ("envido",),
    ("real-envido",),
    ("envido", "envido"),
    ("envido", "real-envido"),
    ("real-envido", "real-envido"),
    ("envido", "envido", "real-envido"),
)
ENVIDO_SEQUENCES = frozenset({*_BASE, *((*b, "falta-envido") for b in _BASE), ("falta-envido",)})
ENDED = ("tricks", "no-quiero", "mazo")
TIED_HANDS = 10  # R11


def power(card: str) -> int:
    """R1: a card's strength in a trick; equal numbers tie."""
    return TOP.get(card) or BY_RANK[int(card[:-1])]


def envido_value(card: str) -> int:
    """R9: 1..7 face value, 10/11/12 zero."""
    r = int(card[:-1])
    return r if r <= 7 else 0


def envido_score(cards: list[str], count: str) -> int:
    """R9: the best two cards' sum, plus 20 when of one suit (the seed's count); the
    traditional count takes the highest single value when no two share a suit."""
    suited = [
        20 + envido_value(a) + envido_value(b) for a, b in combinations(cards, 2) if a[-1] == b[-1]
    ]
    if count == "traditional":
        return max(suited) if suited else max(envido_value(c) for c in cards)
    return max(
        envido_value(a) + envido_value(b) + (20 if a[-1] == b[-1] else 0)
        for a, b in combinations(cards, 2)
    )


def shows_score(shown: list[str], dealt: list[str], score: int, count: str) -> bool:
    """Are ``shown`` cards of ``dealt`` that make the envido ``score`` (R9)?"""
    if len(set(shown)) != len(shown) or not set(shown) <= set(dealt):
        return False
    if len(shown) == 2:
        a, b = shown
        if a[-1] == b[-1]:
            return 20 + envido_value(a) + envido_value(b) == score
        return count == "seed" and envido_value(a) + envido_value(b) == score
    if len(shown) == 1 and count == "traditional":
        return envido_value(shown[0]) == score and score < 20
    return False


def falta_value(target: int, scores_before: list[int]) -> int:
    """R8: max(1, target minus the higher score at the start of the hand)."""
    return max(1, target - max(scores_before))


def envido_points(calls: list[str], accepted: bool, falta: int) -> int:
    """R8: accepted, the sum of the calls, Falta Envido replacing it; refused, the calls
    before the last plus the last's refusal value, a refused Falta capped at ``falta``."""
    if accepted:
        return falta if calls[-1] == "falta-envido" else sum(ACCEPTED[c] for c in calls)
    refused = sum(ACCEPTED[c] for c in calls[:-1]) + REFUSED[calls[-1]]
    return min(refused, falta) if calls[-1] == "falta-envido" else refused


def hand_outcome(results: list[int | None], mano_team: int) -> int | None:
    """R5: the team that wins the tricks so far (each trick's winning team, None for a
    parda), or None while undecided."""
    for team in (0, 1):
        if results.count(team) >= 2:
            return team
    if len(results) == 2 and results[0] is None:
        return results[1]  # trick 1 tied: the next trick that is not tied decides
    if len(results) == 3:  # trick 3 decides what is still open, else mano's team
        return results[2] if results[2] is not None else mano_team
    return None


def play_orders(dealer: int, n: int, kind: str) -> list[list[int]]:
    """Each play's seats in play order from its mano: the whole table from dealer + 1
    (R3), or R13's three duels, from the pair holding dealer + 1, + 2, + 3."""
    if kind == "team":
        return [[(dealer + 1 + k) % n for k in range(n)]]
    return [[(dealer + k) % n, (dealer + k + 3) % n] for k in (1, 2, 3)]


def legal_at_each_action(record: dict[str, Any]) -> list[tuple[int, list[str]]]:
    """For a well-formed hand record, the asked seat and the actions the rulings allow it
    at each logged action, in order (all plays); raises ``Illegal`` at an illegal action.
    A test compares this with what the engine offered."""
    n, count = len(record["hands"]), record["envido_count"]
    dealt = {s: list(h) for s, h in enumerate(record["hands"])}
    out = []
    for order, p in zip(
        play_orders(record["dealer"], n, record["kind"]), record["plays"], strict=True
    ):
        sim = Play(order, dealt, record["target"], record["scores_before"], count, Counter())
        for seat, text in p["actions"]:
            out.append((sim.asked()[0], sim.legal()))
            sim.apply(seat, text)
    return out


def fault_decisions(r: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """A hand line's faults by the decision they locate (results.md, fault records); a
    fault without one (an older record) locates nothing."""
    out = {}
    for f in r.get("faults") or ():
        if isinstance(f, dict) and is_int(f.get("decision")):
            out[f["decision"]] = f
    return out


def is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def is_ints(v: object, n: int) -> TypeGuard[list[int]]:
    return isinstance(v, list) and len(v) == n and all(is_int(x) for x in v)


# ---------------------------------------------------------------- format (results.md)

REPLAY_FIELDS: dict[str, type | tuple[type, ...]] = {
    "schema": int,
    "game": str,
    "match": str,
    "deal": int,
    "seats": list,
    "target": int,
    "envido_count": str,
    "teams": list,
    "dealer": int,
    "mano": int,
    "kind": str,
    "source": str,
    "hands": list,
    "scores_before": list,
    "plays": list,
    "points": list,
    "scores": list,
    "totals": list,
    "faults": list,
}
PLAY_FIELDS: dict[str, type | tuple[type, ...]] = {
    "seats": list,
    "mano": int,
    "actions": list,
    "tricks": list,
    "ended": str,
    "trick_winner": (int, type(None)),
    "stake": int,
    "truco": list,
    "envido": (dict, type(None)),
    "folded": list,
    "points": list,
}
ENVIDO_FIELDS = {"calls", "result", "declarations", "team", "points", "shown"}
DUPLICATE_FIELDS = ("block", "rotation")  # results.md: added by --duplicate
MATCH_FIELDS: dict[str, type | tuple[type, ...]] = {
    **COMMON_MATCH_FIELDS,
    "points_against": list,
    "envido_points": list,
    "truco_points": list,
    "envidos_won": list,
    "truco_refused": list,
}


class Illegal(Exception):
    """An action the rulings do not allow where it stands; ``check`` names the ruling."""

    def __init__(self, check: str, detail: str) -> None:
        super().__init__(detail)
        self.check = check


# ------------------------------------------------------------------ one play


class Play:
    """One play of tricks (a team hand, or one duel of R13) re-derived from its actions."""

    def __init__(
        self,
        order: list[int],
        dealt: dict[int, list[str]],
        target: int,
        scores_before: list[int],
        count: str,
        coverage: Counter[str],
    ) -> None:
        self.order = order  # play order from mano (R2, R13)
        self.n = len(order)
        self.dealt = dealt
        self.count = count
        self.falta = falta_value(target, scores_before)
        self.cover = coverage
        self.remaining = {s: set(dealt[s]) for s in order}
        self.folded: list[int] = []
        self.tricks: list[dict[str, Any]] = []  # finished: leader, due, cards, winner
        self.current: list[tuple[int, str]] = []
        self.due = order[0]  # the seat due to lead the current trick (R4); mano leads trick 1
        self.turn = order[0]
        self.stake = 1  # R7
        self.raiser: int | None = None  # the team that may raise next; None: either
        self.truco_call: tuple[int, int] | None = None  # (stake called, caller) unanswered
        self.refused_by: int | None = None
        self.calls: list[str] = []  # R8
        self.callers: list[int] = []
        self.envido_open = False  # called, not yet answered
        self.declarer: int | None = None  # R9: the seat asked to declare
        self.declarations: list[list[Any]] = []
        self.passed: set[int] = set()  # seats passed over while their team was best
        self.best: tuple[int, int] | None = None  # (score, seat)
        self.envido: dict[str, Any] | None = None  # the settled or refused Envido
        self.ended: str | None = None
        self.last: tuple[str, str] | None = None  # (what was asked, the answer)
        self.trick_winner: int | None = None
        self.truco: list[int] | None = None  # [team, points]

    # -------------------------------------------------------------- seats

    def after(self, seat: int, k: int = 1) -> int:
        return self.order[(self.order.index(seat) + k) % self.n]

    def closer_to_mano(self, a: int, b: int) -> bool:
        return self.order.index(a) < self.order.index(b)

    def answerer(self, caller: int) -> int:
        """R6: the first seat of the called team that has not folded, from the caller."""
        for k in range(1, self.n):
            s = self.after(caller, k)
            if s % 2 != caller % 2:
                if s not in self.folded:
                    return s
                self.cover["the answer passes over a folded seat"] += 1
        raise Illegal("answer R6", f"no seat of the team called by seat {caller} can answer")

    def asked(self) -> tuple[int, str]:
        """R6: the seat asked now and what for (turn, envido, declare, truco)."""
        if self.envido_open:
            return self.answerer(self.callers[-1]), "envido"  # R8: Envido comes first
        if self.declarer is not None:
            return self.declarer, "declare"
        if self.truco_call is not None:
            return self.answerer(self.truco_call[1]), "truco"
        return self.turn, "turn"

    # -------------------------------------------------------------- legality

    def legal(self) -> list[str]:
        """The actions the rulings allow the asked seat now, in their text form."""
        seat, kind = self.asked()
        team = seat % 2
        if kind == "turn":  # R6: play, or first a call (R7, R8) or al mazo (R10)
            out = [f"play {c}" for c in sorted(self.remaining[seat])]
            if self.stake < 4 and self.raiser in (None, team):  # R7: the accepting team raises
                out.append(f"call {TRUCO_LADDER[self.stake - 1]}")
            if not self.calls and not self.tricks:  # R8: one Envido, before one's trick-1 card
                out += [f"call {c}" for c in ENVIDO_CALLS]
            return [*out, "mazo"]
        if kind == "truco":  # R7: accept, refuse or raise
            assert self.truco_call is not None
            called = self.truco_call[0]
            out = ["quiero", "no-quiero"]
            if called < 4:
                out.append(f"call {TRUCO_LADDER[called - 1]}")
            # R8: Envido instead of answering the first Truco call, while trick 1 is open and
            # a seat of the answering team has neither played nor folded
            played = {s for s, _ in self.current} | set(self.folded)
            free = any(s % 2 == team and s not in played for s in self.order)
            if called == 2 and not self.calls and not self.tricks and free:
                out += [f"call {c}" for c in ENVIDO_CALLS]
            return out
        if kind == "envido":  # R8: accept, refuse, or a raise the seed's table allows
            raises = [c for c in ENVIDO_CALLS if (*self.calls, c) in ENVIDO_SEQUENCES]
            return ["quiero", "no-quiero", *(f"call {c}" for c in raises)]
        # R9: the true score if it beats the best (the last caller must declare), or son buenas
        score = envido_score(self.dealt[seat], self.count)
        if self.best is None:
            return [f"declare {score}"]
        best, holder = self.best
        beats = score > best or (score == best and self.closer_to_mano(seat, holder))
        return [f"declare {score}", "son-buenas"] if beats else ["son-buenas"]

    def fallback(self) -> str:
        """The documented fallback of the asked seat now (docs/rules.md, Truco house choice
        2): its weakest card on its turn (R1 order, ties by suit E, B, O, C), Quiero to a
        Truco or Envido call, its true envido when that is a legal declaration, else son
        buenas. Never a call, never al mazo."""
        seat, kind = self.asked()
        if kind == "turn":
            suits = "EBOC"
            card = min(self.remaining[seat], key=lambda c: (power(c), suits.index(c[-1])))
            return f"play {card}"
        if kind in ("truco", "envido"):
            return "quiero"
        legal = self.legal()
        return legal[0] if legal[0].startswith("declare") else "son-buenas"

    @staticmethod
    def check_of(kind: str, text: str) -> str:
        """The ruling an illegal ``text`` breaks, asked for ``kind``."""
        word, _, arg = text.partition(" ")
        if word == "call" and arg in TRUCO_LADDER:
            return "truco R7"
        if word == "call" and arg in ENVIDO_CALLS:
            return "envido R8"
        if text in ("quiero", "no-quiero") and kind in ("truco", "envido"):
            return "truco R7" if kind == "truco" else "envido R8"
        known = {"play": "play R4", "declare": "declare R9", "son-buenas": "declare R9"}
        return {"mazo": "mazo R10", **known}.get(word, "actions R6")

    # -------------------------------------------------------------- actions

    def apply(self, seat: object, text: object) -> None:
        if self.ended is not None:
            raise Illegal("actions R5", f"action {text!r} after the play ended ({self.ended})")
        if not is_int(seat) or not isinstance(text, str):
            raise Illegal("actions R6", f"action entry [{seat!r}, {text!r}] is not [seat, text]")
        assert isinstance(seat, int)
        want, kind = self.asked()
        if seat != want:
            raise Illegal("turn R6", f"seat {seat} acted ({text!r}) but seat {want} is asked")
        legal = self.legal()
        if text not in legal:
            raise Illegal(
                self.check_of(kind, text),
                f"seat {seat} ({kind}): {text!r} is not legal; legal: {', '.join(legal)}",
            )
        word, _, arg = text.partition(" ")
        last, self.last = self.last, (kind, text)
        if kind == "turn" and word == "call":
            if arg in ("retruco", "vale-cuatro") and last == ("truco", "quiero"):
                self.cover["a raise at the next decision after accepting"] += 1
            if arg in ENVIDO_CALLS and self.stake > 1:
                self.cover["envido on one's turn after a truco was accepted"] += 1
        if kind == "turn":
            self.on_turn(seat, word, arg)
        elif kind == "truco":
            self.answer_truco(seat, word, arg)
        elif kind == "envido":
            self.answer_envido(seat, word, arg)
        else:
            self.declare(seat, word)

    def on_turn(self, seat: int, word: str, arg: str) -> None:
        if word == "play":
            self.remaining[seat].discard(arg)
            self.current.append((seat, arg))
            self.next_turn(seat)
        elif word == "mazo":
            self.fold(seat)
        elif arg in TRUCO_LADDER:
            self.cover[f"call {arg}"] += 1
            self.truco_call = (self.stake + 1, seat)
        else:
            self.calls, self.callers, self.envido_open = [arg], [seat], True

    def next_turn(self, seat: int) -> None:
        """R4/R10: the next seat that has neither played in this trick nor folded plays;
        when there is none the trick is over."""
        played = {s for s, _ in self.current}
        for k in range(1, self.n):
            s = self.after(seat, k)
            if s not in played and s not in self.folded:
                self.turn = s
                return
        self.close_trick()

    def fold(self, seat: int) -> None:
        """R10: the seat takes no further part; a team all folded loses the hand."""
        self.folded.append(seat)
        self.cover["al mazo"] += 1
        team = seat % 2
        if all(s in self.folded for s in self.order if s % 2 == team):
            self.end("mazo", [1 - team, self.stake])
            return
        self.cover["al mazo, partners play on"] += 1
        if not self.current:
            self.cover["leader went al mazo"] += 1
        self.next_turn(seat)

    def close_trick(self) -> None:
        """R4: the highest card wins; held by both teams it is a parda; else the first seat
        of the holding team that played it. R5 then says whether the play is decided."""
        top = max(power(c) for _, c in self.current)
        holders = [s for s, c in self.current if power(c) == top]
        winner = None if len({s % 2 for s in holders}) == 2 else holders[0]
        number = len(self.tricks) + 1
        if winner is None:
            self.cover["parda in trick 1" if number == 1 else "parda in a later trick"] += 1
        self.tricks.append(
            {"leader": self.current[0][0], "due": self.due, "cards": self.current, "winner": winner}
        )
        lead = winner if winner is not None else self.current[0][0]
        self.current = []
        results = [t["winner"] % 2 if t["winner"] is not None else None for t in self.tricks]
        outcome = hand_outcome(results, self.order[0] % 2)
        if outcome is not None:
            if len(results) == 3 and results[2] is None and results.count(outcome) < 2:
                self.cover["undecided after trick 3: mano's team"] += 1
            self.trick_winner = outcome
            self.end("tricks", [outcome, self.stake])
            return
        while lead in self.folded:  # R10: leads pass over folded seats
            lead = self.after(lead)
        self.due = self.turn = lead

    def end(self, how: str, truco: list[int]) -> None:
        self.ended, self.truco = how, truco

    def answer_truco(self, seat: int, word: str, arg: str) -> None:
        assert self.truco_call is not None
        called, caller = self.truco_call
        if word == "quiero":
            self.stake, self.raiser, self.truco_call = called, seat % 2, None
        elif word == "no-quiero":  # R7: the caller's team scores the stake before the call
            self.refused_by = caller % 2
            self.truco_call = None
            self.cover[f"{TRUCO_LADDER[called - 2]} refused"] += 1
            self.end("no-quiero", [caller % 2, called - 1])
        elif arg in TRUCO_LADDER:  # R7: a raise accepts the call below it
            self.cover[f"call {arg}"] += 1
            self.stake, self.raiser = called, seat % 2
            self.truco_call = (called + 1, seat)
        else:  # R8: Envido first; the Truco call stays to be answered after it
            self.cover["envido in answer to truco"] += 1
            self.calls, self.callers, self.envido_open = [arg], [seat], True

    def answer_envido(self, seat: int, word: str, arg: str) -> None:
        self.envido_open = word == "call"
        if word == "quiero":
            self.declarer = self.callers[-1]  # R9: the last caller declares first
        elif word == "no-quiero":
            team = self.callers[-1] % 2
            self.settle("refused", team, envido_points(self.calls, False, self.falta), None)
        else:
            self.calls.append(arg)
            self.callers.append(seat)

    def declare(self, seat: int, word: str) -> None:
        """R9: record the declaration, then ask the next seat round from the speaker that
        has not spoken, has not folded and whose team is not best; none left: settled."""
        if word == "son-buenas":
            self.cover["son buenas"] += 1
            self.declarations.append([seat, None])
        else:
            score = envido_score(self.dealt[seat], self.count)
            if self.best is not None:
                self.cover["a later declaration beats the best"] += 1
                if score == self.best[0]:
                    self.cover["an equal envido, closer to mano, beats the best"] += 1
            if seat in self.passed:
                self.cover["a seat passed over while its team was best declares"] += 1
            self.best = (score, seat)
            self.declarations.append([seat, score])
        assert self.best is not None
        best_team = self.best[1] % 2
        spoken = {s for s, _ in self.declarations}
        self.declarer = None
        for k in range(1, self.n):
            s = self.after(seat, k)
            if s in spoken:
                continue
            if s in self.folded:
                self.cover["a folded seat takes no part in the envido"] += 1
            elif s % 2 == best_team:
                self.passed.add(s)
            else:
                self.declarer = s
                return
        winner = self.best[1]
        points = envido_points(self.calls, True, self.falta)
        self.settle("settled", winner % 2, points, winner)

    def settle(self, result: str, team: int, points: int, winner: int | None) -> None:
        seq = " ".join(self.calls)
        self.cover[f"envido calls: {seq}"] += 1
        self.cover[f"envido {result}"] += 1
        if self.calls[-1] == "falta-envido":
            self.cover[f"falta envido {result}"] += 1
            full = envido_points(self.calls, result == "settled", 10**6)
            if result == "refused" and full > points:
                self.cover["refused falta envido capped"] += 1
        if self.truco_call is not None:
            self.cover["truco answered after the envido"] += 1
        self.envido = {
            "calls": list(self.calls),
            "result": result,
            "declarations": self.declarations,
            "team": team,
            "points": points,
            "winner": winner,
        }

    # -------------------------------------------------------------- the result

    def points(self) -> list[int]:
        pts = [0, 0]
        if self.truco is not None:
            pts[self.truco[0]] += self.truco[1]
        if self.envido is not None:
            pts[self.envido["team"]] += self.envido["points"]
        return pts


# ------------------------------------------------------------------ the audit


class _Audit(rules_oracle._Audit):
    """The findings and coverage of one audit; one instance per ``audit`` call. The Truf
    oracle's base gives the field checks (``schema``) against results.md's tables."""

    def __init__(self, coverage: Counter[str], tied_hands: int) -> None:
        super().__init__(coverage)
        self.cover = coverage
        self.tied_hands = tied_hands

    def error(self, match: object, deal: object, check: str, detail: str) -> None:
        self.findings.append(Finding("error", _str(match), _int(deal), check, detail))

    def doc(self, match: object, deal: object, check: str, detail: str) -> None:
        self.findings.append(Finding("doc", _str(match), _int(deal), check, detail))

    # -------------------------------------------------------------- a match

    def audit_match(self, m: dict[str, Any], lines: list[dict[str, Any]]) -> None:
        mid = m.get("match")
        self.schema(m, MATCH_FIELDS, "match", extra_ok=DUPLICATE_FIELDS)
        names = m.get("seats")
        if not (isinstance(names, list) and len(names) in (2, 4, 6)):
            self.error(mid, None, "seats R2", f"match seats {names!r}: not 2, 4 or 6 seats")
            return
        n = len(names)
        teams = [list(range(0, n, 2)), list(range(1, n, 2))]  # R2
        if m.get("teams") != teams:
            self.error(mid, None, "teams R2", f"teams {m.get('teams')!r}, expected {teams}")
        if m.get("game") != "truco" or m.get("schema") != 1:
            self.doc(mid, None, "match fields", f"game/schema {m.get('game')!r}/{m.get('schema')}")
        hands = sorted(lines, key=lambda r: r["deal"] if is_int(r.get("deal")) else 0)
        numbers = [r.get("deal") for r in hands]
        if numbers != list(range(1, len(hands) + 1)):
            self.error(mid, None, "hand numbers", f"hands numbered {numbers}")
        if m.get("deals") != len(hands):
            self.error(mid, None, "match stats", f"deals {m.get('deals')!r}, {len(hands)} hands")

        prev: dict[str, Any] | None = None
        stats = {k: [0, 0] for k in ("envido_points", "truco_points", "envidos_won")}
        stats["truco_refused"] = [0, 0]
        tally = {col: [0] * n for col in ("timeout", "illegal", "disconnect")}
        disqualified = [False] * n
        tied = 0
        winner: int | None = None  # the winning team, -1 for a shared game (R11)
        target = count = None
        for r in hands:
            dn = r.get("deal")
            if winner is not None:
                self.error(mid, dn, "game end R11", f"hand {dn} played after the game ended")
                break
            if r.get("seats") != names:
                self.error(mid, dn, "seats", f"replay seats {r.get('seats')!r} != {names!r}")
            target = target if target is not None else r.get("target")
            if r.get("target") != target or target not in (30, 15):
                self.error(mid, dn, "target R11", f"target {r.get('target')!r} (match {target})")
            count = count if count is not None else r.get("envido_count")
            if r.get("envido_count") != count:
                self.error(mid, dn, "envido count R9", f"{r.get('envido_count')!r}, was {count!r}")
            self.faults(r, n, tally, disqualified)
            try:
                done = self.hand(r, prev, n, stats)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
                self.doc(mid, dn, "malformed", f"{type(e).__name__}: {e}")
                return
            if done is None:
                return
            scores = done
            # R11: a team at or above the target with more points wins; equal totals at or
            # above it play another hand, up to ``tied_hands`` in a row (then both rank 1)
            top = max(scores)
            if isinstance(target, int) and top >= target:
                if scores[0] != scores[1]:
                    winner = scores.index(top)
                    self.game_end_cover(r, winner, target)
                else:
                    tied += 1
                    self.cover["equal scores at the target"] += 1
                    if tied >= self.tied_hands:
                        winner = -1
            prev = r
        if not hands:
            self.error(mid, None, "game end R11", "a match line without hands")
            return
        if winner is None:
            self.error(
                mid, None, "game end R11", f"the last hand leaves {prev and prev.get('scores')!r}"
            )
            return
        ranks = [1] * n if winner == -1 else [1 if s % 2 == winner else 2 for s in range(n)]
        for finding in place_findings(m, ranks):  # R12, then the places (results.md)
            self.error(mid, None, "ranks R12", finding)
        last = hands[-1]
        if m.get("totals") != last.get("totals"):
            self.error(
                mid, None, "match totals", f"{m.get('totals')!r} != last hand's {last['totals']!r}"
            )
        # docs/results.md: points_against is the other team's final score
        against = [last.get("scores", [None, None])[1 - s % 2] for s in range(n)]
        if m.get("points_against") != against:
            self.error(
                mid,
                None,
                "match stats",
                f"points_against {m.get('points_against')!r}, "
                f"the other team's final score is {against}",
            )
        for key, per_team in stats.items():
            want = [per_team[s % 2] for s in range(n)]
            if m.get(key) != want:
                self.error(mid, None, "match stats", f"{key} {m.get(key)!r}, computed {want}")
        self.match_faults(mid, m, tally, disqualified)
        before, points = [0] * n, []
        for line in lines:  # the doc: each hand's points per seat, from the hands' totals
            totals = line.get("totals") or before
            points.append([totals[s] - before[s] for s in range(n)])
            before = list(totals)
        if m.get("deal_points") != points:
            self.error(mid, None, "match stats", f"deal_points {m.get('deal_points')!r}")
        forfeit = m.get("forfeit")
        if not (isinstance(forfeit, list) and len(forfeit) == n):
            self.doc(mid, None, "match fields", f"forfeit {forfeit!r}")

    def game_end_cover(self, r: dict[str, Any], winner: int, target: int) -> None:
        """Coverage: did the winner's Envido points of the last hand decide the game?"""
        envido = [0, 0]
        for p in r["plays"]:
            e = p.get("envido")
            if e:
                envido[e["team"]] += e["points"]
        without = list(r["scores"])
        without[winner] -= envido[winner]
        if without[winner] < target or without[winner] <= without[1 - winner]:
            self.cover["game ended by an envido"] += 1

    def faults(
        self, r: dict[str, Any], n: int, tally: dict[str, list[int]], dq: list[bool]
    ) -> None:
        mid, dn = r.get("match"), r.get("deal")
        findings, read, _ = read_faults(r.get("faults"), dn, n, tally, dq)
        for what, message in findings:
            self.doc(mid, dn, f"fault {what}", message)
        self.cover["faults"] += read

    # -------------------------------------------------------------- a hand

    def hand(
        self, r: dict[str, Any], prev: dict[str, Any] | None, n: int, stats: dict[str, list[int]]
    ) -> list[int] | None:
        """Check one hand's line; return its team scores (the logged ones when they are
        well formed, so that one wrong hand is reported once), or None to stop."""
        mid, dn = r.get("match"), r.get("deal")

        def err(check: str, detail: str) -> None:
            self.error(mid, dn, check, detail)

        self.schema(r, REPLAY_FIELDS, "replay", extra_ok=DUPLICATE_FIELDS)
        if r.get("game") != "truco" or r.get("schema") != 1:
            self.doc(mid, dn, "replay fields", f"game/schema {r.get('game')!r}/{r.get('schema')}")
        count = r.get("envido_count")
        if count not in ("seed", "traditional"):
            err("envido count R9", f"envido_count {count!r}")
            count = "seed"
        teams = [list(range(0, n, 2)), list(range(1, n, 2))]
        if r.get("teams") != teams:
            err("teams R2", f"teams {r.get('teams')!r}, expected {teams}")

        # ---- the deal (R1, R3)
        dealt = r["hands"]
        ok = isinstance(dealt, list) and len(dealt) == n
        ok = ok and all(isinstance(h, list) and len(h) == 3 for h in dealt)
        cards = [c for h in dealt for c in h] if ok else []
        if not ok or not set(cards) <= DECK or len(set(cards)) != len(cards):
            err("hands R1/R3", f"not {n} hands of 3 distinct cards of the 40-card deck: {dealt!r}")
            return None

        # ---- dealer, mano, kind (R3, R13)
        dealer, mano, kind = r.get("dealer"), r.get("mano"), r.get("kind")
        if not (is_int(dealer) and 0 <= dealer < n):
            err("dealer R3/R13", f"dealer {dealer!r} is not a seat")
            return None
        want_kind = (
            "duels" if n == 6 and prev is not None and prev.get("kind") == "team" else "team"
        )
        if prev is not None:
            pd = prev["dealer"]
            want_dealer = pd if want_kind == "duels" else (pd + 1) % n  # R3: mano deals next
            if dealer != want_dealer:
                err(
                    "dealer R3/R13",
                    f"dealer {dealer}, expected {want_dealer} (previous dealer {pd}, "
                    f"{prev.get('kind')} hand)",
                )
        if kind != want_kind:
            err("kind R13", f"kind {kind!r}, expected {want_kind!r}")
            kind = want_kind
        if kind == "duels":
            self.cover["six-seat duel hand"] += 1
        if mano != (dealer + 1) % n:
            err("mano R3/R13", f"mano {mano!r}, expected {(dealer + 1) % n} (dealer {dealer})")

        # ---- scores before (R11)
        before = prev["scores"] if prev is not None else [0, 0]
        if r.get("scores_before") != before:
            err("scores_before R11", f"{r.get('scores_before')!r}, previous scores {before}")
        if not is_ints(before, 2):
            return None
        target = r["target"] if r.get("target") in (30, 15) else 30

        # ---- the plays (R13: three duels from dealer + 1, + 2, + 3; mano first after dealer)
        orders = play_orders(dealer, n, kind)
        plays = r["plays"]
        if not isinstance(plays, list) or len(plays) != len(orders):
            err("plays R13", f"{len(plays) if isinstance(plays, list) else plays!r} plays")
            return None
        hand_dealt = {s: list(h) for s, h in enumerate(dealt)}
        total = [0, 0]
        located = fault_decisions(r)
        first = 1  # results.md: a fault's decision counts the plays' actions, in order
        for i, (order, p) in enumerate(zip(orders, plays, strict=True)):
            pts = self.play(mid, dn, i + 1, order, p, hand_dealt, target, before, count, stats,
                            located=located, first=first)  # fmt: skip
            total = [total[0] + pts[0], total[1] + pts[1]]
            actions = p.get("actions") if isinstance(p, dict) else None
            first += len(actions) if isinstance(actions, list) else 0
        for decision, fault in sorted(located.items()):
            if decision >= first:
                err("fault location", f"fault {fault!r} names decision {decision} of {first - 1}")

        # ---- points, scores, totals (R11)
        if r.get("points") != total:
            err("hand points R11", f"points {r.get('points')!r}, the plays add up to {total}")
        scores = [before[0] + total[0], before[1] + total[1]]
        if r.get("scores") != scores:
            err("scores R11", f"scores {r.get('scores')!r}, computed {before} + {total} = {scores}")
        logged = r.get("scores")
        scores = logged if is_ints(logged, 2) else scores
        totals = [scores[s % 2] for s in range(n)]
        if r.get("totals") != totals:
            err("totals", f"totals {r.get('totals')!r}, expected {totals} from scores {scores}")
        return scores

    def play(
        self,
        mid: object,
        dn: object,
        number: int,
        order: list[int],
        p: dict[str, Any],
        dealt: dict[int, list[str]],
        target: int,
        before: list[int],
        count: str,
        stats: dict[str, list[int]],
        *,
        located: dict[int, dict[str, Any]] | None = None,
        first: int = 1,
    ) -> list[int]:
        """Check one play (its first action is the hand's decision ``first``; a fault
        ``located`` at one of its decisions must name the action logged there, and that
        must be the documented fallback); return its points (the oracle's when its actions
        replay, else the logged ones, so that one illegal action does not mislead the
        hand's checks)."""
        where = f"play {number}: "

        def err(check: str, detail: str) -> None:
            self.error(mid, dn, check, where + detail)

        if not isinstance(p, dict):
            err("plays R13", f"play is {p!r}")
            return [0, 0]
        where_p = {"match": str, "deal": int}  # the play's hand, for the finding
        self.schema({"match": mid, "deal": dn, **p}, {**where_p, **PLAY_FIELDS}, "play")
        if p.get("seats") != order:
            err("play seats R2/R13", f"seats {p.get('seats')!r}, expected {order}")
        if p.get("mano") != order[0]:
            err("play mano R3/R13", f"mano {p.get('mano')!r}, expected {order[0]}")
        sim = Play(order, dealt, target, before, count, self.cover)
        actions = p.get("actions")
        step = 0
        try:
            for entry in actions if isinstance(actions, list) else [None]:
                step += 1
                if not (isinstance(entry, list) and len(entry) == 2):
                    raise Illegal("actions R6", f"action entry {entry!r} is not [seat, text]")
                fault = (located or {}).get(first + step - 1)
                if fault is not None:
                    self.fallback_played(err, step, fault, entry, sim)
                sim.apply(entry[0], entry[1])
            if sim.ended is None:
                seat, what = sim.asked()
                raise Illegal(
                    "actions R5", f"the actions stop before the play ends (seat {seat}: {what})"
                )
        except Illegal as e:
            err(e.check, f"action {step}: {e}")
            logged = p.get("points")
            return logged if is_ints(logged, 2) else [0, 0]

        # ---- tricks (R4)
        tricks = p.get("tricks")
        if not isinstance(tricks, list) or len(tricks) != len(sim.tricks):
            err(
                "tricks R4/R5",
                f"{len(tricks) if isinstance(tricks, list) else tricks!r} tricks "
                f"logged, {len(sim.tricks)} played",
            )
        else:
            for k, (t, want) in enumerate(zip(tricks, sim.tricks, strict=True), 1):
                self.trick(err, k, t, want)

        # ---- how it ended (R5, R7, R10)
        if p.get("ended") != sim.ended:
            err("ended R5/R7/R10", f"ended {p.get('ended')!r}, expected {sim.ended!r}")
        if p.get("trick_winner") != sim.trick_winner:
            err(
                "trick winner R5",
                f"trick_winner {p.get('trick_winner')!r}, expected {sim.trick_winner!r}",
            )
        if p.get("stake") != sim.stake:
            err("stake R7", f"stake {p.get('stake')!r}, expected {sim.stake}")
        if p.get("truco") != sim.truco:
            err("truco points R7", f"truco {p.get('truco')!r}, expected {sim.truco}")
        folded = p.get("folded")
        if folded != sim.folded and folded != sorted(sim.folded):
            err("folded R10", f"folded {folded!r}, expected {sim.folded}")
        self.envido(err, p.get("envido"), sim, dealt, count)
        pts = sim.points()
        if p.get("points") != pts:
            err("play points R11", f"points {p.get('points')!r}, expected {pts}")

        # ---- the match line's statistics (results.md)
        assert sim.truco is not None
        stats["truco_points"][sim.truco[0]] += sim.truco[1]
        if sim.refused_by is not None:
            stats["truco_refused"][sim.refused_by] += 1
        if sim.envido is not None:
            stats["envido_points"][sim.envido["team"]] += sim.envido["points"]
            stats["envidos_won"][sim.envido["team"]] += 1
        return pts

    def fallback_played(
        self, err: Any, step: int, fault: dict[str, Any], entry: list[Any], sim: Play
    ) -> None:
        """A fault located at this action (results.md, fault records): the seat that acted,
        the action it names as played, and the documented fallback agree."""
        self.cover["fault located"] += 1
        want = sim.fallback()
        if fault.get("seat") != entry[0] or fault.get("played") != entry[1]:
            err("fault location", f"action {step}: the log has {entry!r}, the fault {fault!r}")
        elif entry[1] != want:
            err("fallback R6", f"action {step}: fallback {entry[1]!r}, documented {want!r}")
        elif want == "quiero":
            self.cover["fallback quiero"] += 1

    def trick(self, err: Any, k: int, t: object, want: dict[str, Any]) -> None:
        if not (isinstance(t, dict) and set(t) == {"leader", "cards", "winner"}):
            self.findings.append(Finding("doc", None, None, "trick fields", f"trick {k}: {t!r}"))
            err("trick R4", f"trick {k} is {t!r}")
            return
        cards = [list(c) for c in want["cards"]]
        if t["cards"] != cards:
            err("trick R4", f"trick {k} cards {t['cards']!r}, played {cards}")
        if t["leader"] not in (want["leader"], want["due"]):
            err("trick leader R4", f"trick {k} leader {t['leader']!r}, expected {want['leader']}")
        if t["winner"] != want["winner"]:
            err(
                "trick winner R4",
                f"trick {k} winner {t['winner']!r}, expected {want['winner']!r} ({cards})",
            )

    def envido(
        self, err: Any, logged: object, sim: Play, dealt: dict[int, list[str]], count: str
    ) -> None:
        want = sim.envido
        if want is None:
            if logged is not None:
                err("envido R8", f"envido {logged!r}, but no Envido was called")
            return
        if not (isinstance(logged, dict) and set(logged) == ENVIDO_FIELDS):
            err("envido R8", f"envido {logged!r}, expected the fields {sorted(ENVIDO_FIELDS)}")
            return
        for key, check in (
            ("calls", "envido R8"),
            ("result", "envido R8"),
            ("declarations", "declarations R9"),
            ("team", "envido winner R8/R9"),
            ("points", "envido points R8"),
        ):
            if logged[key] != want[key]:
                err(check, f"envido {key} {logged[key]!r}, expected {want[key]!r}")
        shown, winner = logged["shown"], want["winner"]
        if winner is None:
            if shown is not None:
                err("shown R9", f"shown {shown!r} for a refused Envido")
        elif not (
            isinstance(shown, list)
            and len(shown) == 2
            and shown[0] == winner
            and isinstance(shown[1], list)
            and shows_score(shown[1], dealt[winner], envido_score(dealt[winner], count), count)
        ):
            err("shown R9", f"shown {shown!r}; the winner is seat {winner}, dealt {dealt[winner]}")
        elif len(shown[1]) == 1:
            self.cover["shown: one card (traditional count, no suited pair)"] += 1


def _str(v: object) -> str | None:
    return v if isinstance(v, str) else None


def _int(v: object) -> int | None:
    return v if is_int(v) else None


def audit(
    replays: Iterable[dict[str, Any]],
    matches: Iterable[dict[str, Any]],
    coverage: Counter[str] | None = None,
    *,
    tied_hands: int = TIED_HANDS,
) -> list[Finding]:
    """Every finding of the oracle on these replay and match lines (plain JSON objects);
    empty when the logs agree with the rulings and with docs/results.md. Replay lines of a
    match with no match line are ignored (results.md). ``coverage``, if given, is counted up
    with the situations the logs reached (a Retruco, a parda, son buenas...)."""
    run = _Audit(coverage if coverage is not None else Counter(), tied_hands)
    by_match: defaultdict[object, list[dict[str, Any]]] = defaultdict(list)
    for r in replays:
        by_match[r.get("match")].append(r)
    matches = list(matches)
    ids = Counter(m.get("match") for m in matches)
    for mid, k in ids.items():
        if k > 1:
            run.error(mid, None, "match ids", f"{k} match lines")
    for m in matches:
        run.audit_match(m, by_match.get(m.get("match"), []))
    return run.findings


def audit_run(directory: Path, coverage: Counter[str] | None = None) -> list[Finding]:
    """``audit`` of one results directory's ``replays.jsonl`` and ``matches.jsonl``."""
    directory = Path(directory)
    return audit(
        load_jsonl(directory / "replays.jsonl"), load_jsonl(directory / "matches.jsonl"), coverage
    )
