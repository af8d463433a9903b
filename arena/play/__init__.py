"""Playing tournaments: the round-robin scheduler and partner rotation, the match
runner (``tournament``), the run of a whole tournament from its config (``run``), the
worker processes (``parallel``) and Ray (``cluster``), bot loading, fault kinds and
signal handling. It knows games only through ``arena.games.registry`` and bots only
through the ``bots`` catalogue; it imports ``arena.core``, ``arena.games.registry``,
``arena.standings`` and ``arena.bot``, never the referee, the report or the CLI.
"""
