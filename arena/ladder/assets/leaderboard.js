// The leaderboard page: rows from /api/leaderboard, refreshed on each server-sent event.
async function load() {
  const data = await (await fetch("/api/leaderboard")).json();
  document.getElementById("title").textContent = data.title + " ladder";
  document.getElementById("summary").textContent =
    `${data.matches} matches · ${data.in_play} in play · ${data.rows.length} rating rows`;
  const body = document.querySelector("#leaderboard tbody");
  body.replaceChildren(...data.rows.map(r => el("tr", { "data-label": r.label },
    el("td", { class: "num" }, r.rank), el("td", {}, entrantLink(r.name)), el("td", {}, r.version),
    el("td", { class: "num" }, r.matches), el("td", { class: "num" }, r.mu.toFixed(2)),
    el("td", { class: "num" }, r.sigma.toFixed(2)), el("td", { class: "num" }, r.conservative.toFixed(2)),
    el("td", { class: "num" }, r.wins), el("td", { class: "num" + (r.faults ? " bad" : "") }, r.faults),
    el("td", { class: r.connected ? "on" : "muted" }, r.connected ? "connected" : r.status))));
}
function matchItem(m, fresh) {
  const who = m.seats.map((s, i) => `${s} ${m.totals[i]}`).join(" · ");
  return el("li", { "data-match": m.match, class: fresh ? "fresh" : "" }, matchLink(m.match), " ", who);
}
async function recent() {
  const list = await (await fetch("/api/matches?limit=20")).json();
  document.getElementById("recent").replaceChildren(...list.map(m => matchItem(m, false)));
}
load(); recent();
const events = new EventSource("/api/events");
events.addEventListener("match", e => {
  const m = JSON.parse(e.data);
  const box = document.getElementById("recent");
  box.prepend(matchItem(m, true));
  while (box.children.length > 20) box.lastChild.remove();
  load();
});
events.addEventListener("refit", () => load());
