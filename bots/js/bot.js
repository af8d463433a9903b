#!/usr/bin/env node
// A complete Truf Arena bot in JavaScript (Node.js >= 20): a gRPC client of the referee.
//
//   npm ci --prefix bots/js
//   node bots/js/bot.js --connect HOST:PORT [--token T] [--seed S] [--capacity N] [--name NAME]
//                       [--tls-ca CERT] [--reconnect-file PATH]
//
// It loads the protocol straight from the repository's proto/ at run time (no generated code,
// no copy), sends a Hello, and answers every DecisionRequest by index into its legal actions.
// With --reconnect-file it keeps each Welcome's reconnect_token in that file, so that a restarted
// copy takes its seat back at once (the file's format: docs/protocol.md §6).
// The play is a simple heuristic, close to bots/truf/greedy.py: count the tricks the hand is likely
// to take, bid or declare near that count, then win cheaply when it wants tricks and shed high
// cards that still lose when it does not. It uses nothing but the view it is sent.
// Rulings (C1..C14 classic, T1..T7 target) are those of docs/rules.md and truf.proto.
"use strict";

const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const { parseArgs } = require("node:util");
const grpc = require("@grpc/grpc-js");
const loader = require("@grpc/proto-loader");
const pkg = require("./package.json");

const PROTO_DIR = path.resolve(__dirname, "..", "..", "proto"); // the repo's proto/, read as is
const RETRY_FOR_MS = 30_000; // keep redialling a lost referee this long (docs/protocol.md §6)
// Final refusals of the hello (arena.proto, "Connection lifecycle"): redialling cannot help.
const FATAL = new Set(
  ["UNAUTHENTICATED", "ALREADY_EXISTS", "INVALID_ARGUMENT", "FAILED_PRECONDITION",
   "RESOURCE_EXHAUSTED", "PERMISSION_DENIED"].map((name) => grpc.status[name]),
);

const log = (text) => process.stderr.write(`[js] ${text}\n`);

// ------------------------------------------------------------------ cards
// A card is a code such as "TD": rank (2..9 T J Q K A) then suit (S H D C). We work with the
// rank index 0..12 (2 = 0, A = 12) and the suit index 0..3 (S H D C), as the engine does.
const RANKS = "23456789TJQKA";
const SUITS = "SHDC";
const [QUEEN, KING, ACE] = [10, 11, 12];
const SUIT_OF_ENUM = { SUIT_SPADES: 0, SUIT_HEARTS: 1, SUIT_DIAMONDS: 2, SUIT_CLUBS: 3 };
const rankOf = (card) => RANKS.indexOf(card[0]);
const suitOf = (card) => SUITS.indexOf(card[1]);
// A card's value for bids and targets (C3, T2): J = Q = K = 0, A = 1, 2..10 face value.
const valueOf = (card) => {
  const r = rankOf(card);
  return r === ACE ? 1 : r >= 9 ? 0 : r + 2;
};

function suitLengths(hand) {
  const lengths = [0, 0, 0, 0];
  for (const c of hand) lengths[suitOf(c)] += 1;
  return lengths;
}

// The tricks a hand may take when everyone tries to win, if `trump` (0..3, or null) is trump:
// aces, guarded kings and queens, long trumps, and short side suits to ruff in.
function countTricks(hand, trump) {
  const lengths = suitLengths(hand);
  let est = 0;
  for (const c of hand) {
    const [s, r, n] = [suitOf(c), rankOf(c), lengths[suitOf(c)]];
    if (s === trump) {
      if (r === ACE) est += 1;
      else if (r === KING) est += n >= 2 ? 0.8 : 0.4;
      else if (r === QUEEN) est += n >= 3 ? 0.5 : 0.2;
    } else if (r === ACE) est += n <= 5 ? 0.9 : 0.6;
    else if (r === KING) est += n >= 2 && n <= 5 ? 0.6 : 0.25;
    else if (r === QUEEN && n >= 3 && n <= 5) est += 0.25;
  }
  if (trump !== null) {
    est += Math.max(0, lengths[trump] - 3) * 0.8;
    if (lengths[trump] >= 2) {
      est += 0.4 * [0, 1, 2, 3].filter((s) => s !== trump && lengths[s] <= 1).length;
    }
  }
  return est;
}

