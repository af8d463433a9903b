"""An independent rules oracle for Ruff and Trump results directories.

``audit(replays, matches)`` takes the plain JSON of a run's ``replays.jsonl`` and
``matches.jsonl`` lines (``audit_run(directory)`` reads them from a results directory) and
re-derives, deal by deal, everything the rulings fix:

- the table (F1, F2, F8, F9): the form, the sides, the hand size, the head, the set, the par;
- the deal (F2): hands and head are one 52-card deck; the turned card is ``head[0]`` and
  names trump; the dealer passes clockwise each deal; eldest is dealer + 1;
- every seat's true ruff (F3), reckoned on the cards dealt, the turned card always counting
  in the trump suit;
- the announcing (F4): one announcement per seat in turn from eldest, clockwise, each
  0..the seat's true ruff; the ruff's winner (highest, ties to the first to announce); its 12;
- the end at the ruff (F9): when the 12 reach the set the deal stops there (no rub, no
  showing, no play) and the match ends;
- the rub (F5): the trump ace's holder rubs, else the dealer; it takes the head's top four
  (the whole head at 4 seats) and discards four of its sixteen cards;
- the shown ruff (F6): the winner's best suit (ties S > H > D > C), its dealt cards from the
  highest until they reach the announcement, the turned card last if they fall short;
- the play (F7): the seat due plays a card it holds, follows suit when it can; each trick's
  winner (highest trump, else highest of the led suit), who leads the next;
- card points (F8), the deal's points, the scores before and after (uncapped) and the
  per-seat totals (F9); where the match ends (F9), its ranks (F10), and the match line's
  totals, statistics, faults and per-deal ``deal_points``.

It returns a list of plain strings, one per disagreement, each naming the match, the deal
(when the finding is about one deal) and the check, which cites its ruling::

    r0001-t01 deal 3: trick winner F7: trick 5 winner 2, expected 1 (hearts trump; ...)
    r0002-t01: ranks F10: ranks [1, 2, 1, 2], expected [2, 1, 2, 1] (final scores [40, 56])

Checks about the shape of the files (docs/results.md, the Ruff section) are named
``format``. An empty list means the logs agree with the rulings.

Why it is independent: it was written from the seed text
(shared/seeds/004_cfdd40a86feda7a9.txt), the rulings (shared/spec/ruff-rulings.md, F1..F11),
docs/rules.md ("Ruff house choices") and docs/results.md, without the engine's logic
(arena/games/ruff/). It imports nothing from ``arena``: only the game-neutral reading helpers of
the Truf oracle (tests/rules_oracle.py: ``load_jsonl`` and the fault columns), which imports
nothing from ``arena`` either. When it disagrees with the engine, settle it from the
rulings, never by copying the engine.

What the logs cannot show, and so is not checked: the shuffle itself (house choice 1: the
hands come from the match key; ``arena verify`` re-deals them), the first dealer (drawn
from the match seed, F2), which decision a fault replaced (the fallback's move is checked
like any other move), and F11 (what each seat was shown; tests/test_ruff_views.py).

Manual use: ``python tests/ruff_oracle.py DIR [DIR ...]`` prints the findings (exit
status 1 when there are any).
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeGuard

from rules_oracle import (
    COMMON_MATCH_FIELDS,
    load_jsonl,
    match_fault_findings,
    place_findings,
    read_faults,
)

__all__ = [
    "audit",
    "audit_run",
    "card_points",
    "ruff_suit",
    "ruff_value",
    "ruff_winner",
    "shown_cards",
    "side_ranks",
    "suit_sums",
    "table",
    "trick_winner",
    "true_ruff",
]

RANKS = "23456789TJQKA"  # low to high: aces high (F7)
SUITS = "SHDC"  # card order (results.md), and F6's tie order S > H > D > C
DECK = frozenset(r + s for s in SUITS for r in RANKS)  # the 52-card French deck
RUFF_POINTS = 12  # F4: the ruff's winner scores 12
TAKEN = 4  # F5: the rubber takes the head's top four cards and discards four
ENDED = ("played", "ruff")

Record = dict[str, Any]


# ------------------------------------------------------------------------ the rules


class Table:
    """What the form and the seat count fix (F1, F2, F8, F9)."""

    def __init__(self, form: str, seats: int, alt_deals: bool) -> None:
        self.form, self.seats, self.alt = form, seats, alt_deals
        # ruling F2: 12 cards each; the alternative deals give 16 each at 3 seats, 24 at 2
        self.hand = {3: 16, 2: 24}.get(seats, 12) if alt_deals else 12
        self.head = 52 - seats * self.hand  # F2: the rest of the one deck is the head
        # ruling F9: 52; with 3 seats 40 and with 2 seats 36 in the 12-card deals
        self.set = 52 if alt_deals or seats == 4 else {3: 40, 2: 36}[seats]
        # ruling F8: par is twice the hand in double, the hand in single
        self.par = 2 * self.hand if form == "double" else self.hand
        # ruling F1: double is seats 0+2 against 1+3; single, every seat for itself
        self.sides = 2 if form == "double" else seats
        self.teams = [[0, 2], [1, 3]] if form == "double" else [[s] for s in range(seats)]

    def side(self, seat: int) -> int:
        return seat % 2 if self.form == "double" else seat

    def per_seat(self, per_side: list[int]) -> list[int]:
        return [per_side[self.side(s)] for s in range(self.seats)]


def table(form: str, seats: int, alt_deals: bool = False) -> Table:
    return Table(form, seats, alt_deals)


def canon(code: object) -> str | None:
    """A card's code (``10D`` read as ``TD``, as results.md's conventions allow), or None."""
    if not isinstance(code, str):
        return None
    if len(code) == 3 and code.startswith("10"):
        code = "T" + code[2]
    return code if code in DECK else None


def rank(card: str) -> int:
    return RANKS.index(card[0])


def card_order(card: str) -> tuple[int, int]:
    """results.md's card order: by suit S, H, D, C, then rank 2 .. A."""
    return SUITS.index(card[1]), rank(card)


