"""The worked examples of docs/rules-*.md are the engine's answers: every table marked
``<!-- checked: NAME -->`` is recomputed here with the game's own code, so the rules a
bot author reads cannot drift from what the referee does."""

from __future__ import annotations

import random
import re
from itertools import combinations
from pathlib import Path

import pytest

from arena.core.cards import VALUES, cards_of, mask_of
from arena.core.cards import Card as FrenchCard
from arena.games.ruff.actions import Announce, Discard
from arena.games.ruff.deal import DealSpec
from arena.games.ruff.reckoning import ruff_suit, ruff_winner, shown_cards, suit_sums, true_ruff
from arena.games.ruff.rules import Form, RuffRules
from arena.games.ruff.scoring import card_points
from arena.games.ruff.state import Phase, RuffMatch
from arena.games.truco import calls as truco_calls
from arena.games.truco.actions import parse_action as truco_action
from arena.games.truco.bout import Bout
from arena.games.truco.cards import Card as SpanishCard
from arena.games.truco.envido import EnvidoCount, envido_cards, envido_score
from arena.games.truco.rules import TrucoRules
from arena.games.truco.state import HandSpec, TrucoMatch, first_dealer
from arena.games.truco.tricks import hand_winner
from arena.games.truf import bidding
from arena.games.truf.actions import Bid, Declare, DeclareOp, Mode
from arena.games.truf.rules import ScoringMethod
from arena.games.truf.scoring import classic_score, target_score
from arena.games.truf.tricks import legal_play_mask, trick_winner

DOCS = Path(__file__).resolve().parent.parent / "docs"
SUITS = "SHDC"


def checked(page: str, name: str) -> list[list[str]]:
    """The body rows of the table after ``<!-- checked: name -->`` in ``docs/page``, as
    cells with backticks stripped and − read as a minus sign."""
    text = (DOCS / page).read_text(encoding="utf-8")
    marker = f"<!-- checked: {name} -->"
    assert text.count(marker) == 1, f"{page}: no single table marked {name}"
    lines = text.split(marker, 1)[1].strip().splitlines()
    rows = []
    for line in (raw.strip() for raw in lines[2:]):  # after the header and its rule
        if not line.startswith("|"):
            break
        cells = [c.strip().replace("`", "").replace("−", "-") for c in line.strip("|").split("|")]
        rows.append(cells)
    assert rows, f"{page}: the {name} table is empty"
    return rows


def test_every_checked_table_of_the_rules_pages_is_checked_here() -> None:
    """A new checked table needs a test below: list each page's markers."""
    found = {
        m
        for page in ("rules-truf.md", "rules-truco.md", "rules-ruff.md")
        for m in re.findall(r"<!-- checked: ([a-z-]+) -->", (DOCS / page).read_text("utf-8"))
    }
    tested = {
        n.removeprefix("test_").replace("_", "-")
        for n in globals()
        if n.startswith("test_")
        and n.removeprefix("test_").split("_")[0] in {"truf", "truco", "ruff"}
    }
    assert found <= tested, sorted(found - tested)


# --------------------------------------------------------------------- Truco


def spanish(codes: str) -> list[SpanishCard]:
    return [SpanishCard.parse(c) for c in codes.split()]


def test_truco_card_order() -> None:
    """R1: TrucoView.cards lists the unplayed cards weakest first, equal ones by suit
    E, B, O, C."""
    for given, listed in checked("rules-truco.md", "truco-card-order"):
        cards = spanish(given)
        assert [c.code for c in sorted(cards, key=lambda c: c.sort_key)] == listed.split()
        if len(cards) == 3:  # and what the view of a seat dealt them says (two seats)
            other = tuple(c for c in spanish("4E 4B 5E 5B 6E 6B") if c not in cards)[:3]
            m = TrucoMatch(TrucoRules(seats=2), hands=[HandSpec((tuple(cards), other), dealer=1)])
            assert [c.code for c in m.view(0).cards] == listed.split()


def test_truco_hand_winner() -> None:
    """R5, with M mano's team (0) and O the other."""
    team = {"M": 0, "O": 1, "tie": None}
    for *tricks, winner in checked("rules-truco.md", "truco-hand-winner"):
        results = [team[t] for t in tricks if t != "—"]
        for n in range(2, len(results)):  # undecided until the last trick played
            assert hand_winner(results[:n], 0) is None, tricks
        assert hand_winner(results, 0) == team[winner], tricks


