"""Who wins a trick (ruling R4) and who wins a hand's tricks (ruling R5)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from arena.games.truco.cards import Card


def trick_winner(cards: Sequence[tuple[int, Card]], team_of: Callable[[int], int]) -> int | None:
    """The seat credited with a closed trick of ``(seat, card)`` in play order, or None
    for a tie (*parda*): ruling R4, the highest card held by both teams ties; held by
    one team only, the first of its seats that played it wins."""
    top = max(card.strength for _, card in cards)
    holders = [seat for seat, card in cards if card.strength == top]
    if len({team_of(s) for s in holders}) > 1:
        return None
    return holders[0]


def hand_winner(results: Sequence[int | None], mano_team: int) -> int | None:
    """The team that wins the hand's tricks, or None while it is undecided (ruling R5).

    ``results`` holds each closed trick's winning team, None for a tie.
    """
    if len(results) < 2:
        return None
    first, second = results[0], results[1]
    if len(results) == 2:
        if first is None:
            return second  # trick 1 tied: the next untied trick decides
        return first if second == first else None  # two won; else trick 3 decides
    third = results[2]
    return third if third is not None else mano_team  # undecided after trick 3: mano