def ruff_value(card: str) -> int:
    """Ruling F3: 2..10 face value, J Q K 10, A 11."""
    r = card[0]
    if r == "A":
        return 11
    if r in "TJQK":
        return 10
    return int(r)


def suit_sums(dealt: Iterable[str], turned: str) -> dict[str, int]:
    """Ruling F3: each suit's sum over the cards dealt; the trump suit's always includes the
    turned-up card."""
    sums = dict.fromkeys(SUITS, 0)
    for c in dealt:
        sums[c[1]] += ruff_value(c)
    sums[turned[1]] += ruff_value(turned)
    return sums


def true_ruff(dealt: Iterable[str], turned: str) -> int:
    """Ruling F3: the best suit's sum, on the cards dealt (before the rub)."""
    return max(suit_sums(dealt, turned).values())


def ruff_suit(dealt: Iterable[str], turned: str) -> str:
    """Ruling F6: the best suit by F3, equal sums broken spades > hearts > diamonds > clubs."""
    sums = suit_sums(dealt, turned)
    best = max(sums.values())
    return next(s for s in SUITS if sums[s] == best)


def shown_cards(dealt: list[str], turned: str, announced: int) -> tuple[str, list[str]]:
    """Ruling F6: the ruff suit and its dealt cards, highest rank first, until their sum
    reaches the announced number; in the trump suit, when the dealt cards fall short, the
    turned-up card last. An announcement of 0 names the suit and shows no card."""
    suit = ruff_suit(dealt, turned)
    out: list[str] = []
    total = 0
    for c in sorted((c for c in dealt if c[1] == suit), key=rank, reverse=True):
        if total >= announced:
            break
        out.append(c)
        total += ruff_value(c)
    if total < announced and suit == turned[1]:
        out.append(turned)
    return suit, out


def ruff_winner(announcements: list[tuple[int, int]]) -> int:
    """Ruling F4: the highest announcement; equal ones go to the seat that announced first
    (so if every seat announces 0, eldest, who announces first, wins)."""
    best = max(n for _, n in announcements)
    return next(seat for seat, n in announcements if n == best)


def trick_winner(cards: list[tuple[int, str]], trump: str) -> int:
    """Ruling F7: the highest trump, else the highest card of the led suit (aces high)."""
    led = cards[0][1][1]
    trumps = [(rank(c), s) for s, c in cards if c[1] == trump]
    if trumps:
        return max(trumps)[1]
    return max((rank(c), s) for s, c in cards if c[1] == led)[1]


def card_points(cards_won: int, par: int) -> int:
    """Ruling F8: one point per card taken above the par (the seed: 28 cards in double, par
    24, score 4); never below 0."""
    return max(0, cards_won - par)


def side_ranks(scores: list[int]) -> list[int]:
    """Rulings F9 and F10 at the end of a set: the higher total wins (counting points past
    the set), equal totals sharing rank 1; the others rank by total, as 1 + the number of
    sides ranked strictly above (so 1, 1, 3). The set's winners always hold the top total:
    a side below the set is below them, and two sides reaching it in one scoring are
    ordered by total."""
    top = max(scores)
    won = [s == top for s in scores]
    return [
        1
        if won[i]
        else 1 + sum(1 for j, t in enumerate(scores) if j != i and (won[j] or t > scores[i]))
        for i in range(len(scores))
    ]


# ------------------------------------------------------------------------ the log's shape