// The index of the item with the smallest key (keys are arrays, compared in order).
function argmin(items, key) {
  let best = 0;
  let bestKey = null;
  items.forEach((item, i) => {
    const k = key(item, i);
    const j = bestKey === null ? -1 : k.findIndex((x, n) => x !== bestKey[n]);
    if (bestKey === null || (j >= 0 && k[j] < bestKey[j])) [best, bestKey] = [i, k];
  });
  return best;
}

// ------------------------------------------------------------------ bidding
// Classic (C3): bid the card whose value is nearest the tricks we count with its suit as
// trump (the high bid's suit becomes trump, C4); prefer long suits, then higher values.
function chooseBid(view, legal) {
  const hand = view.hand;
  const lengths = suitLengths(hand);
  const est = [0, 1, 2, 3].map((s) => countTricks(hand, s));
  return argmin(legal, (a) => {
    const c = a.bid.card;
    return [Math.abs(valueOf(c) - est[suitOf(c)]), -lengths[suitOf(c)], -valueOf(c), -rankOf(c)];
  });
}

// Target (T2): SINGLE = the card's value; SUM = a + b and SUBTRACT = |a - b| (two cards of one
// suit, which would be trump); NOTRUF = a + b of two suits, and no trump if it wins (T3).
function targetOf(decl) {
  const [a, b] = decl.cards.map(valueOf);
  switch (decl.op) {
    case "TRUF_DECLARE_OP_SINGLE":
      return a;
    case "TRUF_DECLARE_OP_SUBTRACT":
      return Math.abs(a - b);
    default: // SUM and NOTRUF
      return a + b;
  }
}
const trumpOf = (decl) => (decl.op === "TRUF_DECLARE_OP_NOTRUF" ? null : suitOf(decl.cards[0]));

// Declare the target nearest the tricks we count with that declaration's trump; on a tie the
// higher target (hitting it exactly scores the target, T6).
function chooseDeclaration(view, legal) {
  const est = new Map([null, 0, 1, 2, 3].map((s) => [s, countTricks(view.hand, s)]));
  return argmin(legal, (a) => {
    const target = targetOf(a.declare);
    return [Math.abs(target - est.get(trumpOf(a.declare))), -target];
  });
}

// The bids total exactly 13 and we bid highest: we choose (C5, T4). Atas adds 1 to every
// classic bid and bawah subtracts 1, so atas scores better exactly when we expect more tricks
// than we bid; in target, atas halves the penalty for overshooting. Atas if the hand is strong.
function chooseMode(view, legal) {
  const mine = (view.bids || [])[view.seat || 0] || {};
  const bid = mine.declaration ? targetOf(mine.declaration) : mine.card ? valueOf(mine.card) : 0;
  const trump = view.trump in SUIT_OF_ENUM ? SUIT_OF_ENUM[view.trump] : null;
  const want = countTricks(view.hand, trump) >= bid ? "TRUF_MODE_ATAS" : "TRUF_MODE_BAWAH";
  const i = legal.findIndex((a) => a.mode && a.mode.mode === want);
  return Math.max(i, 0);
}

// ------------------------------------------------------------------ play
// Whether we want this trick: classic atas always, bawah never (C13); target until our
// target is reached (T6 scores hitting it exactly).
function wantsTricks(view) {
  const seat = view.seat || 0;
  if (view.variant === "TRUF_VARIANT_TARGET") {
    return ((view.tricks_won || [])[seat] || 0) < ((view.final_bids || [])[seat] || 0);
  }
  return view.mode === "TRUF_MODE_ATAS";
}

