// Ruff and Trump's replay viewer for the HTML report (arena/report): one deal record of
// replays.jsonl (docs/results.md, "Ruff and Trump"), stepped through: the hands as dealt
// and the head, each announcement (F4), the ruff's 12, the rub (F5) and the shown ruff
// (F6), then each card of each trick (F7), then the card points (F8) and the set's scores
// (F9). The report is read after the match, so it shows everything: every hand, the whole
// head and the rubber's discards (which no seat saw, F11). A deal whose ruff reached the
// set (`"ended": "ruff"`) ends at the ruff.
(function () {
  "use strict";
  const SUITS = { S: ["♠", "spade"], H: ["♥", "heart"], D: ["♦", "diamond"], C: ["♣", "club"] };
  const RANKS = "23456789TJQKA";
  // The double form's partnerships, marked in white and black as Truco's teams: never in
  // a colour, which would read as an entrant's.
  const SIDE = ["#f8fafc", "#0b0f19"];
  const ORDER = "SHDC";

  const CSS = `
.ruff-table { background: var(--felt); border-radius: 14px; padding: .8rem; color: #ecfdf5;
  display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 1fr); grid-template-rows: auto 1fr;
  grid-template-areas: "seats now" "seats info"; gap: .6rem .8rem; }
.ruff-seats { grid-area: seats; display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 17rem), 1fr));
  gap: .5rem; align-content: start; }
.ruff-now { grid-area: now; }
.ruff-info { grid-area: info; }
.ruff-now:empty { display: none; }
.ruff-mid { display: flex; flex-direction: column; gap: .6rem; min-width: 0; }
.ruff-mid h5 { margin: 0 0 .25rem; font-size: .78rem; text-transform: uppercase; letter-spacing: .03em; color: #bbf7d0; }
.ruff-mid .hand { align-items: flex-start; }
.ruff-mid .hand.rub { align-items: center; }
.ruff-mid .hand.rub span:not(.card) { font-size: .85rem; margin: 0 .2rem; }
.ruff-seat .tags { display: flex; flex-wrap: wrap; gap: .2rem .6rem; font-size: .82rem; margin-bottom: .3rem; color: #d1fae5; }
.ruff-seat .tags b { color: #fff; }
.ruff-seat .tags .ruff-won { color: #fde047; font-weight: 650; }
.card.taken { box-shadow: 0 0 0 2px #fde047; }
.card.discarded { opacity: .6; text-decoration: line-through; border-style: dashed; border-color: #fca5a5; }
.card.turned { box-shadow: 0 0 0 2px #fde047; }
.card.dead { opacity: .45; }
.ruff-mid .played-by small { color: #d1fae5; }
.ruff-calls { margin: 0; padding-left: 1.4rem; font-size: .9rem; }
.ruff-calls small { color: #fde047; }
.ruff-points { border-collapse: collapse; font-size: .85rem; width: 100%; }
.ruff-points th, .ruff-points td { padding: .15rem .3rem; text-align: right; border-bottom: 1px solid rgba(255,255,255,.15); white-space: nowrap; }
.ruff-points th:first-child, .ruff-points td:first-child { text-align: left; white-space: normal; }
.ruff-set { background: #fde047; color: #1f2937; border-radius: 8px; padding: .4rem .6rem; font-weight: 650; }
@media (max-width: 640px) {
  .ruff-table { grid-template-columns: minmax(0, 1fr); grid-template-rows: none; grid-template-areas: "now" "seats" "info"; padding: .5rem; }
}`;
  document.head.append(Object.assign(document.createElement("style"), { textContent: CSS }));

  function cardNode(ui, code, extra, title) {
    // A public record (the ladder's page, docs/ladder.md) holds null for a card no other
    // seat saw: drawn face down.
    if (code === null) return ui.el("span", { class: `card back ${extra || ""}`, title: "not seen by any other seat (F11)" }, "?");
    const suit = code.slice(-1), rank = code.slice(0, -1);
    return ui.el("span", { class: `card ${SUITS[suit][1]} ${extra || ""}`, title: title || code },
      (rank === "T" ? "10" : rank) + SUITS[suit][0]);
  }
  // Cards shown by suit (spades, hearts, diamonds, clubs), highest first.
  const sortKey = c => c === null ? 99 : ORDER.indexOf(c.slice(-1)) * 16 + (12 - RANKS.indexOf(c[0]));
  const sorted = cards => [...cards].sort((a, b) => sortKey(a) - sortKey(b));
  const suitText = s => `${SUITS[s][0]} ${SUITS[s][1]}s`;

  // The deal as a list of steps; render() reads the state at one of them.
  const timelines = new WeakMap();
  function timeline(rec) {
    if (timelines.has(rec)) return timelines.get(rec);
    const name = s => rec.seats[s];
    const out = [{ kind: "dealt", group: "dealt", label: "dealt" }];
    rec.announcements.forEach(([seat, n], i) =>
      out.push({ kind: "announce", i, seat, group: "announce", label: `${name(seat)} announces ${n}` }));
    const atRuff = rec.ended === "ruff";
    out.push({ kind: "ruff", seat: rec.ruff_winner, group: "announce",
      label: `${name(rec.ruff_winner)} wins the ruff` + (atRuff ? ": 12 reach the set" : " · +12") });
    if (rec.rubber !== null) out.push({ kind: "rub", seat: rec.rubber, group: "rub", label: `${name(rec.rubber)} rubs` });
    if (rec.shown) out.push({ kind: "shown", seat: rec.shown.seat, group: "rub", label: "the ruff shown" });
    rec.tricks.forEach((t, i) => t.cards.forEach(([seat], k) =>
      out.push({ kind: "card", trick: i, card: k, seat, group: `trick ${i}`, label: `trick ${i + 1} · card ${k + 1}` })));
    if (!atRuff) out.push({ kind: "scored", group: "scored", label: "scored" });
    timelines.set(rec, out);
    return out;
  }

  const viewer = {
    dealName: "deal",
    steps(rec) { return timeline(rec).map(s => ({ group: s.group, label: s.label })); },

    render(rec, step, ui, deals) {
      const { el } = ui;
      const tl = timeline(rec), now = tl[step], past = tl.slice(0, step + 1);
      const seen = kind => past.some(s => s.kind === kind);
      const announced = past.filter(s => s.kind === "announce").length;
      const ruffDone = seen("ruff"), rubbed = seen("rub"), shown = seen("shown");
      const played = past.filter(s => s.kind === "card").length;
      const final = now.kind === "scored" || (now.kind === "ruff" && rec.ended === "ruff");
      const sideOf = {};
      rec.teams.forEach((team, t) => team.forEach(s => { sideOf[s] = t; }));
      const double = rec.form === "double";
      const sideColour = t => double ? SIDE[t % SIDE.length] : (ui.colour[rec.seats[rec.teams[t][0]]] || "#888");
      const sideName = t => rec.teams[t].map(s => rec.seats[s]).join(" & ");
      const sideMark = t => el("i", { class: "team-mark", style: `background:${SIDE[t % SIDE.length]}` });
      const sideLabel = t => double ? el("span", {}, sideMark(t), el("b", {}, ` side ${t + 1}`))
        : el("span", { style: `color:${sideColour(t)}` }, el("b", {}, sideName(t)));

      // The cards gone from the hands, the trick on the table, the tricks each seat took.
      const gone = new Set();
      const won = Array(rec.seats.length).fill(0);
      let open = null, onTable = [], n = 0;
      rec.tricks.forEach((t, i) => t.cards.forEach(([seat, code], k) => {
        if (n++ >= played) return;
        gone.add(code);
        open = i; onTable = t.cards.slice(0, k + 1);
        if (k === t.cards.length - 1) won[t.winner]++;
      }));
      const closed = open !== null && onTable.length === rec.tricks[open].cards.length;
      const taken = rec.rubber !== null ? rec.head.slice(0, 4) : [];
      const discards = new Set((rec.discards || []).filter(c => c !== null));

      // Per seat: its hand (the rubber's with the head cards it took and its discards).
      const seatBox = s => {
        let cards = rec.hands[s];
        if (rubbed && s === rec.rubber) cards = [...cards, ...taken];
        const hand = el("div", { class: "hand" }, sorted(cards).map(c => {
          const cls = rubbed && discards.has(c) ? "discarded" : gone.has(c) ? "played" : (rubbed && s === rec.rubber && c !== null && taken.includes(c) ? "taken" : "");
          const why = cls === "discarded" ? `${c}: discarded in the rub, out of play (F5)` : cls === "taken" ? `${c}: taken from the head (F5)` : c;
          return cardNode(ui, c, cls, why);
        }));
        const ann = rec.announcements.findIndex(([seat]) => seat === s);
        const tags = el("div", { class: "tags" },
          rec.ruffs[s] === null ? null : el("span", { title: "its best suit's sum on the cards dealt (F3)" }, "true ruff ", el("b", {}, rec.ruffs[s])),
          ann >= 0 && ann < announced ? el("span", {}, "announced ", el("b", {}, rec.announcements[ann][1])) : null,
          ruffDone && s === rec.ruff_winner ? el("span", { class: "ruff-won" }, "won the ruff") : null,
          rubbed && s === rec.rubber ? el("span", {}, el("b", {}, "rubbed")) : null,
          played ? el("span", { title: "tricks taken so far" }, "tricks ", el("b", {}, won[s])) : null);
        const role = [s === rec.dealer ? "dealer" : null, s === rec.eldest ? "eldest" : null].filter(Boolean).join(" · ");
        const cls = "seat ruff-seat" + (now.seat === s && !final ? " acted" : "") + (closed && rec.tricks[open].winner === s && now.kind === "card" ? " won" : "");
        return el("div", { class: cls, style: `border-left:4px solid ${sideColour(sideOf[s])}` },
          el("div", { class: "name" }, el("b", {}, ui.chip(rec.seats[s])),
            el("span", { class: "stat" }, double ? sideMark(sideOf[s]) : null,
              [double ? ` side ${sideOf[s] + 1}` : null, role || null].filter(Boolean).join(" · "))),
          tags, hand);
      };

      // The middle: the head, the ruff, the shown ruff, the trick, the points.
      const block = (title, ...body) => el("div", {}, el("h5", {}, title), ...body);
      // Before the rub the whole head, turned card first; after it, the rub's cards and
      // the dead rest (F2: out of play, seen by no one).
      const small = (cards, cls, why) => el("div", { class: "hand" }, cards.map(c => cardNode(ui, c, `small ${cls}`, why && `${c}: ${why}`)));
      const dead = rec.head.slice(taken.length);
      const head = !rubbed ? block("head · the turned card is trump",
        el("div", { class: "hand" }, rec.head.map((c, i) => cardNode(ui, c, i === 0 ? "small turned" : "small", i === 0 ? `${c}: turned up, trump (F2)` : c))))
        : dead.length ? block("the rest of the head: dead (F2)", small(dead, "dead", "dead, out of play (F2)")) : null;
      const rub = rubbed ? block(`rub (F5): ${rec.seats[rec.rubber]}`,
        el("div", { class: "hand rub" }, el("span", {}, "took"), taken.map(c => cardNode(ui, c, "small", `${c}: taken from the head`)),
          el("span", {}, "discarded"), (rec.discards || []).map(c => cardNode(ui, c, "small", `${c}: discarded, out of play`)))) : null;
      const ruff = ruffDone ? block("ruff (F4)", el("div", {}, ui.chip(rec.seats[rec.ruff_winner]),
        ` announced ${rec.announcements.find(([s]) => s === rec.ruff_winner)[1]}: +12 to `, sideLabel(sideOf[rec.ruff_winner]))) : null;
      const show = shown ? block(`shown ruff (F6): ${suitText(rec.shown.suit)}`,
        rec.shown.cards.length ? el("div", { class: "hand" }, rec.shown.cards.map(c => cardNode(ui, c, "small")))
          : el("div", {}, "no card (announced 0)")) : null;
      const trick = open !== null ? block(`trick ${open + 1}` + (closed ? `: ${rec.seats[rec.tricks[open].winner]} wins` : ""),
        el("div", { class: "hand" }, onTable.map(([seat, code]) => el("span", { class: "played-by" }, cardNode(ui, code), el("small", {}, rec.seats[seat]))))) : null;
      const setReached = rec.ended === "ruff" && final ? el("div", { class: "ruff-set" },
        `The ruff's 12 reached the set of ${rec.set}: `, sideLabel(sideOf[rec.ruff_winner]), " wins; no rub, no play (F9).") : null;

      const par = rec.hands[0].length * (double ? 2 : 1);
      const cardsSoFar = rec.teams.map(team => team.reduce((a, s) => a + won[s], 0) * rec.seats.length);
      const scoreNow = rec.teams.map((_, t) => rec.scores_before[t] + (ruffDone ? rec.ruff_points[t] : 0) + (final ? rec.card_points[t] : 0));
      const points = block(`points · set of ${rec.set} (F9)`, el("table", { class: "ruff-points" },
        el("thead", {}, el("tr", {}, el("th", {}, double ? "side" : "seat"), el("th", { title: "cards taken in tricks" }, "cards"),
          el("th", { title: `one point per card above ${par} (F8)` }, `card pts`), el("th", {}, "ruff"), el("th", {}, "score"))),
        el("tbody", {}, rec.teams.map((_, t) => el("tr", {}, el("td", {}, sideLabel(t)),
          el("td", {}, played ? (final ? rec.cards_won[t] : cardsSoFar[t]) : ""),
          el("td", {}, final && played ? rec.card_points[t] : ""),
          el("td", {}, ruffDone ? rec.ruff_points[t] : ""),
          el("td", {}, `${rec.scores_before[t]} → `, el("b", {}, scoreNow[t])))))),
        final && rec.ended !== "ruff" ? el("small", {}, `card points: cards taken above ${par} (F8)`) : null);
      // The announcements so far, in turn from eldest (F4); the highest leads.
      const sofar = rec.announcements.slice(0, announced);
      const best = sofar.reduce((b, a) => (b === null || a[1] > b[1] ? a : b), null);
      const calls = announced ? block("announcements (F4)", el("ol", { class: "ruff-calls" }, sofar.map(a => el("li", {},
        ui.chip(rec.seats[a[0]]), " ", el("b", {}, a[1]), a === best ? el("small", {}, ruffDone ? " won the ruff" : " highest") : null)))) : null;
      // On a phone what just happened comes first, then the seats, then the rest.
      const bidding = !rubbed;
      const upNow = el("div", { class: "ruff-mid ruff-now" }, setReached, final ? points : null, trick, bidding ? [calls, ruff] : null);
      const info = el("div", { class: "ruff-mid ruff-info" }, bidding ? null : ruff, show, rub, bidding ? null : calls, head, final ? null : points);

      const trump = el("b", { class: `suit-${SUITS[rec.trump][1]}` }, suitText(rec.trump));
      const facts = el("div", { class: "facts" },
        el("span", {}, "trump ", trump, " (", cardNode(ui, rec.turned, "small"), " turned)"),
        el("span", {}, el("b", {}, double ? "double" : "single"), ` · ${rec.seats.length} seats`),
        el("span", {}, "set ", el("b", {}, rec.set)),
        rec.alt_deals ? el("span", {}, "alternative deals") : null);
      const faults = rec.faults.length ? el("div", { class: "note" }, "Faults in this deal: ",
        rec.faults.map(f => `${rec.seats[f.seat]} ${f.kind}${f.detail ? ` (${f.detail})` : ""}`).join("; ")) : null;
      const felt = el("div", { class: "ruff-table" }, el("div", { class: "ruff-seats" }, rec.seats.map((_, s) => seatBox(s))), upNow, info);
      // Once the deal is scored: the set's scores, deal by deal, up to this one.
      const upTo = final ? deals.filter(d => d.deal <= rec.deal) : [];
      const running = final ? el("div", { class: "scroll" }, el("table", { class: "grid scores" },
        el("thead", {}, el("tr", {}, el("th", {}, "deal"), rec.teams.map((_, t) => el("th", { class: "num" }, sideLabel(t))))),
        el("tbody", {}, upTo.map(d => el("tr", {}, el("td", {}, d.deal + (d.ended === "ruff" ? " (ruff)" : "")), d.scores.map((sc, t) => el("td", {
          class: "num " + (d.points[t] > 0 ? "up" : ""),
        }, `${sc} (+${d.points[t]})`))))))) : null;
      return el("div", {}, facts, felt, faults, running);
    },
  };
  window.arenaViewers.ruff = viewer;
})();
