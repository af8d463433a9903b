"""Wire codecs: engine values <-> the bot protocol's protobuf messages.

This layer holds what every game's codec shares: the codec interface (``codecs``:
``GameCodec``, and ``ProtoCodec`` over a game's generated classes), the seat and card
checks of decoded views (``common``) and hand-built protobuf encoding (``pbwire``). Each
game's own codec is in its folder (``arena.games.truf.wire``, ...), and
``arena.games.codecs`` finds them. It imports ``arena.core`` and the generated protobuf
messages (``arena._proto``) only, never grpc; the engine never imports it: the gRPC
referee and the bot SDK sit on either side of it.
"""
