"""Generated protobuf and gRPC code for the bot protocol (``proto/``). Do not edit.

Regenerate with ``python scripts/gen_proto.py``; ``tests/test_proto_fresh.py`` checks
that this copy matches the .proto files. Import as
``from arena._proto.truf.arena.v1 import arena_pb2``.
"""
