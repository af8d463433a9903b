"""An independent rules oracle for Truf results directories.

``audit_run(directory)`` reads one run's ``tournament.json``, ``replays.jsonl`` and
``matches.jsonl`` and re-derives, deal by deal, what the rulings say every logged field must
be: the hands, the direction, the dealer, the high bidder and trump, the mode and the final
bids, the legality of every card played (including the fallback moves the referee makes for
a faulty bot: they are logged like any other move and checked by the same rules), every
trick's winner, the scores and totals, each match's totals, ranks and exact counts, and
the faults each deal lists (documented kinds, counted in the match line's columns, the
disqualifications). It returns a list of ``Finding``:

- ``"error"``: the log contradicts a ruling; ``check`` names the ruling id
  (``"winner C12/T5"``).
- ``"doc"``: the data does not match the format in docs/results.md (fields, types, sort
  order, fault columns).

Why it is independent: it was written only from the rule texts (shared/seeds/000_*.txt for
classic, 002_*.txt for target), the rulings (shared/spec/truf-rulings.md) and
docs/results.md, without reading the engine (arena/games/truf/). It imports nothing from
``arena``, so an engine bug cannot reappear here through shared code or a shared reading:
tests/test_rules_oracle.py plays tournaments and holds the engine's logs to it (a
differential test). Keep it that way: when it disagrees with the engine, settle the
question from the rulings, never by copying the engine.

Where a ruling leaves a case open (T3 for two tied NO TRUF declarations whose higher card
is one of two equal-valued cards: "that card's suit"), every reading is accepted.

Manual use: ``python tests/rules_oracle.py DIR [DIR ...]`` prints the findings.
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, TypeGuard

SUITS = "SHDC"  # hand sort order (results.md)
RANKS = "23456789TJQKA"  # low to high; A high for winning tricks
CLASSIC_SUIT_ORDER = {"S": 4, "H": 3, "D": 2, "C": 1}  # C4: S > H > D > C
TARGET_SUIT_ORDER = {"S": 4, "H": 3, "C": 2, "D": 1}  # T3: S > H > C > D
ZERO_RANK_ORDER = {"K": 3, "Q": 2, "J": 1}  # C4 (house choice): K > Q > J
NUMERALS = set("23456789T")
COURTS = set("AKQJ")  # C2: the ace counts with the court cards
FAULT_COLUMN = {  # results.md: matches.jsonl `faults` columns per replay fault kind
    "timeout": "timeout",
    "illegal": "illegal",
    "unparseable": "illegal",
    "wrong_request": "illegal",
    "crash": "illegal",
    "disconnect": "disconnect",
}
DEFAULT_DEALS = {"classic": 13, "target": 6}  # C1, T1

Card = str  # canonical two-character code, "TD"


class Finding(NamedTuple):
    category: str  # "error" (contradicts a ruling) or "doc" (data vs docs/results.md)
    match: str | None
    deal: int | None
    check: str
    detail: str

    def __str__(self) -> str:
        return f"[{self.category}] {self.match} deal={self.deal}: {self.check}: {self.detail}"


# ------------------------------------------------------------------------ cards


def parse_card(code: object) -> Card | None:
    """The canonical code of ``code``, or None. Accepts ``10D`` too (results.md)."""
    if not isinstance(code, str):
        return None
    if code.startswith("10") and len(code) == 3:
        code = "T" + code[2]
    if len(code) != 2 or code[0] not in RANKS or code[1] not in SUITS:
        return None
    return code


def value(card: Card) -> int:
    """A card's value for bids and targets: J = Q = K = 0, A = 1, 2..10 face value."""
    r = card[0]
    if r in "JQK":
        return 0
    if r == "A":
        return 1
    if r == "T":
        return 10
    return int(r)


def rank_idx(card: Card) -> int:
    return RANKS.index(card[0])


def hand_sort_key(card: Card) -> tuple[int, int]:
    return SUITS.index(card[1]), rank_idx(card)


def next_seat(seat: int, direction: str) -> int:
    """results.md / C6: seats are numbered clockwise; ccw: s -> s - 1, cw: s -> s + 1."""
    return (seat - 1) % 4 if direction == "ccw" else (seat + 1) % 4


def expected_direction(deal_no: int) -> str:
    """C6: deal 1 is counter-clockwise, then the direction alternates every deal."""
    return "ccw" if deal_no % 2 == 1 else "cw"


def ranks_of(totals: list[int]) -> list[int]:
    """C14 / T7: 1 + the number of seats with a strictly higher total."""
    return [1 + sum(1 for u in totals if u > t) for t in totals]


def is_ints(v: object, n: int = 4) -> TypeGuard[list[int]]:
    return (
        isinstance(v, list)
        and len(v) == n
        and all(isinstance(x, int) and not isinstance(x, bool) for x in v)
    )


# --------------------------------------------------------------- bids, declarations


def classic_bid_key(card: Card) -> tuple[int, int, int]:
    """C4: by value, then suit S > H > D > C, then (zero-valued cards) K > Q > J."""
    zero = ZERO_RANK_ORDER.get(card[0], 0) if value(card) == 0 else 0
    return value(card), CLASSIC_SUIT_ORDER[card[1]], zero


