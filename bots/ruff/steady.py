"""steady: Ruff and Trump by simple habits.

Announces its true ruff when it announces last; before that it shades it to three quarters,
to show less of its hand should it win (F4, F6: a habit that costs it ruffs to the seats
after it). Rubs by discarding its four lowest side cards (F5); in play,
gives its lowest card to a trick its partner is winning, else takes the trick with its
cheapest winning card when it can, else gives its lowest card; leads its highest card. It
counts no cards and makes no voids.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.bot import BaseBot
from arena.games.ruff.actions import Action, Announce, Discard, Play
from arena.games.ruff.view import RuffView
from bots.ruff.reading import beats, lowest, partners, winning


class Bot(BaseBot):
    name = "steady"
    version = "1.0"
    games = ("ruff",)

    def act(self, view: RuffView, legal: Sequence[Action]) -> Action | int:
        first = legal[0]
        if isinstance(first, Announce):
            if len(view.announcements) == len(view.names) - 1:
                return legal[-1]  # the true ruff
            return Announce((len(legal) - 1) * 3 // 4)
        if isinstance(first, Discard):
            side = sorted(view.hand, key=lambda c: (c // 13 == view.trump, c % 13))
            return Discard(tuple(side[:4]))
        cards = [a.card for a in legal if isinstance(a, Play)]
        now = winning(view)
        if now is None:
            return Play(max(cards, key=lambda c: c % 13))
        if now[0] in partners(view):
            return Play(lowest(cards, view.trump))
        led = view.trick[0][1] // 13
        winners = [c for c in cards if beats(c, now[1], led, view.trump)]
        if winners:
            return Play(min(winners, key=lambda c: (c // 13 == view.trump, c % 13)))
        return Play(lowest(cards, view.trump))


if __name__ == "__main__":
    from arena.sdk import main

    main(Bot)
