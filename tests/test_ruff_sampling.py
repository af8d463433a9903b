"""``arena.games.ruff.sampling``: every draw is a deal the view allows, and draws are uniform
over the deals the view allows.

A deal is *consistent* with a view when, dealt that way, the deal could have gone as the
view shows: each card played was legal when played (F7: follow suit), each announcement
at most its seat's true ruff (F4), the rubber is the seat F5 names, and the shown ruff is
what F6 shows. The brute force below lists every placement of the unseen cards (and, for
another seat's rub, every split of its cards into dealt and taken and its discards) and
checks each with the engine's own ``follow_suit``, ``true_ruff``, ``rubber`` and
``shown_cards``; it shares nothing with the sampler but the view.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from arena.core.cards import CARDS
from arena.core.tricks import follow_suit
from arena.games.ruff import sampling, sim
from arena.games.ruff.reckoning import rubber, shown_cards, true_ruff
from arena.games.ruff.rules import RuffRules
from arena.games.ruff.state import RuffMatch
from arena.games.ruff.view import RuffView

Placement = tuple[frozenset[int], ...]  # per seat its cards now, then the discards


def views_of(rules: RuffRules, seed: str) -> Iterator[RuffView]:
    """Views at every decision of matches where each seat announces its true ruff,
    discards at random and plays a random legal card."""
    rng = random.Random(seed)
    for m in itertools.count():
        match = RuffMatch(rules, seed=f"{seed}:{m}")
        while not match.is_over:
            (seat,) = match.to_act()
            yield match.view(seat)
            legal = match.legal_actions(seat)
            move = (
                legal[-1] if match.phase.value == "announce" else legal[rng.randrange(len(legal))]
            )
            match.apply(seat, move)


def played_legally(view: RuffView, now: dict[int, frozenset[int]]) -> bool:
    """Each card played was legal (F7) with the seat's cards now and those it played
    later in its hand."""
    tricks = [list(t.cards) for t in view.tricks] + ([list(view.trick)] if view.trick else [])
    later = {s: set(h) for s, h in now.items()}
    for trick in reversed(tricks):
        led = trick[0][1] // 13
        for i, (seat, card) in enumerate(trick):
            later.setdefault(seat, set()).add(int(card))
            if i and seat in now and card not in follow_suit([CARDS[c] for c in later[seat]], led):
                return False
    return True


def dealt_fits(view: RuffView, dealt: dict[int, list[int]]) -> bool:
    turned = view.turned
    hands = [[CARDS[c] for c in dealt[s]] for s in range(len(view.names))]
    for seat, number in view.announcements:
        if true_ruff(hands[seat], turned) < number:
            return False
    if view.rubber is not None and rubber(hands, view.trump, view.dealer) != view.rubber:
        return False
    if view.shown is not None:
        number = dict(view.announcements)[view.shown.seat]
        if shown_cards(hands[view.shown.seat], turned, number) != (
            view.shown.suit,
            view.shown.cards,
        ):
            return False
    return True


def played(view: RuffView) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {s: [] for s in range(len(view.names))}
    for t in [*view.tricks]:
        for s, c in t.cards:
            out[s].append(int(c))
    for s, c in view.trick:
        out[s].append(int(c))
    return out


def brute_force(view: RuffView) -> dict[Placement, int]:
    """Every placement of the unseen cards in a late four-seat position, with its
    number of consistent deals."""
    n, me, r = len(view.names), view.seat, view.rubber
    assert n == 4 and view.phase == "play" and r is not None
    plays = played(view)
    others = [s for s in range(n) if s != me]
    sizes = {s: view.hand_size - len(plays[s]) for s in others}
    known = {int(c) for c in view.dealt} | {c for p in plays.values() for c in p}
    turned = int(view.turned)
    # The rubber took the turned card (F5): when it did not play it, it is in the
    # rubber's cards now or its discards, placed like an unseen card.
    spread = r != me and turned not in plays[r]
    if not spread:
        known.add(turned)
    if view.taken is not None:
        known |= {int(c) for c in view.taken} | {int(c) for c in view.discards or ()}
    unseen = [c for c in range(52) if c not in known]
    mine = list(int(c) for c in view.dealt)
    out: dict[Placement, int] = {}
    slots = others + ([-1] if r != me else [])  # -1: the rubber's discards
    caps = [sizes[s] for s in others] + ([4] if r != me else [])

    def place(i: int, left: list[int], chosen: list[tuple[int, ...]]) -> None:
        if i == len(slots):
            now = {s: frozenset(chosen[k]) for k, s in enumerate(others)}
            thrown = frozenset(chosen[-1]) if r != me else frozenset()
            if spread and turned not in now[r] | thrown:
                return
            w = count_splits(view, now, thrown, plays, mine)
            if w:
                out[(*(now.get(s, frozenset()) for s in range(n)), thrown)] = w
            return
        for combo in itertools.combinations(left, caps[i]):
            rest = [c for c in left if c not in combo]
            place(i + 1, rest, [*chosen, combo])

    place(0, unseen, [])
    return out


def count_splits(view: RuffView, now: dict[int, frozenset[int]], thrown: frozenset[int],
                 plays: dict[int, list[int]], mine: list[int]) -> int:  # fmt: skip
    """Consistent deals with these cards now: the rubber's cards split every way into
    dealt and taken (the turned card is taken) when it is another seat."""
    if not played_legally(view, now):
        return 0
    me, r = view.seat, view.rubber
    dealt = {s: sorted(now[s] | set(plays[s])) for s in now}
    dealt[me] = mine
    if r == me:
        return int(dealt_fits(view, dealt))
    turned = int(view.turned)
    pool = sorted((now[r] | thrown | set(plays[r])) - {turned})
    total = 0
    for heads in itertools.combinations(pool, 3):
        dealt[r] = [c for c in pool if c not in heads]
        total += dealt_fits(view, dealt)
    return total


def placement_of(view: RuffView, deal: sim.Deal) -> Placement:
    n, r = len(view.names), view.rubber
    plays = played(view)
    now = []
    for s in range(n):
        cards = set(deal.dealt[s])
        if s == r:
            cards |= set(deal.head[:4])
            cards -= set(deal.discards or ())
        now.append(frozenset(cards - set(plays[s])) if s != view.seat else frozenset())
    thrown = frozenset(deal.discards or ()) if r != view.seat else frozenset()
    return (*now, thrown)


def small_positions() -> list[RuffView]:
    """Late four-seat views: two where this seat rubbed (each other seat holds 3
    cards or fewer), one where another seat did (each holds 1)."""
    out: list[RuffView] = []
    for rules, seed in ((RuffRules(), "double"), (RuffRules(form="single", seats=4), "single")):  # type: ignore[arg-type]
        mine = theirs = 0
        for view in views_of(rules, f"small-{seed}"):
            if view.phase != "play":
                continue
            left = min(view.hand_size - len(played(view)[s]) for s in range(4))
            most = max(view.hand_size - len(played(view)[s]) for s in range(4) if s != view.seat)
            if view.rubber == view.seat and most <= 3 and left >= 1 and mine < 2:
                out.append(view)
                mine += 1
            elif view.rubber != view.seat and most <= 1 and left >= 1 and theirs < 1:
                out.append(view)
                theirs += 1
            if mine == 2 and theirs == 1:
                break
    return out


POSITIONS = small_positions()


def chi_square_ok(counts: Counter[Placement], support: dict[Placement, int], draws: int) -> bool:
    """Whether ``counts`` fit the law ``support`` (weights) at the 0.1% level."""
    total = sum(support.values())
    if len(support) == 1:
        return sum(counts.values()) == draws
    stat = sum(
        (counts[p] - draws * w / total) ** 2 / (draws * w / total) for p, w in support.items()
    )
    df = len(support) - 1
    limit = df * (1 - 2 / (9 * df) + 3.09 * math.sqrt(2 / (9 * df))) ** 3
    return stat <= limit


def assert_uniform(view: RuffView, seed: str) -> None:
    """The sampler's draws from ``view`` fall only on the deals brute force finds
    consistent, and as often as each one's count says (chi-square)."""
    support = brute_force(view)
    assert support, "the true deal at least is consistent"
    total = sum(support.values())
    draws = max(1000, math.ceil(8 * total / min(support.values())))
    sampler = sampling.Sampler(view)
    rng = random.Random(seed)
    counts = Counter(placement_of(view, sampler.sample(rng)) for _ in range(draws))
    assert set(counts) <= set(support)
    assert chi_square_ok(counts, support, draws)


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_draws_are_uniform_over_the_consistent_deals(index: int) -> None:
    assert_uniform(POSITIONS[index], f"law:{index}")