class Declaration(NamedTuple):
    target: int
    kind: str  # "truf" or "notruf"
    suit: str | None  # the trump it names; None for NO TRUF
    cards: list[Card]


def declaration(decl: object) -> Declaration:
    """Validate a T2 declaration; raise ValueError saying why it is invalid."""
    if not isinstance(decl, dict) or "cards" not in decl or "op" not in decl:
        raise ValueError(f"declaration is not {{cards, op}}: {decl!r}")
    if not isinstance(decl["cards"], list):
        raise ValueError(f"cards is not a list: {decl!r}")
    parsed = [parse_card(c) for c in decl["cards"]]
    cards = [c for c in parsed if c is not None]
    if len(cards) != len(parsed):
        raise ValueError(f"bad card code in {decl!r}")
    op = decl["op"]
    if op == "single":  # T2: one card, target = its value
        if len(cards) != 1:
            raise ValueError(f"single with {len(cards)} cards")
        return Declaration(value(cards[0]), "truf", cards[0][1], cards)
    if len(cards) != 2:
        raise ValueError(f"{op} with {len(cards)} cards")
    if cards[0] == cards[1]:
        raise ValueError("the same card twice")
    a, b = value(cards[0]), value(cards[1])
    same = cards[0][1] == cards[1][1]
    if op == "sum":  # T2: one suit, a + b, valid if >= 5
        if not same:
            raise ValueError(f"SUM with different suits {cards!r}")
        if a + b < 5:
            raise ValueError(f"SUM {a + b} < 5 ({cards!r})")
        return Declaration(a + b, "truf", cards[0][1], cards)
    if op == "subtract":  # T2: one suit, higher - lower, valid if a + b >= 5
        if not same:
            raise ValueError(f"SUBTRACT with different suits {cards!r}")
        if a + b < 5:
            raise ValueError(f"SUBTRACT with a + b = {a + b} < 5 ({cards!r})")
        return Declaration(abs(a - b), "truf", cards[0][1], cards)
    if op == "notruf":  # T2: different suits, a + b, valid if >= 7
        if same:
            raise ValueError(f"NOTRUF with one suit {cards!r}")
        if a + b < 7:
            raise ValueError(f"NOTRUF {a + b} < 7 ({cards!r})")
        return Declaration(a + b, "notruf", None, cards)
    raise ValueError(f"unknown op {op!r}")


# T3 "then that card's suit" when the two NO TRUF cards have equal value: each reading.
NOTRUF_READINGS: tuple[Callable[[list[Card]], Card], ...] = (
    lambda top: max(top, key=lambda c: TARGET_SUIT_ORDER[c[1]]),
    lambda top: min(top, key=lambda c: TARGET_SUIT_ORDER[c[1]]),
    lambda top: top[0],
)


def target_key(d: Declaration, reading: Callable[[list[Card]], Card]) -> tuple[int, ...]:
    """T3 sort key, higher wins: target; a trump declaration beats NO TRUF; among trump
    declarations suit S > H > C > D, then the higher-ranked card; among NO TRUF the higher
    single card value, then that card's suit."""
    if d.kind == "truf":
        assert d.suit is not None
        return d.target, 1, TARGET_SUIT_ORDER[d.suit], max(rank_idx(c) for c in d.cards)
    high = max(value(c) for c in d.cards)
    card = reading([c for c in d.cards if value(c) == high])
    return d.target, 0, high, TARGET_SUIT_ORDER[card[1]]


def target_high_bidders(decls: list[Declaration]) -> set[int]:
    """The seats T3 can make the winner, over every reading of its open case."""
    winners: set[int] = set()
    for reading in NOTRUF_READINGS:
        keys = [target_key(d, reading) for d in decls]
        winners.update(s for s in range(4) if keys[s] == max(keys))
    return winners


# ------------------------------------------------------------------------ schema

REPLAY_FIELDS: dict[str, type | tuple[type, ...]] = {
    "schema": int,
    "game": str,
    "variant": str,
    "match": str,
    "deal": int,
    "seats": list,
    "dealer": int,
    "direction": str,
    "hands": list,
    "redeals": int,
    "deal_source": str,
    "bids": list,
    "bid_total": int,
    "high_bidder": int,
    "trump": (str, type(None)),
    "mode": str,
    "mode_chosen": bool,
    "final_bids": list,
    "tricks": list,
    "tricks_won": list,
    "scores": list,
    "totals": list,
    "faults": list,
}
COMMON_MATCH_FIELDS: dict[str, type | tuple[type, ...]] = {  # results.md: every game's
    "schema": int,
    "game": str,
    "match": str,
    "round": int,
    "table": int,
    "seats": list,
    "teams": list,
    "totals": list,
    "ranks": list,
    "raw_ranks": list,
    "deals": int,
    "faults": dict,
    "disqualified": list,
    "forfeit": list,
    "deal_points": list,
}
MATCH_FIELDS: dict[str, type | tuple[type, ...]] = {
    **COMMON_MATCH_FIELDS,
    "variant": str,
    "exact": list,
}
FAULT_KEYS = {"seat", "kind", "detail", "deal", "decision", "request", "played", "strikes",
              "disqualified"}  # fmt: skip


