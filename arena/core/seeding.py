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
import secrets


def derive(key: str, *parts: object) -> str:
    """A 256-bit hex digest of ``parts`` (joined by ':') under ``key``."""
    message = ":".join(str(p) for p in parts).encode()
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()


def rng(key: str, *parts: object) -> random.Random:
    """A generator seeded by ``derive(key, *parts)``: independent for each ``parts``."""
    return random.Random(derive(key, *parts))


def new_secret() -> str:
    """A fresh run secret: 128 random bits from the OS, as hex."""
    return secrets.token_bytes(16).hex()


def seeded_secret(seed: int) -> str:
    """The run secret of a ``--seed`` run: derived from the seed alone, in public, so the
    run can be repeated, and so anyone who knows the seed can compute every deal."""
    return derive("truf-arena:seed", seed)


def match_key(run_secret: str, match_id: str) -> str:
    """The key of one match: a game draws all its randomness from ``rng(key, game, ...)``."""
    return derive(run_secret, "match", match_id)


def block_key(run_secret: str, block: int) -> str:
    """The key every match of duplicate block ``block`` deals from (``--duplicate``): the
    same deals at every table and rotation of the block, fresh ones for the next."""
    return derive(run_secret, "block", block)


def deal_key(run_secret: str, match_id: str, block: int | None = None) -> str:
    """The key a match's deals come from: its block's in a duplicate run, else its own."""
    return match_key(run_secret, match_id) if block is None else block_key(run_secret, block)


def bot_seed(run_secret: str, entrant: str) -> str:
    """The seed a bot is started with: its own, and telling nothing of the secret."""
    return derive(run_secret, "bot", entrant)[:32]


def schedule_seed(run_secret: str) -> int:
    """The integer that labels the schedule's seats (see ``arena.play.scheduler``)."""
    return int(derive(run_secret, "schedule")[:16], 16)