def is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def is_ints(v: object, n: int) -> TypeGuard[list[int]]:
    return isinstance(v, list) and len(v) == n and all(is_int(x) for x in v)


_OPTIONAL = (type(None),)
REPLAY_FIELDS: dict[str, type | tuple[type, ...]] = {
    "schema": int,
    "game": str,
    "match": str,
    "deal": int,
    "seats": list,
    "form": str,
    "alt_deals": bool,
    "set": int,
    "teams": list,
    "dealer": int,
    "eldest": int,
    "source": str,
    "hands": list,
    "head": list,
    "turned": str,
    "trump": str,
    "ruffs": list,
    "actions": list,
    "announcements": list,
    "ruff_winner": int,
    "rubber": (int, *_OPTIONAL),
    "discards": (list, *_OPTIONAL),
    "shown": (dict, *_OPTIONAL),
    "tricks": list,
    "ended": str,
    "cards_won": list,
    "ruff_points": list,
    "card_points": list,
    "points": list,
    "scores_before": list,
    "scores": list,
    "totals": list,
    "faults": list,
}
MATCH_FIELDS: dict[str, type | tuple[type, ...]] = {
    **COMMON_MATCH_FIELDS,
    "ruffs_won": list,
    "ruff_points": list,
    "card_points": list,
    "rubs": list,
}
DUPLICATE_FIELDS = ("block", "rotation")  # results.md: added by --duplicate
FAULT_TALLY = ("timeout", "illegal", "disconnect")


class Stop(Exception):
    """A deal's actions cannot be followed any further (an action out of turn, a card the
    seat does not hold...): the finding is recorded, the rest of the deal is not derived."""


# ------------------------------------------------------------------------ the audit


