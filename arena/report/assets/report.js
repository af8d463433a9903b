// The tournament report's page: tables, charts (uPlot) and the replay viewer's frame.
// Every text a bot chose (its name, a fault's detail) is set as textContent, never as HTML.
(function () {
  "use strict";
  const summary = JSON.parse(document.getElementById("summary").textContent);
  const packed = JSON.parse(document.getElementById("replays").textContent);
  const PALETTE = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2",
    "#ca8a04", "#db2777", "#4b5563", "#65a30d", "#7c3aed", "#0d9488"];
  const colour = {};
  summary.entrants.forEach((n, i) => { colour[n] = PALETTE[i % PALETTE.length]; });

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "style") node.style.cssText = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }
  function chip(name) {
    return el("span", { class: "chip" }, el("i", { style: `background:${colour[name] || "#888"}` }), name);
  }
  function pct(a, b) { return b ? Math.round(100 * a / b) + "%" : "—"; }
  const ui = { el, chip, colour };
  // What the game calls one deal ("hand" in Truco): its viewer says, "deal" otherwise.
  const dealWord = () => (window.arenaViewers[summary.viewer] || {}).dealName || "deal";
  const capital = w => w[0].toUpperCase() + w.slice(1);
  window.arenaUI = ui;

  // --- header and leaderboard ---------------------------------------------------------
  // The rules in the game's own words (GameEntry.rules_text); a game without them shows
  // its keys, their underscores as spaces.
  const about = summary.game.about && summary.game.about.length ? summary.game.about
    : Object.entries(summary.game.rules || {}).map(([k, v]) =>
      `${k.replace(/_/g, " ")} ${v && typeof v === "object" ? Object.entries(v).map(e => e.join(" ")).join(", ") : v}`);
  const rules = about.join(" · ");
  document.getElementById("subtitle").textContent =
    `${summary.matches.length} matches · ${summary.entrants.length} entrants` + (rules ? ` · ${rules}` : "");

  function leaderboard() {
    const lb = summary.leaderboard;
    // The fault columns fold into one that names what happened ("12 timeouts, DQ"), and
    // give way entirely when every cell is 0 (the note under the table says so): the
    // table fits a laptop's width without scrolling sideways.
    const faultCols = lb.columns.map((c, i) => i).filter(i => lb.columns[i].fault);
    const nonzero = cell => cell !== "0" && cell !== "—" && cell !== "";
    const faultless = lb.rows.every(r => faultCols.every(i => !nonzero(r[i])));
    const keep = lb.columns.map((c, i) => i).filter(i => !lb.columns[i].fault);
    // A header may break after a slash ("against/hand") as after a space.
    const header = i => lb.columns[i].header.replace(/\//g, "/\u200b");
    const faultText = cells => faultCols.filter(i => nonzero(cells[i])).map(i => {
      const h = lb.columns[i].header;
      return h === "DQ" ? "DQ" : `${cells[i]} ${h}`;
    }).join(", ");
    const head = el("tr", {}, keep.map(i => el("th", { class: lb.columns[i].text ? "" : "num" }, header(i))),
      faultless ? null : el("th", {}, "faults"));
    const rows = lb.rows.map((cells, r) => el("tr", { class: r === 0 ? "first" : "" },
      keep.map(i => lb.columns[i].key === "bot" ? el("td", {}, chip(cells[i])) : el("td", { class: "num" }, cells[i])),
      faultless ? null : el("td", { class: faultText(cells) ? "bad" : "dim" }, faultText(cells) || "none")));
    document.getElementById("leaderboard-table").append(
      el("table", { class: "grid leaders" }, el("thead", {}, head), el("tbody", {}, rows)));
    if (faultless && lb.rows.length) document.getElementById("leaderboard-note").textContent =
      " No faults: no timeout, illegal answer, disconnect, forfeit or disqualification.";
  }

  // --- charts -------------------------------------------------------------------------
  const charts = [];
  function chartWidth(node) { return Math.max(260, node.clientWidth || 600); }
  function addChart(node, opts, data) {
    const plot = new uPlot({ width: chartWidth(node), ...opts }, data, node);
    charts.push([plot, node]);
    return plot;
  }
  window.addEventListener("resize", () => {
    for (const [plot, node] of charts) plot.setSize({ width: chartWidth(node), height: plot.height });
  });

  let ratingRange = null;
  function ratingChart() {
    const node = document.getElementById("rating-chart");
    if (!summary.matches.length) { node.append(el("p", { class: "muted" }, "No finished matches yet.")); return; }
    const hist = summary.ratings;
    const n = hist.labels.length;
    const x = Array.from({ length: n }, (_, i) => i);
    const data = [x];
    const series = [{ label: "after match", value: (u, v) => v == null ? "—" : (v === 0 ? "start" : hist.labels[v]) }];
    const bands = [];
    summary.entrants.forEach(name => {
      const mu = hist.mu[name], sg = hist.sigma[name], c = colour[name];
      const base = data.length;
      data.push(mu, mu.map((m, i) => +(m + 3 * sg[i]).toFixed(2)), mu.map((m, i) => +(m - 3 * sg[i]).toFixed(2)));
      series.push({ label: name, stroke: c, width: 2, value: (u, v) => v == null ? "—" : v.toFixed(2) },
        { label: "", stroke: "transparent", points: { show: false } },
        { label: "", stroke: "transparent", points: { show: false } });
      bands.push({ series: [base + 1, base + 2], fill: c + "22" });
    });
    // The y axis fits every μ and the last ±3σ bands, not the first match's band (every
    // entrant starts at 25 ± 25): the lines stay apart; early bands run off the chart.
    let lo = Infinity, hi = -Infinity;
    summary.entrants.forEach(name => {
      const mu = hist.mu[name], sg = hist.sigma[name], last = mu.length - 1;
      for (const m of mu) { lo = Math.min(lo, m); hi = Math.max(hi, m); }
      lo = Math.min(lo, mu[last] - 3 * sg[last]); hi = Math.max(hi, mu[last] + 3 * sg[last]);
    });
    const pad = Math.max(0.5, (hi - lo) * 0.05);
    ratingRange = [+(lo - pad).toFixed(2), +(hi + pad).toFixed(2)];
    addChart(node, {
      height: 320, series, bands,
      scales: { x: { time: false }, y: { range: () => ratingRange } },
      axes: [{ label: "match", incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] }, { label: "μ ± 3σ" }],
      cursor: { points: { show: false } },
    }, data);
    // The band edges are drawn series too; keep them out of the legend.
    node.querySelectorAll(".u-legend tr.u-series").forEach((tr, i) => {
      if (i > 0 && (i - 1) % 3 !== 0) tr.style.display = "none";
    });
  }

  function histogram(node, pairs, name, xlabel) {
    const x = pairs.map(p => p[0]), y = pairs.map(p => p[1]);
    addChart(node, {
      height: 180, legend: { show: false },
      scales: { x: { time: false, range: (u, lo, hi) => [lo - 1, hi + 1] } },
      axes: [{ label: xlabel, incrs: [1, 2, 5, 10, 20, 50, 100] }, { label: dealWord() + "s", size: 56 }],
      series: [{}, { label: name, fill: colour[name] + "aa", stroke: colour[name],
        paths: uPlot.paths.bars({ size: [0.8, 24] }), points: { show: false } }],
      cursor: { show: false },
    }, [x, y]);
  }

  // --- head to head -------------------------------------------------------------------
  function headToHead() {
    const names = summary.entrants, { above, shared } = summary.h2h;
    const head = el("tr", {}, el("th", {}, "finished above →"), names.map(n => el("th", { class: "num" }, chip(n))));
    const rows = names.map((a, i) => el("tr", {}, el("th", {}, chip(a)), names.map((b, j) => {
      if (i === j || !shared[i][j]) return el("td", { class: "num dim" }, i === j ? "" : "—");
      const share = above[i][j] / shared[i][j];
      const tint = share >= 0.5 ? `rgba(22,163,74,${(share - 0.5) * 0.9})` : `rgba(220,38,38,${(0.5 - share) * 0.9})`;
      return el("td", { class: "num", style: `background:${tint}`, title: `${a} above ${b} in ${above[i][j]} of ${shared[i][j]} shared matches` },
        el("b", {}, pct(above[i][j], shared[i][j])), el("small", {}, ` ${above[i][j]}/${shared[i][j]}`));
    })));
    document.getElementById("h2h-table").append(el("table", { class: "grid h2h" }, el("thead", {}, head), el("tbody", {}, rows)));
  }

  // --- per entrant --------------------------------------------------------------------
  function bidTable(bids) {
    if (!bids.length) return el("p", { class: "muted" }, "No bids recorded.");
    const maxBid = Math.max(...bids.map(b => b[0])), minBid = Math.min(...bids.map(b => b[0]));
    const maxTook = Math.max(...bids.map(b => b[1]));
    const cell = {}; let total = 0, made = 0;
    for (const [b, t, c] of bids) { cell[b + "," + t] = c; total += c; if (b === t) made += c; }
    const cols = Array.from({ length: maxTook + 1 }, (_, t) => t);
    const head = el("tr", {}, el("th", {}, "bid \\ took"), cols.map(t => el("th", { class: "num" }, t)), el("th", { class: "num" }, "deals"));
    const rows = [];
    for (let b = minBid; b <= maxBid; b++) {
      const row = cols.map(t => cell[b + "," + t] || 0);
      const n = row.reduce((s, v) => s + v, 0);
      if (!n) continue;
      // A cell: the share (%) of this bid's deals that took t tricks; its count on hover.
      rows.push(el("tr", {}, el("th", { class: "num" }, b), row.map((v, t) => el("td", {
        class: "num heat" + (t === b ? " diag" : ""),
        title: v ? `bid ${b}, took ${t}: ${v} of ${n} deals` : null,
        style: v ? `background:rgba(37,99,235,${0.06 + 0.74 * v / n})` : "",
      }, v ? (100 * v / n < 1 ? "<1" : Math.round(100 * v / n)) : "")), el("td", { class: "num" }, n)));
    }
    return el("div", {},
      el("p", {}, el("b", {}, pct(made, total)), ` of ${total} deals made the bid exactly (took as many tricks as bid). `,
        el("span", { class: "muted" }, "Each row: % of that bid's deals by tricks taken; the outlined cell made the bid.")),
      el("div", { class: "scroll" }, el("table", { class: "grid heatmap" }, el("thead", {}, head), el("tbody", {}, rows))));
  }

  function entrants() {
    const box = document.getElementById("entrant-panels");
    const outcomes = summary.outcomes;
    if (!outcomes) { box.append(el("p", { class: "muted" }, `No per-deal statistics for ${summary.game.title} yet.`)); return; }
    for (const name of summary.entrants) {
      const o = outcomes[name];
      const chart = el("div", { class: "chart" });
      const hasBids = o.bids.length > 0;
      const panel = el("article", { class: "panel" }, el("h3", {}, chip(name)),
        el("h4", {}, `Score per ${dealWord()}`), chart,
        hasBids ? el("h4", {}, "Bids against tricks taken") : null, hasBids ? bidTable(o.bids) : null);
      box.append(panel);
      if (o.scores.length) histogram(chart, o.scores, name, "score");
      else chart.append(el("p", { class: "muted" }, "No deals played."));
    }
  }

  // --- faults -------------------------------------------------------------------------
  function faults() {
    const box = document.getElementById("fault-table"), f = summary.faults;
    if (!f.total) { box.append(el("p", { class: "muted" }, "No faults: every bot answered in time, legally.")); return; }
    const head = el("tr", {}, ["match", "deal", "entrant", "kind", "detail", "strikes", "DQ"].map(h => el("th", {}, h)));
    const rows = f.rows.map(r => el("tr", {},
      el("td", {}, el("a", { href: "#", onclick: e => { e.preventDefault(); openMatch(r[0], r[1]); } }, r[0])),
      el("td", { class: "num" }, r[1]), el("td", {}, chip(r[2])), el("td", {}, r[3]),
      el("td", { class: "detail" }, r[4]), el("td", { class: "num" }, r[5] ?? ""), el("td", {}, r[6] ? "yes" : "")));
    box.append(el("table", { class: "grid" }, el("thead", {}, head), el("tbody", {}, rows)));
    if (f.total > f.rows.length) box.append(el("p", { class: "muted" }, `${f.total - f.rows.length} more faults are in replays.jsonl.`));
  }

  // --- match list ---------------------------------------------------------------------
  // Rows are made as they are shown, PAGE at a time: a long tournament's page opens fast.
  const PAGE = 100;
  function matches() {
    const box = document.getElementById("match-table");
    // On a phone, round, table and deals give their room to the result (class "opt").
    const opt = [false, true, true, false, true, false];
    const head = el("tr", {}, ["match", "round", "table", "result (best first)", `${dealWord()}s`, "faults"].map((h, i) => el("th", { class: (i === 3 ? "" : "num") + (opt[i] ? " opt" : "") }, h)));
    const body = el("tbody");
    const row = m => {
      const [id, round, table, seats, totals, ranks, deals, nfaults] = m;
      const order = seats.map((_, s) => s).sort((a, b) => ranks[a] - ranks[b] || a - b);
      const result = el("td", {}, el("div", { class: "result" }, order.map(s => el("span", { class: "res" + (ranks[s] === 1 ? " win" : "") }, chip(seats[s]), el("b", {}, totals[s])))));
      const tr = el("tr", { class: "match", tabindex: "0", "data-match": id, onclick: () => openMatch(id), onkeydown: e => { if (e.key === "Enter") openMatch(id); } },
        el("td", {}, el("a", { href: "#", onclick: e => e.preventDefault() }, id)), el("td", { class: "num opt" }, round), el("td", { class: "num opt" }, table),
        result, el("td", { class: "num opt" }, deals), el("td", { class: "num" + (nfaults ? " bad" : " dim") }, nfaults));
      return tr;
    };
    const text = summary.matches.map(m => (m[0] + " " + m[3].join(" ")).toLowerCase());
    let chosen = summary.matches.map((_, i) => i), shown = 0, query = "";
    const more = el("button", { class: "btn more", onclick: () => page() });
    const count = el("p", { class: "muted" });
    function page() {
      body.append(...chosen.slice(shown, shown + PAGE).map(i => row(summary.matches[i])));
      shown = Math.min(chosen.length, shown + PAGE);
      const all = summary.matches.length;
      count.textContent = !all ? "No finished matches yet."
        : !chosen.length ? `No match has “${query}” in its id or entrants (of ${all}).`
        : `${shown} of ${chosen.length} matches shown` + (query ? ` (with “${query}”, of ${all})` : "");
      more.textContent = `Show ${Math.min(PAGE, chosen.length - shown)} more`;
      more.hidden = shown >= chosen.length;
    }
    box.append(el("table", { class: "grid matches" }, el("thead", {}, head), body), count, more);
    page();
    document.getElementById("match-filter").addEventListener("input", e => {
      query = e.target.value.trim();
      const q = query.toLowerCase();
      chosen = summary.matches.map((_, i) => i).filter(i => q === "" || text[i].includes(q));
      body.replaceChildren();
      shown = 0;
      page();
    });
  }

  // --- the replay viewer's frame ------------------------------------------------------
  const viewerBox = document.getElementById("viewer");
  const body = document.getElementById("viewer-body");
  const state = { records: null, steps: [], at: 0, viewer: null, returnFocus: null };

  async function inflate(b64) {
    const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return (await new Response(stream).text()).split("\n").map(line => JSON.parse(line));
  }

  async function openMatch(id, deal) {
    state.returnFocus = document.activeElement;
    document.getElementById("viewer-title").textContent = `Match ${id}`;
    body.replaceChildren(el("p", { class: "muted" }, "Loading…"));
    viewerBox.hidden = false;
    document.body.classList.add("modal-open");
    viewerBox.querySelector("#viewer-close").focus();
    const viewer = window.arenaViewers[summary.viewer];
    if (!viewer) {
      state.steps = [];
      body.replaceChildren(el("p", { class: "note" }, `${summary.game.title} replays are not yet viewable in this report; the match's deals are in replays.jsonl.`));
      label();
      return;
    }
    if (!packed[id]) {
      state.steps = [];
      body.replaceChildren(el("p", { class: "note" }, "This match's deals are not in replays.jsonl."));
      label();
      return;
    }
    state.records = await inflate(packed[id]);
    state.viewer = viewer;
    state.steps = [];
    state.records.forEach((rec, d) => viewer.steps(rec).forEach((s, i) => state.steps.push({ d, i, group: s.group, label: s.label })));
    const first = deal ? state.steps.findIndex(s => state.records[s.d].deal === deal) : 0;
    show(Math.max(0, first));
  }

  function label() {
    const s = state.steps[state.at];
    document.getElementById("step-label").textContent = s
      ? `${capital(dealWord())} ${state.records[s.d].deal}/${state.records.length} · ${s.label}` : "";
  }

  function show(i) {
    if (!state.steps.length) return;
    state.at = Math.min(Math.max(0, i), state.steps.length - 1);
    const s = state.steps[state.at];
    body.replaceChildren(state.viewer.render(state.records[s.d], s.i, ui, state.records));
    // A viewer's scrolling log (class "log") keeps its current line (class "now") in sight.
    for (const log of body.querySelectorAll(".log")) {
      const now = log.querySelector(".now");
      if (now) log.scrollTop = now.offsetTop - log.offsetTop - log.clientHeight / 2;
    }
    label();
  }

  function jump(dir, key) {
    const here = state.steps[state.at];
    if (!here) return;
    let i = state.at;
    if (dir > 0) { while (i < state.steps.length - 1 && key(state.steps[i]) === key(here)) i++; }
    else {
      // Back: to the start of this group, or of the previous one when already there.
      while (i > 0 && key(state.steps[i - 1]) === key(here)) i--;
      if (i === state.at && i > 0) { i--; const k = key(state.steps[i]); while (i > 0 && key(state.steps[i - 1]) === k) i--; }
    }
    show(i);
  }
  const byGroup = s => s.d + ":" + s.group, byDeal = s => s.d;
  function close() {
    viewerBox.hidden = true;
    document.body.classList.remove("modal-open");
    if (state.returnFocus) state.returnFocus.focus();
  }

  document.getElementById("viewer-close").addEventListener("click", close);
  viewerBox.addEventListener("click", e => { if (e.target === viewerBox) close(); });
  const buttons = { "prev-step": () => show(state.at - 1), "next-step": () => show(state.at + 1),
    "prev-trick": () => jump(-1, byGroup), "next-trick": () => jump(1, byGroup),
    "prev-deal": () => jump(-1, byDeal), "next-deal": () => jump(1, byDeal) };
  for (const [id, fn] of Object.entries(buttons)) document.getElementById(id).addEventListener("click", fn);
  document.addEventListener("keydown", e => {
    if (viewerBox.hidden) return;
    const keys = { ArrowRight: "next-step", ArrowLeft: "prev-step", ArrowDown: "next-trick", ArrowUp: "prev-trick",
      PageDown: "next-deal", PageUp: "prev-deal" };
    if (e.key === "Escape") { close(); e.preventDefault(); return; }
    if (e.key === "Home") { show(0); e.preventDefault(); return; }
    if (e.key === "End") { show(state.steps.length - 1); e.preventDefault(); return; }
    if (keys[e.key]) { buttons[keys[e.key]](); e.preventDefault(); }
  });

  // Each part's drawing time (ms), for bench/report.py.
  const timings = {};
  for (const [name, draw] of Object.entries({ leaderboard, ratingChart, headToHead, entrants, faults, matches })) {
    const start = performance.now();
    draw();
    timings[name] = Math.round(performance.now() - start);
  }
  window.arenaReport = { openMatch, summary, timings, ratingRange: () => ratingRange };
})();