def test_truco_answerer() -> None:
    """R6: the first seat of the called team not gone al mazo, from the caller on."""
    for order, caller, folded, answerer in checked("rules-truco.md", "truco-answerer"):
        seats = tuple(int(s) for s in order.split())
        bout = Bout(order=seats, turn=seats[0], folded={int(s) for s in folded.split()})
        c = int(caller)
        assert bout.first_of_team(c, 1 - c % 2) == int(answerer), (order, caller, folded)


def test_truco_stakes() -> None:
    """R7: accepted and refused values of each Truco call."""
    ladder = {"Truco": 1, "Retruco": 2, "Vale Cuatro": 3}
    for call, accepted, refused in checked("rules-truco.md", "truco-stakes"):
        assert truco_calls.truco_stake(ladder[call]) == int(accepted)
        assert truco_calls.truco_refused(ladder[call]) == int(refused)


def test_truco_envido() -> None:
    """R9: two cards of a suit score 20 plus their values, figures 0; the seed count and
    the traditional count without a suited pair; the cards shown."""
    for dealt, count, score, shown in checked("rules-truco.md", "truco-envido"):
        cards, how = spanish(dealt), EnvidoCount(count)
        assert envido_score(cards, how) == int(score), dealt
        assert [c.code for c in envido_cards(cards, how)] == shown.split(), dealt


def test_truco_envido_stakes() -> None:
    """R8 at 12-20 in a game to 30: Falta Envido is worth 10."""
    word = {"E": truco_calls.EnvidoCall.ENVIDO, "RE": truco_calls.EnvidoCall.REAL_ENVIDO,
            "F": truco_calls.EnvidoCall.FALTA_ENVIDO}  # fmt: skip
    falta = truco_calls.falta_value(30, (12, 20))
    assert falta == 10
    for sequence, accepted, refused in checked("rules-truco.md", "truco-envido-stakes"):
        seq = [word[c] for c in sequence.split()]
        assert truco_calls.envido_accepted(seq, falta) == int(accepted), sequence
        assert truco_calls.envido_refused(seq, falta) == int(refused), sequence
        # every documented sequence is one the ladder allows, call after call
        for i, call in enumerate(seq):
            assert call in truco_calls.next_envido_calls(seq[:i]), sequence


def example_hand() -> TrucoMatch:
    deal = checked("rules-truco.md", "truco-example-deal")
    hands = tuple(tuple(spanish(dealt)) for _, dealt, _ in deal)
    for _, dealt, envido in deal:
        assert envido_score(spanish(dealt)) == int(envido), dealt
    return TrucoMatch(TrucoRules(seats=4), hands=[HandSpec(hands, dealer=3)])


def test_truco_example_deal() -> None:
    match = example_hand()
    listed = "play 6E, play 3B, play 7E, call truco, call envido, call real-envido, " \
        "call falta-envido, mazo"  # fmt: skip
    assert ", ".join(str(a) for a in match.legal_actions(0)) == listed
    page = (DOCS / "rules-truco.md").read_text(encoding="utf-8")
    assert f"first turn is `{listed.replace(', ', ', ')}`" in " ".join(page.split())


def test_truco_example_hand() -> None:
    """The worked hand, decision by decision: who is asked, for what, and the 2-2 end."""
    match = example_hand()
    for seat, asked, action, _ in checked("rules-truco.md", "truco-example-hand"):
        now, who = match.asked()
        assert (who, now.value) == (int(seat), asked), (seat, asked, action)
        match.apply(who, truco_action(action))
    (record,) = match.finished
    assert record["points"] == [2, 2]
    assert record["plays"][0]["envido"]["shown"] == [0, ["7E", "6E"]]


# --------------------------------------------------------------------- Ruff


def french(codes: str) -> list[FrenchCard]:
    return [FrenchCard.parse(c) for c in codes.split()]


def test_ruff_values() -> None:
    """F3: 2..9 face value, T J Q K 10, A 11; the trump suit counts the turned card."""
    for dealt, turned, *sums, ruff, suit in checked("rules-ruff.md", "ruff-values"):
        cards, up = french(dealt), FrenchCard.parse(turned)
        assert up not in cards and len(set(cards)) == 12, dealt  # a real deal
        assert suit_sums(cards, up) == [int(s) for s in sums], dealt
        assert true_ruff(cards, up) == int(ruff)
        assert SUITS[ruff_suit(cards, up)] == suit