def test_positions_cover_both_forms_and_another_seats_rub() -> None:
    assert len(POSITIONS) == 6
    assert any(v.rubber != v.seat for v in POSITIONS)
    assert {v.form for v in POSITIONS} == {"double", "single"}


@pytest.mark.parametrize(
    "rules",
    [RuffRules(), RuffRules(form="single", seats=3), RuffRules(form="single", seats=2)],  # type: ignore[arg-type]
    ids=["double", "single-3", "single-2"],
)
def test_every_draw_replays_the_view_in_the_simulator(rules: RuffRules) -> None:
    """At every phase and seat count: a draw gives the seat its own cards, holds the
    whole deck once, and the deal so far replays on it (each play legal)."""
    rng = random.Random(7)
    for i, view in enumerate(views_of(rules, f"replay-{rules.seats}")):
        if i >= 60:
            break
        deal = sampling.Sampler(view).sample(rng)
        cards = [c for h in deal.dealt for c in h] + list(deal.head)
        assert sorted(cards) == list(range(52))
        state = sim.from_view(view, deal)
        now = {s: frozenset(sim_cards(state.hands[s])) for s in range(rules.seats)}
        assert played_legally(view, now)
        assert dealt_fits(view, {s: list(h) for s, h in enumerate(deal.dealt)})


