"""What a Truco bot can work out from its view: the cards it has not seen, who plays
next, and its chances, estimated by dealing the unseen cards out at random and playing
the hand on with a simple policy (a Monte Carlo rollout)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from arena.games.truco.calls import TRUCO_LADDER, EnvidoCall, envido_accepted, falta_value
from arena.games.truco.cards import DECK, Card
from arena.games.truco.envido import EnvidoCount, envido_score
from arena.games.truco.tricks import hand_winner, trick_winner
from arena.games.truco.view import PlayView, TrucoView

STRONG_ENVIDO = 26  # a seat that called the Envido is read as holding this much


def team_of(seat: int) -> int:
    return seat % 2


def unseen(view: TrucoView) -> list[Card]:
    """Cards this seat has not seen: not its own, not played, not shown."""
    known = set(view.dealt)
    for play in view.plays:
        for trick in play.tricks:
            known.update(c for _, c in trick.cards)
        known.update(c for _, c in play.trick)
        if play.shown is not None:
            known.update(play.shown[1])
    return [c for c in DECK if c not in known]


def played_by(play: PlayView) -> dict[int, list[Card]]:
    out: dict[int, list[Card]] = {s: [] for s in play.seats}
    for trick in play.tricks:
        for s, c in trick.cards:
            out[s].append(c)
    for s, c in play.trick:
        out[s].append(c)
    return out


def leader_now(play: PlayView) -> int:
    """The seat that leads (or led) the open trick."""
    if play.trick:
        return play.trick[0][0]
    if not play.tricks:
        return play.mano
    last = play.tricks[-1]
    return last.leader if last.winner is None else last.winner


def sample_hands(view: TrucoView, rng: random.Random) -> dict[int, list[Card]]:
    """Every active seat's unplayed cards: this seat's own, the others' drawn at random."""
    play = view.current
    played = played_by(play)
    others = [s for s in play.seats if s not in play.folded and s != view.seat]
    needs = [3 - len(played[s]) for s in others]
    pool = rng.sample(unseen(view), sum(needs))
    hands: dict[int, list[Card]] = {view.seat: list(view.cards)}
    for s, need in zip(others, needs, strict=True):
        hands[s], pool = pool[:need], pool[need:]
    return hands


def greedy_card(seat: int, hand: Sequence[Card], trick: Sequence[tuple[int, Card]]) -> Card:
    """A plain policy: lead the best card; follow with the cheapest card that beats the
    other team, the cheapest card at all when the own team already wins or none beats."""
    ranked = sorted(hand, key=lambda c: c.strength)
    if not trick:
        return ranked[-1]
    ours = max((c.strength for s, c in trick if team_of(s) == team_of(seat)), default=0)
    theirs = max((c.strength for s, c in trick if team_of(s) != team_of(seat)), default=0)
    if ours > theirs:
        return ranked[0]
    beating = [c for c in ranked if c.strength > theirs]
    return beating[0] if beating else ranked[0]


def playout(view: TrucoView, hands: dict[int, list[Card]], first: Card | None = None) -> int:
    """Play the current hand's tricks to the end with ``greedy_card`` (this seat playing
    ``first`` now, if given); returns the team that wins them (R5)."""
    play = view.current
    order = play.seats
    results = [None if t.winner is None else team_of(t.winner) for t in play.tricks]
    trick = list(play.trick)
    leader = leader_now(play)
    hands = {s: list(h) for s, h in hands.items()}
    while True:
        i = order.index(leader)
        for s in order[i:] + order[:i]:
            if s not in hands or any(p == s for p, _ in trick):
                continue
            card = (
                first if (first is not None and s == view.seat) else greedy_card(s, hands[s], trick)
            )
            if s == view.seat:
                first = None
            hands[s].remove(card)
            trick.append((s, card))
        winner = trick_winner(trick, team_of)
        results.append(None if winner is None else team_of(winner))
        decided = hand_winner(results, team_of(play.mano))
        if decided is not None:
            return decided
        leader = trick[0][0] if winner is None else winner
        trick = []


def deals(
    view: TrucoView, rng: random.Random, samples: int, strong: int | None = None
) -> list[dict[int, list[Card]]]:
    """``samples`` random deals of the unseen cards. With ``strong`` (a seat that has
    just called), keep the deals that give it a 3 or better, as a caller's hand tends to
    hold (a crude reading of the call), while enough of them turn up."""
    out = []
    for _ in range(samples * 4 if strong is not None else samples):
        hands = sample_hands(view, rng)
        if strong is None or _is_strong(view, hands, strong):
            out.append(hands)
            if len(out) == samples:
                return out
    while len(out) < samples:
        out.append(sample_hands(view, rng))
    return out


def _is_strong(view: TrucoView, hands: dict[int, list[Card]], seat: int) -> bool:
    cards = hands.get(seat, []) + played_by(view.current).get(seat, [])
    return any(c.strength >= 10 for c in cards)


def trick_chance(
    view: TrucoView, samples: Sequence[dict[int, list[Card]]], first: Card | None = None
) -> float:
    """The chance this seat's team wins the tricks over the sampled deals (playing
    ``first`` now, if given): the same deals for every candidate card."""
    team = team_of(view.seat)
    return sum(playout(view, hands, first) == team for hands in samples) / len(samples)


def envido_chance(
    view: TrucoView, rng: random.Random, samples: int, strong: int | None = None
) -> float:
    """The chance this seat's team has the best envido in the current play (R9's ties:
    closer to mano), with every declaration made so far taken as it was declared; with
    ``strong`` (the seat that called), only deals that give it ``STRONG_ENVIDO`` or more
    count."""
    play = view.current
    count = EnvidoCount(view.envido_count)
    declared = {s: p for s, p in play.declarations if p is not None}
    mine = envido_score(view.dealt, count)
    played = played_by(play)
    pool = unseen(view)
    team = team_of(view.seat)
    wins = counted = 0
    for attempt in range(samples * 4):
        if counted == samples:
            break
        rng.shuffle(pool)
        rest = pool
        best: tuple[int, int, int] | None = None  # (points, -distance, team)
        plausible = True
        for dist, s in enumerate(play.seats):
            if s in play.folded:
                continue
            if s == view.seat:
                points = mine
            elif s in declared:
                points = declared[s]
            else:
                need = 3 - len(played[s])
                cards, rest = played[s] + rest[:need], rest[need:]
                points = envido_score(cards, count)
                if s == strong and points < STRONG_ENVIDO and attempt < samples * 3:
                    plausible = False
            key = (points, -dist, team_of(s))
            if best is None or key[:2] > best[:2]:
                best = key
        if plausible:
            counted += 1
            wins += best is not None and best[2] == team
    return wins / max(counted, 1)


def envido_worth(view: TrucoView, calls: Sequence[str]) -> int:
    """What the Envido ``calls`` are worth accepted (R8)."""
    seq = [EnvidoCall(c) for c in calls]
    return envido_accepted(seq, falta_value(view.target, view.scores))


def truco_level(name: str) -> int:
    return [c.value for c in TRUCO_LADDER].index(name) + 1
