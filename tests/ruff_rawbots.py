"""Ruff and Trump bots on the raw generated stub, written from the proto alone
(ruff.proto's messages and comments, no arena.wire, no arena.games.ruff): what a bot in
another language does. Used by tests/test_ruff_grpc.py, each in a thread against an
in-process referee."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations
from math import comb

from rawgame import RawBot, game_hello

from arena._proto.truf.arena.v1 import arena_pb2 as pb
from arena._proto.truf.arena.v1 import ruff_pb2 as rpb

RANKS, SUITS = "23456789TJQKA", "SHDC"


def card_order(code: str) -> tuple[int, int]:
    """ruff.proto's card order: by suit (S, H, D, C), then rank (2 .. A)."""
    return SUITS.index(code[1].upper()), RANKS.index(code[0].upper())


def rank(code: str) -> int:
    return RANKS.index(code[0].upper())


def text(action: rpb.RuffAction) -> str:
    """The replay log's text of an action (docs/results.md), from the message alone."""
    kind = action.WhichOneof("action")
    if kind == "announce":
        return f"announce {action.announce}"
    if kind == "play":
        return f"play {action.play.upper()}"
    cards = sorted((c.upper() for c in action.discard.cards), key=card_order)
    return "discard " + " ".join(cards)


def ruff_hello(token: str, name: str, games: tuple[str, ...] = ("ruff",)) -> pb.PlayRequest:
    return game_hello(token, name, games)


def discard_sets(view: rpb.RuffView) -> list[tuple[str, ...]]:
    """ruff.proto: a discard's index counts the sets of four of RuffView.hand in
    lexicographic order of their positions."""
    return list(combinations(view.hand, 4))


class RawRuff(RawBot):
    """Answers index 0: announces 0, discards the hand's first four, plays the first card."""

    game = "ruff"

    def choose(self, req: pb.DecisionRequest, answer: pb.Answer) -> str:
        answer.index = 0
        if req.ruff.HasField("discard"):
            return text(rpb.RuffAction(discard=rpb.RuffDiscard(cards=req.ruff.view.hand[:4])))
        return text(req.ruff.legal_actions[0])


class ByValue(RawRuff):
    """Answers by value: announces its true ruff (the last listed), discards its four
    lowest-ranked cards in lower case and reversed, plays its first card in lower case."""

    def choose(self, req: pb.DecisionRequest, answer: pb.Answer) -> str:
        decision = req.ruff
        if decision.HasField("discard"):
            low = sorted(decision.view.hand, key=rank)[:4]
            pick = rpb.RuffAction(discard=rpb.RuffDiscard(cards=[c.lower() for c in low[::-1]]))
        elif decision.view.phase == rpb.RUFF_PHASE_ANNOUNCE:
            pick = rpb.RuffAction(announce=decision.legal_actions[-1].announce)
        else:
            pick = rpb.RuffAction(play=decision.legal_actions[0].play.lower())
        answer.ruff.CopyFrom(pick)
        return text(pick)


class Spy(RawRuff):
    """Plays a seeded random legal index (a discard's among the hand's sets of four);
    ``views`` is what the test audits."""

    def choose(self, req: pb.DecisionRequest, answer: pb.Answer) -> str:
        rng = random.Random(f"{self.token}:{req.match_id}:{req.request_id}")
        if req.ruff.HasField("discard"):
            sets = discard_sets(req.ruff.view)
            assert len(sets) == comb(len(req.ruff.view.hand), req.ruff.discard.count)
            answer.index = rng.randrange(len(sets))
            return text(rpb.RuffAction(discard=rpb.RuffDiscard(cards=sets[answer.index])))
        legal = req.ruff.legal_actions
        answer.index = rng.randrange(len(legal))
        return text(legal[answer.index])


def fallback(decision: rpb.RuffDecision) -> str:
    """ruff.proto's fallback: the true ruff (the last announcement listed); the four
    lowest-ranked cards outside trump, then the lowest trumps; the lowest-ranked legal
    card (ties in card order)."""
    view = decision.view
    if decision.HasField("discard"):
        hand = sorted(view.hand, key=lambda c: (c[1] == view.trump, rank(c), card_order(c)))
        return text(rpb.RuffAction(discard=rpb.RuffDiscard(cards=hand[:4])))
    if view.phase == rpb.RUFF_PHASE_ANNOUNCE:
        return text(decision.legal_actions[-1])
    plays = [a.play for a in decision.legal_actions]
    return text(rpb.RuffAction(play=min(plays, key=lambda c: (rank(c), card_order(c)))))


Misdeed = tuple[
    str, Callable[[rpb.RuffDecision], bool], Callable[[pb.Answer, rpb.RuffDecision], None]
]


def _announce(d: rpb.RuffDecision) -> bool:
    return d.view.phase == rpb.RUFF_PHASE_ANNOUNCE


def _play(d: rpb.RuffDecision) -> bool:
    return d.view.phase == rpb.RUFF_PHASE_PLAY


def _discard(d: rpb.RuffDecision) -> bool:
    return d.HasField("discard")


def _unheld(d: rpb.RuffDecision) -> str:
    return next(c for c in ("AS", "AH", "AD", "AC", "KS", "KH") if c not in d.view.hand)


MISDEEDS: list[Misdeed] = [
    # More than the true ruff (F4).
    ("announce too high", _announce,
     lambda a, d: setattr(a.ruff, "announce", d.legal_actions[-1].announce + 1)),
    # A card while announcing.
    ("play while announcing", _announce, lambda a, d: setattr(a.ruff, "play", d.view.hand[0])),
    # Three discards: not a discard at all.
    ("three discards", _discard, lambda a, d: a.ruff.discard.cards.extend(d.view.hand[:3])),
    # A card it does not hold among its four (F5).
    ("discard unheld", _discard,
     lambda a, d: a.ruff.discard.cards.extend([*d.view.hand[:3], _unheld(d)])),
    ("index past the discards", _discard,
     lambda a, d: setattr(a, "index", comb(len(d.view.hand), 4))),
    ("play unheld", _play, lambda a, d: setattr(a.ruff, "play", _unheld(d))),
    ("no card", _play, lambda a, d: setattr(a.ruff, "play", "1D")),
    ("no action", lambda d: True, lambda a, d: a.ruff.SetInParent()),
    ("truco action", lambda d: True, lambda a, d: setattr(a.truco, "play", "7O")),
]  # fmt: skip


class Cheater(RawRuff):
    """Commits each of MISDEEDS once, in order, each at the first request it fits, and
    otherwise answers index 0; for a misdeed it expects ruff.proto's fallback."""

    def __init__(self, address: str, token: str) -> None:
        super().__init__(address, token, "cheater")
        self.todo = list(MISDEEDS)
        self.done: list[tuple[str, int]] = []  # (misdeed, request id)

    def choose(self, req: pb.DecisionRequest, answer: pb.Answer) -> str:
        decision = req.ruff
        if self.todo and self.todo[0][1](decision):
            name, _, commit = self.todo.pop(0)
            commit(answer, decision)
            self.done.append((name, req.request_id))
            return fallback(decision)
        return super().choose(req, answer)


def names(misdeeds: Sequence[Misdeed]) -> list[str]:
    return [name for name, _, _ in misdeeds]
