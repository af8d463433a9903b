// An entrant's page: rating over time per version, versions, recent matches, faults.
const NS = "http://www.w3.org/2000/svg";
function svg(tag, attrs) { const n = document.createElementNS(NS, tag); for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v); return n; }
function chart(history) {
  const W = 800, H = 240, pad = 30;
  const all = Object.values(history).flat();
  const box = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img" });
  if (!all.length) { document.getElementById("chart").replaceChildren(el("p", { class: "muted" }, "No matches yet.")); return; }
  const lo = Math.min(...all.map(p => p[1] - 3 * p[2])), hi = Math.max(...all.map(p => p[1] + 3 * p[2]));
  const s0 = Math.min(...all.map(p => p[0])), s1 = Math.max(...all.map(p => p[0]));
  const x = s => pad + (W - 2 * pad) * (s1 > s0 ? (s - s0) / (s1 - s0) : 0.5);
  const y = v => H - pad - (H - 2 * pad) * (hi > lo ? (v - lo) / (hi - lo) : 0.5);
  const colours = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c"];
  Object.entries(history).forEach(([label, pts], i) => {
    const c = colours[i % colours.length];
    const line = (f, dash) => box.append(svg("polyline", { points: pts.map(p => `${x(p[0])},${y(f(p))}`).join(" "),
      fill: "none", stroke: c, "stroke-width": dash ? 1 : 2, "stroke-dasharray": dash ? "3 3" : "" }));
    line(p => p[1], false); line(p => p[1] - 3 * p[2], true); line(p => p[1] + 3 * p[2], true);
    const t = svg("text", { x: pad + 4, y: 14 + 14 * i, fill: c }); t.textContent = label; box.append(t);
  });
  document.getElementById("chart").replaceChildren(box);
}
async function load() {
  const name = decodeURIComponent(location.pathname.split("/").pop());
  const r = await fetch("/api/entrant/" + encodeURIComponent(name));
  if (!r.ok) { document.getElementById("name").textContent = `No entrant ${name}`; return; }
  const d = await r.json();
  document.getElementById("name").textContent = d.name;
  document.getElementById("status").textContent = d.status + (d.reason ? ": " + d.reason : "");
  chart(d.history);
  document.querySelector("#versions tbody").replaceChildren(...d.versions.map(v => el("tr", {},
    el("td", {}, v.version || "(none)"), el("td", {}, new Date(v.first_seen * 1000).toISOString()),
    el("td", { class: "num" }, v.matches))));
  document.getElementById("matches").replaceChildren(...d.recent.map(m => el("li", { "data-match": m.match },
    matchLink(m.match), " ", m.seats.map((s, i) => `${s} ${m.totals[i]} (rank ${m.ranks[i]})`).join(" · "))));
  document.querySelector("#faults tbody").replaceChildren(...d.faults.map(f => el("tr", {},
    el("td", {}, matchLink(f.match)), el("td", {}, f.label), el("td", {}, f.deal), el("td", {}, f.kind), el("td", {}, f.detail))));
}
load();
