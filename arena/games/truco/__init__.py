"""Argentine Truco (seed 003, rulings R1..R14): 2, 4 or 6 seats in two teams.

Imports neither grpc nor rich. The arena reaches it through ``arena.games.registry.TrucoGame``.
"""