// The open trick as we see it. Another seat's face-down card (face_down, no card) is a trump
// of unknown rank (C11); a face-down lead is a trump lead. `best` is the strongest visible
// card: a trump beats any other suit, the led suit beats the rest (C12, T5).
function trickState(view, trump) {
  const st = { led: null, best: -1, hidden: 0, toCome: 3 - (view.trick || []).length };
  st.strength = (c) => (suitOf(c) === trump ? 100 : suitOf(c) === st.led ? 0 : -1000) + rankOf(c);
  for (const pc of view.trick || []) {
    if (!pc.card) {
      st.hidden += 1; // C11: a trump, rank hidden until the trick closes
      if (st.led === null) st.led = trump;
      continue;
    }
    if (st.led === null) st.led = suitOf(pc.card);
    st.best = Math.max(st.best, st.strength(pc.card));
  }
  return st;
}

// Trump ranks we have not seen: not in our hand, not in a closed trick (all revealed), not
// face up in the open trick. A hidden trump in the open trick is one of these.
function unseenTrumpRanks(view, trump) {
  if (trump === null) return [];
  const seen = new Set(view.hand);
  for (const t of view.tricks || []) for (const pc of t.cards || []) seen.add(pc.card);
  for (const pc of view.trick || []) if (pc.card) seen.add(pc.card);
  return [...RANKS].flatMap((r, i) => (seen.has(r + SUITS[trump]) ? [] : [i]));
}

// Whether `card` would be winning the trick so far; against hidden trumps it must be a trump
// that `beatsHidden(rank)` says is higher than they are.
function beats(card, st, trump, beatsHidden) {
  if (st.led === null) return true;
  if (st.strength(card) <= st.best) return false;
  return st.hidden === 0 || (suitOf(card) === trump && beatsHidden(rankOf(card)));
}

// Every card higher in its suit has been played or is ours: it wins unless trumped.
function isMaster(view, card) {
  const gone = new Set(view.hand);
  for (const t of view.tricks || []) for (const pc of t.cards || []) gone.add(pc.card);
  return [...RANKS.slice(rankOf(card) + 1)].every((r) => gone.has(r + card[1]));
}

function choosePlay(view, legal) {
  const cards = legal.map((a) => a.play.card);
  if (cards.length === 1) return 0;
  const trump = view.trump in SUIT_OF_ENUM ? SUIT_OF_ENUM[view.trump] : null; // none: NO TRUF
  const st = trickState(view, trump);
  const key = (c) => (suitOf(c) === trump ? 100 : 0) + rankOf(c); // trumps above all others
  const lowest = (cs) => cs.reduce((a, b) => (key(b) < key(a) ? b : a));
  const highest = (cs) => cs.reduce((a, b) => (key(b) > key(a) ? b : a));
  const pick = (card) => cards.indexOf(card);
  const unseen = st.hidden ? unseenTrumpRanks(view, trump) : [];

  if (wantsTricks(view)) {
    if (st.led === null) {
      // Lead a side-suit card nobody can beat in its suit, else a master trump (C10 may
      // forbid leading trump: the legal list already says), else a low card of our shortest
      // side suit, to become void in it and ruff later.
      const masters = cards.filter((c) => isMaster(view, c));
      const side = masters.filter((c) => suitOf(c) !== trump);
      if (side.length || masters.length) return pick(highest(side.length ? side : masters));
      const lengths = suitLengths(view.hand);
      const short = cards.filter((c) => suitOf(c) !== trump);
      if (!short.length) return pick(lowest(cards));
      const shortest = Math.min(...short.map((c) => lengths[suitOf(c)]));
      return pick(lowest(short.filter((c) => lengths[suitOf(c)] === shortest)));
    }
    // Follow with the lowest card that wins so far; a hidden trump (C11) is taken to be the
    // median of the trumps we have not seen. Cannot win: throw the lowest card.
    const median = unseen.length ? unseen[Math.floor(unseen.length / 2)] : -1;
    const winners = cards.filter((c) => beats(c, st, trump, (r) => r > median));
    return pick(lowest(winners.length ? winners : cards));
  }
  if (st.led === null) return pick(lowest(cards));
  // Shed: the highest card sure to lose (against a hidden trump only a trump below every
  // unseen trump is sure to lose). If every card may win: last to play we take it anyway, so
  // throw the highest; otherwise the lowest, and hope a later seat goes over it.
  const floor = unseen.length ? Math.min(...unseen) : -1;
  const losers = cards.filter((c) => !beats(c, st, trump, (r) => r > floor));
  if (losers.length) return pick(highest(losers));
  return pick(st.toCome === 0 ? highest(cards) : lowest(cards));
}