def read_faults(
    faults: object, deal: object, n: int, tally: dict[str, list[int]], dq: list[bool]
) -> tuple[list[tuple[str, str]], int, int]:
    """One replay line's ``faults`` (results.md, any game): adds each fault to ``tally``
    (its matches.jsonl column, per seat) and marks ``dq``. Returns the findings as (what,
    message), what being "fields", "kind", "deal" or "seat", and how many faults and
    disqualifications were read (for an oracle's coverage counts)."""
    findings: list[tuple[str, str]] = []
    read = disqualified = 0
    for f in faults if isinstance(faults, list) else []:
        if not (isinstance(f, dict) and set(f) == FAULT_KEYS):
            findings.append(("fields", f"fault {f!r}"))
            continue
        read += 1
        kind, seat = f["kind"], f["seat"]
        if kind not in FAULT_COLUMN:
            findings.append(("kind", f"undocumented fault kind {kind!r}"))
        if f["deal"] != deal:
            findings.append(("deal", f"a fault of deal {f['deal']!r} listed in deal {deal!r}"))
        if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n):
            findings.append(("seat", f"fault seat {seat!r}"))
            continue
        if kind in FAULT_COLUMN:
            tally[FAULT_COLUMN[kind]][seat] += 1
        if f["disqualified"] is True:
            disqualified += 1
            dq[seat] = True
    return findings, read, disqualified


def place_findings(m: dict[str, Any], raw: list[int]) -> list[str]:
    """A match line's ``raw_ranks`` against the game's own order ``raw`` (computed by the
    oracle), and its ``ranks`` against the places of docs/results.md ("Places"): every
    disqualified or forfeiting seat below every other; a place is 1 + the sides strictly
    ahead, a side being one team's seats that did not offend, or those that did.
    Written from the doc, not from arena.standings.places."""
    findings: list[str] = []
    if m.get("raw_ranks") != raw:
        findings.append(f"raw_ranks {m.get('raw_ranks')!r}, expected {raw}")
    teams, n = m.get("teams"), len(raw)
    dq, ff = m.get("disqualified"), m.get("forfeit")
    if not (isinstance(teams, list) and isinstance(dq, list) and isinstance(ff, list)):
        return [*findings, "teams, disqualified or forfeit missing: no places to check"]
    if len(dq) != n or len(ff) != n:
        return [*findings, f"disqualified {dq!r} / forfeit {ff!r} for {n} seats"]
    sides: dict[tuple[int, bool], tuple[bool, int]] = {}
    for t, team in enumerate(teams):
        for s in team:
            off = bool(dq[s] or ff[s])
            sides[t, off] = min(sides.get((t, off), (off, raw[s])), (off, raw[s]))
    want = []
    for s in range(n):
        mine = (bool(dq[s] or ff[s]), raw[s])
        want.append(1 + sum(1 for other in sides.values() if other < mine))
    if m.get("ranks") != want:
        findings.append(f"ranks {m.get('ranks')!r}, the places are {want} (raw {raw})")
    return findings


def match_fault_findings(
    m: dict[str, Any], tally: dict[str, list[int]], dq: list[bool]
) -> list[tuple[str, str]]:
    """A match line's fault columns and disqualifications against its deals' faults, as
    ``read_faults`` counted them (every game's match line has them; docs/results.md).
    Returns (what, message), what being "keys", "tally" or "disqualified"."""
    findings: list[tuple[str, str]] = []
    mf = m.get("faults")
    if not isinstance(mf, dict) or set(mf) != set(tally):
        findings.append(("keys", f"match faults {mf!r}"))
    elif any(mf[col] != tally[col] for col in tally):
        findings.append(("tally", f"match faults {mf}, the deals' faults count {tally}"))
    if m.get("disqualified") != dq:
        findings.append(
            ("disqualified", f"match {m.get('disqualified')!r}, the deals' faults say {dq}")
        )
    return findings


def load_jsonl(path: Path) -> list[dict[str, Any]]:
    """The complete lines of a JSON Lines file; a torn last line (no newline) is ignored,
    as results.md tells readers to."""
    data = path.read_text(encoding="utf-8")
    lines = data.split("\n")
    if not data.endswith("\n"):
        lines = lines[:-1]
    return [json.loads(line) for line in lines if line.strip()]


# ------------------------------------------------------------------------ the audit


