"""docs/protocol.md's Ruff section holds a transcript of one deal with the announcements,
the rub, the shown ruff and play (tests/test_protocol_doc.py checks it is fresh)."""

from __future__ import annotations

from test_protocol_doc import generated


def test_the_ruff_transcript_shows_the_announcing_the_rub_the_shown_ruff_and_play() -> None:
    transcript = generated("ruff transcript", "ruff_transcript.py")
    assert 'games: "ruff"' in transcript
    for phase in ("ANNOUNCE", "RUB", "PLAY"):
        assert f"phase: RUFF_PHASE_{phase}" in transcript, phase
    # What seat 0 sent, by value, each on one line: its ruff, its four discards, cards.
    sent = [" ".join(b.split()) for b in transcript.split("# bot → referee")[1:]]
    assert any("ruff { announce: " in b for b in sent), sent
    assert sum("ruff { discard { cards: " in b for b in sent) == 1, sent
    assert sum("ruff { play: " in b for b in sent) == 12, sent
    # Seat 0 rubs: the head cards it took and its discards are in its view (F11), the
    # decision names no discard list (F5), and the ruff's winner shows its ruff (F6).
    assert "rubber: 0" in transcript and 'taken: "' in transcript
    assert 'discards: "' in transcript and "discard {\n      count: 4\n    }" in transcript
    assert "ruff_winner: 2" in transcript and "shown {\n        seat: 2" in transcript
    for kind in ("welcome {", "decision_request {", "deal_result {", "match_result {",
                 "tournament_over {"):  # fmt: skip
        assert kind in transcript, kind
