"""Every game's wire codec, found through the registry (``GameEntry.codec``: the module
whose ``CODEC`` it is), for the referee and the SDK, which know no game in particular.
Importing this module imports every codec, and with them the generated protobuf classes:
the engine and the CLI's start-up never need it."""

from __future__ import annotations

import importlib

from arena.games.registry import REGISTRY
from arena.wire.codecs import GameCodec

CODECS: dict[str, GameCodec] = {
    name: importlib.import_module(entry.codec).CODEC for name, entry in REGISTRY.items()
}
BRANCHES = {codec.branch: codec for codec in CODECS.values()}


def codec_for(game: str) -> GameCodec:
    """The codec of ``game`` ("truf", "truco", "ruff"); ``ValueError`` naming the known
    ones."""
    codec = CODECS.get(game)
    if codec is None:
        raise ValueError(f"no wire codec for game {game!r}; there are: {', '.join(CODECS)}")
    return codec
