// A match's replay, stepped with the game's viewer from the report (window.arenaViewers).
// The API serves each deal as the game's public record: a card no other seat saw is null,
// which the viewers draw face down.
function chip(name) { return el("span", { class: "chip" }, name); }
const ui = { el, chip, colour: {} };
const state = { records: [], steps: [], at: 0, viewer: null };
function show(i) {
  if (!state.steps.length) return;
  state.at = Math.min(Math.max(0, i), state.steps.length - 1);
  const s = state.steps[state.at];
  document.getElementById("viewer-body").replaceChildren(state.viewer.render(state.records[s.d], s.i, ui, state.records));
  document.getElementById("step-label").textContent = `${state.viewer.dealName || "deal"} ${state.records[s.d].deal}/${state.records.length} · ${s.label}`;
}
async function load() {
  const id = decodeURIComponent(location.pathname.split("/").pop());
  document.getElementById("title").textContent = `Match ${id}`;
  const r = await fetch("/api/match/" + encodeURIComponent(id));
  if (!r.ok) { document.getElementById("result").textContent = "No such finished match."; return; }
  const d = await r.json();
  document.getElementById("result").textContent = d.record.seats.map((s, i) => `${s} ${d.record.totals[i]}`).join(" · ");
  state.viewer = window.arenaViewers[JSON.parse(document.getElementById("viewer-name").textContent)];
  if (!state.viewer) { document.getElementById("viewer-body").textContent = "This game's replays are not viewable."; return; }
  if (!d.public) { document.getElementById("viewer-body").textContent = "This game's deals are not published: it does not say which of their cards are public."; return; }
  state.records = d.deals;
  state.records.forEach((rec, k) => state.viewer.steps(rec).forEach((s, i) => state.steps.push({ d: k, i, label: s.label })));
  show(0);
}
document.getElementById("prev-step").addEventListener("click", () => show(state.at - 1));
document.getElementById("next-step").addEventListener("click", () => show(state.at + 1));
document.addEventListener("keydown", e => { if (e.key === "ArrowRight") show(state.at + 1); if (e.key === "ArrowLeft") show(state.at - 1); });
load();
