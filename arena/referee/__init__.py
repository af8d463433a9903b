"""The service: the gRPC referee (``server``: the protocol, its limits and the tables
it hosts), the hosted tournament that launches and waits for bots (``host``), and
``arena check`` (``check``, with ``checkplay``: one open seat played through each game's
edge cases, the cases being in the games' folders). It may import every layer below it
(core, wire, games, standings, play, report); only the CLI imports it.
"""
