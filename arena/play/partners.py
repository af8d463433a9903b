"""Partner rotation for team games: who sits in which seat of each scheduled table.

``arena.play.scheduler.schedule`` decides who meets whom and balances seats; in a team game
(Truco's alternate seats, ruling R2) the seats also decide who partners whom. Left as it
is, a pair that shares tables could be partners every time. ``rotate_partners`` re-seats
each table, in playing order, choosing among all orders of its entrants the one that
makes partners of the pairs most behind their fair share of partnerships (a pair shares
a table with a team of ``t`` out of ``k`` seats as partners ``(t - 1) / (k - 1)`` of the
time), then, among those, the one that puts each entrant in the seats it has used least.
Who sits at which table, and who sits out, never changes.

Measured bounds are in ``tests/test_partners.py``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from arena.play.scheduler import Round, Table

# How much one partnership ahead of the fair share weighs against one seat use ahead of
# the entrant's least-used seat: partners first, seats close behind.
PARTNER_WEIGHT = 4.0


def rotate_partners(
    rounds: Sequence[Round], entrants: int, teams: Sequence[Sequence[int]]
) -> list[Round]:
    """``rounds`` with every table re-seated so that partners rotate (see the module
    docstring); ``teams`` are the seat numbers of each team at a table."""
    k = sum(len(t) for t in teams)
    if len({len(t) for t in teams}) != 1:
        raise ValueError(f"teams of equal size only, got {teams}")
    share = (len(teams[0]) - 1) / (k - 1)  # of the tables a pair shares, as partners
    together = [[0] * entrants for _ in range(entrants)]
    partners = [[0.0] * entrants for _ in range(entrants)]
    seats = [[0] * k for _ in range(entrants)]
    team_pairs = [(a, b) for t in teams for a, b in itertools.combinations(t, 2)]
    orders = list(itertools.permutations(range(k)))
    out = []
    for rnd in rounds:
        tables = []
        for table in rnd.tables:
            members = table.seats
            if len(members) != k:
                raise ValueError(f"table {table.match_id} seats {len(members)}, teams give {k}")
            for a, b in itertools.combinations(members, 2):
                together[a][b] += 1
                together[b][a] += 1

            def cost(order: tuple[int, ...], members: tuple[int, ...] = members) -> float:
                seated = [members[i] for i in order]
                ahead = sum(
                    partners[seated[a]][seated[b]] - share * together[seated[a]][seated[b]]
                    for a, b in team_pairs
                )
                used = sum(seats[e][s] - min(seats[e]) for s, e in enumerate(seated))
                return PARTNER_WEIGHT * ahead + used

            best = min(orders, key=cost)  # the first best: deterministic
            seated = tuple(members[i] for i in best)
            for a, b in team_pairs:
                partners[seated[a]][seated[b]] += 1
                partners[seated[b]][seated[a]] += 1
            for s, e in enumerate(seated):
                seats[e][s] += 1
            tables.append(Table(table.round, table.table, seated))
        out.append(Round(rnd.number, tuple(tables), rnd.sitting_out))
    return out