def test_ruff_winner() -> None:
    """F4: the highest announcement, ties to the first to announce."""
    for eldest, said, winner in checked("rules-ruff.md", "ruff-winner"):
        pairs = [(int(s), int(n)) for n, s in re.findall(r"(\d+) by (\d+)", said)]
        assert pairs[0][0] == int(eldest)
        assert ruff_winner(pairs) == int(winner), said


def test_ruff_shown() -> None:
    """F6: the ruff suit's dealt cards, highest first, until they reach the number."""
    for dealt, turned, announced, suit, shown in checked("rules-ruff.md", "ruff-shown"):
        assert FrenchCard.parse(turned) not in french(dealt), dealt
        got_suit, cards = shown_cards(french(dealt), FrenchCard.parse(turned), int(announced))
        assert (SUITS[got_suit], [c.code for c in cards]) == (suit, shown.split())


def test_ruff_card_points() -> None:
    """F8: cards above the par; par twice the hand in double, the hand in single."""
    for form, seats, each, taken, points in checked("rules-ruff.md", "ruff-card-points"):
        n = int(seats)
        rules = RuffRules(form=Form(form), seats=n, alt_deals=int(each) != 12)
        assert rules.hand_size == int(each)
        won = [int(x) for x in taken.split()]
        assert len(won) == len(rules.teams) and sum(won) == n * rules.hand_size
        assert card_points(won, rules.par) == [int(p) for p in points.split()]


def test_ruff_fallback_discard() -> None:
    """House choice 4: the four lowest-ranked cards outside trump, then the lowest trumps,
    equal ranks in suit order S, H, D, C: what RuffMatch.fallback_action discards."""
    for hand, trump, discards in checked("rules-ruff.md", "ruff-fallback-discard"):
        match = rubbing_match(french(hand), SUITS.index(trump))
        assert sorted(match.hand(0)) == sorted(french(hand))
        fallback = match.fallback_action(0)
        assert isinstance(fallback, Discard)
        assert [c.code for c in fallback.cards] == discards.split(), hand


