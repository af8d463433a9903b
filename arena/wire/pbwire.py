"""Protobuf's wire format, as much of it as the arena's hand-built messages need.

A field is a tag (field number << 3 | wire type) then a varint (type 0) or a length
and bytes (type 2). Repeated scalars are packed: one tag, the length, the varints.
Fields may come in any order and parsing is what makes the message, so pieces can be
joined freely. The game codecs (``arena.wire.truf``) and the referee's envelope use
these; the generated classes parse the result (tests compare the two).
"""

from __future__ import annotations


def varint(n: int) -> bytes:
    if n < 0:
        n += 1 << 64  # int32/uint64 negatives are ten-byte two's complement
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