class _Audit:
    """The findings and coverage of one ``audit`` call."""

    def __init__(self, coverage: Counter[str]) -> None:
        self.findings: list[str] = []
        self.cover = coverage

    def add(self, mid: object, deal: object, check: str, detail: str) -> None:
        where = f"{mid} deal {deal}" if deal is not None else f"{mid}"
        self.findings.append(f"{where}: {check}: {detail}")

    def fields(
        self, obj: Record, spec: dict[str, type | tuple[type, ...]], mid: object, deal: object
    ) -> None:
        """results.md: every documented field with its type, and no other."""
        for name, ty in spec.items():
            if name not in obj:
                self.add(mid, deal, "format", f"missing field {name!r}")
            elif not isinstance(obj[name], ty) or (
                isinstance(obj[name], bool) and ty in (int, (int, type(None)))
            ):
                self.add(mid, deal, "format", f"field {name!r} is a {type(obj[name]).__name__}")
        for name in obj:
            if name not in spec and name not in DUPLICATE_FIELDS:
                self.add(mid, deal, "format", f"undocumented field {name!r}")

    # -------------------------------------------------------------- a match

    def match(self, m: Record, lines: list[Record], config: Record | None) -> None:
        mid = m.get("match")
        self.fields(m, MATCH_FIELDS, mid, None)
        if m.get("game") != "ruff" or m.get("schema") != 1:
            self.add(mid, None, "format", f"game/schema {m.get('game')!r}/{m.get('schema')!r}")
        names = m.get("seats")
        if not (isinstance(names, list) and len(names) in (2, 3, 4)):
            self.add(mid, None, "seats F1", f"seats {names!r}: a table has 4, 3 or 2 seats")
            return
        n = len(names)
        if not lines:
            self.add(mid, None, "set end F9", "a match line without any deal")
            return
        deals = sorted(lines, key=lambda r: r["deal"] if is_int(r.get("deal")) else 0)
        numbers = [r.get("deal") for r in deals]
        if numbers != list(range(1, len(deals) + 1)):
            self.add(mid, None, "deal numbers", f"deals numbered {numbers}")

        # ---- the table (F1), from the first deal, held to the configuration if given
        first = deals[0]
        form, alt = first.get("form"), first.get("alt_deals")
        if form not in ("double", "single") or (form == "double" and n != 4):
            self.add(mid, None, "form F1", f"form {form!r} at {n} seats")
            return
        if not isinstance(alt, bool):
            self.add(mid, None, "format", f"alt_deals {alt!r}")
            return
        t = Table(form, n, alt)
        if config is not None:
            want = {"form": form, "seats": n, "alt_deals": alt, "hand_size": t.hand, "set": t.set}
            got = {k: config.get(k) for k in want}
            if got != want:
                self.add(
                    mid, None, "config F1/F2/F9", f"tournament.json says {got}, the match {want}"
                )
        if m.get("teams") != t.teams:
            self.add(mid, None, "teams F1", f"teams {m.get('teams')!r}, expected {t.teams}")
        self.cover[f"{form} at {n} seats{' (alt deals)' if alt else ''}"] += 1

        scores = [0] * t.sides
        dealer: int | None = None
        finished_at: int | None = None
        deal_points: list[list[int]] = []
        stats = {k: [0] * t.sides for k in ("ruffs_won", "ruff_points", "card_points")}
        rubs = [0] * n
        tally = {col: [0] * n for col in FAULT_TALLY}
        disqualified = [False] * n
        for r in deals:
            dn = r.get("deal")
            if finished_at is not None:
                self.add(
                    mid,
                    dn,
                    "set end F9",
                    f"deal {dn} played after the set was won in deal {finished_at}",
                )
                break
            if r.get("seats") != names:
                self.add(mid, dn, "seats", f"replay seats {r.get('seats')!r}, match {names!r}")
            self.faults(mid, dn, r.get("faults"), n, tally, disqualified)
            try:
                out = self.deal(r, t, dealer, scores)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
                self.add(mid, dn, "format", f"malformed line ({type(e).__name__}: {e})")
                return
            if out is None:
                return
            dealer, points, result = out
            scores = [a + b for a, b in zip(scores, points, strict=True)]
            deal_points.append(t.per_seat(points))
            if result is not None:
                winner_side, rubber, cp = result
                stats["ruffs_won"][winner_side] += 1
                stats["ruff_points"][winner_side] += RUFF_POINTS
                stats["card_points"] = [
                    a + b for a, b in zip(stats["card_points"], cp, strict=True)
                ]
                if rubber is not None:
                    rubs[rubber] += 1
            if max(scores) >= t.set:  # ruling F9: the first scoring to reach the set ends it
                finished_at = dn if is_int(dn) else -1
                if max(scores) > t.set:
                    self.cover["the set passed (scores uncapped)"] += 1

        if finished_at is None:
            self.add(
                mid,
                None,
                "set end F9",
                f"the match ends after deal {deals[-1].get('deal')} with scores {scores}: no "
                f"side reached the set of {t.set}",
            )
            return

        # ---- the match line: result (F9, F10), totals, statistics, deal_points
        ranks = t.per_seat(side_ranks(scores))
        if sorted(ranks).count(1) > (2 if form == "double" else 1):
            self.cover["shared first rank"] += 1
        for finding in place_findings(m, ranks):  # F10, then the places (results.md)
            self.add(mid, None, "ranks F10", f"{finding} (final scores {scores})")
        totals = t.per_seat(scores)
        if m.get("totals") != totals:
            self.add(mid, None, "match totals F9", f"totals {m.get('totals')!r}, expected {totals}")
        if m.get("deals") != len(deals):
            self.add(
                mid, None, "match stats", f"deals {m.get('deals')!r}, {len(deals)} deals played"
            )
        for key, per_side in stats.items():
            per_seat = t.per_seat(per_side)
            if m.get(key) != per_seat:
                self.add(mid, None, "match stats", f"{key} {m.get(key)!r}, expected {per_seat}")
        if m.get("rubs") != rubs:
            self.add(mid, None, "match stats", f"rubs {m.get('rubs')!r}, expected {rubs} (F5)")
        if m.get("deal_points") != deal_points:
            logged = m.get("deal_points")
            detail = f"deal_points {logged!r}, expected {deal_points}"
            if isinstance(logged, list) and len(logged) == len(deal_points):
                bad = [
                    k + 1
                    for k, (a, b) in enumerate(zip(logged, deal_points, strict=True))
                    if a != b
                ]
                expected = [deal_points[k - 1] for k in bad]
                detail = f"deal {bad}: {[logged[k - 1] for k in bad]}, expected {expected}"
            self.add(mid, None, "deal_points", detail)
        for what, message in match_fault_findings(m, tally, disqualified):
            self.add(mid, None, "format" if what == "keys" else "faults", message)
        forfeit = m.get("forfeit")
        if not (isinstance(forfeit, list) and len(forfeit) == n):
            self.add(mid, None, "format", f"forfeit {forfeit!r}")

    def faults(
        self,
        mid: object,
        dn: object,
        faults: object,
        n: int,
        tally: dict[str, list[int]],
        dq: list[bool],
    ) -> None:
        findings, read, disqualified = read_faults(faults, dn, n, tally, dq)
        for what, message in findings:
            self.add(mid, dn, "format" if what in ("fields", "kind") else "faults", message)
        self.cover["faults"] += read
        self.cover["a seat disqualified"] += disqualified

    # -------------------------------------------------------------- a deal

    def deal(
        self, r: Record, t: Table, prev_dealer: int | None, before: list[int]
    ) -> tuple[int, list[int], tuple[int, int | None, list[int]] | None] | None:
        """Check one deal line against the rulings. Returns (its dealer, its points per
        side, (the ruff's winning side, the rubber or None, card points per side)) as the
        oracle derives them; where the actions cannot be followed, the logged points and no
        statistics. None when the line is too broken to go on with the match."""
        mid, dn = r.get("match"), r.get("deal")
        n = t.seats

        def err(check: str, detail: str) -> None:
            self.add(mid, dn, check, detail)

        self.fields(r, REPLAY_FIELDS, mid, dn)
        if r.get("game") != "ruff" or r.get("schema") != 1:
            err("format", f"game/schema {r.get('game')!r}/{r.get('schema')!r}")
        source = r.get("source")
        if not (source in ("seed", "given") or str(source).startswith("file:")):
            err("format", f"source {source!r}: not seed, given or file:NAME:LINE")
        if r.get("form") != t.form or r.get("alt_deals") != t.alt:
            err(
                "form F1",
                f"form {r.get('form')!r}, alt_deals {r.get('alt_deals')!r}; the "
                f"match's first deal says {t.form!r}, {t.alt!r}",
            )
        if r.get("teams") != t.teams:
            err("teams F1", f"teams {r.get('teams')!r}, expected {t.teams}")
        if r.get("set") != t.set:  # ruling F9
            err(
                "set F9",
                f"set {r.get('set')!r}, expected {t.set} ({t.form}, {n} seats"
                f"{', alt deals' if t.alt else ''})",
            )

        # ---- the deal: one deck (F2)
        raw_hands, raw_head = r.get("hands"), r.get("head")
        if not (isinstance(raw_hands, list) and len(raw_hands) == n and isinstance(raw_head, list)):
            err("deal F2", f"not {n} hands and a head: hands {raw_hands!r}, head {raw_head!r}")
            return None
        hands = [[canon(c) for c in h] if isinstance(h, list) else [None] for h in raw_hands]
        head = [canon(c) for c in raw_head]
        every = [c for h in hands for c in h] + head
        if None in every:
            err("deal F2", "a card code that is not one of the 52-card deck's")
            return None
        dealt: list[list[str]] = [[c for c in h if c] for h in hands]
        top: list[str] = [c for c in head if c]
        sizes = [len(h) for h in dealt]
        if sizes != [t.hand] * n or len(top) != t.head:
            err(
                "deal F2",
                f"hands of {sizes} cards and a head of {len(top)}; expected {n} "
                f"hands of {t.hand} and a head of {t.head}",
            )
            return None
        if len(set(every)) != 52:
            dup = sorted(str(c) for c, k in Counter(every).items() if k > 1)
            err("deal F2", f"hands and head are not one deck: {dup} dealt twice")
            return None
        turned = top[0]
        trump = turned[1]
        if r.get("turned") != turned:
            err("turned F2", f"turned {r.get('turned')!r}, the head's top card is {turned}")
        if r.get("trump") != trump:
            err("trump F2", f"trump {r.get('trump')!r}, the turned card {turned} names {trump}")

        # ---- dealer and eldest (F2)
        dealer = r.get("dealer")
        if not (is_int(dealer) and 0 <= dealer < n):
            err("dealer F2", f"dealer {dealer!r} is not a seat")
            return None
        if prev_dealer is not None and dealer != (prev_dealer + 1) % n:
            err(
                "dealer F2",
                f"dealer {dealer}, expected {(prev_dealer + 1) % n} (the deal "
                f"passes clockwise from {prev_dealer})",
            )
        eldest = (dealer + 1) % n
        if r.get("eldest") != eldest:
            err("eldest F2", f"eldest {r.get('eldest')!r}, expected {eldest} (dealer {dealer} + 1)")
        if r.get("scores_before") != before:
            err("scores_before F9", f"scores_before {r.get('scores_before')!r}, expected {before}")

        # ---- true ruffs (F3)
        ruffs = [true_ruff(h, turned) for h in dealt]
        if r.get("ruffs") != ruffs:
            err("ruffs F3", f"ruffs {r.get('ruffs')!r}, expected {ruffs} (turned {turned})")

        try:
            derived = self.play_deal(r, t, err, dealt, top, dealer, before)
        except Stop:
            points = r.get("points")
            return dealer, points if is_ints(points, t.sides) else [0] * t.sides, None
        return derived

    def play_deal(
        self,
        r: Record,
        t: Table,
        err: Any,
        dealt: list[list[str]],
        head: list[str],
        dealer: int,
        before: list[int],
    ) -> tuple[int, list[int], tuple[int, int | None, list[int]]]:
        """Follow the deal's actions from the deal to the last trick (raises ``Stop``)."""
        n, turned = t.seats, head[0]
        trump = turned[1]
        eldest = (dealer + 1) % n
        actions = r.get("actions")
        if not isinstance(actions, list):
            err("format", f"actions {actions!r}")
            raise Stop
        steps = iter(enumerate(actions, 1))
        located = {  # results.md, fault records: a fault's decision is its place in actions
            f["decision"]: f
            for f in (r.get("faults") if isinstance(r.get("faults"), list) else [])
            if isinstance(f, dict) and is_int(f.get("decision"))
        }

        def fallback(k: int, seat: int, want: str) -> None:
            """A fault located at action ``k``: the action logged there is the one it names,
            and the documented fallback (rules.md, Ruff house choice 4)."""
            fault = located.get(k)
            if fault is None:
                return
            self.cover["fault located"] += 1
            text = actions[k - 1][1]
            if fault.get("seat") != seat or fault.get("played") != text:
                err("fault location", f"action {k}: {actions[k - 1]!r}, the fault {fault!r}")
            elif text != want:
                err("fallback", f"action {k}: seat {seat}'s fallback {text!r}, documented {want!r}")

        def take(seat: int, word: str, ruling: str, what: str) -> tuple[int, list[str]]:
            """The next action, which must be ``seat``'s and a ``word`` (raises Stop)."""
            k, entry = next(steps, (None, None))
            if k is None:
                err(f"actions {ruling}", f"the actions end where seat {seat} must {what}")
                raise Stop
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], str)):
                err("format", f"action {k}: {entry!r} is not [seat, text]")
                raise Stop
            who, text = entry
            if who != seat:
                err(
                    f"turn {ruling}",
                    f"action {k}: seat {who!r} acts ({text!r}) where seat {seat} must {what}",
                )
                raise Stop
            verb, *args = text.split() or [""]
            if verb != word:
                err(
                    f"{word} {ruling}",
                    f"action {k}: seat {seat} does {text!r} where it must {what}",
                )
                raise Stop
            return k, args

        # ---- announcing (F4): once each, in turn from eldest, clockwise, 0..the true ruff
        ruffs = [true_ruff(h, turned) for h in dealt]
        announced: list[tuple[int, int]] = []
        for i in range(n):
            seat = (eldest + i) % n
            k, args = take(seat, "announce", "F4", "announce")
            fallback(k, seat, f"announce {ruffs[seat]}")  # its true ruff
            if len(args) != 1 or not args[0].isdigit():
                err("announce F4", f"action {k}: 'announce {' '.join(args)}' is not a number")
                raise Stop
            number = int(args[0])
            if number > ruffs[seat]:
                err(
                    "announce F4",
                    f"action {k}: seat {seat} announces {number}, above its true "
                    f"ruff {ruffs[seat]} (F4: 0 up to the true ruff)",
                )
            elif number < ruffs[seat]:
                self.cover["announced below the true ruff"] += 1
            announced.append((seat, number))
        if r.get("announcements") != [list(a) for a in announced]:
            err(
                "announcements F4",
                f"announcements {r.get('announcements')!r}, the actions "
                f"announce {[list(a) for a in announced]}",
            )
        winner = ruff_winner(announced)
        numbers = [x for _, x in announced]
        if numbers.count(max(numbers)) > 1:
            self.cover["equal top announcements (the first wins)"] += 1
        if max(numbers) == 0:
            self.cover["every seat announces 0"] += 1
        if ruffs[winner] < max(ruffs):
            self.cover["the ruff won below another seat's true ruff"] += 1
        if r.get("ruff_winner") != winner:
            err(
                "ruff winner F4",
                f"ruff_winner {r.get('ruff_winner')!r}, expected {winner} "
                f"(announcements {[list(a) for a in announced]})",
            )
        side = t.side(winner)
        ruff_points = [RUFF_POINTS if s == side else 0 for s in range(t.sides)]
        # ruling F9: the ruff's 12 are scored as announcing ends; reaching the set ends the
        # match at once, with no rub, no showing and no play
        at_ruff = before[side] + RUFF_POINTS >= t.set
        zero = [0] * t.sides
        if at_ruff:
            self.cover["the ruff's 12 reach the set"] += 1
            ended, rubber = "ruff", None
            discards: list[str] | None = None
            shown: Record | None = None
            tricks: list[Record] = []
            won = zero
            extra = next(steps, None)
            if extra is not None:
                err(
                    "ended F9",
                    f"action {extra[0]}: {extra[1]!r} after the ruff's 12 reached "
                    f"the set ({before[side]} + 12 >= {t.set})",
                )
        else:
            ended = "played"
            # ---- the rub (F5): the trump ace's holder, else the dealer
            ace = "A" + trump
            holders = [s for s in range(n) if ace in dealt[s]]
            rubber = holders[0] if holders else dealer
            if holders:
                self.cover["rubber: the trump ace's holder"] += 1
            elif turned == ace:
                self.cover["rubber: the dealer (the trump ace turned)"] += 1
            else:
                self.cover["rubber: the dealer (the trump ace unseen in the head)"] += 1
                if ace not in head[:TAKEN]:
                    self.cover["the trump ace dead in the head"] += 1
            taken = head[:TAKEN]  # F5: the top four, the turned card among them
            pool = dealt[rubber] + taken
            k, args = take(rubber, "discard", "F5", "discard (it rubs)")
            # its four cards of least rank outside trump, then its least trumps (ties S, H, D, C)
            least = sorted(pool, key=lambda c: (c[1] == trump, rank(c), card_order(c)))[:TAKEN]
            fallback(k, rubber, "discard " + " ".join(sorted(least, key=card_order)))
            cards = [canon(c) for c in args]
            if len(cards) != TAKEN or len(set(cards)) != TAKEN or None in cards:
                err("discard F5", f"action {k}: seat {rubber} discards {args}, not four cards")
                raise Stop
            discards = [c for c in cards if c]
            foreign = [c for c in discards if c not in pool]
            if foreign:
                where = "dead in the head" if any(c in head for c in foreign) else "not its own"
                err(
                    "discard F5",
                    f"action {k}: seat {rubber} discards {foreign} ({where}); it "
                    f"holds {sorted(pool, key=card_order)} after taking {taken}",
                )
                raise Stop
            if discards != sorted(discards, key=card_order):
                err("format", f"action {k}: discards {discards} not in card order (results.md)")
            if any(c in taken for c in discards):
                self.cover["a head card discarded"] += 1
            if turned in discards:
                self.cover["the turned card discarded"] += 1
            if r.get("discards") != sorted(discards, key=card_order):
                err(
                    "discards F5", f"discards {r.get('discards')!r}, the action discards {discards}"
                )
            # ---- the shown ruff (F6)
            number = dict(announced)[winner]
            suit, show = shown_cards(dealt[winner], turned, number)
            shown = {"seat": winner, "suit": suit, "cards": show}
            if turned in show:
                self.cover["the shown ruff lists the turned card"] += 1
            if number == 0:
                self.cover["the shown ruff of an announcement of 0"] += 1
            if winner == rubber and any(c in discards for c in show):
                self.cover["the shown ruff lists a discarded card"] += 1
            # ---- the play (F7)
            holding = [list(h) for h in dealt]
            holding[rubber] = [c for c in pool if c not in discards]
            tricks = []
            leader = eldest
            for trick_no in range(1, t.hand + 1):
                played: list[tuple[int, str]] = []
                for i in range(n):
                    seat = (leader + i) % n
                    k, args = take(seat, "play", "F7", f"play to trick {trick_no}")
                    led_now = played[0][1][1] if played else None
                    can = [c for c in holding[seat] if c[1] == led_now] or holding[seat]
                    low = min(can, key=lambda c: (rank(c), card_order(c)))  # lowest legal card
                    fallback(k, seat, f"play {low}")
                    card = canon(args[0]) if len(args) == 1 else None
                    if card is None or card not in holding[seat]:
                        err(
                            "play F7",
                            f"action {k}: seat {seat} plays {' '.join(args)!r} in "
                            f"trick {trick_no}, which it does not hold",
                        )
                        raise Stop
                    if played:
                        led = played[0][1][1]
                        if card[1] != led:
                            follow = [c for c in holding[seat] if c[1] == led]
                            if follow:
                                err(
                                    "follow suit F7",
                                    f"action {k}: seat {seat} plays {card} "
                                    f"to a {led} lead in trick {trick_no}, holding {follow}",
                                )
                            elif card[1] == trump:
                                self.cover["a seat void in the led suit trumps"] += 1
                            else:
                                self.cover["a seat void in the led suit throws off"] += 1
                    holding[seat].remove(card)
                    played.append((seat, card))
                w = trick_winner(played, trump)
                w_card = dict(played)[w]
                if w_card[1] == trump and played[0][1][1] != trump:
                    self.cover["a trick won by a trump on a side-suit lead"] += 1
                tricks.append({"leader": leader, "cards": [list(p) for p in played], "winner": w})
                leader = w  # ruling F7: the winner leads the next trick
            extra = next(steps, None)
            if extra is not None:
                err("actions F7", f"action {extra[0]}: {extra[1]!r} after the last trick")
            won = [0] * t.sides
            for tr in tricks:
                won[t.side(tr["winner"])] += n
        if r.get("ended") != ended:
            err("ended F9", f"ended {r.get('ended')!r}, expected {ended!r}")
        if r.get("rubber") != rubber:
            err("rubber F5", f"rubber {r.get('rubber')!r}, expected {rubber}")
        if at_ruff and r.get("discards") is not None:
            err("discards F5", f"discards {r.get('discards')!r} in a deal that ended at the ruff")
        if r.get("shown") != shown:
            err("shown F6", f"shown {r.get('shown')!r}, expected {shown}")
        self.tricks(err, r.get("tricks"), tricks, trump)

        # ---- card points (F8), points, scores and totals (F9)
        cp = [card_points(w, t.par) for w in won]
        if not at_ruff and cp == zero:
            self.cover["no side scores card points"] += 1
        points = [a + b for a, b in zip(ruff_points, cp, strict=True)]
        scores = [a + b for a, b in zip(before, points, strict=True)]
        for key, want, ruling in (
            ("cards_won", won, "cards won F8"),
            ("ruff_points", ruff_points, "ruff points F4"),
            ("card_points", cp, "card points F8"),
            ("points", points, "points F4/F8"),
            ("scores", scores, "scores F9"),
            ("totals", t.per_seat(scores), "totals F9"),
        ):
            if r.get(key) != want:
                err(ruling, f"{key} {r.get(key)!r}, expected {want}")
        if not at_ruff:
            reached = [s for s in range(t.sides) if scores[s] >= t.set]
            if len(reached) > 1:
                self.cover["two sides reach the set in one scoring"] += 1
        return dealer, points, (side, rubber, cp)

    def tricks(self, err: Any, logged: object, tricks: list[Record], trump: str) -> None:
        if not isinstance(logged, list) or len(logged) != len(tricks):
            count = len(logged) if isinstance(logged, list) else logged
            err("tricks F7", f"{count!r} tricks logged, {len(tricks)} played")
            return
        for k, (got, want) in enumerate(zip(logged, tricks, strict=True), 1):
            if not (isinstance(got, dict) and set(got) == {"leader", "cards", "winner"}):
                err("format", f"trick {k}: {got!r}")
                continue
            if got["cards"] != want["cards"]:
                err(
                    "tricks F7",
                    f"trick {k} cards {got['cards']!r}, the actions play {want['cards']}",
                )
            if got["leader"] != want["leader"]:
                err(
                    "trick leader F7",
                    f"trick {k} leader {got['leader']!r}, expected "
                    f"{want['leader']} (eldest leads trick 1, the winner the next)",
                )
            if got["winner"] != want["winner"]:
                err(
                    "trick winner F7",
                    f"trick {k} winner {got['winner']!r}, expected "
                    f"{want['winner']} ({trump} trump; {want['cards']})",
                )


