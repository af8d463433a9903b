"""A ladder that never ends: bots connect when they like, tables form continuously,
every finished match is one SQLite transaction, and a live web page shows it all.

- ``store``: the database (``DIR/ladder.db``), its schema and its one writer.
- ``matchmaker``: which connected, idle bots sit down together next.
- ``fit``: the order-free re-fit of all the evidence (the exact Gaussian posterior).
- ``service``: ``arena ladder run``: the referee, the matchmaker and the web page in one
  asyncio process.
- ``web``: the read-only page and JSON API (aiohttp).
- ``commands``: the ``arena ladder`` command line.

docs/ladder.md describes the whole.
"""
