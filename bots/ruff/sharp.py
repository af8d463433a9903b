"""sharp: Ruff and Trump with a partner in mind and the cards counted.

Announces its true ruff (F4: a lower number never helps it win the ruff). Rubs (F5) to
make voids: keeps its trumps and aces, throws its shortest side suits whole, then its
lowest side cards. In play (F7) it counts the cards it has seen: it leads a master (a card
no unseen card of its suit beats), else draws trumps when it holds the master trump, else
leads low from its longest side suit; it lets a partner's winning card stand (giving its
lowest), wins a trick with its cheapest winning card when it plays last or that card is a
master, trumps an opponent's winner only with its lowest winning trump, and otherwise
gives its cheapest card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from arena.bot import BaseBot
from arena.core.cards import Card, Rank
from arena.games.ruff.actions import Action, Announce, Discard, Play
from arena.games.ruff.rules import RUB_CARDS
from arena.games.ruff.view import RuffView
from bots.ruff.reading import beats, is_master, lowest, partners, unseen, winning


def discards(hand: Sequence[Card], trump: int) -> tuple[Card, ...]:
    """Four cards to throw: whole short side suits (no ace among them) first, shortest
    first, then the lowest side cards; trumps only when nothing else is left."""
    side = [c for c in hand if c // 13 != trump]
    by_suit = Counter(c // 13 for c in side)
    out: list[Card] = []
    for suit, count in sorted(by_suit.items(), key=lambda kv: (kv[1], kv[0])):
        cards = [c for c in side if c // 13 == suit]
        if len(out) + count <= RUB_CARDS and not any(c % 13 == Rank.ACE for c in cards):
            out += cards
    rest = sorted((c for c in hand if c not in out), key=lambda c: (c // 13 == trump, c % 13))
    out += rest[: RUB_CARDS - len(out)]
    return tuple(out)


class Bot(BaseBot):
    name = "sharp"
    version = "1.0"
    games = ("ruff",)

    def act(self, view: RuffView, legal: Sequence[Action]) -> Action | int:
        first = legal[0]
        if isinstance(first, Announce):
            return legal[-1]
        if isinstance(first, Discard):
            return Discard(discards(view.hand, view.trump))
        cards = [a.card for a in legal if isinstance(a, Play)]
        return Play(self._play(view, cards))

    @staticmethod
    def _play(view: RuffView, cards: list[Card]) -> Card:
        trump = view.trump
        hidden = unseen(view)
        now = winning(view)
        if now is None:  # leading
            masters = [c for c in cards if c // 13 != trump and is_master(c, hidden)]
            if masters:
                return max(masters, key=lambda c: c % 13)
            trumps = sorted(c for c in cards if c // 13 == trump)
            out_trumps = [c for c in hidden if c // 13 == trump]
            if trumps and out_trumps and is_master(trumps[-1], hidden):
                return trumps[-1]
            side = [c for c in cards if c // 13 != trump] or cards
            longest = Counter(c // 13 for c in side).most_common(1)[0][0]
            return min(c for c in side if c // 13 == longest)
        seat, best = now
        led = view.trick[0][1] // 13
        last = len(view.trick) == len(view.names) - 1
        if seat in partners(view) and (last or is_master(best, hidden) or best // 13 == trump):
            return lowest(cards, trump)  # the partner's trick stands
        winners = [c for c in cards if beats(c, best, led, trump)]
        if winners:
            cheapest = min(winners, key=lambda c: (c // 13 == trump, c % 13))
            if last or cheapest // 13 == trump or is_master(cheapest, hidden):
                return cheapest
            masters = [c for c in winners if is_master(c, hidden)]
            if masters:
                return min(masters)
        return lowest(cards, trump)


if __name__ == "__main__":
    from arena.sdk import main

    main(Bot)