def rubbing_match(sixteen: list[FrenchCard], trump: int) -> RuffMatch:
    """A three-seat single match at seat 0's rub, seat 0 holding ``sixteen`` once it has
    taken the head's top four (the first a trump of ``trump``, turned up). Seat 0 holds
    the trump ace (F5), or is the dealer with the ace unseen deep in the head."""
    ace = FrenchCard.of(12, trump)
    turned = next(c for c in sixteen if c // 13 == trump and c != ace)
    top = [turned, *[c for c in sixteen if c not in (turned, ace)][:3]]
    own = [c for c in sixteen if c not in top]
    rest = [c for c in map(FrenchCard, range(52)) if c not in sixteen and c != ace]
    hands = (tuple(own), tuple(rest[:12]), tuple(rest[12:24]))
    head = (*top, *rest[24:], *([] if ace in sixteen else [ace]))
    spec = DealSpec(hands=hands, head=head, dealer=0, source="rules-ruff.md")
    match = RuffMatch(RuffRules(form=Form.SINGLE, seats=3), deals=[spec])
    while match.phase is Phase.ANNOUNCE:
        seat = match.to_act()[0]
        match.apply(seat, match.legal_actions(seat)[0])
    assert match.phase is Phase.RUB and match.to_act() == (0,)
    assert isinstance(match.fallback_action(0), Discard)
    return match


# --------------------------------------------------------------------- Truf


def test_truf_classic_bids() -> None:
    """C4 and C5: the high bidder, trump, the sum and the mode."""
    for bids, high, trump, total, mode in checked("rules-truf.md", "truf-classic-bids"):
        cards = french(bids)
        seat = bidding.classic_high_bidder([Bid(c) for c in cards])
        assert (seat, SUITS[cards[seat] // 13]) == (int(high), trump), bids
        assert sum(VALUES[c] for c in cards) == int(total)
        if int(total) == 13:
            values = [VALUES[c] for c in cards]
            assert f"atas makes the bids {' '.join(str(v + 1) for v in values)}" in mode
            assert f"bawah {' '.join(str(v - 1) for v in values)}" in mode
        else:
            assert mode == ("atas" if int(total) > 13 else "bawah")


def test_truf_classic_score() -> None:
    """C13, methods 1, 2, 3 (multiplier 2) and 2+3."""
    methods = [ScoringMethod.ONE, ScoringMethod.TWO, ScoringMethod.THREE, ScoringMethod.TWO_THREE]
    for mode, bid, tricks, *scores in checked("rules-truf.md", "truf-classic-score"):
        got = [classic_score(Mode(mode), int(bid), int(tricks), m, 2) for m in methods]
        assert got == [int(s) for s in scores], (mode, bid, tricks)


def test_truf_target_declarations() -> None:
    """T2: which declarations are valid, and their targets."""
    for cards, op, valid, target in checked("rules-truf.md", "truf-target-declarations"):
        decl = Declare(tuple(french(cards)), DeclareOp(op))
        assert (bidding.declaration_valid(decl) is None) == (valid == "yes"), cards
        if valid == "yes":
            assert decl.target == int(target), cards


def test_truf_target_winner() -> None:
    """T3's tie-breaks."""
    for declarations, winner in checked("rules-truf.md", "truf-target-winner"):
        decls = []
        for part in declarations.split("·"):
            *cards, op = part.split()
            decls.append(Declare(tuple(french(" ".join(cards))), DeclareOp(op)))
        assert all(bidding.declaration_valid(d) is None for d in decls), declarations
        assert bidding.target_high_bidder(decls) == int(winner), declarations


def test_truf_target_score() -> None:
    """T6."""
    for mode, target, tricks, highest, score in checked("rules-truf.md", "truf-target-score"):
        got = target_score(Mode(mode), int(target), int(tricks), int(highest))
        assert got == int(score), (mode, target, tricks)


@pytest.mark.parametrize("page", ["rules-truf.md", "rules-truco.md", "rules-ruff.md"])
def test_the_rules_pages_stand_alone(page: str) -> None:
    """The repository's rules are binding in themselves: no page sends a reader to a file
    outside the repository (the seeds and rulings live in the project's shared folder)."""
    text = (DOCS / page).read_text(encoding="utf-8")
    assert "shared/" not in text and "seeds/" not in text
    rulings = {
        "rules-truf.md": [f"C{i}" for i in range(1, 15)] + [f"T{i}" for i in range(1, 8)],
        "rules-truco.md": [f"R{i}" for i in range(1, 15)],
        "rules-ruff.md": [f"F{i}" for i in range(1, 12)],
    }
    for ruling in rulings[page]:
        assert re.search(rf"\b{ruling}\b", text), f"{page} never cites {ruling}"


def test_every_discard_set_index_is_as_the_ruff_page_says() -> None:
    """rules-ruff.md: index 0 is the hand's first four, 1 its first three and its fifth,
    1819 its last four."""
    hand = sorted(french("AS KS 9S 4S QH 7H 2H TD 5D 3D 8C 6C 7S 2S 9H 3H"))
    sets = list(combinations(hand, 4))
    assert len(sets) == 1820
    assert sets[1] == (*hand[:3], hand[4]) and sets[-1] == tuple(hand[-4:])


def deals_bound(rules: RuffRules) -> int:
    """The most deals a set can take: the first k at which the 12k ruff points, however
    the sides share them, must have brought one side to the set (F4, F9)."""
    sides, k = len(rules.teams), 1
    while -(-12 * k // sides) < rules.set_points:
        k += 1
    return k


def test_ruff_house_choice_11_gives_the_bound_the_ruff_puts_on_a_set() -> None:
    text = " ".join((DOCS / "rules.md").read_text(encoding="utf-8").split())
    double = deals_bound(RuffRules())
    single = [deals_bound(RuffRules(form=Form.SINGLE, seats=n)) for n in (4, 3, 2)]
    alt = [deals_bound(RuffRules(form=Form.SINGLE, seats=n, alt_deals=True)) for n in (3, 2)]
    assert (
        f"after at most {double} deals in double, and {single[0]}, {single[1]} and "
        f"{single[2]} deals in single with 4, 3 and 2 seats ({alt[0]} and {alt[1]} with "
        "`--alt-deals` at 3 and 2 seats)"
    ) in text


@pytest.mark.parametrize("form,seats", [("double", 4), ("single", 4), ("single", 3)])
def test_ruff_sets_end_within_the_bound_in_random_playouts(form: str, seats: int) -> None:
    rules = RuffRules(form=Form(form), seats=seats)
    for seed in range(20):
        match = RuffMatch(rules, seed=f"bound-{seed}")
        pick = random.Random(seed)
        while not match.is_over:
            seat = match.to_act()[0]
            legal = match.legal_actions(seat)
            match.apply(seat, legal[pick.randrange(len(legal))])
        assert 2 <= match.deal_no <= deals_bound(rules)


def example_deal() -> tuple[RuffMatch, list[list[str]]]:
    """The worked deal of rules-ruff.md, announced as the page says."""
    rows = checked("rules-ruff.md", "ruff-example-deal")
    hands = tuple(tuple(french(dealt)) for _, dealt, _, _ in rows)
    head = tuple(french("8H 2S 3S 4C"))
    assert len(set(sum(hands, head))) == 52
    spec = DealSpec(hands=hands, head=head, dealer=0, source="rules-ruff.md")
    match = RuffMatch(RuffRules(), deals=[spec])
    for who, _, ruff, _ in rows:
        assert true_ruff(hands[int(who)], head[0]) == int(ruff)
    for seat in (1, 2, 3, 0):  # from eldest, clockwise
        assert match.to_act() == (seat,)
        match.apply(seat, Announce(int(rows[seat][3])))
    return match, rows


def test_ruff_example_deal() -> None:
    match, _ = example_deal()
    page = " ".join((DOCS / "rules-ruff.md").read_text(encoding="utf-8").split())
    assert match.ruff_winner == 2 and match.scores == [12, 0]
    assert match.rubber_seat == 3 and match.to_act() == (3,)
    assert [c.code for c in match.taken or ()] == ["8H", "2S", "3S", "4C"]
    fallback = match.fallback_action(3)
    assert isinstance(fallback, Discard)
    discards = " ".join(c.code for c in fallback.cards)
    assert f"its fallback would discard `{discards}`" in page
    match.apply(3, match.fallback_action(3))
    assert match.shown is not None
    shown = " ".join(c.code for c in match.shown.cards)
    assert f"seat 2's spades are shown, `{shown}`" in page


def test_ruff_example_result() -> None:
    match, _ = example_deal()
    while match.deal_no == 1 and not match.is_over:
        seat = match.to_act()[0]
        match.apply(seat, match.fallback_action(seat))
    record = match.finished[0]
    for side, (_, ruff, taken, cards, points) in enumerate(
        checked("rules-ruff.md", "ruff-example-result")
    ):
        assert record["ruff_points"][side] == int(ruff)
        assert record["cards_won"][side] == int(taken)
        assert record["card_points"][side] == int(cards)
        assert record["points"][side] == int(points)


def test_truco_duels() -> None:
    """R13: the duels hand (every second hand at six seats) plays dealer + 1, + 2, + 3
    against the seat opposite, by the same dealer as the team hand before it."""
    for dealer, *duels in checked("rules-truco.md", "truco-duels"):
        seed = next(s for s in map(str, range(100)) if first_dealer(s, 6) == int(dealer))
        match = TrucoMatch(TrucoRules(seats=6, points=30), seed=seed)
        assert match.kind == "team"
        while match.hand_no == 1:
            seat = match.to_act()[0]
            match.apply(seat, match.fallback_action(seat))
        assert (match.kind, match.dealer) == ("duels", int(dealer))
        assert [" ".join(map(str, b.order)) for b in match.bouts] == duels


def test_truf_legal_plays() -> None:
    """C9, C10 and T5: follow suit; no trump lead before trump is broken (classic)."""
    for variant, hand, trump, broken, led, may in checked("rules-truf.md", "truf-legal-plays"):
        lead = None if led == "(leading)" else SUITS.index(led)
        mask = legal_play_mask(
            mask_of(french(hand)), lead, SUITS.index(trump), broken == "yes", variant == "target"
        )
        assert [c.code for c in cards_of(mask)] == may.split(), (variant, hand, led)


def test_truf_trick_winner() -> None:
    """C12 and T5: the highest trump, else the highest card of the led suit."""
    for trump, cards, winner in checked("rules-truf.md", "truf-trick-winner"):
        trick = [(int(s), FrenchCard.parse(c)) for s, c in re.findall(r"(\d): (\w+)", cards)]
        suit = None if trump == "none" else SUITS.index(trump)
        assert trick_winner(trick, suit) == int(winner), cards
