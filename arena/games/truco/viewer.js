// Truco's replay viewer for the HTML report (arena/report): one hand record of
// replays.jsonl (docs/results.md, Truco), stepped action by action through its plays
// (one, or three duels, R13). Each trick of a play is a step group.
(function () {
  "use strict";
  // The Spanish deck's suits: the symbol on a card's face, its name, its colour. Codes
  // (7C) are the results files' (docs/results.md); the viewer shows faces and words.
  const SUITS = { E: ["⚔", "swords", "blue", "espadas"], B: ["♣", "clubs", "green", "bastos"],
    O: ["◎", "coins", "gold", "oros"], C: ["∪", "cups", "red", "copas"] };
  // Teams are marked in black and white, never in a colour: the entrants have the colours.
  const TEAM = [["#f8fafc", "white"], ["#0b0f19", "black"]];

  function cardName(code) {
    const suit = code.slice(-1), s = SUITS[suit] || ["?", suit];
    return `${code.slice(0, -1)} of ${s[1]}`;
  }
  function cardNode(ui, code, extra) {
    // A public record (the ladder's page, docs/ladder.md) holds null for a card no other
    // seat saw: drawn face down.
    if (code === null) return ui.el("span", { class: `card back ${extra || ""}`, title: "never played nor shown (R14)" }, "?");
    const suit = code.slice(-1), rank = code.slice(0, -1), s = SUITS[suit] || ["?", suit, ""];
    return ui.el("span", { class: `card ${s[2]} ${extra || ""}`, title: cardName(code) }, rank + s[0]);
  }
  // An action as people say it: "plays 7 of cups", "calls real envido", "no quiero".
  function said(action) {
    if (action.startsWith("play ")) return `plays ${cardName(action.slice(5))}`;
    if (action.startsWith("call ")) return `calls ${action.slice(5).replace(/-/g, " ")}`;
    if (action.startsWith("declare ")) return `declares ${action.slice(8)}`;
    if (action === "mazo") return "goes to the deck (al mazo)";
    return `says ${action.replace(/-/g, " ")}`;  // quiero, no quiero, son buenas
  }
  function teamMark(ui, t) {
    return ui.el("i", { class: "team-mark", style: `background:${TEAM[t][0]}`, title: `team ${t + 1} (${TEAM[t][1]})` });
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
          out.push({ group: `${p}:${t}`, label: `${where}trick ${t + 1} · ${rec.seats[seat]} ${said(action)}` });
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
      const boxes = rec.seats.map((name, s) => el("div", { class: "seat" + (now && now.seat === s ? " acted" : ""), style: `border-left:5px solid ${TEAM[teamOf[s]][0]}` },
        el("div", { class: "name" }, el("b", {}, ui.chip(name)), el("span", { class: "stat" }, teamMark(ui, teamOf[s]),
          ` team ${teamOf[s] + 1}` + (s === rec.dealer ? " · dealer" : "") + (s === rec.mano ? " · mano" : ""))),
        el("div", { class: "hand" }, rec.hands[s].map(c => cardNode(ui, c, gone.has(s + ":" + c) ? "played" : "")))));
      const trickText = trickDone ? (trickDone.winner === null ? "parda (tie)" : `${rec.seats[trickDone.winner]} wins`) : "";
      const table = el("div", { class: "truco-table" },
        el("div", { class: "truco-seats" }, boxes),
        el("div", { class: "truco-trick" }, el("b", {}, trickCards.length ? `trick ${trickNo + 1}` : "no trick yet"),
          el("div", { class: "hand" }, trickCards.map(([seat, code]) => el("span", { class: "played-by" }, cardNode(ui, code), el("small", {}, rec.seats[seat])))),
          el("span", {}, trickText)));
      const log = el("ol", { class: "log" }, flat.map((a, k) => el("li", { class: k === upto - 1 && !scored ? "now" : (k >= upto ? "later" : "") },
        rec.plays.length > 1 ? `duel ${a.p + 1}: ` : "", ui.chip(rec.seats[a.seat]), " ",
        a.action.startsWith("play ") ? ["plays ", cardNode(ui, a.action.slice(5), "small"), ` ${cardName(a.action.slice(5))}`] : said(a.action))));
      const score = (pts) => rec.teams.map((_, t) => el("span", {}, teamMark(ui, t), el("b", {}, ` team ${t + 1}: ${pts[t]}`))).flatMap((x, i) => i ? [" · ", x] : [x]);
      const legend = el("div", { class: "facts suit-legend" }, el("span", {}, "suits:"),
        Object.entries(SUITS).map(([code, [sym, name, colour, spanish]]) => el("span", {},
          el("span", { class: `card small ${colour}`, title: `${name} (${spanish})` }, sym), ` ${name} (${spanish})`)));
      const facts = el("div", { class: "facts" },
        el("span", {}, "before: ", ...score(rec.scores_before)),
        scored ? el("span", {}, "this hand: ", ...score(rec.points)) : null,
        scored ? el("span", {}, "after: ", ...score(rec.scores)) : null,
        el("span", {}, "to ", el("b", {}, rec.target), " points"),
        rec.kind === "duels" ? el("span", {}, el("b", {}, "three duels (R13)")) : null);
      const ends = scored ? el("div", { class: "facts" }, rec.plays.map((p, i) => el("span", {},
        `${rec.plays.length > 1 ? `duel ${i + 1}: ` : ""}ended by ${p.ended}, truco stake ${p.stake}` +
        (p.envido ? `, envido ${p.envido.result} (${p.envido.points} to team ${p.envido.team + 1})` : "")))) : null;
      return el("div", {}, facts, table, ends, legend, log);
    },
  };
  window.arenaViewers.truco = viewer;
})();
