"""Protobuf's wire format, as much of it as the arena's hand-built messages need.

A field is a tag (field number << 3 | wire type) then a varint (type 0) or a length
and bytes (type 2). Repeated scalars are packed: one tag, the length, the varints.
Fields may come in any order and parsing is what makes the message, so pieces can be
joined freely. The game codecs (``arena.games.truf.wire``) and the referee's envelope use
these; the generated classes parse the result (tests compare the two).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory


def varint(n: int) -> bytes:
    if n < 0:
        n += 1 << 64  # int32/uint64 negatives are ten-byte two's complement
    if n < 0x200000:  # up to three bytes (request ids...): no loop
        if n < 0x80:
            return bytes((n,))
        if n < 0x4000:
            return bytes((n & 0x7F | 0x80, n >> 7))
        return bytes((n & 0x7F | 0x80, n >> 7 & 0x7F | 0x80, n >> 14))
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


SMALL = tuple(varint(n) for n in range(2048))


def uv(n: int) -> bytes:
    return SMALL[n] if 0 <= n < 2048 else varint(n)


def zigzag(n: int) -> bytes:
    return uv(n << 1 if n >= 0 else (-n << 1) - 1)


def tag(field: int, wire_type: int) -> bytes:
    return varint(field << 3 | wire_type)


LEN_TAG = tuple(tag(field, 2) for field in range(32))
UINT_TAG = tuple(tag(field, 0) for field in range(32))


def len_field(field: int, body: bytes) -> bytes:
    """A length-delimited field: a string, a submessage or a packed list."""
    return LEN_TAG[field] + uv(len(body)) + body


def str_field(field: int, text: str) -> bytes:
    return len_field(field, text.encode())


def uint_field(field: int, value: int) -> bytes:
    return UINT_TAG[field] + uv(value)


# ------------------------------------------------------------------ lite twins

_LITE_POOL = descriptor_pool.DescriptorPool()


def lite_class(message: Any, name: str, *, as_bytes: Iterable[str] = ()) -> Any:
    """A private twin of the generated class ``message`` whose submessage fields (and the
    fields named in ``as_bytes``) are plain ``bytes`` and whose enum fields are plain ints:
    the same wire format, so it parses the same bytes.

    Reading a message field by field costs a Python call per field and per nested
    message; parsing with a twin is one C call that leaves each nested message as
    ``bytes``, to be decoded only if it is read, and found in a dict when it recurs.
    """
    kind = descriptor_pb2.FieldDescriptorProto
    proto = descriptor_pb2.DescriptorProto()
    message.DESCRIPTOR.CopyToProto(proto)
    proto.name = name
    extra = set(as_bytes)
    for f in proto.field:
        if f.type == kind.TYPE_ENUM:
            f.type = kind.TYPE_INT32
            f.ClearField("type_name")
        elif f.type == kind.TYPE_MESSAGE or f.name in extra:
            f.type = kind.TYPE_BYTES
            f.ClearField("type_name")
    _LITE_POOL.Add(
        descriptor_pb2.FileDescriptorProto(
            name=f"arena/wire/lite/{name}.proto",
            package="arena.wire.lite",
            syntax="proto3",
            message_type=[proto],
        )
    )
    return message_factory.GetMessageClass(
        _LITE_POOL.FindMessageTypeByName(f"arena.wire.lite.{name}")
    )