def sim_cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def test_partition_counts_match_brute_force() -> None:
    """The void-respecting shares of a small pool: uniform over every way."""
    cards = [0, 1, 13, 14, 26, 27, 39]
    caps, allowed = [3, 2, 2], [0b0011, 0b1110, 0xF]
    part = sampling.Partition(cards, caps, allowed)
    ways = []
    for a in itertools.combinations(cards, 3):
        rest = [c for c in cards if c not in a]
        for b in itertools.combinations(rest, 2):
            c = [x for x in rest if x not in b]
            bins = [a, b, tuple(c)]
            if all(allowed[i] >> (x // 13) & 1 for i, bn in enumerate(bins) for x in bn):
                ways.append(tuple(frozenset(x) for x in bins))
    assert part.total == len(ways)
    rng = random.Random(3)
    draws = 40 * len(ways)
    counts = Counter(tuple(frozenset(b) for b in part._by_counts(rng)) for _ in range(draws))
    assert set(counts) == set(ways)
    assert chi_square_ok(counts, dict.fromkeys(ways, 1), draws)


def test_partition_counts_with_voids_and_bans_match_brute_force() -> None:
    """The counting prunes shares that leave a bin no later group can fill: the totals
    must stay those of plain enumeration, over bins of every kind (voids, bans, open)."""
    rng = random.Random(30)
    nonzero = 0
    for _ in range(40):
        cards = rng.sample(range(52), 8)
        caps = [rng.randint(0, 4) for _ in range(3)]
        caps.append(8 - sum(caps)) if sum(caps) <= 8 else None
        if len(caps) != 4 or caps[3] < 0:
            continue
        allowed = [rng.choice([0xF, 0xF, 0b0111, 0b1011, 0b0101, 0b1110]) for _ in caps]
        banned = {c: 1 << rng.randrange(4) for c in rng.sample(cards, 2)}
        part = sampling.Partition(cards, caps, allowed, banned)
        ways = 0
        for bins in itertools.product(range(4), repeat=len(cards)):
            if all(bins.count(b) == caps[b] for b in range(4)) and all(
                allowed[b] >> (c // 13) & 1 and not banned.get(c, 0) >> b & 1
                for c, b in zip(cards, bins, strict=True)
            ):
                ways += 1
        assert part.total == ways, (cards, caps, allowed, banned)
        nonzero += ways > 0
    assert nonzero >= 10  # the positions are not all impossible


def test_the_check_catches_a_sampler_that_ignores_announcements_and_the_shown_ruff(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sampling.Sampler, "_fits", lambda self, dealt: True)
    caught = 0
    for index, view in enumerate(POSITIONS):
        support = brute_force(view)
        rng = random.Random(f"blind:{index}")
        sampler = sampling.Sampler(view)
        counts = Counter(placement_of(view, sampler.sample(rng)) for _ in range(1000))
        caught += not set(counts) <= set(support) or not chi_square_ok(counts, support, 1000)
    assert caught >= 3


def taken_only_positions() -> list[RuffView]:
    """Late four-seat views (each other seat holds 1 card) where another seat rubbed and
    won the ruff, and an unseen card of the shown suit that its dealt cards cannot hold
    (F6) may be one of the head cards it took (F5): the sampler counts such cards apart
    (``Sampler.must``). One per form."""
    out: list[RuffView] = []
    for rules, seed in ((RuffRules(form="single", seats=4), "single"), (RuffRules(), "double")):  # type: ignore[arg-type]
        for view in views_of(rules, f"small-must-{seed}"):
            shown = view.shown
            if view.phase != "play" or view.rubber == view.seat or shown is None:
                continue
            plays = played(view)
            left = min(view.hand_size - len(plays[s]) for s in range(4))
            most = max(view.hand_size - len(plays[s]) for s in range(4) if s != view.seat)
            if (
                shown.seat == view.rubber
                and most <= 1
                and left >= 1
                and sampling.Sampler(view).must
            ):
                out.append(view)
                break
    return out


TAKEN_ONLY = taken_only_positions()


def test_taken_only_positions_cover_both_forms() -> None:
    assert {v.form for v in TAKEN_ONLY} == {"single", "double"}


@pytest.mark.parametrize("index", range(len(TAKEN_ONLY)))
def test_draws_are_uniform_where_the_rubber_took_cards_of_its_shown_suit(index: int) -> None:
    """The cases per count of such cards in the rubber's cards now and discards, and the
    split that puts them among the cards it took, keep the draw uniform."""
    view = TAKEN_ONLY[index]
    assert len(brute_force(view)) > 1  # a choice for the sampler to get wrong
    assert_uniform(view, f"taken-only:{index}")


def three_seat_view(match_seed: int, decisions: int) -> RuffView:
    """The view after ``decisions`` actions of a single 3-seat match where each seat
    announces its true ruff, discards at random and plays a random legal card."""
    rng = random.Random(match_seed)
    match = RuffMatch(RuffRules(form="single", seats=3), seed=f"rs:{match_seed}")  # type: ignore[arg-type]
    for _ in range(decisions):
        (seat,) = match.to_act()
        legal = match.legal_actions(seat)
        announcing = match.phase.value == "announce"
        match.apply(seat, legal[-1] if announcing else legal[rng.randrange(len(legal))])
    (seat,) = match.to_act()
    return match.view(seat)


def test_a_rubber_that_won_the_ruff_in_trump_is_drawn_in_few_tries() -> None:
    """Regression: seat 2 rubbed and won the ruff in trump (hearts), showing AH QH TH 5H 4H
    and the turned KH, so all its dealt hearts (F6); any other heart of its must be one of
    the three head cards it took (F5). Drawn freely into its cards and split at random,
    about 1 draw in 4,400 fitted (``sample`` gave up after 20,000 now and then); counted
    apart, about 1 in 75 does."""
    view = three_seat_view(688, 113)
    shown = view.shown
    assert shown is not None and shown.seat == view.rubber != view.seat
    assert shown.suit == view.trump and view.turned in shown.cards
    sampler = sampling.Sampler(view)
    assert sampler.must
    rng = random.Random("taken-only")
    for _ in range(20):
        deal = sampler.sample(rng)
        assert dealt_fits(view, {s: list(h) for s, h in enumerate(deal.dealt)})
        assert not sampler.taken_only & set(deal.dealt[shown.seat])
    assert sampler.tries <= 4000