def audit(
    replays: Iterable[Record],
    matches: Iterable[Record],
    coverage: Counter[str] | None = None,
    config: Record | None = None,
) -> list[str]:
    """Every finding of the oracle on these replay and match lines (plain JSON objects):
    one string per disagreement, empty when the logs agree with the rulings. Replay lines
    of a match that has no match line are ignored (results.md: it did not finish).
    ``coverage``, if given, is counted up with the situations the logs reached; ``config``
    is tournament.json's ``game`` object, if the caller has one."""
    run = _Audit(coverage if coverage is not None else Counter())
    by_match: defaultdict[object, list[Record]] = defaultdict(list)
    for r in replays:
        by_match[r.get("match")].append(r)
    matches = list(matches)
    for mid, k in Counter(m.get("match") for m in matches).items():
        if k > 1:
            run.add(mid, None, "match ids", f"{k} match lines")
    for m in matches:
        run.match(m, by_match.get(m.get("match"), []), config)
    return run.findings


def audit_run(directory: Path | str, coverage: Counter[str] | None = None) -> list[str]:
    """``audit`` of one results directory: its ``replays.jsonl`` and ``matches.jsonl`` (and
    its ``tournament.json``'s table, when the file is there)."""
    directory = Path(directory)
    config = None
    tj = directory / "tournament.json"
    if tj.exists():
        game = json.loads(tj.read_text(encoding="utf-8")).get("game")
        config = game if isinstance(game, dict) else None
    return audit(
        load_jsonl(directory / "replays.jsonl"),
        load_jsonl(directory / "matches.jsonl"),
        coverage,
        config,
    )


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python tests/ruff_oracle.py DIR [DIR ...]")
    status = 0
    for arg in sys.argv[1:]:
        cover: Counter[str] = Counter()
        missing = [f for f in ("replays.jsonl", "matches.jsonl") if not (Path(arg) / f).exists()]
        if missing:
            print(f"{arg}: no {' or '.join(missing)}: not a results directory")
            status = 2
            continue
        found = audit_run(Path(arg), cover)
        for finding in found:
            print(finding)
        print(f"{arg}: {len(found)} findings; reached {dict(sorted(cover.items()))}")
        status |= bool(found)
    sys.exit(status)
