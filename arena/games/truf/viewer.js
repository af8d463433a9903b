// Truf's replay viewer for the HTML report (arena/report): one deal record of
// replays.jsonl (docs/results.md), stepped card by card. Steps: the bids, then each card
// of each trick (a trick is a step group), then the deal's scores. A classic deal's trumps
// show face down until the trick's fourth card (ruling C11), as the other seats saw them.
(function () {
  "use strict";
  const SUITS = { S: ["♠", "spade"], H: ["♥", "heart"], D: ["♦", "diamond"], C: ["♣", "club"] };
  const RANKS = { T: "10" };
  // Seats are numbered clockwise (results.md); seat 0 sits south.
  const AREA = ["s", "w", "n", "e"];

  function cardNode(ui, code, extra) {
    // A public record (the ladder's page, docs/ladder.md) holds null for a card no other
    // seat saw: drawn face down.
    if (code === null) return backNode(ui, extra);
    const suit = code.slice(-1), rank = code.slice(0, -1);
    return ui.el("span", { class: `card ${SUITS[suit][1]} ${extra || ""}`, title: code },
      (RANKS[rank] || rank) + SUITS[suit][0]);
  }
  function backNode(ui, extra) {
    return ui.el("span", { class: `card back ${extra || ""}`, title: "a trump, face down (C11)" }, "T");
  }

  // A card as the label says it: its face, or "a trump face down" while C11 hides it.
  function faceText(rec, trick, k) {
    const code = trick.cards[k][1], suit = code.slice(-1), rank = code.slice(0, -1);
    const hidden = rec.variant !== "target" && rec.trump !== null && suit === rec.trump && k < trick.cards.length - 1;
    return hidden ? "a trump face down" : (RANKS[rank] || rank) + SUITS[suit][0];
  }

  const viewer = {
    dealName: "deal",
    steps(rec) {
      const out = [{ group: 0, label: "bids" }];
      // Each card's step names who played it: the seat the viewer highlights.
      rec.tricks.forEach((t, i) => t.cards.forEach(([seat, code], k) =>
        out.push({ group: i + 1, label: `trick ${i + 1} · card ${k + 1}: ${rec.seats[seat]} plays ${faceText(rec, t, k)}` })));
      out.push({ group: rec.tricks.length + 1, label: "scored" });
      return out;
    },

    render(rec, step, ui, deals) {
      const { el } = ui;
      const seats = rec.seats.length;
      const faceDown = rec.variant !== "target" && rec.trump !== null; // C11 is classic only
      // Cards played so far, and the trick on the table.
      let played = 0, trick = -1, inTrick = 0;
      const perTrick = rec.tricks.map(t => t.cards.length);
      const totalCards = perTrick.reduce((a, b) => a + b, 0);
      const done = step === 0 ? 0 : Math.min(step, totalCards);
      for (let i = 0, n = 0; i < rec.tricks.length && n < done; i++) {
        trick = i; inTrick = Math.min(perTrick[i], done - n); n += perTrick[i];
      }
      played = done;
      const scored = step > totalCards;
      const gone = new Set();
      let count = 0;
      for (const t of rec.tricks) for (const [seat, code] of t.cards) { if (count++ < played) gone.add(seat + code); }
      const won = Array(seats).fill(0);
      rec.tricks.forEach((t, i) => { if (i < trick || (i === trick && inTrick === perTrick[i])) won[t.winner]++; });
      const open = trick >= 0 ? rec.tricks[trick] : null;
      const complete = open && inTrick === perTrick[trick];
      const onTable = open ? open.cards.slice(0, inTrick) : [];
      // The highlight means what it means in every game's viewer: the seat whose action
      // this step shows (here the card just played); the bids are everyone's at once.
      const acted = !scored && open && inTrick > 0 ? open.cards[inTrick - 1][0] : null;
      const before = rec.totals.map((t, s) => t - rec.scores[s]);

      const bidText = s => {
        const b = rec.bids[s];
        if (typeof b === "string") return [cardNode(ui, b, "small")];
        const cards = b.cards.map(c => cardNode(ui, c, "small"));
        return [...cards, el("small", {}, ` ${b.op}`)];
      };
      const seatBox = s => {
        const hand = el("div", { class: "hand" }, rec.hands[s].map(c => cardNode(ui, c, gone.has(s + c) ? "played" : "")));
        const cls = "seat" + (acted === s ? " acted" : "") + (complete && open.winner === s ? " won" : "");
        return el("div", { class: cls, style: `grid-area:${AREA[s]}` },
          el("div", { class: "name" }, el("b", {}, ui.chip(rec.seats[s]),
            s === rec.dealer ? el("small", { title: "dealer" }, " (D)") : null),
            el("span", { class: "stat", title: "tricks taken / final bid" }, `${won[s]}/${rec.final_bids[s]} tricks`)),
          el("div", { class: "name" }, el("span", {}, rec.variant === "target" ? "declared " : "bid ", ...bidText(s), s === rec.high_bidder ? el("small", {}, " high") : null),
            el("span", { class: "stat", title: "score before this deal" },
              scored ? `${before[s]} ${rec.scores[s] >= 0 ? "+" : "−"} ${Math.abs(rec.scores[s])} = ${rec.totals[s]}` : `total ${before[s]}`)),
          hand);
      };
      const center = el("div", { class: "center" },
        onTable.map(([seat, code]) => {
          const hidden = faceDown && !complete && code.slice(-1) === rec.trump;
          const node = hidden ? backNode(ui) : cardNode(ui, code);
          return el("div", { style: `grid-area:${AREA[seat]}` }, node);
        }),
        el("div", { class: "mid" }, open ? (complete ? `trick ${trick + 1}: ${rec.seats[open.winner]} wins` : `trick ${trick + 1}`)
          : (scored ? "" : "bids revealed")));
      const trump = rec.trump ? el("b", { class: `suit-${SUITS[rec.trump][1]}` },
        `${SUITS[rec.trump][0]} ${SUITS[rec.trump][1]}s`) : el("b", {}, "no trump");
      const facts = el("div", { class: "facts" },
        el("span", {}, "trump ", trump),
        el("span", {}, "mode ", el("b", {}, rec.mode), rec.mode_chosen ? " (chosen at 13)" : ""),
        el("span", {}, "bids total ", el("b", {}, rec.bid_total)),
        el("span", {}, "play ", el("b", {}, rec.direction === "ccw" ? "↺ counter-clockwise" : "↻ clockwise")),
        rec.variant ? el("span", {}, "variant ", el("b", {}, rec.variant)) : null,
        faceDown ? el("span", { class: "muted" }, "trumps face down until the trick closes (C11)") : null);
      const felt = el("div", { class: "table-felt" }, rec.seats.map((_, s) => seatBox(s)), center);
      const faults = rec.faults.length ? el("div", { class: "note" }, "Faults in this deal: ",
        rec.faults.map(f => `${rec.seats[f.seat]} ${f.kind}${f.detail ? ` (${f.detail})` : ""}`).join("; ")) : null;
      // Once the deal is scored: the match's running totals, deal by deal, up to this one.
      const sofar = scored ? deals.filter(d => d.deal <= rec.deal) : [];
      const running = scored ? el("div", { class: "scroll" }, el("table", { class: "grid scores" },
        el("thead", {}, el("tr", {}, el("th", {}, "deal"), rec.seats.map(n => el("th", { class: "num" }, ui.chip(n))))),
        el("tbody", {}, sofar.map(d => el("tr", {}, el("td", {}, d.deal), d.totals.map((t, s) => el("td", {
          class: "num " + (d.scores[s] > 0 ? "up" : d.scores[s] < 0 ? "down" : ""),
        }, `${t} (${d.scores[s] > 0 ? "+" : ""}${d.scores[s]})`))))))) : null;
      return el("div", {}, facts, felt, faults, running);
    },
  };
  window.arenaViewers.truf = viewer;
})();