class _Audit:
    """The findings and coverage of one run; one instance per ``audit_run`` call."""

    def __init__(self, coverage: Counter[str]) -> None:
        self.findings: list[Finding] = []
        self.coverage = coverage

    def error(self, match: str | None, deal: int | None, check: str, detail: str) -> None:
        self.findings.append(Finding("error", match, deal, check, detail))

    def doc(self, match: str | None, deal: int | None, check: str, detail: str) -> None:
        self.findings.append(Finding("doc", match, deal, check, detail))

    # ---------------------------------------------------------------- format (results.md)

    def schema(
        self,
        obj: dict[str, Any],
        fields: dict[str, type | tuple[type, ...]],
        kind: str,
        extra_ok: tuple[str, ...] = (),
    ) -> None:
        m, d = obj.get("match"), obj.get("deal")
        for f, ty in fields.items():
            if f not in obj:
                self.doc(m, d, f"{kind} fields", f"missing field {f!r}")
            elif not isinstance(obj[f], ty) or (ty is int and isinstance(obj[f], bool)):
                self.doc(m, d, f"{kind} fields", f"{f!r} has type {type(obj[f]).__name__}")
        for f in obj:
            if f not in fields and f not in extra_ok:
                self.doc(m, d, f"{kind} fields", f"undocumented field {f!r}")

    def nested_types(self, r: dict[str, Any]) -> None:
        m, d = r.get("match"), r.get("deal")

        def bad(msg: str) -> None:
            self.doc(m, d, "replay nested types", msg)

        for f in ("final_bids", "tricks_won", "scores", "totals"):
            if not is_ints(r.get(f)):
                bad(f"{f} is not 4 ints: {r.get(f)!r}")
        seats = r.get("seats")
        if not (
            isinstance(seats, list) and len(seats) == 4 and all(isinstance(x, str) for x in seats)
        ):
            bad("seats is not 4 strings")
        for h in r.get("hands") or []:
            if not (isinstance(h, list) and all(isinstance(c, str) and len(c) == 2 for c in h)):
                bad(f"hand codes are not 2-character strings: {h!r}")
        for t in r.get("tricks") or []:
            if not isinstance(t, dict) or set(t) != {"leader", "cards", "winner"}:
                bad(f"trick object keys {sorted(t) if isinstance(t, dict) else t!r}")
                continue
            for pc in t["cards"] if isinstance(t["cards"], list) else []:
                if not (
                    isinstance(pc, list)
                    and len(pc) == 2
                    and isinstance(pc[0], int)
                    and isinstance(pc[1], str)
                ):
                    bad(f"trick card entry {pc!r} is not [seat, code]")
        for b in r.get("bids") or []:
            if r.get("variant") == "classic":
                if not isinstance(b, str):
                    bad(f"classic bid {b!r} is not a code")
            elif not (isinstance(b, dict) and set(b) == {"cards", "op"}):
                bad(f"target bid {b!r} is not {{cards, op}}")
        for f in r.get("faults") or []:
            if not (isinstance(f, dict) and set(f) == FAULT_KEYS):
                bad(f"fault object keys {sorted(f) if isinstance(f, dict) else f!r}")
        sc = r.get("scoring")
        if sc is not None and not (
            isinstance(sc, dict)
            and set(sc) == {"method", "multiplier"}
            and sc["method"] in ("1", "2", "3", "2+3")
            and isinstance(sc["multiplier"], int)
        ):
            bad(f"scoring object {sc!r}")

    # ---------------------------------------------------------------- one deal

    def deal(
        self, variant: str, r: dict[str, Any], prev: dict[str, Any] | None
    ) -> tuple[list[int], list[int]] | None:
        """Check one deal against the rulings; ``prev`` is the match's previous deal line.
        Returns (tricks won, final bids) as the oracle computes them, or None when the line
        is too broken to go on."""
        mid, deal_no = r.get("match"), r.get("deal")

        def err(check: str, detail: str) -> None:
            self.error(mid, deal_no, check, detail)

        # ---- hands (C1, C2; T1)
        hands_raw = r.get("hands")
        if not (isinstance(hands_raw, list) and len(hands_raw) == 4):
            err("hands C1", "not 4 hands")
            return None
        hands: list[list[Card]] = []
        for s, h in enumerate(hands_raw):
            parsed = [parse_card(c) for c in h] if isinstance(h, list) else [None]
            cards = [c for c in parsed if c is not None]
            if len(cards) != len(parsed):
                err("hands C1", f"seat {s} has bad card codes {h!r}")
                return None
            if len(cards) != 13:
                err("hands C1", f"seat {s} holds {len(cards)} cards, not 13")
            if cards != sorted(cards, key=hand_sort_key):
                self.doc(
                    mid, deal_no, "hands sorted", f"seat {s} hand not sorted S,H,D,C by rank: {h!r}"
                )
            hands.append(cards)
        deck = [c for h in hands for c in h]
        if len(deck) != 52 or len(set(deck)) != 52:
            err(
                "hands C1",
                f"hands are not the 52-card deck ({len(deck)} cards, {len(set(deck))} distinct)",
            )
        for s, h in enumerate(hands):
            if all(c[0] in NUMERALS for c in h):
                err("redeal C2", f"seat {s} holds only numerals: {h!r}")
            if all(c[0] in COURTS for c in h):
                err("redeal C2", f"seat {s} holds only A/K/Q/J: {h!r}")
        if r.get("redeals"):
            self.coverage["redeals"] += 1

        # ---- direction (C6; T1)
        direction = r.get("direction")
        if not isinstance(deal_no, int) or direction != expected_direction(deal_no):
            err("direction C6", f"deal {deal_no!r} is played {direction!r}")
        if direction not in ("ccw", "cw"):
            return None
        assert isinstance(direction, str)

        # ---- dealer (C7; T1): deal 1 is the seed's choice; later the lowest total, a tie
        # going to the tied seat that comes first after the previous dealer in the new deal's
        # direction (the previous dealer itself comes last in that cycle).
        dealer = r.get("dealer")
        if not (isinstance(dealer, int) and 0 <= dealer < 4):
            err("dealer C7", f"dealer {dealer!r} is not a seat")
        elif prev is not None and is_ints(prev.get("totals")) and prev.get("dealer") in range(4):
            tot = prev["totals"]
            tied = [s for s in range(4) if tot[s] == min(tot)]
            order, s = [], prev["dealer"]
            for _ in range(4):
                s = next_seat(s, direction)
                order.append(s)
            want = next(s for s in order if s in tied)
            if len(tied) > 1:
                self.coverage["dealer tie"] += 1
            if dealer != want:
                err(
                    "dealer C7",
                    f"dealer {dealer}, expected {want} (previous totals {tot}, previous "
                    f"dealer {prev['dealer']}, {direction})",
                )

        # ---- bids (C3, C4; T2, T3)
        bids = r.get("bids")
        if not (isinstance(bids, list) and len(bids) == 4):
            err("bids C3/T2", "not 4 bids")
            return None
        trumps: list[str | None]
        if variant == "classic":
            parsed = [parse_card(b) for b in bids]
            bid_cards = [c for c in parsed if c is not None]
            if len(bid_cards) != 4:
                err("bid C3", f"bad bid card in {bids!r}")
                return None
            for s in range(4):
                if bid_cards[s] not in hands[s]:  # C3: one card of its own hand
                    err("bid C3", f"seat {s} bid {bid_cards[s]}, not in its hand")
            vals = [value(c) for c in bid_cards]
            high = max(range(4), key=lambda s: classic_bid_key(bid_cards[s]))  # C4
            highs = {high}
            trumps = [c[1] for c in bid_cards]  # C4: the high bid card's suit is trump
        else:
            decls: list[Declaration] = []
            for s in range(4):
                try:
                    decls.append(declaration(bids[s]))
                except ValueError as e:
                    err("declaration T2", f"seat {s}: {e}")
                    return None
                for c in decls[s].cards:
                    if c not in hands[s]:
                        err("declaration T2", f"seat {s} declared {c}, not in its hand")
            vals = [d.target for d in decls]
            highs = target_high_bidders(decls)  # T3
            trumps = [d.suit for d in decls]  # T3: NO TRUF winner: no trump
            if any(decls[s].kind == "notruf" for s in highs):
                self.coverage["NO TRUF wins"] += 1
        located = {
            f["decision"]: f
            for f in (r.get("faults") if isinstance(r.get("faults"), list) else [])
            if isinstance(f, dict) and isinstance(f.get("decision"), int)
        }  # results.md, fault records: each names its decision and the action played
        for s in range(4):  # the bids are decisions 1..4, seats 0..3
            fault = located.get(s + 1)
            if fault is None:
                continue
            self.coverage["fault located"] += 1
            # rules.md house choice 6: the lowest card of the hand; in target, declared single
            low = min(hands[s], key=hand_sort_key)
            if variant == "classic":
                logged, want = f"bid {bids[s]}", f"bid {low}"
            else:
                b = bids[s] if isinstance(bids[s], dict) else {}
                cards = b.get("cards") if isinstance(b.get("cards"), list) else []
                logged = f"declare {'+'.join(map(str, cards))} {b.get('op')}"
                want = f"declare {low} single"
            if fault.get("seat") != s or fault.get("played") != logged:
                err("fault location", f"seat {s} bid {bids[s]!r}, the fault says {fault!r}")
            elif logged != want:
                err("fallback", f"seat {s}'s fallback bid {logged!r}, documented {want!r}")
        total = sum(vals)
        if r.get("bid_total") != total:
            err("bid_total", f"logged {r.get('bid_total')!r}, computed {total}")
        logged_high = r.get("high_bidder")
        if logged_high not in highs:
            err(
                "high bidder C4/T3",
                f"logged {logged_high!r}, computed {sorted(highs)} (bids {bids!r})",
            )
        high = logged_high if logged_high in highs else min(highs)
        trump = trumps[high]
        if r.get("trump") != trump:
            err("trump C4/T3", f"logged {r.get('trump')!r}, computed {trump!r}")

        # ---- mode (C5; T4)
        logged_mode, chosen = r.get("mode"), r.get("mode_chosen")
        if total == 13:  # the high bidder's choice, whichever it made
            self.coverage[f"total 13, {logged_mode} chosen"] += 1
            if logged_mode not in ("atas", "bawah"):
                err("mode C5/T4", f"total 13 and mode {logged_mode!r}")
            if chosen is not True:
                err("mode_chosen C5/T4", f"total 13 but mode_chosen {chosen!r}")
            mode = "atas" if logged_mode == "atas" else "bawah"
            fault = located.get(5)  # the mode choice is decision 5
            if fault is not None:
                self.coverage["fault located"] += 1
                if fault.get("seat") != logged_high or fault.get("played") != f"mode {mode}":
                    err("fault location", f"the mode choice was {mode}, the fault says {fault!r}")
                elif mode != "atas":  # rules.md house choice 6: atas
                    err("fallback", f"the mode choice's fallback is atas, not {mode}")
        else:
            mode = "atas" if total > 13 else "bawah"
            if logged_mode != mode:
                err("mode C5/T4", f"total {total} but mode {logged_mode!r}")
            if chosen is not False:
                err("mode_chosen C5/T4", f"total {total} but mode_chosen {chosen!r}")
        # C5: at 13, atas adds 1 to every bid, bawah subtracts 1; T4: targets do not change
        shift = (1 if mode == "atas" else -1) if variant == "classic" and total == 13 else 0
        final_bids = [v + shift for v in vals]
        if r.get("final_bids") != final_bids:
            err(
                "final bids C5/T4",
                f"logged {r.get('final_bids')!r}, computed {final_bids} (total {total}, {mode})",
            )

        # ---- tricks (C6, C8..C12; T5)
        tricks = r.get("tricks")
        if not (isinstance(tricks, list) and len(tricks) == 13):
            err("tricks C1", "not 13 tricks")
            return None
        remaining = [set(h) for h in hands]
        broken = False  # C10: a trump was played in an earlier trick of this deal
        leader = high  # C8 / T5: the high bidder leads trick 1
        won = [0, 0, 0, 0]
        for ti, t in enumerate(tricks, 1):
            if not isinstance(t, dict):
                err("tricks C1", f"trick {ti} is {t!r}")
                return None
            if t.get("leader") != leader:  # C8: the winner of each trick leads the next
                err("lead C8/T5", f"trick {ti} leader {t.get('leader')!r}, expected {leader}")
            trick_cards = t.get("cards")
            if not (isinstance(trick_cards, list) and len(trick_cards) == 4):
                err("tricks C1", f"trick {ti} does not have 4 cards: {trick_cards!r}")
                return None
            seat = leader
            played: list[tuple[int, Card]] = []
            led = ""
            for pi, entry in enumerate(trick_cards):
                ps, code = entry if isinstance(entry, list) and len(entry) == 2 else (None, None)
                card = parse_card(code)
                if ps != seat:  # C6: play goes round in the deal's direction
                    err(
                        "turn order C6",
                        f"trick {ti} card {pi + 1} by seat {ps!r}, expected {seat} ({direction})",
                    )
                if card is None:
                    err("card", f"trick {ti}: bad card {entry!r}")
                    return None
                hand = remaining[seat]
                decision = 4 + (total == 13) + 4 * (ti - 1) + pi + 1
                fault = located.get(decision)
                if fault is not None:
                    want = self.fallback_card(variant, hand, trump, broken, led if pi else None)
                    self.coverage["fault located"] += 1
                    if fault.get("seat") != seat or fault.get("played") != f"play {card}":
                        err("fault location", f"trick {ti}: {entry!r}, the fault says {fault!r}")
                    elif want != card:
                        err("fallback", f"trick {ti}: seat {seat}'s fallback {card}, not {want}")
                if card not in hand:
                    err(
                        "card in hand",
                        f"trick {ti}: seat {seat} played {card}, which it does not hold",
                    )
                if pi == 0:
                    led = card[1]
                    if variant == "classic" and card[1] == trump and not broken:
                        # C10: no trump lead before trump is broken, unless only trumps are held
                        self.coverage["trump led before broken"] += 1
                        if any(x[1] != trump for x in hand):
                            err(
                                "trump lead C10",
                                f"trick {ti}: seat {seat} led trump {card} before trump was broken "
                                f"holding {sorted(hand, key=hand_sort_key)}",
                            )
                elif card[1] != led and any(x[1] == led for x in hand):
                    # C9 / T5: follow the led suit if you can. C11: a face-down (trump) lead
                    # is a trump lead, and must be followed with trump too.
                    err(
                        "follow C9/C11/T5",
                        f"trick {ti}: seat {seat} played {card} on a {led} lead holding "
                        f"{sorted(x for x in hand if x[1] == led)}",
                    )
                hand.discard(card)
                played.append((seat, card))
                seat = next_seat(seat, direction)
            # C12 / T5: the highest trump wins; if none (or no trump), the highest of the led suit
            ruffs = [(s, c) for s, c in played if trump is not None and c[1] == trump]
            contenders = ruffs or [(s, c) for s, c in played if c[1] == led]
            w = max(contenders, key=lambda x: rank_idx(x[1]))[0]
            if t.get("winner") != w:
                err(
                    "winner C12/T5",
                    f"trick {ti}: winner {t.get('winner')!r}, computed {w} "
                    f"({trick_cards}, trump {trump})",
                )
            if ruffs:
                broken = True
            won[w] += 1
            leader = w
        for s in range(4):
            if remaining[s]:
                err("card in hand", f"seat {s} did not play {sorted(remaining[s])}")
        if r.get("tricks_won") != won:
            err("tricks_won", f"logged {r.get('tricks_won')!r}, computed {won}")

        # ---- scores (C13; T6)
        scores = (
            self.classic_scores(r.get("scoring"), mode, final_bids, won)
            if variant == "classic"
            else self.target_scores(mode, final_bids, won)
        )
        if r.get("scores") != scores:
            err(
                "scores C13/T6",
                f"logged {r.get('scores')!r}, computed {scores} (final bids {final_bids}, "
                f"won {won}, {mode})",
            )
        base = prev["totals"] if prev is not None and is_ints(prev.get("totals")) else [0] * 4
        logged = r.get("scores")
        totals = [base[s] + logged[s] for s in range(4)] if is_ints(logged) else None
        if r.get("totals") != totals:
            err(
                "totals",
                f"logged {r.get('totals')!r}, previous {base} + scores {logged!r} = {totals}",
            )
        return won, final_bids

    @staticmethod
    def fallback_card(
        variant: str, hand: set[Card], trump: str | None, broken: bool, led: str | None
    ) -> Card | None:
        """rules.md house choice 6: the first legal card by suit S, H, D, C then rank: of
        the led suit when the seat holds it (C9), else any; leading in classic, no trump
        before trump is broken unless only trumps are held (C10)."""
        legal = set(hand)
        if led is not None and any(c[1] == led for c in hand):
            legal = {c for c in hand if c[1] == led}
        elif led is None and variant == "classic" and trump is not None and not broken:
            legal = {c for c in hand if c[1] != trump} or legal
        return min(legal, key=hand_sort_key) if legal else None

    def classic_scores(
        self, scoring: object, mode: str, final_bids: list[int], won: list[int]
    ) -> list[int]:
        """C13: d = tricks - bid (atas) or bid - tricks (bawah), on the C5-adjusted bids.
        Method 1: d. Method 2: bawah, adjusted bid 0, no trick: +5. Method 3: a positive d
        scores d x multiplier. 2+3: both, the +5 replacing the score, not multiplied."""
        sc = scoring if isinstance(scoring, dict) else {}
        method, mult = sc.get("method", "1"), sc.get("multiplier", 2)
        scores = []
        for b, w in zip(final_bids, won, strict=True):
            d = w - b if mode == "atas" else b - w
            v = d
            if method in ("3", "2+3") and d > 0:
                self.coverage[f"method {method}: positive d multiplied"] += 1
                v = d * mult
            if mode == "bawah" and b == -1 and w == 0:
                self.coverage["bawah: bid cut to -1, no trick"] += 1
            if mode == "bawah" and b == 0 and w == 0:
                self.coverage[f"method {method}: bawah, bid 0, no trick"] += 1
                if method in ("2", "2+3"):
                    v = 5
            scores.append(v)
        return scores

    def target_scores(self, mode: str, targets: list[int], won: list[int]) -> list[int]:
        """T6: exact: + target. Otherwise diff = |tricks - target|: atas over -diff, under
        -2 diff; bawah over -2 diff, under -diff. Target 0 and no trick: + the highest
        target of the deal; target 0 and some tricks: the normal penalty and -2 more."""
        scores = []
        for tg, w in zip(targets, won, strict=True):
            if w == tg:
                v = tg
            else:
                diff, over = abs(w - tg), w > tg
                if mode == "atas":
                    v = -diff if over else -2 * diff
                else:
                    v = -2 * diff if over else -diff
            if tg == 0 and w == 0:
                self.coverage["target 0, no trick"] += 1
                v = max(targets)
            elif tg == 0:
                self.coverage["target 0, some tricks"] += 1
                v -= 2
            scores.append(v)
        return scores

    # ---------------------------------------------------------------- the run

    def run(self, directory: Path) -> None:
        tj = json.loads((directory / "tournament.json").read_text(encoding="utf-8"))
        game = tj.get("game", {})
        variant = game.get("variant")
        deals_per_match = game.get("deals") or DEFAULT_DEALS.get(variant, 0)
        replays = load_jsonl(directory / "replays.jsonl")
        matches = load_jsonl(directory / "matches.jsonl")
        entrants = {e.get("name") for e in tj.get("entrants", [])}

        by_match: defaultdict[object, list[dict[str, Any]]] = defaultdict(list)
        for r in replays:
            by_match[r.get("match")].append(r)
        ids = [m.get("match") for m in matches]
        dup = sorted(str(k) for k, n in Counter(ids).items() if n > 1)
        if dup:
            self.error(None, None, "match ids", f"duplicate match ids {dup}")
        # results.md: replay lines of a match with no match line are ignored
        for m in matches:
            self.match(
                m, by_match.get(m.get("match"), []), variant, game, deals_per_match, entrants
            )

    def match(
        self,
        m: dict[str, Any],
        lines: list[dict[str, Any]],
        variant: str,
        game: dict[str, Any],
        deals_per_match: int,
        entrants: set[object],
    ) -> None:
        mid = m.get("match")
        self.schema(m, MATCH_FIELDS, "match")
        rs = sorted(lines, key=lambda r: r["deal"] if isinstance(r.get("deal"), int) else 0)
        numbers = [r.get("deal") for r in rs]
        if numbers != list(range(1, len(rs) + 1)):
            self.error(mid, None, "deal numbers", f"deals are {numbers}")
        if len(rs) != deals_per_match:  # C1 / T1 (or the configured number)
            self.error(
                mid, None, "deal count C1/T1", f"{len(rs)} deals, expected {deals_per_match}"
            )
        if m.get("deals") != len(rs):
            self.error(
                mid, None, "match deals", f"match says {m.get('deals')!r}, {len(rs)} deal lines"
            )
        prev: dict[str, Any] | None = None
        exact = [0, 0, 0, 0]
        tally = {col: [0] * 4 for col in ("timeout", "illegal", "disconnect")}
        disqualified = [False] * 4
        for r in rs:
            dn = r.get("deal")
            self.schema(
                r, REPLAY_FIELDS, "replay", extra_ok=("scoring",) if variant == "classic" else ()
            )
            self.nested_types(r)
            if variant == "classic":
                if "scoring" not in r:
                    self.doc(mid, dn, "replay fields", "classic line without 'scoring'")
                elif r["scoring"] != game.get("scoring"):
                    self.error(
                        mid,
                        dn,
                        "scoring C13",
                        f"replay {r['scoring']!r} != tournament {game.get('scoring')!r}",
                    )
            if r.get("variant") != variant or r.get("game") != "truf" or r.get("schema") != 1:
                self.error(
                    mid,
                    dn,
                    "header",
                    f"schema/game/variant "
                    f"{r.get('schema')!r}/{r.get('game')!r}/{r.get('variant')!r}",
                )
            if r.get("seats") != m.get("seats"):
                self.error(
                    mid,
                    dn,
                    "seats",
                    f"replay seats {r.get('seats')!r} != match seats {m.get('seats')!r}",
                )
            for name in r.get("seats") or []:
                if name not in entrants:
                    self.doc(mid, dn, "seats", f"seat name {name!r} is not an entrant")
            source = r.get("deal_source")
            if source != "seed" and not str(source).startswith("file:"):
                self.doc(mid, dn, "deal_source", f"value {source!r}")
            raw_faults = r.get("faults")
            faults: list[Any] = raw_faults if isinstance(raw_faults, list) else []
            if faults:
                # the fallback moves made for these faults are checked below like any move
                self.coverage["deals with faults"] += 1
            for f in faults:
                if not isinstance(f, dict):
                    continue
                kind, seat = f.get("kind"), f.get("seat")
                self.coverage[f"fault {kind}"] += 1
                if kind not in FAULT_COLUMN:
                    self.doc(mid, dn, "fault kind", f"undocumented kind {kind!r}")
                if f.get("deal") != dn:
                    self.doc(
                        mid,
                        dn,
                        "fault deal",
                        f"fault of deal {f.get('deal')!r} listed in deal {dn!r}",
                    )
                if not (isinstance(seat, int) and 0 <= seat < 4):
                    self.doc(mid, dn, "fault seat", f"seat {seat!r}")
                    continue
                if kind in FAULT_COLUMN:
                    tally[FAULT_COLUMN[kind]][seat] += 1
                if f.get("disqualified") is True:
                    disqualified[seat] = True
            res = self.deal(variant, r, prev)
            if res:
                won, final_bids = res
                for s in range(4):
                    exact[s] += won[s] == final_bids[s]
            prev = r
        totals = m.get("totals")
        if rs:
            if totals != rs[-1].get("totals"):
                self.error(
                    mid,
                    None,
                    "match totals",
                    f"{totals!r} != last deal's totals {rs[-1].get('totals')!r}",
                )
            if all(is_ints(r.get("scores")) for r in rs):
                summed = [sum(r["scores"][s] for r in rs) for s in range(4)]
                if totals != summed:
                    self.error(
                        mid, None, "match totals", f"{totals!r} != the sum of deal scores {summed}"
                    )
        if is_ints(totals):  # C14/T7 give the raw order; the places put offenders last
            for finding in place_findings(m, ranks_of(totals)):
                self.error(mid, None, "ranks C14/T7", f"{finding} for totals {totals}")
        if m.get("exact") != exact:
            self.error(mid, None, "exact", f"match exact {m.get('exact')!r}, computed {exact}")
        scores = [r.get("scores") for r in rs]  # the doc: deal_points are each deal's scores
        if m.get("deal_points") != scores:
            self.error(mid, None, "deal_points", f"{m.get('deal_points')!r}, deals say {scores}")
        if m.get("teams") != [[0], [1], [2], [3]]:  # every seat is its own team
            self.error(mid, None, "teams", f"teams {m.get('teams')!r}")
        for f in ("totals", "ranks", "raw_ranks", "exact"):
            if not is_ints(m.get(f)):
                self.doc(mid, None, "match nested types", f"{f} {m.get(f)!r}")
        for f in ("disqualified", "forfeit"):
            v = m.get(f)
            if not (isinstance(v, list) and len(v) == 4 and all(isinstance(x, bool) for x in v)):
                self.doc(mid, None, "match nested types", f"{f} {v!r}")
        self.match_faults(mid, m, tally, disqualified)

    def match_faults(
        self, mid: str | None, m: dict[str, Any], tally: dict[str, list[int]], dq: list[bool]
    ) -> None:
        """A match line's fault columns and disqualifications, against its deals' faults
        (``match_fault_findings``)."""
        checks = {"keys": "match faults keys", "tally": "fault tally"}
        for what, message in match_fault_findings(m, tally, dq):
            self.doc(mid, None, checks.get(what, what), message)


def audit_run(directory: Path, coverage: Counter[str] | None = None) -> list[Finding]:
    """Every finding of the oracle on one results directory (empty: the log agrees with
    the rulings and with docs/results.md). ``coverage``, if given, is counted up with the
    rare situations the run exercised (a mode choice at 13, a +5, a fault...)."""
    audit = _Audit(coverage if coverage is not None else Counter())
    audit.run(Path(directory))
    return audit.findings


if __name__ == "__main__":
    status = 0
    for arg in sys.argv[1:]:
        cover: Counter[str] = Counter()
        found = audit_run(Path(arg), cover)
        for finding in found:
            print(finding)
        print(f"{arg}: {len(found)} findings; coverage {dict(sorted(cover.items()))}")
        status |= bool(found)
    sys.exit(status)
