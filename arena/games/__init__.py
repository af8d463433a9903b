"""The games. Each game is one folder (``truf/``, ``truco/``, ``ruff/``) holding
everything only about it: rules, state, views, replay records and their checks, deal
files, its wire codec (``wire.py``), its ``arena check`` cases (``check.py``), its replay
viewer (``viewer.js``) and its options; its bundled bots are in ``bots/<game>/``. The
arena knows a game only through its entry in ``registry.REGISTRY``: no module outside a
game's folder imports it, except the registry. A game's modules import ``arena.core``,
``arena.wire`` (the codec, with the generated protobuf classes) and their own folder;
never grpc or rich. ``check.py`` alone plugs into the referee's checker
(``arena.referee.check``), which it imports.
"""
