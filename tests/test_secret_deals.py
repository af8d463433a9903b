"""Secret deals (security issue: predictable deals).

The attacker here is an outsider: it knows the published shuffle (52 random keys, the deck
sorted by them, 13 cards to each seat) and what a bot learns, the match id and its own
hand; it imports nothing from arena. Before this change a deal was
``random.Random(f"truf:{seed}:{match_id}:deal:{n}")`` and the seed a small number: one hand
gave the seed away, and with it every hand of every deal.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import random
import shutil
import stat
from pathlib import Path

from typer.testing import CliRunner

from arena.cli import app
from arena.standings.results import read_jsonl

runner = CliRunner()
RANKS, SUITS = "23456789TJQKA", "SHDC"
GUESSES = range(5000)  # the seeds an attacker tries: 0..4999 covers every "small" seed


def arena(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def tournament(out: Path, *extra: str, rounds: int = 2) -> Path:
    code, text = arena(
        "tournament", "--in-process", "--rounds", str(rounds), "--deals", "2",
        "--results", str(out), "--quiet", *extra,
    )  # fmt: skip
    assert code == 0, text
    return out


# ------------------------------------------------------------------ the outsider


def shuffle_hands(gen: random.Random) -> list[frozenset[str]]:
    """The published shuffle, before any C2 redeal: card index = suit * 13 + rank."""
    keys = [gen.random() for _ in range(52)]
    deck = sorted(range(52), key=keys.__getitem__)
    return [
        frozenset(RANKS[c % 13] + SUITS[c // 13] for c in deck[i * 13 : (i + 1) * 13])
        for i in range(4)
    ]


def old_deal(seed: int, match_id: str, deal: int) -> list[frozenset[str]]:
    return shuffle_hands(random.Random(f"truf:{seed}:{match_id}:deal:{deal}"))


def hmac_hex(key: str, *parts: object) -> str:
    message = ":".join(str(p) for p in parts).encode()
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()


def keyed_deal(run_secret: str, match_id: str, deal: int) -> list[frozenset[str]]:
    """The documented derivation (docs/rules.md), written from the doc."""
    match_key = hmac_hex(run_secret, "match", match_id)
    return shuffle_hands(random.Random(hmac_hex(match_key, "truf", "deal", deal)))


def seeded_deal(seed: int, match_id: str, deal: int) -> list[frozenset[str]]:
    """A --seed run's secret is derived from the seed in public."""
    return keyed_deal(hmac_hex("truf-arena:seed", seed), match_id, deal)


def find_seed(hand: frozenset[str], match_id: str, derive: object) -> int | None:
    """The attack: the seed whose first deal gives this seat ``hand``, if any is small."""
    for guess in GUESSES:
        if any(h == hand for h in derive(guess, match_id, 1)):  # type: ignore[operator]
            return guess
    return None


def first_unredealt_hand(directory: Path) -> tuple[str, frozenset[str], list[frozenset[str]]]:
    """A seat's view of deal 1 of some match (one the C2 redeal did not touch)."""
    for rec in read_jsonl(directory / "replays.jsonl"):
        if rec["deal"] == 1 and rec["redeals"] == 0:
            hands = [frozenset(h) for h in rec["hands"]]
            return str(rec["match"]), hands[0], hands
    raise AssertionError("every deal 1 was redealt: play more rounds")


def test_the_old_derivation_gave_the_seed_away_from_one_hand() -> None:
    hands = old_deal(4242, "r0001-t01", 1)
    assert find_seed(hands[2], "r0001-t01", old_deal) == 4242
    # ... and with the seed, every later hand of the match
    assert old_deal(4242, "r0001-t01", 7) == old_deal(4242, "r0001-t01", 7)


def test_a_secret_run_cannot_be_reproduced_from_the_match_id(tmp_path: Path) -> None:
    run = tournament(tmp_path / "secret")
    match_id, hand, hands = first_unredealt_hand(run)
    assert find_seed(hand, match_id, old_deal) is None
    assert find_seed(hand, match_id, seeded_deal) is None
    # What the attacker lacks is the secret alone: with the organiser's file it succeeds.
    secret = (run / "secret").read_text().strip()
    assert set(keyed_deal(secret, match_id, 1)) == set(hands)


def test_a_seeded_run_is_reproducible_by_anyone_who_knows_the_seed(tmp_path: Path) -> None:
    # The reason --seed is for development only: the same attack names every hand.
    run = tournament(tmp_path / "seeded", "--seed", "4242")
    match_id, hand, hands = first_unredealt_hand(run)
    assert find_seed(hand, match_id, seeded_deal) == 4242
    assert set(seeded_deal(4242, match_id, 1)) == set(hands)


# ------------------------------------------------------------------ the secret file


def test_the_secret_is_kept_owner_only_and_nowhere_else(tmp_path: Path) -> None:
    run = tournament(tmp_path / "run")
    path = run / "secret"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    secret = path.read_text().strip()
    assert len(bytes.fromhex(secret)) == 16
    for other in run.rglob("*"):
        if other.is_file() and other != path:
            assert secret not in other.read_text(errors="replace"), other
    config = json.loads((run / "tournament.json").read_text())
    assert config["randomness"] == "secret" and config["seed"] is None


