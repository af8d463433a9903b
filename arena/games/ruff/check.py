"""``arena check --game ruff``: play one bot through Ruff and Trump's edge cases.

Each case is a deal given card by card (``DealSpec``), brought by scripted moves to the
moment the bot's seat must decide: announcing after three announcements of 0, announcing
after an announcement equal to its own true ruff (F4), rubbing as the dealer when the
turned-up card is the trump ace and when the ace lies unseen in the head (F5), following a
suit it is void in (F7), and announcing when the ruff's 12 end the set (F9). The bot then
plays its seat to the end of the deal, the arena's seats playing their fallback (true
ruff, lowest discards, lowest card). Each case is at a table of its own (``check-01``...).
"""

from __future__ import annotations

from collections.abc import Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

from arena.core.cards import CARDS, SUIT_LETTERS, Card
from arena.games.ruff.actions import Action, Announce
from arena.games.ruff.deal import DealSpec
from arena.games.ruff.rules import Form, RuffRules
from arena.games.ruff.state import Phase, RuffMatch
from arena.referee.check import Report
from arena.referee.checkplay import Script, check_cases

DOUBLE = RuffRules()
SINGLE3 = RuffRules(form=Form.SINGLE, seats=3)


def given_deal(rules: RuffRules, hands: dict[int, str], head: str, dealer: int) -> DealSpec:
    """A whole deal: ``hands[s]`` starts seat ``s``'s hand and ``head`` the head (its
    first card turned up); the rest of the deck fills them in card order."""
    named = {s: [Card.parse(c) for c in text.split()] for s, text in hands.items()}
    top = [Card.parse(c) for c in head.split()]
    used = {c for h in named.values() for c in h} | set(top)
    rest = [c for c in CARDS if c not in used]
    out = []
    for seat in range(rules.seats):
        mine = named.get(seat, [])
        need = rules.hand_size - len(mine)
        out.append(tuple(mine + rest[:need]))
        rest = rest[need:]
    return DealSpec(tuple(out), tuple(top + rest), dealer, "check")


@dataclass(frozen=True)
class Case:
    """One edge case: a given deal and starting scores, the announcements made before the
    bot's seat is asked (None: the seat's true ruff, ``TIE``: the bot's true ruff), and the
    phase in which the bot is first asked."""

    name: str
    why: str
    rules: RuffRules
    deal: DealSpec
    seat: int  # the bot's
    phase: Phase
    announce: tuple[tuple[int, int | None], ...] = ()
    scores: tuple[int, ...] = ()

    def start(self, match_id: str) -> RuffMatch:
        """The match at the moment the bot's seat is first asked in ``phase``."""
        m = RuffMatch(self.rules, match_id=match_id, deals=[self.deal], scores=self.scores)
        for seat, number in self.announce:
            true = m.ruffs[self.seat if number == TIE else seat]
            m.apply(seat, Announce(true if number is None or number == TIE else number))
        while not (m.phase is self.phase and m.to_act() == (self.seat,)):
            (seat,) = m.to_act()
            m.apply(seat, m.fallback_action(seat))
        return m


TIE = -1

CASES: tuple[Case, ...] = (
    Case(
        "announcing after three announcements of 0",
        "F4: any number from 0 to the true ruff; were all 0, eldest would win the ruff",
        DOUBLE,
        given_deal(DOUBLE, {}, "7H", dealer=3),
        3,
        Phase.ANNOUNCE,
        ((0, 0), (1, 0), (2, 0)),
    ),  # fmt: skip
    Case(
        "announcing after an announcement equal to its own ruff",
        "F4: equal announcements go to the seat that announced first",
        DOUBLE,
        given_deal(DOUBLE, {0: "AS KS QS", 3: "AD KD QD"}, "7H", dealer=3),
        3,
        Phase.ANNOUNCE,
        ((0, TIE), (1, 0), (2, 0)),
    ),  # fmt: skip
    Case(
        "the dealer rubs: the turned-up card is the trump ace",
        "F5: no seat holds the ace, so the dealer takes the head and discards four",
        DOUBLE,
        given_deal(DOUBLE, {}, "AH", dealer=2),
        2,
        Phase.RUB,
    ),  # fmt: skip
    Case(
        "the dealer rubs: the trump ace lies unseen in the head",
        "F5: the dealer rubs the head's top four; the rest of the head is dead",
        SINGLE3,
        given_deal(SINGLE3, {}, "7H 2S 3S 4S 5S AH", dealer=1),
        1,
        Phase.RUB,
    ),  # fmt: skip
    Case(
        "a void in the led suit",
        "F7: follow suit if you can; if not, any card, trumping optional",
        DOUBLE,
        given_deal(
            DOUBLE, {0: "2S 3S", 1: "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD 2H", 2: "AH"}, "7H", dealer=3
        ),
        1,
        Phase.PLAY,
    ),  # fmt: skip
    Case(
        "announcing when the ruff's 12 end the set",
        "F9: the ruff is scored as announcing ends; at 52 the match ends, no rub, no play",
        DOUBLE,
        given_deal(DOUBLE, {}, "7H", dealer=3),
        3,
        Phase.ANNOUNCE,
        scores=(45, 45),
    ),  # fmt: skip
)


def find_cases() -> list[Case]:
    """The cases in order; each is checked at a table of its own."""
    return list(CASES)


def describe(m: RuffMatch, seat: int, rid: int | None) -> str:
    """The request, in plain words: who is asked what, with which cards and options."""
    v = m.view(seat)
    parts = [
        f"{f'request {rid}' if rid else 'the request'}: seat {seat}, deal {v.deal}, "
        f"asked to {v.phase}",
        f"cards {' '.join(c.code for c in v.hand)}",
        f"trump {SUIT_LETTERS[v.trump]} (turned {v.turned.code})",
        f"scores {list(v.scores)} (set {v.set_points})",
    ]
    if v.announcements:
        parts.append("announced " + ", ".join(f"seat {s}: {n}" for s, n in v.announcements))
    if v.trick:
        parts.append(f"open trick [{', '.join(f'seat {s}: {c.code}' for s, c in v.trick)}]")
    legal = m.legal_actions(seat)
    if m.phase is Phase.RUB:
        parts.append(f"legal: any four of its {len(v.hand)} cards ({len(legal)} discards)")
    elif m.phase is Phase.ANNOUNCE:
        parts.append(f"legal: announce 0 to {len(legal) - 1}")
    else:
        parts.append(f"legal: {', '.join(str(a) for a in legal)}")
    return "; ".join(parts)


def scripted(m: RuffMatch, seat: int) -> Action:
    """The arena's seats: their fallback (true ruff, lowest discards, lowest card)."""
    return m.fallback_action(seat)


def _a_finished_match() -> RuffMatch:
    m = RuffMatch(RuffRules(form=Form.SINGLE, seats=2), match_id="check-results", seed="check")
    while not m.is_over:
        (seat,) = m.to_act()
        m.apply(seat, m.fallback_action(seat))
    return m


SCRIPT = Script(
    play=scripted,
    describe=describe,
    deal_of=lambda m: m.deal_no,
    finished_match=_a_finished_match,
)


def check_bot(entrant: Any, cases: Sequence[Case]) -> Coroutine[Any, Any, Report]:
    """Ask ``entrant`` every case, then send it a match result and ask once more."""
    return check_cases(entrant, cases, SCRIPT)
