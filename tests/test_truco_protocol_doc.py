"""docs/protocol.md's Truco section holds a transcript of one hand with an Envido and a
Truco call (tests/test_protocol_doc.py checks it is fresh)."""

from __future__ import annotations

from test_protocol_doc import generated


def test_the_truco_transcript_has_an_envido_and_a_truco_answered_by_value() -> None:
    transcript = generated("truco transcript", "truco_transcript.py")
    assert 'games: "truco"' in transcript
    # What seat 0 sent, each message on one line: the Envido call and the Quiero by value.
    sent = [" ".join(b.split()) for b in transcript.split("# bot → referee")[1:]]
    assert any("truco { call: TRUCO_CALL_ENVIDO }" in b for b in sent), sent
    assert any("truco { answer: TRUCO_ANSWER_QUIERO }" in b for b in sent), sent
    assert "truco_call: TRUCO_CALL_TRUCO" in transcript  # seat 0 asked to answer a Truco
    assert "asked: TRUCO_ASKED_DECLARE" in transcript
    for kind in ("welcome {", "decision_request {", "deal_result {", "match_result {",
                 "tournament_over {"):  # fmt: skip
        assert kind in transcript, kind
