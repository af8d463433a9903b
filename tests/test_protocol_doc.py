"""docs/protocol.md holds a real transcript: regenerate it from a live run and compare."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_guides_transcript_is_what_a_real_run_sends_today() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "transcript.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_the_transcript_shows_a_hidden_trump_and_every_message_kind() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    transcript = text.split("```protobuf", 1)[1].split("```", 1)[0]
    for kind in ("hello {", "welcome {", "decision_request {", "answer {", "deal_result {",
                 "match_result {", "tournament_over {"):  # fmt: skip
        assert kind in transcript, kind
    # C11: another seat's face-down trump in the open trick, laid out in full, no card.
    assert "trick {\n        seat: 1\n        face_down: true\n      }" in transcript
