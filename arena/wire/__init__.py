"""Wire codecs: engine values <-> the bot protocol's protobuf messages.

One module per game (``arena.games.truf.wire``). They import the generated protobuf
messages (``arena._proto``) but never grpc, and the engine never imports them: the
gRPC referee and the bot SDK sit on either side of this layer.
"""