// One TrufDecision: the index of our choice in its legal list, by the view's phase (index 0
// is also the referee's fallback, docs/rules.md house choice 6).
const BY_PHASE = {
  TRUF_PHASE_BID: chooseBid,
  TRUF_PHASE_DECLARE: chooseDeclaration,
  TRUF_PHASE_MODE: chooseMode,
  TRUF_PHASE_PLAY: choosePlay,
};
const decide = ({ view, legal_actions: legal = [] }) =>
  BY_PHASE[view.phase] ? BY_PHASE[view.phase](view, legal) : 0;

// ------------------------------------------------------------------ truco
// Argentine Truco (truco.proto). Card strength by ruling R1: 1E > 1B > 7E > 7O > 3s > 2s >
// 1O = 1C > 12s > 11s > 10s > 7B = 7C > 6s > 5s > 4s; equal strengths tie (parda).
const SPECIAL = { "1E": 14, "1B": 13, "7E": 12, "7O": 11 };
const BY_RANK = { 3: 10, 2: 9, 1: 8, 12: 7, 11: 6, 10: 5, 7: 4, 6: 3, 5: 2, 4: 1 };
const strengthOf = (card) => SPECIAL[card.toUpperCase()] || BY_RANK[parseInt(card, 10)];
const tSuitOf = (card) => card.slice(-1).toUpperCase();

// Envido (ruling R9): two cards of one suit count 20 plus their values (10, 11, 12 count 0);
// with no pair of a suit, the seed's count is the best sum of two cards, the traditional one
// the highest single card.
function envidoOf(dealt, count) {
  const v = (c) => (parseInt(c, 10) >= 10 ? 0 : parseInt(c, 10));
  let best = count === "TRUCO_ENVIDO_COUNT_TRADITIONAL" ? Math.max(...dealt.map(v)) : 0;
  dealt.forEach((a, i) =>
    dealt.slice(i + 1).forEach((b) => {
      const pair = v(a) + v(b);
      if (tSuitOf(a) === tSuitOf(b)) best = Math.max(best, 20 + pair);
      else if (count !== "TRUCO_ENVIDO_COUNT_TRADITIONAL") best = Math.max(best, pair);
    }),
  );
  return best;
}

// Strong cards for the Truco bet: a top card (7O or better) and another 3 or better.
function strongHand(cards) {
  const s = cards.map(strengthOf).sort((a, b) => b - a);
  return s.length > 0 && s[0] >= 11 && (s.length === 1 || s[1] >= 10);
}

// Play: the weakest card that beats the open trick's best opponent card; none, or a partner
// already winning: the weakest card (the hand comes weakest first, R1).
function trucoCard(view, legal) {
  const cards = legal.flatMap((a, i) => (a.action === "play" ? [[a.play, i]] : []));
  if (!cards.length) return null;
  cards.sort((x, y) => strengthOf(x[0]) - strengthOf(y[0]));
  const plays = view.plays || [];
  const trick = plays.length ? plays[plays.length - 1].trick || [] : [];
  const team = (view.seat || 0) % 2;
  let best = -1;
  let ours = false;
  for (const pc of trick) {
    const s = strengthOf(pc.card);
    if (s > best) [best, ours] = [s, (pc.seat || 0) % 2 === team];
    else if (s === best && (pc.seat || 0) % 2 === team) ours = true;
  }
  if (ours) return cards[0][1];
  const winner = cards.find(([c]) => strengthOf(c) > best);
  return (winner || cards[0])[1];
}

