"""Deal files (JSON Lines): good files load, broken ones are refused naming the line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from arena.core.cards import CODES, cards_of
from arena.games.truf.dealsfile import DealFileError, load_deals
from arena.games.truf.rules import TrufRules
from arena.games.truf.state import TrufMatch, deal_from_seed


def good_hands(seed: int) -> list[list[str]]:
    hands, _ = deal_from_seed(random.Random(seed))
    return [[CODES[c] for c in cards_of(h)] for h in hands]


def write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "deals.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_good_deal_file_is_played_deal_for_deal(tmp_path: Path) -> None:
    deals = [good_hands(1), good_hands(2)]
    path = write(
        tmp_path,
        [json.dumps({"hands": deals[0], "dealer": 2}), "", json.dumps({"hands": deals[1]})],
    )
    specs = load_deals(path)
    assert [s.dealer for s in specs] == [2, None]
    m = TrufMatch(TrufRules(deals=3), seed=5, deals=specs)
    rng = random.Random(0)
    while not m.is_over:
        for seat in m.to_act():
            m.apply(seat, rng.choice(m.legal_actions(seat)))
    recs = m.finished
    assert recs[0]["hands"] == [sorted(h, key=CODES.index) for h in deals[0]]
    assert recs[0]["dealer"] == 2
    assert recs[1]["hands"] == [sorted(h, key=CODES.index) for h in deals[1]]
    assert recs[2]["hands"] == recs[0]["hands"]  # the file's deals cycle
    assert recs[0]["deal_source"] == "file:deals.jsonl:1"
    assert recs[1]["deal_source"] == "file:deals.jsonl:3"


def test_ten_is_accepted_as_10_or_T(tmp_path: Path) -> None:
    hands = good_hands(3)
    hands = [[c.replace("T", "10") for c in h] for h in hands]
    assert load_deals(write(tmp_path, [json.dumps({"hands": hands})]))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda h: "{not json", "line 2: not valid JSON"),
        (lambda h: json.dumps({"hands": h[:3]}), "line 2: a deal has 4 hands"),
        (
            lambda h: json.dumps({"hands": [h[0][:12], h[1], h[2], h[3]]}),
            "line 2: hand 0 has 12 cards",
        ),
        (
            lambda h: json.dumps({"hands": [["ZZ"] + h[0][1:], h[1], h[2], h[3]]}),
            "line 2: not a card code: 'ZZ'",
        ),
        (lambda h: json.dumps({"hands": [[h[1][0]] + h[0][1:], h[1], h[2], h[3]]}), "line 2: card"),
        (lambda h: json.dumps({"hands": h, "dealer": 7}), 'line 2: "dealer" must be a seat'),
        (lambda h: json.dumps({"hands": h, "extra": 1}), "line 2: unknown field"),
        (lambda h: json.dumps([1, 2]), "line 2"),
    ],
)
def test_a_broken_deal_file_is_refused_naming_the_line(
    tmp_path: Path, mutate, message: str
) -> None:  # type: ignore[no-untyped-def]
    first = json.dumps({"hands": good_hands(4)})
    path = write(tmp_path, [first, mutate(good_hands(5))])
    with pytest.raises(DealFileError, match=message.replace("(", r"\(").replace("'", "'")) as info:
        load_deals(path)
    assert "deals.jsonl line 2" in str(info.value)


def test_c2_a_deal_file_with_an_all_numeral_hand_is_refused(tmp_path: Path) -> None:
    numerals = [r + s for s in "SHDC" for r in "23456789T"]  # 36 numeral cards
    courts = [r + s for s in "SHDC" for r in "JQKA"]  # 16 court cards
    hands = [
        numerals[:13],
        numerals[13:23] + courts[:3],
        numerals[23:33] + courts[3:6],
        numerals[33:] + courts[6:],
    ]
    path = write(tmp_path, [json.dumps({"hands": hands})])
    with pytest.raises(DealFileError, match=r"line 1: hand 0 holds only numeral cards.*C2"):
        load_deals(path)


def test_c2_a_deal_file_with_an_all_court_hand_is_refused(tmp_path: Path) -> None:
    numerals = [r + s for s in "SHDC" for r in "23456789T"]
    courts = [r + s for s in "SHDC" for r in "JQKA"]
    hands = [numerals[:10] + courts[13:], courts[:13], numerals[10:23], numerals[23:]]
    hands[2] = numerals[10:22] + [hands[3][0]]
    hands[3] = hands[3][1:] + [numerals[22]]
    path = write(tmp_path, [json.dumps({"hands": hands})])
    with pytest.raises(DealFileError, match=r"line 1: hand 1 holds only A, K, Q and J.*C2"):
        load_deals(path)


def test_an_empty_or_missing_deal_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DealFileError, match="holds no deals"):
        load_deals(write(tmp_path, [""]))
    with pytest.raises(DealFileError, match="cannot read deal file"):
        load_deals(tmp_path / "nope.jsonl")
