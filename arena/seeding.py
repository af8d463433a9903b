"""Where a match's randomness comes from: a keyed hash of a secret.

Every shuffle and every random first dealer is drawn from a ``random.Random`` seeded by
``derive(key, *parts)``, an HMAC-SHA256 of the parts under the key. The key of a match is
itself derived from the run's secret and the match id, so a bot that knows its match id
and every card it has seen still cannot predict a card it has not: that would mean
inverting HMAC (security issue: predictable deals). Games call ``rng(match_key, ...)``
with their own name first, so two games never share a stream.
"""

from __future__ import annotations

import hashlib
import hmac
import random


def derive(key: str, *parts: object) -> str:
    """A 256-bit hex digest of ``parts`` (joined by ':') under ``key``."""
    message = ":".join(str(p) for p in parts).encode()
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()


def rng(key: str, *parts: object) -> random.Random:
    """A generator seeded by ``derive(key, *parts)``: independent for each ``parts``."""
    return random.Random(derive(key, *parts))
