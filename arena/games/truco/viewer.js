// Truco's replay viewer for the HTML report (arena/report): one hand record of
// replays.jsonl (docs/results.md, Truco), stepped action by action through its plays
// (one, or three duels, R13). Each trick of a play is a step group.
(function () {
  "use strict";
  const SUITS = { E: ["⚔", "swords", "blue"], B: ["♣", "clubs", "green"], O: ["◎", "coins", "gold"], C: ["∪", "cups", "red"] };
  const TEAM = ["#2563eb", "#dc2626"];

  function cardNode(ui, code, extra) {
    const suit = code.slice(-1), rank = code.slice(0, -1), s = SUITS[suit] || ["?", suit, ""];
    return ui.el("span", { class: `card ${s[2]} ${extra || ""}`, title: `${rank} of ${s[1]}` }, rank + s[0]);
  }

  // Per play, the trick each played card belongs to: tricks list their cards in order, and
  // cards after the last listed trick were in one cut short (No Quiero, al mazo).
  function trickOf(play) {
    const out = [];
    play.tricks.forEach((t, i) => t.cards.forEach(() => out.push(i)));
    return out;
  }

  const viewer = {
    dealName: "hand",
    steps(rec) {
      const out = [{ group: "dealt", label: "dealt" }];
      rec.plays.forEach((play, p) => {
        const tricks = trickOf(play);
        let cards = 0;
        play.actions.forEach(([seat, action]) => {
          const t = action.startsWith("play ") ? (tricks[cards++] ?? play.tricks.length) : (tricks[cards] ?? play.tricks.length);
          const where = rec.plays.length > 1 ? `duel ${p + 1} · ` : "";
          out.push({ group: `${p}:${t}`, label: `${where}trick ${t + 1} · ${rec.seats[seat]}: ${action}` });
        });
      });
      out.push({ group: "scored", label: "scored" });
      return out;
    },

    render(rec, step, ui) {
      const { el } = ui;
      const n = rec.seats.length;
      const teamOf = {};
      rec.teams.forEach((team, t) => team.forEach(s => { teamOf[s] = t; }));
      // Walk the actions up to this step.
      const flat = [];
      rec.plays.forEach((play, p) => play.actions.forEach((a, i) => flat.push({ p, i, seat: a[0], action: a[1] })));
      const upto = Math.min(step, flat.length);
      const scored = step > flat.length;
      const gone = new Set();
      let current = null, trickCards = [], trickNo = 0, trickDone = null;
      for (let k = 0; k < upto; k++) {
        const a = flat[k], play = rec.plays[a.p];
        if (!current || current.p !== a.p) { current = { p: a.p, cards: 0 }; trickCards = []; trickNo = 0; trickDone = null; }
        if (a.action.startsWith("play ")) {
          const code = a.action.slice(5);
          gone.add(a.seat + ":" + code);
          if (trickDone !== null) { trickCards = []; trickDone = null; }
          const tricks = trickOf(play);
          trickNo = tricks[current.cards] ?? play.tricks.length;
          trickCards.push([a.seat, code]);
          current.cards++;
          const t = play.tricks[trickNo];
          if (t && trickCards.length === t.cards.length) trickDone = t;
        }
      }
      const now = upto > 0 && !scored ? flat[upto - 1] : null;
      const boxes = rec.seats.map((name, s) => el("div", { class: "seat" + (now && now.seat === s ? " to-act" : ""), style: `border-left:4px solid ${TEAM[teamOf[s]]}` },
        el("div", { class: "name" }, el("b", {}, ui.chip(name)), el("span", { class: "stat" },
          `team ${teamOf[s] + 1}` + (s === rec.dealer ? " · dealer" : "") + (s === rec.mano ? " · mano" : ""))),
        el("div", { class: "hand" }, rec.hands[s].map(c => cardNode(ui, c, gone.has(s + ":" + c) ? "played" : "")))));
      const trickText = trickDone ? (trickDone.winner === null ? "parda (tie)" : `${rec.seats[trickDone.winner]} wins`) : "";
      const table = el("div", { class: "truco-table" },
        el("div", { class: "truco-seats" }, boxes),
        el("div", { class: "truco-trick" }, el("b", {}, trickCards.length ? `trick ${trickNo + 1}` : "no trick yet"),
          el("div", { class: "hand" }, trickCards.map(([seat, code]) => el("span", { class: "played-by" }, cardNode(ui, code), el("small", {}, rec.seats[seat])))),
          el("span", {}, trickText)));
      const log = el("ol", { class: "log" }, flat.map((a, k) => el("li", { class: k === upto - 1 && !scored ? "now" : (k >= upto ? "later" : "") },
        rec.plays.length > 1 ? `duel ${a.p + 1}: ` : "", ui.chip(rec.seats[a.seat]), " ",
        a.action.startsWith("play ") ? ["plays ", cardNode(ui, a.action.slice(5), "small")] : a.action)));
      const score = (pts) => rec.teams.map((_, t) => el("span", { style: `color:${TEAM[t]}` }, el("b", {}, `team ${t + 1}: ${pts[t]}`))).flatMap((x, i) => i ? [" · ", x] : [x]);
      const facts = el("div", { class: "facts" },
        el("span", {}, "before: ", ...score(rec.scores_before)),
        scored ? el("span", {}, "this hand: ", ...score(rec.points)) : null,
        scored ? el("span", {}, "after: ", ...score(rec.scores)) : null,
        el("span", {}, "to ", el("b", {}, rec.target), " points"),
        rec.kind === "duels" ? el("span", {}, el("b", {}, "three duels (R13)")) : null);
      const ends = scored ? el("div", { class: "facts" }, rec.plays.map((p, i) => el("span", {},
        `${rec.plays.length > 1 ? `duel ${i + 1}: ` : ""}ended by ${p.ended}, truco stake ${p.stake}` +
        (p.envido ? `, envido ${p.envido.result} (${p.envido.points} to team ${p.envido.team + 1})` : "")))) : null;
      return el("div", {}, facts, table, ends, log);
    },
  };
  window.arenaViewers.truco = viewer;
})();
