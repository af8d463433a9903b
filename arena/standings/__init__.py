"""Where the entrants stand: the append-only results files (``results``), the TrueSkill
ratings and their settling (``ratings``, ``settle``) and the leaderboard built from them.
It imports ``arena.core`` and ``arena.games.registry`` (each game's leaderboard columns)
only: no runner, referee, report or CLI.
"""
