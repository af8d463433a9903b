"""The report's viewers step through a public record (docs/ladder.md, "What is public"),
as the ladder's match page shows it: every step of real public records renders in node,
each hidden card (null) drawn face down."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import MissingTool
from test_public_record import CONFIGS, played_deals

from arena.games.registry import REGISTRY

ROOT = Path(__file__).resolve().parents[1]

# A minimal DOM: elements as plain objects, enough for a viewer's render.
HARNESS = """
const fs = require("fs");
const [viewerPath, recordsPath] = process.argv.slice(2);
const node = (tag) => ({ tag, attrs: {}, children: [],
  append(...c) { this.children.push(...c); } });
globalThis.document = { head: node("head"), createElement: node };
globalThis.window = { arenaViewers: {} };
function el(tag, attrs, ...children) {
  const n = node(tag); n.attrs = attrs || {};
  n.children = children.flat(Infinity).filter(c => c !== null && c !== undefined && c !== false);
  return n;
}
const ui = { el, chip: name => el("span", { class: "chip" }, name), colour: {} };
eval(fs.readFileSync(viewerPath, "utf8"));
const viewer = Object.values(window.arenaViewers)[0];
const records = JSON.parse(fs.readFileSync(recordsPath, "utf8"));
let steps = 0, backs = 0;
const count = n => {
  if (typeof n !== "object") {
    if (String(n).includes("null")) throw new Error("'null' shown as text");
    return;
  }
  if ((n.attrs.class || "").split(" ").includes("back")) backs++;
  n.children.forEach(count);
};
records.forEach(rec => viewer.steps(rec).forEach((_, i) => {
  steps++;
  count(viewer.render(rec, i, ui, records));
}));
console.log(JSON.stringify({ steps, backs }));
"""


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=lambda x: str(x))
def test_a_viewer_draws_a_public_record(
    tmp_path: Path, game: str, options: dict[str, Any], missing_tool: MissingTool
) -> None:
    node = shutil.which("node")
    if node is None:
        missing_tool("the viewer test needs node", "apt-get install nodejs")
    public = REGISTRY[game].public_record
    assert public is not None
    records = [public(rec) for rec, _ in played_deals(game, options, "s1")]
    (tmp_path / "records.json").write_text(json.dumps(records))
    (tmp_path / "harness.js").write_text(HARNESS)
    viewer = ROOT / "arena" / "games" / game / "viewer.js"
    run = subprocess.run(
        [str(node), str(tmp_path / "harness.js"), str(viewer), str(tmp_path / "records.json")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["steps"] > len(records)
    hidden = sum(c is None for rec in records for h in rec["hands"] for c in h)
    if game != "truf":  # (Truf's viewer also draws C11's face-down trumps as backs)
        assert (out["backs"] > 0) == (hidden > 0)
    assert hidden > 0 or game == "truf"