function decideTruco({ view, legal_actions: legal = [] }) {
  const find = (branch, value) =>
    legal.findIndex((a) => a.action === branch && (value === undefined || a[branch] === value));
  const pick = (...indexes) => indexes.find((i) => i >= 0);
  const envido = envidoOf(view.dealt || [], view.envido_count);
  const strong = strongHand(view.cards || []);
  const quiero = find("answer", "TRUCO_ANSWER_QUIERO");
  const noQuiero = find("answer", "TRUCO_ANSWER_NO_QUIERO");
  switch (view.asked) {
    case "TRUCO_ASKED_DECLARE": // our true score when it may be said, else son buenas
      return pick(find("declare"), find("son_buenas"), 0);
    case "TRUCO_ASKED_ANSWER_ENVIDO":
      return pick(envido >= 27 ? quiero : noQuiero, quiero, 0);
    case "TRUCO_ASKED_ANSWER_TRUCO":
      return pick(envido >= 29 ? find("call", "TRUCO_CALL_ENVIDO") : -1,
                  strong ? quiero : noQuiero, quiero, 0);
    default: { // TRUCO_ASKED_PLAY: call envido with a high score, truco with strong cards
      const call = pick(envido >= 28 ? find("call", "TRUCO_CALL_ENVIDO") : -1,
                        strong ? find("call", "TRUCO_CALL_TRUCO") : -1);
      if (call !== undefined) return call;
      return pick(trucoCard(view, legal) ?? -1, 0);
    }
  }
}

// ------------------------------------------------------------------ the reconnect file
// A restarted bot that says hello with the reconnect_token of its last Welcome takes its entrant
// over at once, even while the connection of its hung predecessor still looks alive; with only
// the organiser's token it must wait for that connection to end. So, with --reconnect-file, we
// keep the token in a file only we can read (0600), written whole (a new file renamed over the
// old), with what it belongs to: the referee's address and the SHA-256 of the organiser's token
// (never the token), so it is never sent to another referee or with another token. One JSON
// object, the same as arena/sdk.py's, read the same way and refused in the same words
// (docs/protocol.md §6):
//   {"format": "truf-arena-reconnect", "version": 1, "referee": "HOST:PORT",
//    "token_sha256": "<hex>", "reconnect_token": "<from the Welcome>", "writer": "<hex>"}
const RECONNECT_FORMAT = "truf-arena-reconnect";
const RECONNECT_VERSION = 1;
const RECONNECT_FIELDS = ["format", "version", "referee", "token_sha256", "reconnect_token"];
// A reconnect file is some 300 bytes: a bigger one is not ours, and is not read whole.
const RECONNECT_MAX_BYTES = 64 * 1024;
// This process's name, in every file it writes: a file naming another writer was written by
// another process (see rewrittenByAnother). Not the inode: a freed inode number is reused at once
// (ext4), so another process's file can have our last one's.
const WRITER = crypto.randomBytes(16).toString("hex");
const sha256 = (text) => crypto.createHash("sha256").update(text, "utf8").digest("hex");

// The file's JSON value. Throws ENOENT (no file), another system error (it cannot be read) or an
// Error whose `unusable` says why it is not a small regular file of UTF-8 JSON.
function readReconnect(file) {
  const unusable = (why) => Object.assign(new Error(why), { unusable: why });
  // O_NONBLOCK: opening a FIFO planted at the path (in /tmp another local user can) would wait for
  // a writer forever; fstat then refuses all but a regular file.
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  let raw;
  try {
    if (!fs.fstatSync(fd).isFile()) throw unusable("is not a regular file"); // a directory too
    const buf = Buffer.alloc(RECONNECT_MAX_BYTES + 1);
    let size = 0;
    for (;;) {
      const n = fs.readSync(fd, buf, size, buf.length - size, null);
      size += n;
      if (n === 0 || size === buf.length) break; // the end, or more than a reconnect file
    }
    if (size > RECONNECT_MAX_BYTES) {
      throw unusable(`is too large (over ${RECONNECT_MAX_BYTES} bytes)`);
    }
    raw = buf.subarray(0, size);
  } finally {
    fs.closeSync(fd);
  }
  try {
    // fatal: bytes that are not UTF-8 are refused, not replaced; ignoreBOM: a BOM is kept, and
    // JSON.parse refuses it (as Python's json does).
    return JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(raw));
  } catch (err) {
    // V8's message quotes the text it stopped at, which may hold a newline: escaped, one line.
    const escape = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
    const message = err.message.replace(/[\u0000-\u001f\u007f]/g, escape);
    throw unusable(`is not JSON (${message})`);
  }
}