def test_two_secret_runs_deal_differently(tmp_path: Path) -> None:
    a = read_jsonl(tournament(tmp_path / "a", rounds=1) / "replays.jsonl")
    b = read_jsonl(tournament(tmp_path / "b", rounds=1) / "replays.jsonl")
    assert [r["hands"] for r in a] != [r["hands"] for r in b]
    assert (tmp_path / "a" / "secret").read_text() != (tmp_path / "b" / "secret").read_text()


def test_resume_deals_on_from_the_saved_secret(tmp_path: Path) -> None:
    whole = tournament(tmp_path / "whole", rounds=3)
    part = tmp_path / "part"
    shutil.copytree(whole, part)
    matches = (part / "matches.jsonl").read_text().splitlines(keepends=True)
    kept = {json.loads(line)["match"] for line in matches[:1]}
    (part / "matches.jsonl").write_text("".join(matches[:1]))
    replays = (part / "replays.jsonl").read_text().splitlines(keepends=True)
    (part / "replays.jsonl").write_text(
        "".join(x for x in replays if json.loads(x)["match"] in kept)
    )
    code, text = arena("tournament", "--resume", str(part), "--quiet")
    assert code == 0, text
    for name in ("replays.jsonl", "matches.jsonl"):
        assert (part / name).read_bytes() == (whole / name).read_bytes(), name


def test_resume_without_the_secret_is_refused(tmp_path: Path) -> None:
    run = tournament(tmp_path / "run", rounds=1)
    (run / "secret").unlink()
    code, text = arena("tournament", "--resume", str(run), "--quiet")
    assert code == 1
    assert "secret is missing" in text and "Traceback" not in text


def test_verify_re_deals_every_deal_from_the_secret(tmp_path: Path) -> None:
    run = tournament(tmp_path / "run", rounds=2)
    code, text = arena("verify", str(run))
    assert code == 0, text
    deals = len(read_jsonl(run / "replays.jsonl"))
    assert f"{deals} dealt deals are the ones the run's secret deals" in " ".join(text.split())
    # Another secret deals other hands: verify notices.
    (run / "secret").write_text(os.urandom(16).hex() + "\n")
    code, text = arena("verify", str(run))
    assert code == 1 and "not the ones the run's secret deals" in text


def test_verify_without_the_secret_still_replays(tmp_path: Path) -> None:
    run = tournament(tmp_path / "run", rounds=1)
    (run / "secret").unlink()
    code, text = arena("verify", str(run))
    assert code == 0, text
    assert "not re-dealt" in text


# ------------------------------------------------------------------ --seed


def test_seed_reproduces_a_run_byte_for_byte_and_warns(tmp_path: Path) -> None:
    texts = []
    for name in ("one", "two"):
        result = runner.invoke(
            app,
            ["tournament", "--in-process", "--rounds", "2", "--deals", "2", "--seed", "11",
             "--results", str(tmp_path / name), "--quiet"],
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        texts.append(result.output)
        assert "--seed 11" in result.output and "can see every hand" in result.output
    for name in ("replays.jsonl", "matches.jsonl"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    assert not (tmp_path / "one" / "secret").exists()
    config = json.loads((tmp_path / "one" / "tournament.json").read_text())
    assert config["randomness"] == "seeded" and config["seed"] == 11


def test_a_run_from_before_secret_deals_is_verified_but_not_resumed(tmp_path: Path) -> None:
    run = tournament(tmp_path / "old", "--seed", "3", rounds=2)
    saved = json.loads((run / "tournament.json").read_text())
    del saved["randomness"]  # as an arena before secret deals wrote it
    (run / "tournament.json").write_text(json.dumps(saved))
    lines = (run / "matches.jsonl").read_text().splitlines(keepends=True)
    (run / "matches.jsonl").write_text(lines[0])
    code, text = arena("tournament", "--resume", str(run), "--quiet")
    assert code == 1 and "before secret deals" in text
    code, text = arena("verify", str(run))
    assert code == 0 and "not re-dealt" in text


class SeedSpy:
    """An in-process entrant that keeps the seed the arena gave it."""

    seeds: list[str] = []

    def __init__(self, seed: str = "") -> None:
        SeedSpy.seeds.append(str(seed))

    def act(self, view: object, legal: list[object]) -> object:
        return legal[0]


def test_a_bots_seed_tells_it_nothing_of_the_secret(tmp_path: Path) -> None:
    spy = f"{__name__}:SeedSpy"
    SeedSpy.seeds.clear()
    run = tournament(tmp_path / "run", "--bots", f"{spy},{spy},random,greedy", rounds=1)
    secret = (run / "secret").read_text().strip()
    assert len(SeedSpy.seeds) == 2 and len(set(SeedSpy.seeds)) == 2  # one each, distinct
    for seed in SeedSpy.seeds:
        assert secret not in seed and seed != hmac_hex(secret, "match", "r0001-t01")
        assert len(seed) == 32  # a derived hex string, not the secret or a small number
