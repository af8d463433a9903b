"""Exact card play for Truco's search: who wins a play's tricks (R4, R5) when every seat
sees every card and plays its best, the betting left as it stands.

``pimc`` plays each world out with a heuristic (``pimc.team_policy``). With the option
``exact`` its playouts keep that heuristic for every call, answer and al mazo (a seat
bets from its own cards only: it does not see the world), but a seat that plays a card
plays the one that wins its team the tricks against the world's cards, if one does
(``solved_card``), the cheapest such. That is the card play of classic perfect
information Monte Carlo (each world solved as if open) without the strategy fusion of
solving the betting too: a search that saw every card when it bets would never fold
a lost hand late and would over-value every call.

The solver reads only the cards' strengths (R1): two cards of one strength win and tie
the same tricks. It searches the rest of the play's tricks with an early stop (the
first card that wins for the seat's team is taken), and only while the cards left in
the play are at most ``LIMIT`` (a whole duel or two-seat hand, a four-seat hand, a
six-seat hand from its second trick on); before that the heuristic's card stands.
tests/test_truco_exact.py checks it against a brute-force enumeration of every line of
play on random positions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arena.games.truco import sim
from arena.games.truco.actions import Action, Play
from arena.games.truco.tricks import hand_winner

LIMIT = 12  # cards left in the play at most, for the solver to be asked


def _close(trick: list[tuple[int, int]]) -> tuple[int | None, int]:
    """ruling R4: the closed trick's winning team (None: a tie) and the seat that leads
    the next (the winner, the first of its team to play the top card; on a tie the
    trick's leader)."""
    top = max(v for _, v in trick)
    holders = [s for s, v in trick if v == top]
    teams = {s % 2 for s in holders}
    if len(teams) > 1:
        return None, trick[0][0]
    return holders[0] % 2, holders[0]


def winner(
    hands: list[list[int]],
    active: tuple[int, ...],
    trick: list[tuple[int, int]],
    results: list[int | None],
    mano_team: int,
) -> int:
    """The team that takes the play's tricks (R5) from here, every seat playing its best
    with every card seen: ``hands`` the strengths left by seat, ``active`` the seats in
    play in the play's order (none folded, R10), ``trick`` the trick so far as (seat,
    strength), ``results`` the closed tricks' teams. Mutates its arguments and restores
    them."""
    if len(trick) == len(active):
        team, leader = _close(trick)
        results.append(team)
        decided = hand_winner(results, mano_team)
        if decided is not None:
            results.pop()
            return decided
        saved = trick[:]
        trick.clear()
        out = _turn(hands, active, trick, results, mano_team, active.index(leader))
        trick.extend(saved)
        results.pop()
        return out
    lead = active.index(trick[0][0])
    return _turn(hands, active, trick, results, mano_team, (lead + len(trick)) % len(active))


def _turn(
    hands: list[list[int]],
    active: tuple[int, ...],
    trick: list[tuple[int, int]],
    results: list[int | None],
    mano_team: int,
    at: int,
) -> int:
    seat = active[at]
    team = seat % 2
    hand = hands[seat]
    for v in sorted(set(hand)):
        hand.remove(v)
        trick.append((seat, v))
        out = winner(hands, active, trick, results, mano_team)
        trick.pop()
        hand.append(v)
        if out == team:
            return team
    return 1 - team


def solving(move: Callable[[sim.Sim, Any], Action]) -> Callable[[sim.Sim, Any], Action]:
    """``move`` with its cards replaced by ``solved_card``'s where one wins: the calls,
    answers and al mazo stay ``move``'s, and so does its card where none wins."""

    def solved(state: sim.Sim, rng: Any) -> Action:
        action = move(state, rng)
        if isinstance(action, Play):
            card = solved_card(state)
            if card is not None:
                return sim.PLAYS[card]
        return action

    return solved


def cards_left(state: sim.Sim) -> int:
    b = state.bout
    return sum(len(state.hands[s]) for s in b.order if not b.folded >> s & 1)


def solved_card(state: sim.Sim) -> int | None:
    """The card (``DECK`` index) the seat asked to play should play to take the play's
    tricks with every card seen, the cheapest that does (R1, R4, R5); None when none
    does (every card loses) or the position is past ``LIMIT``."""
    asked, seat = state.asked()
    assert asked == sim.PLAY
    if cards_left(state) > LIMIT:
        return None
    b = state.bout
    strength = sim.STRENGTH
    active = tuple(s for s in b.order if not b.folded >> s & 1)
    hands = [[strength[c] for c in h] for h in state.hands]
    trick = [(s, strength[c]) for s, c in b.trick]
    results = list(b.results)
    mano_team = b.order[0] % 2
    team = seat % 2
    hand = hands[seat]
    for v in sorted(set(hand)):
        hand.remove(v)
        trick.append((seat, v))
        out = winner(hands, active, trick, results, mano_team)
        trick.pop()
        hand.append(v)
        if out == team:
            return min(c for c in state.hands[seat] if strength[c] == v)
    return None