// The stored reconnect token, or "" (no file yet, or one not to use: said why, in one line).
function loadReconnect(file, opts) {
  let why;
  let data;
  try {
    data = readReconnect(file);
    why = reconnectProblem(data, opts);
  } catch (err) {
    if (err.code === "ENOENT") return ""; // the first run
    why = err.unusable ?? `cannot be read (${err.code})`;
  }
  if (why) {
    log(`the reconnect file ${file} ${why}; not using it`);
    return "";
  }
  return data.reconnect_token;
}

// Why a parsed reconnect file is not to be used by this run, or "" if it is ours (the same checks,
// in the same order, as arena/sdk.py's ReconnectFile).
function reconnectProblem(data, opts) {
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    return "is not a JSON object";
  }
  if (!RECONNECT_FIELDS.every((k) => Object.hasOwn(data, k))) {
    return `lacks one of ${RECONNECT_FIELDS.join(", ")}`;
  }
  const strings = ["format", "referee", "token_sha256"].every((k) => typeof data[k] === "string");
  if (data.format !== RECONNECT_FORMAT || data.version !== RECONNECT_VERSION || !strings) {
    return `is not a ${RECONNECT_FORMAT} file of version ${RECONNECT_VERSION}`;
  }
  if (typeof data.reconnect_token !== "string" || !data.reconnect_token) {
    return "holds no reconnect_token";
  }
  // Quoted: what a file holds stays on one line.
  if (data.referee !== opts.connect) return `is for the referee at ${JSON.stringify(data.referee)}`;
  if (data.token_sha256 !== sha256(opts.token)) return "is for another token";
  return "";
}

