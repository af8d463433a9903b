"""Errors every game's engine raises, so that the referee, the runner and the CLI can
catch them without knowing the game. All are ``ValueError``s with messages that say
what was wrong and where."""

from __future__ import annotations


class RuleError(ValueError):
    """An action that breaks a rule: names the seat, the action and the ruling."""

    def __init__(self, seat: int, action: object, ruling: str, reason: str) -> None:
        self.seat = seat
        self.action = action
        self.ruling = ruling
        self.reason = reason
        super().__init__(f"seat {seat}: {self.detail}")

    @property
    def detail(self) -> str:
        """The message without its seat, for a record or a message that names the seat
        already (a fault entry, an ``AnswerRejected``): "illegal action 'play TD': must
        follow the led suit S (ruling C9)"."""
        return f"illegal action '{self.action}': {self.reason} (ruling {self.ruling})"


class AnswerIndexError(IndexError):
    """An index answer outside the legal list: an illegal answer, where an IndexError the
    bot's own code raises is its crash (``arena.play.tournament.fault_kind``)."""


class ActionFormatError(ValueError):
    """Text or a message that is not an action."""


class DealError(ValueError):
    """A deal (from a deal file or given directly) that cannot be played."""