// Keep a Welcome's reconnect token. A failure is said and play goes on: the file only spares a
// restarted bot a wait.
function saveReconnect(file, opts, token) {
  const record = {
    format: RECONNECT_FORMAT,
    version: RECONNECT_VERSION,
    referee: opts.connect,
    token_sha256: sha256(opts.token),
    reconnect_token: token,
    writer: WRITER,
  };
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${crypto.randomUUID()}.tmp`);
  try {
    const fd = fs.openSync(tmp, "wx", 0o600);
    try {
      fs.fchmodSync(fd, 0o600); // the mode given to open is narrowed by the umask: set it exactly
      fs.writeSync(fd, `${JSON.stringify(record)}\n`);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file); // a reader never sees half a file
    opts.wroteReconnect = true; // see rewrittenByAnother
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    log(`cannot write the reconnect file ${file} (${err.message}); a restart will have to wait`);
  }
}

// Whether another process wrote the file since we last did: a restarted copy of this bot, which
// holds the entrant now (its file names another writer). Then this one, whose connection dropped
// while it hung, must not take the seat back with the same token. A file gone, unreadable or not
// JSON is no sign of that: a restart writes a whole file.
function rewrittenByAnother(file, opts) {
  if (!opts.wroteReconnect) return false;
  let data;
  try {
    data = readReconnect(file);
  } catch {
    return false;
  }
  return data !== null && typeof data === "object" && !Array.isArray(data) &&
    data.writer !== WRITER;
}

// Remove the file: the tournament is over (its secret should not linger), or the referee does
// not know the token (a new event at the same address).
function forgetReconnect(file, opts) {
  opts.wroteReconnect = false;
  try {
    fs.rmSync(file, { force: true });
  } catch (err) {
    log(`cannot remove the reconnect file ${file}: ${err.message}`);
  }
}

// ------------------------------------------------------------------ the stream
function loadService() {
  const definition = loader.loadSync("truf/arena/v1/arena.proto", {
    includeDirs: [PROTO_DIR],
    keepCase: true,
    longs: Number,
    enums: String,
    defaults: false, // fields at their default are absent: read a missing seat as 0
    oneofs: true,
  });
  return grpc.loadPackageDefinition(definition).truf.arena.v1.ArenaService;
}

// One connection, from the hello to the end of the stream. Resolves with "over" (the
// tournament is over), or the final gRPC status and whether we were welcomed.
function session(ArenaService, opts) {
  return new Promise((resolve) => {
    const creds = opts["tls-ca"] // TLS when the organiser gave a CA certificate
      ? grpc.credentials.createSsl(fs.readFileSync(opts["tls-ca"]))
      : grpc.credentials.createInsecure();
    const client = new ArenaService(opts.connect, creds);
    const call = client.Play();
    let [welcomed, over, done] = [false, false, false];
    const finish = (outcome) => {
      if (done) return;
      done = true;
      client.close();
      resolve(outcome);
    };
    call.on("data", (msg) => {
      switch (msg.message) {
        case "welcome":
          welcomed = true;
          opts.reconnectToken = msg.welcome.reconnect_token || ""; // for the next hello
          log(`connected to ${opts.connect} as ${msg.welcome.entrant}`);
          // Kept before any request comes: a restarted copy of this bot may need it.
          if (opts["reconnect-file"]) {
            saveReconnect(opts["reconnect-file"], opts, opts.reconnectToken);
          }
          break;
        case "decision_request": {
          const req = msg.decision_request;
          // Our own failure is said, never hidden behind a choice (arena.proto, Answer.failure):
          // the referee records a crash with a strike and plays the game's documented fallback.
          let answer;
          try {
            if (req.truf) answer = { index: decide(req.truf) };
            else if (req.truco) answer = { index: decideTruco(req.truco) };
            else throw new Error(`a request for a game this bot does not play (${req.game})`);
          } catch (err) {
            log(`request ${req.request_id}: ${err.stack}; telling the referee this bot failed`);
            answer = { failure: { reason: String(err).slice(0, 200) } };
          }
          call.write({ answer: { request_id: req.request_id, ...answer } });
          break;
        }
        case "match_result": {
          const r = msg.match_result;
          const seat = r.seat || 0;
          log(`${r.match_id}: rank ${r.ranks[seat]}, total ${(r.totals || [])[seat] || 0}`);
          break;
        }
        case "answer_rejected": {
          const r = msg.answer_rejected;
          log(
            `answer to request ${r.request_id || 0} rejected (${r.reason}): ${r.detail} ` +
              `[strikes ${r.strikes || 0}/${r.strikes_allowed || 0}]`,
          );
          break;
        }
        case "tournament_over":
          over = true;
          log(`tournament over: ${msg.tournament_over.message || ""}`);
          call.end(); // the referee closes the stream; don't wait for it for long
          setTimeout(() => finish({ over: true }), 2000);
          break;
        default: // deal_result, and branches a newer referee may add: nothing to answer
          break;
      }
    });
    call.on("error", () => {}); // every end, good or bad, also comes as "status"
    call.on("status", (status) => finish({ over, welcomed, status }));
    call.write({
      hello: {
        protocol_version: 1,
        bot_name: opts.name,
        bot_version: pkg.version,
        token: opts.token,
        reconnect_token: opts.reconnectToken || "", // from the last Welcome, if any
        capacity: opts.capacity,
        games: ["truf", "truco"],
      },
    });
  });
}

const USAGE =
  "usage: node bot.js --connect HOST:PORT [--token T] [--seed S] [--capacity N] [--name NAME]" +
  " [--tls-ca CERT] [--reconnect-file PATH]";

function parseCli() {
  const options = {
    connect: { type: "string" },
    token: { type: "string", default: "" },
    seed: { type: "string", default: "0" }, // accepted for the arena; this bot uses no chance
    capacity: { type: "string", default: "1" },
    name: { type: "string", default: "js" },
    "tls-ca": { type: "string", default: "" },
    "reconnect-file": { type: "string", default: "" },
  };
  let values;
  try {
    ({ values } = parseArgs({ options }));
  } catch (err) {
    return { error: err.message };
  }
  const capacity = Number(values.capacity);
  if (!values.connect) return { error: "--connect HOST:PORT is required" };
  if (!Number.isInteger(capacity) || capacity < 1) return { error: "--capacity must be 1 or more" };
  return { ...values, capacity };
}

// Launched by the arena (ARENA_PARENT_PID set): exit once the arena is gone, even after a
// kill -9 that gave it no chance to stop its bots (arena/sdk.py does the same).
function stopWithParent() {
  const parent = Number(process.env.ARENA_PARENT_PID);
  if (!Number.isInteger(parent) || parent <= 0) return;
  setInterval(() => {
    if (process.ppid !== parent) {
      log(`the arena (pid ${parent}) is gone; stopping`);
      process.exit(1);
    }
  }, 500).unref();
}

async function main() {
  stopWithParent();
  const opts = parseCli();
  if (opts.error) {
    log(`error: ${opts.error}\n${USAGE}`);
    return 2;
  }
  const ArenaService = loadService();
  const keep = opts["reconnect-file"];
  opts.reconnectToken = keep ? loadReconnect(keep, opts) : "";
  let fromFile = opts.reconnectToken !== ""; // until a Welcome or a refusal says what it is worth
  let giveUpAt = Date.now() + RETRY_FOR_MS;
  let delay = 100;
  for (;;) {
    if (keep && rewrittenByAnother(keep, opts)) {
      log(`error: another copy of this bot has taken its seat over (it rewrote ${keep}); stopping`);
      return 1;
    }
    const { over, welcomed, status } = await session(ArenaService, opts);
    if (over) {
      if (keep) forgetReconnect(keep, opts);
      return 0;
    }
    if (fromFile && !welcomed && status.code === grpc.status.UNAUTHENTICATED) {
      // The stored token is unknown here (a new event at the same address): forget it.
      log(`the referee does not know the reconnect token in ${keep} (${status.details}); ` +
          "removed it, connecting without it");
      forgetReconnect(keep, opts);
      [opts.reconnectToken, fromFile] = ["", false];
      continue;
    }
    if (welcomed) fromFile = false;
    const name = Object.keys(grpc.status).find((k) => grpc.status[k] === status.code);
    // RESOURCE_EXHAUSTED after a Welcome is a cut-off, not a refusal: we may come back.
    const cut = welcomed && status.code === grpc.status.RESOURCE_EXHAUSTED;
    // ALREADY_EXISTS to a hello: the entrant's connection is still open. It may be this
    // bot's own predecessor, hung, which the referee's keepalive pings cut within seconds:
    // wait for that, up to RETRY_FOR_MS, then give up (a second copy that is really
    // running never gets in). After a Welcome it means another connection took this
    // entrant over: final. (As arena/sdk.py; docs/protocol.md §6.)
    const held = status.code === grpc.status.ALREADY_EXISTS ? `${name}: ${status.details}` : "";
    const waiting = held !== "" && !welcomed;
    if (FATAL.has(status.code) && !cut && !waiting) {
      log(`error: the referee refused this bot: ${name}: ${status.details}`);
      return 1;
    }
    if (welcomed) [giveUpAt, delay] = [Date.now() + RETRY_FOR_MS, 100]; // it was up: start over
    if (Date.now() > giveUpAt) {
      if (held) log(`error: the referee refused this bot: ${held}`);
      else log(`error: cannot reach the referee at ${opts.connect} for ${RETRY_FOR_MS / 1000} s`);
      return 1;
    }
    if (waiting) {
      log("the referee says this entrant is already connected; waiting for that connection to end");
    } else {
      const what = welcomed ? "lost" : "failed";
      log(`connection to ${opts.connect} ${what} (${name}: ${status.details}); retrying`);
    }
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 2000);
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      log(`error: ${err.stack || err}`);
      process.exit(1);
    },
  );
} else {
  // require("./bot.js").decide(trufDecision) -> index, to experiment; the reconnect file's
  // functions for tests/test_reconnect_file.py.
  module.exports = { decide, loadReconnect, saveReconnect, rewrittenByAnother };
}
