// The table page: one seat's view of a game, driven by the server's `state`
// messages over a WebSocket (docs/protocol.md). The page never decides what
// is legal: it offers exactly the actions in the view's `legal` list.

import { api, forgetSeat, saveName, saveSeat, savedName, savedSeat } from "./api.js";
import {
  cardButton,
  cardImage,
  cardInline,
  cardName,
  sortForDisplay,
  suitIcon,
} from "./cards.js";
import {
  apply,
  fmt,
  has,
  language,
  mountSwitch,
  onLanguage,
  pickLanguage,
  setLanguage,
  t,
} from "./i18n.js";
import { mountRules } from "./rules.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const watchOnly = new URLSearchParams(location.search).has("watch");

let mine = savedSeat(tableId); // {seat, token} or null
let state = null; // the last `state` message
let ws = null;
let retry = 0;
let pending = false; // an action was sent and no answer came yet
let selected = new Set(); // the keep step: cards chosen so far
let hint = null; // null, "asked", or the list of suggestions
let hintSeq = -1;
let gone = false; // the server said this table does not exist
let presence = []; // the seats with a socket open (state.connected, or the summary's)
const recordCache = new Map(); // hand index -> hand record (for its last trick)

// -- small helpers -----------------------------------------------------------


function cardsInline(codes) {
  const span = document.createElement("span");
  codes.forEach((c, i) => {
    if (i) span.append(" ");
    span.append(cardInline(c));
  });
  return span;
}

function suitInline(letter) {
  const span = document.createElement("span");
  span.className = "suit-inline";
  span.append(suitIcon(letter), " ", t(`suit.${letter}`));
  return span;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => {
    box.hidden = true;
  }, 5000);
}

function errorText(code, message) {
  const key = `error.${code}`;
  const base = has(key) ? t(key) : code;
  return message && code === "illegal" ? `${base}: ${message}` : base;
}

// -- the game's facts, from the last state -------------------------------------

const table = () => state?.table ?? null;
const view = () => state?.view ?? state?.public ?? null;
const mySeat = () => (state && Number.isInteger(state.seat) ? state.seat : null);
const seatCount = () => table()?.seats.length ?? 3;

function variant() {
  const tb = table();
  return (
    tb?.rules?.variant ?? state?.view?.variant ?? (seatCount() === 4 ? "partnership" : "cutthroat")
  );
}

const cutthroat = () => variant() === "cutthroat";

function seatName(s) {
  const seat = table()?.seats[s];
  if (!seat) return t("seat.number", { n: s + 1 });
  if (seat.kind === "bot") return t("seat.bot_name", { n: s + 1, level: t(`level.${seat.level}`) });
  if (seat.kind === "empty") return t("seat.open");
  return seat.name || t("seat.number", { n: s + 1 });
}

/** A partnership's name: the two partners (seats side and side + 2). */
function teamName(side) {
  return t("team.name", { a: seatName(side % 2), b: seatName((side % 2) + 2) });
}

/** Where a seat sits on screen: 0 bottom (you), 1 left, 2 top, 3 right. */
function pos(s) {
  const n = seatCount();
  const me = mySeat() ?? 0;
  return (s - me + n) % n;
}

/** The word for `order` from this seat: accept (dealer), assist (dealer's
 * partner in partnership) or order it up. */
function orderWord(s, dealer) {
  if (s === dealer) return "accept";
  if (!cutthroat() && (s - dealer + 4) % 4 === 2) return "assist";
  return "order";
}

function playedCount(v, s) {
  let k = 0;
  for (const tr of v.tricks || []) for (const [ps] of tr.cards) if (ps === s) k++;
  for (const [ps] of v.current_trick || []) if (ps === s) k++;
  return k;
}

function merged(v) {
  if (typeof v.merged === "boolean") return v.merged;
  return (v.history || []).some((h) => h.split(" ")[1] === "keep");
}

function isMyTurn() {
  const v = view();
  const me = mySeat();
  return Boolean(
    v && me !== null && table()?.status === "playing" && v.to_act === me && (v.legal || []).length,
  );
}

function keepStep(v) {
  return v.phase === "keep";
}

// -- sending -------------------------------------------------------------------

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify(msg));
    return true;
  }
  toast(t("conn.offline"));
  return false;
}

function act(action) {
  if (pending || !mine || !state) return;
  if (send({ type: "action", token: mine.token, action, seq: state.seq })) {
    answerDue = true;
    pending = true;
    document.body.dataset.pending = "1";
  }
}

// -- the WebSocket ---------------------------------------------------------------

function setConn(which) {
  const box = $("conn");
  box.dataset.state = which;
  box.replaceChildren(el("span", { "data-i18n": `conn.${which}` }, t(`conn.${which}`)));
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  ws = socket;
  socket.addEventListener("open", () => {
    retry = 0;
    setConn("open");
    socket.send(JSON.stringify({ type: "hello", token: mine?.token ?? null }));
  });
  socket.addEventListener("message", (e) => {
    let msg;
    try {
      msg = JSON.parse(e.data);
    } catch {
      return;
    }
    if (socket === ws) handle(msg);
  });
  socket.addEventListener("close", () => {
    if (socket !== ws || gone) return;
    setConn("closed");
    const wait = Math.min(5000, 250 * 2 ** retry++);
    setTimeout(() => {
      if (socket === ws) connect();
    }, wait);
  });
}

function reconnect() {
  const old = ws;
  ws = null;
  if (old) old.close();
  connect();
}

/** Show a state the server sent (the pacing below decides when). */
function showState(msg) {
  const before = state;
  const changed = !state || msg.seq !== state.seq;
  const wasKeep = state?.view && keepStep(state.view);
  state = msg;
  if (Array.isArray(msg.connected)) presence = msg.connected;
  pending = false;
  delete document.body.dataset.pending;
  if (changed) {
    if (!(msg.view && keepStep(msg.view) && wasKeep)) selected = new Set();
    if (hintSeq !== msg.seq) hint = null;
  }
  beforeShow();
  noteLastHand();
  render();
  afterShow(before);
  if (changed) soundFor(before, msg);
}

function handle(msg) {
  if (msg.type === "state") {
    receive(msg);
  } else if (msg.type === "hint") {
    if (Number.isInteger(msg.seq) && state && msg.seq < state.seq) return;
    hint = msg.suggest || [];
    hintSeq = state?.seq ?? -1;
    renderHint();
    revealHint();
  } else if (msg.type === "notice") {
    if (msg.code === "bot_fallback") {
      const name = table()?.seats?.[msg.seat]?.name ?? String(msg.seat);
      toast(t("notice.bot_fallback", { name }));
    }
  } else if (msg.type === "error") {
    answerDue = false;
    pending = false;
    delete document.body.dataset.pending;
    if (msg.code === "bad_token" && mine) {
      forgetSeat(tableId);
      mine = null;
      toast(errorText(msg.code, msg.message));
      reconnect();
      return;
    }
    if (msg.code === "not_found") {
      gone = true;
      setConn("closed");
      $("table-name").textContent = t("error.not_found");
      toast(t("error.not_found"));
      return;
    }
    if (hint === "asked") hint = null;
    renderHint();
    toast(errorText(msg.code, msg.message));
    render();
  }
}

// -- pacing: the server's states shown one at a time, at a pace people follow ------
//
// The server deals the next hand the moment one ends, and its bots move at the
// server's pace (`--bot-delay`). On top of that the page keeps a pace of its
// own, chosen on the page and kept in localStorage (never sent to the server):
// each move stays on screen a moment, a finished trick stays (about 1.2 s) and
// is swept to its winner, and a finished hand stays with its summary until the
// player goes on ("Next hand", or when its countdown runs out). Newer states
// wait in `incoming` meanwhile, unchanged and in order; the page acts only on
// the state it shows (the server waits for a person, so the state that shows
// the player's turn is always the newest).

const PACE_KEY = "euchre.pace";
/** ms a move stays, ms a finished trick stays, s a finished hand waits. */
const PACES = {
  slow: { move: 1000, trick: 2200, next: 30 },
  normal: { move: 450, trick: 1200, next: 15 },
  fast: { move: 150, trick: 600, next: 8 },
  off: { move: 0, trick: 0, next: 0 },
};
const SWEEP_MS = 350;
const incoming = []; // states newer than the one shown, oldest first
let shownAt = 0; // when the shown state was shown (performance.now())
let paceTimer = null;
let swept = false; // the shown finished trick was swept to its winner
let answerDue = false; // an action was sent: the state answering it shows at once
let held = null; // a finished hand on show: {next, left (seconds), timer}
let trickSeen = new Set(); // "seat card" of the trick cards on show (new ones slide in)

function paceName() {
  const p = localStorage.getItem(PACE_KEY);
  return p && Object.hasOwn(PACES, p) ? p : "normal";
}

const paceOf = () => PACES[paceName()];
const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** A state from the server: shown now, or queued behind the ones still on show. */
function receive(msg) {
  const newest = incoming.length ? incoming[incoming.length - 1] : state;
  if (newest && msg.seq < newest.seq) return;
  if (incoming.length && incoming[incoming.length - 1].seq === msg.seq) incoming.pop();
  if (!state || (!incoming.length && !held && msg.seq === state.seq)) {
    showState(msg);
    return;
  }
  incoming.push(msg);
  if (held) renderHeld(); // it may be this seat's turn in the next hand already: say so
  pump();
}

/** A finished trick is on show: the trick is empty, and a trick was played. */
function trickDone(v) {
  return Boolean(
    v && v.phase === "play" && !(v.current_trick || []).length && (v.tricks || []).length,
  );
}

/** How long `next` waits before it is shown (ms), or "hold" (a hand ended). */
function waitBefore(next) {
  const p = paceOf();
  if (!p.trick) return 0;
  const ended =
    state.table.status === "playing" &&
    (next.table.hands_played ?? 0) > (state.table.hands_played ?? 0);
  if (ended) return "hold";
  if (answerDue) return 0;
  const elapsed = performance.now() - shownAt;
  if (trickDone(view())) {
    if (elapsed < p.trick) return p.trick - elapsed;
    if (!swept) {
      sweep();
      return reducedMotion() ? 0 : SWEEP_MS;
    }
    return 0;
  }
  return Math.max(0, p.move - elapsed);
}

function pump() {
  clearTimeout(paceTimer);
  paceTimer = null;
  while (incoming.length && !held) {
    const wait = waitBefore(incoming[0]);
    if (wait === "hold") {
      holdHand(incoming[0]);
      return;
    }
    if (wait > 0) {
      paceTimer = setTimeout(pump, wait);
      return;
    }
    showState(incoming.shift());
  }
}

/** The finished trick on show goes to its winner's side of the table. */
function sweep() {
  swept = true;
  const v = view();
  const tr = v?.tricks?.[v.tricks.length - 1];
  if (!tr || reducedMotion()) return;
  const box = $("trick");
  box.dataset.to = String(pos(tr.winner));
  box.classList.add("sweep");
}

function beforeShow() {
  swept = false;
  answerDue = false;
  const box = $("trick");
  box.classList.remove("sweep");
  delete box.dataset.to;
}

/** After a state is drawn: new trick cards slide in from their seat, a new deal
 * is dealt into the hand (CSS animations; none with prefers-reduced-motion). */
function afterShow(before) {
  shownAt = performance.now();
  markNewTrickCards(Boolean(before));
  const dealt =
    before &&
    state.view &&
    (!before.view || before.table.hands_played !== state.table.hands_played);
  $("hand").classList.toggle("deal", Boolean(dealt));
}

function markNewTrickCards(animate) {
  const now = new Set();
  for (const slot of $("trick").querySelectorAll(".slot")) {
    const card = slot.querySelector(".card");
    if (!card) continue;
    const key = `${slot.dataset.seat} ${card.dataset.card}`;
    now.add(key);
    if (animate && !trickSeen.has(key)) card.classList.add("enter");
  }
  trickSeen = now;
}

/** A hand just ended (the next state deals the next one): keep it on show. */
function holdHand(next) {
  held = { next, left: paceOf().next, timer: null };
  if (next.last_hand) fetchHandRecord(next.last_hand);
  held.timer = setInterval(() => {
    if (!held) return;
    held.left -= 1;
    if (held.left <= 0) goOn();
    else renderHeld();
  }, 1000);
  renderHeld();
  $("next-hand").focus({ preventScroll: true });
}

/** The player goes on: the next hand (or the match's end) is shown. */
function goOn() {
  if (!held) return;
  clearInterval(held.timer);
  held = null;
  if (incoming.length) showState(incoming.shift());
  else render();
  pump();
}

function fetchHandRecord(last) {
  if (!last.record || recordCache.has(last.index)) return;
  recordCache.set(last.index, null);
  fetch(last.record)
    .then((r) => (r.ok ? r.json() : null))
    .then((rec) => {
      recordCache.set(last.index, rec);
      renderLastHand();
      $("last-trick-button").disabled = !lastTrick();
      if (held) renderHeld();
    })
    .catch(() => recordCache.delete(last.index));
}

/** The seat that took the hand's last trick: the one whose count of tricks went
 * up between the shown view (four tricks played) and the hand's result. */
function lastTrickWinner(last) {
  const v = view();
  const before = v?.tricks_won;
  const after = last?.result?.tricks;
  if (!Array.isArray(before) || !Array.isArray(after) || (v.tricks || []).length !== 4) return null;
  const up = after.map((n, s) => n - (before[s] ?? 0));
  const who = up.indexOf(1);
  return who >= 0 && up.reduce((a, b) => a + b, 0) === 1 ? who : null;
}

/** The whole of the hand's last trick, from its record (public once the hand is over). */
function paintFinalTrick(last) {
  const tr = last ? recordLastTrick(recordCache.get(last.index)) : null;
  const box = $("trick");
  box.classList.remove("sweep");
  if (!tr) return; // on its way, or the hand was thrown in
  const winner = lastTrickWinner(last);
  for (const slot of box.querySelectorAll(".slot")) {
    slot.replaceChildren();
    slot.classList.remove("winner");
  }
  const slots = box.querySelectorAll(".slot");
  for (const [s, code] of tr.cards) {
    const slot = slots[pos(s)];
    const card = cardImage(code);
    if (!trickSeen.has(`${s} ${code}`)) card.classList.add("enter");
    slot.append(card, el("span", { class: "who" }, seatName(s)));
    slot.dataset.seat = String(s);
    if (winner === s) slot.classList.add("winner");
  }
  trickSeen = new Set(tr.cards.map(([s, code]) => `${s} ${code}`));
  box.classList.add("done");
  $("trick-note").textContent =
    winner === null ? "" : t("trick.won_by", { name: seatName(winner) });
}

function handSummary(last) {
  const frag = document.createDocumentFragment();
  const result = last.result;
  if (result && result.thrown_in) frag.append(t("hand.thrown_in"), " ");
  else if (result && result.trump && Number.isInteger(result.maker)) {
    const side = cutthroat() ? [result.maker] : [result.maker % 2, (result.maker % 2) + 2];
    const took = side.reduce((sum, s) => sum + (result.tricks?.[s] ?? 0), 0);
    frag.append(
      fmt("hand.result", { name: seatName(result.maker), suit: suitInline(result.trump), n: took }),
      " ",
    );
  }
  frag.append(el("strong", {}, pointsText(last.points)));
  return frag;
}

/** Whether a state waiting behind the finished hand has this seat to act. */
function turnWaiting() {
  const m = incoming.length ? incoming[incoming.length - 1] : null;
  return Boolean(
    m?.view && Number.isInteger(m.seat) && m.view.to_act === m.seat && (m.view.legal || []).length,
  );
}

/** Draw the finished hand on hold (over what render() drew of its last state). */
function renderHeld() {
  const box = $("hand-over");
  const main = $("table");
  if (!held) {
    box.hidden = true;
    delete main.dataset.held;
    return;
  }
  const last = held.next.last_hand;
  main.dataset.held = "1";
  main.dataset.myTurn = "0";
  paintFinalTrick(last);
  // the hand is over: nobody is to act, the seats' cards are played (a seat
  // sitting out keeps its own), and each seat's tricks are the result's
  for (const seat of $("board").querySelectorAll(".seat.to-act")) seat.classList.remove("to-act");
  for (const note of $("board").querySelectorAll(".turn-note")) note.remove();
  for (const backs of $("board").querySelectorAll(".seat:not(.dummy) .backs:not(.out)"))
    backs.replaceChildren();
  const took = last?.result?.tricks;
  for (const meta of $("board").querySelectorAll(".seat[data-seat] .seat-meta")) {
    const s = Number(meta.closest(".seat").dataset.seat);
    if (Array.isArray(took) && Number.isInteger(took[s]))
      meta.textContent = t("seat.tricks", { n: took[s] });
  }
  // every card of the hand is on the table or played: none is left in a hand
  $("hand").replaceChildren();
  $("hand-wrap").hidden = false;
  $("dummy-wrap").hidden = true;
  $("actions").replaceChildren();
  $("hint-button").hidden = true;
  $("hint-box").hidden = true;
  $("prompt").textContent = last ? t("hand.over_title", { n: last.index + 1 }) : "";
  $("hand-over-text").replaceChildren(last ? handSummary(last) : "");
  const soon = turnWaiting();
  $("hand-over-turn").hidden = !soon;
  const over = held.next.table.status !== "playing";
  const button = $("next-hand");
  button.textContent = t(over ? "hold.result_in" : "hold.next_in", { n: held.left });
  button.dataset.soon = soon ? "1" : "0";
  box.hidden = false;
}

function mountPace() {
  const select = $("pace");
  select.value = paceName();
  select.addEventListener("change", () => {
    localStorage.setItem(PACE_KEY, select.value);
    if (select.value === "off") goOn();
    pump();
  });
  $("next-hand").addEventListener("click", goOn);
}

// -- rendering -----------------------------------------------------------------

function render() {
  if (!state) return;
  const tb = table();
  const v = view();
  const main = $("table");
  main.dataset.seq = String(state.seq);
  main.dataset.status = tb.status;
  main.dataset.variant = variant();
  main.dataset.seat = mySeat() === null ? "" : String(mySeat());
  main.dataset.phase = v?.phase ?? "";
  main.dataset.toAct = v && v.to_act !== null && v.to_act !== undefined ? String(v.to_act) : "";
  main.dataset.myTurn = isMyTurn() ? "1" : "0";
  main.dataset.handsPlayed = String(tb.hands_played ?? 0);
  $("table-name").textContent = tb.name || t("table.title");
  document.title = `${tb.name || t("table.title")} · ${t("app.name")}`;
  // an expired table (nobody started it in time) stays on the waiting panel, closed
  const waiting = tb.status === "waiting" || tb.status === "expired";
  $("waiting").hidden = !waiting;
  $("board").hidden = waiting;
  $("side").hidden = waiting;
  $("me").hidden = waiting;
  if (waiting) renderWaiting();
  else {
    renderBoard();
    renderMe();
    renderSide();
  }
  renderWinner();
  renderMatchEnd();
  renderHeld();
}

function renderWaiting() {
  const tb = table();
  $("invite-link").value = `${location.origin}/t/${tb.table_id}`;
  const me = mySeat();
  const expired = tb.status === "expired";
  const canJoin =
    !expired &&
    me === null &&
    !watchOnly &&
    tb.seats.some((s) => s.kind === "empty" && !s.reserved);
  $("join-box").hidden = !canJoin;
  if (canJoin && !$("join-name").value) $("join-name").value = savedName();
  $("wait-seats").replaceChildren(
    ...tb.seats.map((seat) => {
      const li = el("li", { class: "wait-seat", dataset: { seat: String(seat.seat) } });
      let who;
      if (seat.kind === "human") who = seat.name;
      else if (seat.kind === "bot") who = t(`level.bot.${seat.level}`);
      else if (seat.reserved) who = t("seat.kept");
      else
        who = seat.level
          ? t("wait.open_or_bot", { level: t(`level.${seat.level}`) })
          : t("seat.open");
      li.append(
        el("span", { class: "seat-no" }, t("seat.number", { n: seat.seat + 1 })),
        " ",
        el("span", {}, who),
      );
      if (seat.seat === me) li.append(" ", el("span", { class: "badge you" }, t("badge.you")));
      if (seat.kind === "human") li.append(" ", presenceDot(seat.seat, true));
      if (canJoin && seat.kind === "empty" && !seat.reserved) {
        li.append(
          " ",
          el(
            "button",
            {
              type: "button",
              class: "primary",
              dataset: { joinSeat: String(seat.seat) },
              onclick: () => join(seat.seat),
            },
            t("wait.sit"),
          ),
        );
      }
      return li;
    }),
  );
  const host = tb.host ?? null; // only the host starts (null: any seated person)
  const mayStart = me !== null && !expired && (host === null || host === me);
  $("start-button").hidden = !mayStart;
  $("start-help").hidden = !mayStart;
  $("host-note").hidden = mayStart || expired || host === null;
  if (host !== null) $("host-note").textContent = t("wait.host_starts", { name: seatName(host) });
  if (expired) {
    $("wait-error").hidden = false;
    $("wait-error").textContent = t("error.expired");
  }
}

async function join(seat) {
  const name = $("join-name").value.trim();
  const error = $("wait-error");
  if (!name) {
    error.hidden = false;
    error.textContent = t("lobby.name_required");
    $("join-name").focus();
    return;
  }
  error.hidden = true;
  saveName(name);
  try {
    const res = await api.join(tableId, seat, name);
    saveSeat(tableId, res.seat, res.token);
    mine = { seat: res.seat, token: res.token };
    reconnect();
  } catch (err) {
    error.hidden = false;
    error.textContent = errorText(err.code, err.message);
  }
}

async function start() {
  if (!mine) return;
  $("start-button").disabled = true;
  try {
    await api.start(tableId, mine.token);
  } catch (err) {
    const error = $("wait-error");
    error.hidden = false;
    error.textContent = errorText(err.code, err.message);
  } finally {
    $("start-button").disabled = false;
  }
}

function seatBox(s, v) {
  const tb = table();
  const seat = tb.seats[s];
  const me = mySeat();
  const box = el("div", { class: "seat", dataset: { seat: String(s) } });
  const head = el("div", { class: "seat-head" }, el("span", { class: "seat-name" }, seatName(s)));
  const badges = el("span", { class: "badges" });
  const badge = (key, cls) => badges.append(el("span", { class: `badge ${cls}` }, t(key)));
  if (s === me) badge("badge.you", "you");
  if (!cutthroat() && me !== null && s !== me && (s - me + 4) % 4 === 2)
    badge("badge.partner", "partner");
  if (v) {
    if (v.dealer === s) badge("badge.dealer", "dealer");
    if (v.maker === s) badge("badge.maker", "maker");
    if ((v.alone || []).includes(s)) badge("badge.alone", "alone");
    if ((v.sitting_out || []).includes(s)) badge("badge.out", "out");
  }
  if (seat?.kind === "human") head.append(presenceDot(s));
  head.append(badges);
  if (!cutthroat()) box.dataset.team = String(s % 2);
  box.append(head);
  if (v && v.to_act === s && tb.status === "playing") {
    box.classList.add("to-act");
    box.append(el("span", { class: "turn-note" }, s === me ? t("turn.you") : t("turn.thinking")));
  }
  if (v && (s !== me || me === null)) {
    const backs = el("div", { class: "backs" });
    const count = Math.max(0, 5 - playedCount(v, s));
    for (let i = 0; i < count; i++) backs.append(cardImage(null));
    if ((v.sitting_out || []).includes(s)) backs.classList.add("out");
    box.append(backs);
  }
  if (v && v.phase === "play") {
    box.append(
      el("div", { class: "seat-meta" }, t("seat.tricks", { n: (v.tricks_won || [])[s] ?? 0 })),
    );
  }
  return box;
}

function dummyBox(v) {
  const box = el("div", { class: "seat dummy" });
  box.append(
    el("div", { class: "seat-head" }, el("span", { class: "seat-name" }, t("seat.dummy"))),
  );
  let note = "";
  // the maker merging sees the dummy face up below: it is not also drawn face down here
  const inHand = merged(v) || (v.dummy || []).length > 0;
  if (inHand) note = t("dummy.merged", { name: seatName(v.maker) });
  else if (v.maker !== null && v.maker !== undefined && (v.alone || []).includes(v.maker))
    note = t("dummy.unused");
  if (!inHand) {
    const backs = el("div", { class: "backs" });
    for (let i = 0; i < 5; i++) backs.append(cardImage(null));
    box.append(backs);
  }
  if (note) box.append(el("div", { class: "seat-meta" }, note));
  return box;
}

function renderBoard() {
  const v = view();
  const n = seatCount();
  for (let p = 0; p < 4; p++) $(`pos-${p}`).replaceChildren();
  for (let s = 0; s < n; s++) $(`pos-${pos(s)}`).append(seatBox(s, v));
  if (n === 3 && v) $("pos-3").append(dummyBox(v));
  $("board").dataset.seats = String(n);
  // up-card
  const up = $("up");
  up.replaceChildren();
  const trump = $("trump");
  trump.replaceChildren();
  if (!v) {
    renderTrick(null);
    return;
  }
  const bidding = ["joker_call", "bid1", "pickup"].includes(v.phase);
  // the dealer picking up sees the up-card among their own cards: drawn there only
  const upInHand =
    v.phase === "pickup" && isMyTurn() && (v.legal || []).some((a) => a.startsWith("pickup "));
  if (v.up_card && v.phase !== "over") {
    if (upInHand) {
      up.append(el("span", { class: "caption up-in-hand" }, t("up.in_hand")));
    } else if (bidding || v.up_card_face_up) {
      const card = markLeftBower(cardImage(v.up_card), v.up_card, v.trump);
      let caption = t("up.face_up");
      if (v.picked_up === false) caption = t("up.left");
      up.append(card, el("span", { class: "caption" }, caption));
      if (v.up_card === "JK" && v.up_suit)
        up.append(
          el("span", { class: "caption" }, fmt("up.joker_stands", { suit: suitInline(v.up_suit) })),
        );
    } else if (v.phase === "bid2") {
      const card = cardImage(v.up_card);
      card.classList.add("turned-down");
      up.append(card, el("span", { class: "caption" }, t("up.turned_down")));
    } else if (v.picked_up) {
      up.append(
        el(
          "span",
          { class: "caption" },
          fmt("up.picked", { name: seatName(v.dealer), card: cardInline(v.up_card) }),
        ),
      );
    }
  }
  if (v.trump) {
    let key = "trump.made";
    if (merged(v)) key = "trump.made_dummy";
    else if ((v.alone || []).includes(v.maker)) key = "trump.made_alone";
    trump.append(fmt(key, { suit: suitInline(v.trump), name: seatName(v.maker) }));
    trump.dataset.trump = v.trump;
  } else {
    delete trump.dataset.trump;
  }
  renderTrick(v);
}

function renderTrick(v) {
  const slots = [...$("trick").querySelectorAll(".slot")];
  for (const slot of slots) slot.replaceChildren();
  const note = $("trick-note");
  note.textContent = "";
  $("trick").classList.remove("done");
  if (!v) return;
  let cards = v.current_trick || [];
  let done = null;
  if (!cards.length && v.phase === "play" && (v.tricks || []).length) {
    done = v.tricks[v.tricks.length - 1];
    cards = done.cards;
    $("trick").classList.add("done");
    note.textContent = t("trick.won_by", { name: seatName(done.winner) });
  }
  for (const [s, code] of cards) {
    const slot = slots[pos(s)];
    slot.append(
      markLeftBower(cardImage(code), code, v.trump),
      el("span", { class: "who" }, seatName(s)),
    );
    slot.dataset.seat = String(s);
    if (done && done.winner === s) slot.classList.add("winner");
    else slot.classList.remove("winner");
  }
}

function prompt(v) {
  const me = mySeat();
  if (me === null) return t("prompt.watching");
  if (table().status === "over") return t("prompt.match_over");
  if (!v || v.phase === "over") return t("prompt.next_hand");
  if (!isMyTurn()) {
    if (v.to_act === null || v.to_act === undefined) return "";
    return t("prompt.waiting", { name: seatName(v.to_act) });
  }
  switch (v.phase) {
    case "joker_call":
      return t("prompt.joker_call");
    case "bid1":
      return t(`prompt.bid1.${orderWord(me, v.dealer)}`);
    case "pickup":
      return t("prompt.pickup");
    case "bid2":
      return t("prompt.bid2");
    case "maker":
      return t("prompt.maker");
    case "keep":
      return t("prompt.keep", { n: selected.size });
    case "alone":
      if (cutthroat()) return t("prompt.alone.defender");
      return t(
        v.maker === me
          ? "prompt.alone.maker"
          : (v.maker - me + 4) % 4 === 2
            ? "prompt.alone.partner"
            : "prompt.alone.defender",
      );
    case "play":
      return (v.current_trick || []).length ? t("prompt.follow") : t("prompt.lead");
    default:
      return "";
  }
}

/** Words for an action string (buttons, hints). */
function actionText(action, v) {
  const [kind, ...rest] = action.split(" ");
  const me = mySeat();
  switch (kind) {
    case "pass":
      if (v && v.phase === "alone") return fmt("act.no_alone");
      return fmt("act.pass");
    case "order":
      return fmt(`act.${orderWord(me, v?.dealer)}`);
    case "call":
      return fmt(v?.phase === "joker_call" ? "act.joker_call" : "act.call", {
        suit: suitInline(rest[0]),
      });
    case "pickup":
      return fmt("act.pickup", { card: cardInline(rest[0]) });
    case "decline":
      return fmt("act.decline");
    case "alone":
      if (v?.phase === "maker") return fmt("act.alone_maker");
      return fmt(
        v && v.maker !== me && !(cutthroat() === false && (v.maker - me + 4) % 4 === 2)
          ? "act.alone_defend"
          : "act.alone",
      );
    case "keep":
      return rest.length ? fmt("act.keep_cards", { cards: cardsInline(rest) }) : fmt("act.merge");
    case "play":
      return fmt("act.play", { card: cardInline(rest[0]) });
    default:
      return document.createTextNode(action);
  }
}

function actionButton(action, v, cls = "") {
  return el(
    "button",
    {
      type: "button",
      class: `action ${cls}`.trim(),
      dataset: { action },
      onclick: () => act(action),
    },
    actionText(action, v),
  );
}

function renderMe() {
  const v = view();
  const me = mySeat();
  $("me").hidden = false;
  $("prompt").textContent = prompt(v);
  const actions = $("actions");
  actions.replaceChildren();
  const hand = $("hand");
  const dummy = $("dummy");
  hand.replaceChildren();
  dummy.replaceChildren();
  $("dummy-wrap").hidden = true;
  $("hint-button").hidden = !isMyTurn();
  $("last-trick-button").disabled = !lastTrick();
  if (me === null || !state.view) {
    $("hand-wrap").hidden = true;
    renderHint();
    return;
  }
  $("hand-wrap").hidden = false;
  const myTurn = isMyTurn();
  const legal = myTurn ? v.legal : [];
  const sortSuit =
    v.trump ?? (["bid1", "pickup", "joker_call"].includes(v.phase) ? v.up_suit : null);
  const keeping = myTurn && keepStep(v);
  const pickups = new Set(legal.filter((a) => a.startsWith("pickup ")).map((a) => a.split(" ")[1]));
  const plays = new Set(legal.filter((a) => a.startsWith("play ")).map((a) => a.split(" ")[1]));
  let cards = v.hand;
  if (pickups.size && !cards.includes(v.up_card)) cards = [...cards, v.up_card];
  cards = sortForDisplay(cards, sortSuit);
  const makeCard = (code, index) => {
    const b = cardButton(code);
    b.dataset.index = String(index + 1);
    let usable = false;
    if (keeping) {
      usable = true;
      b.setAttribute("aria-pressed", String(selected.has(code)));
      if (selected.has(code)) b.classList.add("selected");
      b.addEventListener("click", () => toggleKeep(code));
    } else if (pickups.size) {
      usable = pickups.has(code);
      if (usable) b.addEventListener("click", () => act(`pickup ${code}`));
      b.setAttribute("aria-label", t("hand.discard_card", { card: cardName(code) }));
      if (code === v.up_card && !v.hand.includes(code)) {
        b.classList.add("up-card");
        b.append(el("span", { class: "card-tag" }, t("hand.up_tag")));
      }
    } else if (v.phase === "play" && myTurn) {
      usable = plays.has(code);
      if (usable) b.addEventListener("click", () => act(`play ${code}`));
      else b.classList.add("dim");
    }
    if (usable) b.classList.add("legal");
    else {
      b.setAttribute("aria-disabled", "true");
      if (!keeping) b.addEventListener("click", () => explainCard(b));
    }
    return markLeftBower(b, code, v.trump);
  };
  cards.forEach((code, i) => hand.append(makeCard(code, i)));
  if (keeping) {
    $("dummy-wrap").hidden = false;
    const dcards = sortForDisplay(v.dummy || [], sortSuit);
    dcards.forEach((code, i) => dummy.append(makeCard(code, cards.length + i)));
  }
  // the buttons
  if (myTurn) {
    if (keeping) {
      const keep = el(
        "button",
        {
          type: "button",
          class: "action primary",
          dataset: { action: "keep-selected" },
          onclick: () => act(`keep ${[...selected].join(" ")}`),
        },
        t("act.keep_these"),
      );
      keep.disabled = selected.size !== 5;
      actions.append(keep);
    } else {
      const order = ["order", "call", "alone", "keep", "decline", "pass"];
      const buttons = legal
        .filter((a) => !a.startsWith("play ") && !a.startsWith("pickup "))
        .sort((a, b) => order.indexOf(a.split(" ")[0]) - order.indexOf(b.split(" ")[0]));
      for (const a of buttons)
        actions.append(actionButton(a, v, buttonStyle(a)));
    }
  }
  renderHint();
}

function toggleKeep(code) {
  if (selected.has(code)) selected.delete(code);
  else if (selected.size < 5) selected.add(code);
  else return;
  const focused = document.activeElement?.dataset?.card;
  renderMe();
  if (focused) document.querySelector(`#me .card[data-card="${focused}"]`)?.focus();
}

function renderHint() {
  const box = $("hint-box");
  const list = $("hint-list");
  markHinted(null);
  const asked = hint !== null;
  box.hidden = !asked && $("hint-button").hidden;
  box.dataset.open = asked ? "1" : "0";
  $("hint-title").hidden = !asked;
  list.hidden = !asked;
  if (!asked) return;
  list.replaceChildren();
  if (hint === "asked") {
    list.append(el("li", { class: "muted" }, t("hint.thinking")));
    return;
  }
  const v = view();
  const rows = [...hint].sort((a, b) => b.points - a.points).slice(0, 8);
  const best = rows.length ? rows[0].points : 0;
  rows.forEach((row, i) => {
    const word = hintWord(best - row.points, i === 0);
    list.append(
      el(
        "li",
        { class: word.cls, dataset: { action: row.action } },
        actionText(row.action, v),
        " — ",
        el("span", { class: "points" }, word.text),
      ),
    );
  });
  if (!rows.length) list.append(el("li", { class: "muted" }, t("hint.none")));
  else markHinted(rows[0].action);
}

function askHint() {
  if (!mine || !isMyTurn()) return;
  if (send({ type: "hint", token: mine.token })) {
    hint = "asked";
    hintSeq = state.seq;
    renderHint();
  }
}

// -- hints that act: words for the values, the suggested choice lit ----------------

/** Words for a hint row: `diff` is how many points it is worth less than the best. */
function hintWord(diff, first) {
  if (first) return { cls: "best", text: t("hint.best") };
  if (diff < 0.15) return { cls: "close", text: t("hint.close") };
  const nf = new Intl.NumberFormat(language(), {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
  return { cls: "costly", text: t("hint.costs", { points: nf.format(diff) }) };
}

/** Light the card(s) or the button of the suggested action (null: none). */
function markHinted(action) {
  for (const node of document.querySelectorAll("#me .hinted")) node.classList.remove("hinted");
  if (!action) return;
  const [kind, ...rest] = action.split(" ");
  const cards = [...document.querySelectorAll("#me .hand .card[data-card]")];
  const button = [...document.querySelectorAll("#actions [data-action]")].find(
    (b) => b.dataset.action === action,
  );
  if (button) button.classList.add("hinted");
  else if (rest.length && kind !== "call")
    for (const card of cards) if (rest.includes(card.dataset.card)) card.classList.add("hinted");
}

/** Scroll the hint into sight if it came out of sight (on a phone: under the hand). */
function revealHint() {
  const box = $("hint-box");
  if (box.hidden) return;
  const r = box.getBoundingClientRect();
  if (r.top >= 0 && r.bottom <= window.innerHeight) return;
  const calm = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  box.scrollIntoView({ block: "nearest", behavior: calm ? "auto" : "smooth" });
}

// -- safer buttons and cards that say why not --------------------------------------

/** The style of an action button: the risky choices are never the filled one. */
function buttonStyle(action) {
  const kind = action.split(" ")[0];
  if (kind === "pass") return "secondary";
  if (["order", "alone", "decline"].includes(kind)) return "secondary risky";
  return "primary";
}

/** Why a card of this seat's hand may not be played now (from the view only). */
function whyNot() {
  const v = view();
  if (!v || mySeat() === null) return null;
  if (!isMyTurn()) {
    if (Number.isInteger(v.to_act) && table()?.status === "playing")
      return t("why.not_your_turn", { name: seatName(v.to_act) });
    return t("why.wait");
  }
  return v.phase === "play" ? t("why.follow") : t("why.buttons");
}

function explainCard(card) {
  const text = whyNot();
  if (!text) return;
  toast(text);
  card.classList.remove("refused");
  void card.offsetWidth; // restart the little shake
  card.classList.add("refused");
}

// -- the left bower: marked as trump wherever cards are shown -----------------------

/** The jack of trump's colour (public knowledge once trump is named). */
const LEFT_BOWER = { H: "JD", D: "JH", S: "JC", C: "JS" };

function markLeftBower(node, code, trump) {
  if (!trump || !code || LEFT_BOWER[trump] !== code) return node;
  node.classList.add("left-bower");
  node.dataset.trumpMark = trump;
  const label = t("card.left_bower", { card: cardName(code) });
  node.setAttribute("title", label);
  const aria = node.getAttribute("aria-label");
  if (aria) node.setAttribute("aria-label", t("card.left_bower", { card: aria }));
  const tag = el("span", { class: "bower-tag", "aria-hidden": "true" }, suitIcon(trump));
  node.append(tag);
  return node;
}

/** The trump of the trick lastTrick() gives: this hand's, else the last hand's. */
function lastTrickTrump() {
  const v = view();
  if (v && (v.tricks || []).length) return v.trump ?? null;
  return state?.last_hand?.result?.trump ?? null;
}

// -- sound: short sounds made with the Web Audio API (no files), off by default -----

const SOUND_KEY = "euchre.sound";
let audio = null;
let gestured = false; // browsers let audio start only after the person did something

const soundOn = () => localStorage.getItem(SOUND_KEY) === "on";

function audioContext() {
  if (!audio) {
    if (!gestured || typeof AudioContext !== "function") return null;
    audio = new AudioContext();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

function tone(ctx, { at = 0, freq, to = freq, dur = 0.1, type = "sine", gain = 0.12 }) {
  const t0 = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  osc.frequency.exponentialRampToValueAtTime(to, t0 + dur);
  amp.gain.setValueAtTime(0.0001, t0);
  amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  osc.connect(amp).connect(ctx.destination);
  osc.start(t0);
  osc.stop(t0 + dur + 0.02);
}

/** A short burst of filtered noise: the snap of a card. */
function snap(ctx, { at = 0, dur = 0.06, freq = 2000, gain = 0.3 }) {
  const length = Math.max(1, Math.ceil(ctx.sampleRate * dur));
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 2;
  const src = ctx.createBufferSource();
  src.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  const amp = ctx.createGain();
  amp.gain.value = gain;
  src.connect(filter).connect(amp).connect(ctx.destination);
  src.start(ctx.currentTime + at);
}

const SOUNDS = {
  deal: (ctx) => {
    for (let i = 0; i < 5; i++) snap(ctx, { at: i * 0.07, dur: 0.05, freq: 3200, gain: 0.25 });
  },
  play: (ctx) => {
    snap(ctx, { dur: 0.07, freq: 1800, gain: 0.35 });
    tone(ctx, { freq: 220, to: 140, dur: 0.06, type: "triangle", gain: 0.06 });
  },
  trick: (ctx) => {
    tone(ctx, { freq: 660, dur: 0.12 });
    tone(ctx, { at: 0.12, freq: 880, dur: 0.2 });
  },
};

function playSound(name) {
  if (!soundOn()) return;
  const ctx = audioContext();
  if (!ctx) return;
  try {
    SOUNDS[name](ctx);
  } catch {
    return;
  }
  document.body.dataset.lastSound = name;
  document.body.dataset.soundCount = String(Number(document.body.dataset.soundCount || 0) + 1);
}

const handView = (msg) => msg?.view ?? msg?.public ?? null;
const playedCards = (v) =>
  (v.tricks || []).reduce((n, tr) => n + tr.cards.length, 0) + (v.current_trick || []).length;

/** The sounds for going from state `prev` to `next`: a deal, a card played, a trick won. */
function soundsFor(prev, next) {
  const a = handView(prev);
  const b = handView(next);
  if (!prev || !b || next.table?.status !== "playing") return [];
  const newHand =
    !a ||
    (prev.table?.hands_played ?? 0) !== (next.table?.hands_played ?? 0) ||
    (b.history || []).length < (a.history || []).length;
  if (newHand) return (b.history || []).length === 0 ? ["deal"] : [];
  const out = [];
  if (playedCards(b) > playedCards(a)) out.push("play");
  if ((b.tricks || []).length > (a.tricks || []).length) out.push("trick");
  return out;
}

function soundFor(prev, next) {
  for (const name of soundsFor(prev, next)) {
    if (name === "trick") setTimeout(() => playSound("trick"), 350);
    else playSound(name);
  }
}

function renderSoundButton() {
  const button = $("sound-button");
  button.textContent = t(soundOn() ? "sound.on" : "sound.off");
  button.dataset.on = soundOn() ? "1" : "0";
}

function mountSound() {
  const wake = () => {
    gestured = true;
    if (soundOn()) audioContext();
  };
  document.addEventListener("pointerdown", wake, { capture: true });
  document.addEventListener("keydown", wake, { capture: true });
  $("sound-button").addEventListener("click", () => {
    localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
    renderSoundButton();
    gestured = true;
    playSound("play");
  });
  renderSoundButton();
}

// -- the log of this hand -------------------------------------------------------

function logEntries(v) {
  const out = [];
  const n = seatCount();
  let made = false;
  let passes = 0;
  let plays = 0;
  let trick = 0;
  const history = v.history || [];
  history.forEach((line, i) => {
    const [sText, kind, ...rest] = line.split(" ");
    const s = Number(sText);
    const name = seatName(s);
    const p = { name };
    let key;
    if (kind === "call" && i === 0 && v.up_card === "JK") key = "log.joker_call";
    else if (kind === "pass" && !made) {
      if (passes === n) out.push({ key: "log.round_two", params: {}, cls: "round" });
      passes++;
      key = "log.pass";
    } else if (kind === "order") {
      made = true;
      key = `log.${orderWord(s, v.dealer)}`;
    } else if (kind === "call") {
      made = true;
      key = "log.call";
    } else if (kind === "pickup") key = rest.length ? "log.pickup_card" : "log.pickup";
    else if (kind === "decline") key = "log.decline";
    else if (kind === "alone") key = cutthroat() && s === v.maker ? "log.alone_maker" : "log.alone";
    else if (kind === "keep") key = rest.length ? "log.keep_cards" : "log.keep";
    else if (kind === "pass") key = "log.no_alone";
    else if (kind === "play") key = "log.play";
    else key = "log.other";
    if (kind === "call") p.suit = suitInline(rest[0]);
    if (kind === "play" || kind === "pickup") p.card = rest[0] ? cardInline(rest[0]) : "";
    if (kind === "play" && rest[0]) markLeftBower(p.card, rest[0], v.trump);
    if (kind === "keep" && rest.length) p.cards = cardsInline(rest);
    if (key === "log.other") p.action = `${kind} ${rest.join(" ")}`;
    out.push({ key, params: p, cls: kind });
    if (kind === "play") {
      plays++;
      const tr = (v.tricks || [])[trick];
      if (tr && plays === tr.cards.length) {
        out.push({ key: "log.trick_won", params: { name: seatName(tr.winner) }, cls: "trick" });
        trick++;
        plays = 0;
      }
    }
  });
  return out;
}

function renderSide() {
  const v = view();
  const tb = table();
  // scores
  const scores = tb.scores ?? v?.scores ?? [];
  const rows = [];
  if (cutthroat()) {
    for (let s = 0; s < seatCount(); s++) rows.push([seatName(s), scores[s] ?? 0, s === mySeat()]);
  } else {
    for (const side of [0, 1])
      rows.push([teamName(side), scores[side] ?? 0, mySeat() !== null && mySeat() % 2 === side]);
  }
  const best = Math.max(...rows.map((r) => r[1]));
  $("scores").replaceChildren(
    ...rows.map(([name, score, me]) =>
      el(
        "tr",
        { class: `${me ? "me" : ""} ${score === best && best > 0 ? "lead" : ""}`.trim() },
        el("th", { scope: "row" }, name),
        el("td", {}, String(score)),
      ),
    ),
  );
  $("target").textContent = t("score.target", { n: tb.rules?.target ?? 10 });
  // log
  const log = $("log");
  log.replaceChildren();
  if (v) {
    for (const entry of logEntries(v))
      log.append(el("li", { class: entry.cls }, fmt(entry.key, entry.params)));
    log.scrollTop = log.scrollHeight;
  }
  renderLastHand();
  renderHistory();
}

// -- finished hands: the last one, and the history of the match --------------------

const histKey = () => `euchre.hist.${tableId}`;
const dismissKey = () => `euchre.dismissed.${tableId}`;

function storedHistory() {
  try {
    const list = JSON.parse(localStorage.getItem(histKey()) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function noteLastHand() {
  const last = state?.last_hand;
  if (!last || !Number.isInteger(last.index)) return;
  const list = storedHistory();
  if (!list.some((h) => h.index === last.index)) {
    list.push({ index: last.index, points: last.points, scores: last.scores });
    list.sort((a, b) => a.index - b.index);
    localStorage.setItem(histKey(), JSON.stringify(list));
  }
  fetchHandRecord(last);
}

/** The last trick of a hand record: the last plays (a hand is five tricks). */
function recordLastTrick(rec) {
  if (!rec || !Array.isArray(rec.actions)) return null;
  const plays = rec.actions.map((a) => a.split(" ")).filter((p) => p[1] === "play");
  if (plays.length < 5 || plays.length % 5) return null;
  const size = plays.length / 5;
  return { cards: plays.slice(-size).map((p) => [Number(p[0]), p[2]]), winner: null };
}

/** The last finished trick: of this hand, else of the hand before. */
function lastTrick() {
  const v = view();
  if (v && (v.tricks || []).length) return v.tricks[v.tricks.length - 1];
  const last = state?.last_hand;
  return last ? recordLastTrick(recordCache.get(last.index)) : null;
}

function miniTrick(box, tr, trump = null) {
  box.replaceChildren();
  if (!tr) {
    box.append(el("p", { class: "muted" }, t("trick.none")));
    return;
  }
  for (const [s, code] of tr.cards) {
    const item = el(
      "div",
      { class: `mini ${tr.winner === s ? "winner" : ""}`.trim(), dataset: { seat: String(s) } },
      markLeftBower(cardImage(code), code, trump),
      el("span", { class: "who" }, seatName(s)),
    );
    box.append(item);
  }
  if (tr.winner !== null && tr.winner !== undefined)
    box.append(el("p", { class: "trick-note" }, t("trick.won_by", { name: seatName(tr.winner) })));
}

function pointsText(points) {
  if (!points || points.every((p) => !p)) return t("hand.no_points");
  const parts = [];
  if (cutthroat()) {
    points.forEach((p, s) => {
      if (p) parts.push(t("hand.points_one", { name: seatName(s), points: p }));
    });
  } else {
    for (const side of [0, 1]) {
      if (points[side])
        parts.push(t("hand.points_one", { name: teamName(side), points: points[side] }));
    }
  }
  return parts.join(" · ");
}

function renderLastHand() {
  const last = state?.last_hand;
  const box = $("last-hand");
  const dismissed = Number(sessionStorage.getItem(dismissKey()) ?? "-1");
  if (!last || last.index <= dismissed) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.dataset.index = String(last.index);
  $("last-hand-title").textContent = t("hand.over_title", { n: last.index + 1 });
  $("last-hand-points").replaceChildren(handSummary(last));
  miniTrick(
    $("last-hand-trick"),
    recordLastTrick(recordCache.get(last.index)),
    last.result?.trump ?? null,
  );
  const review = $("last-hand-review");
  const words = reviewContent(last);
  review.hidden = !words;
  review.replaceChildren();
  if (words) review.append(el("strong", {}, t("hand.review")), " ", words);
  const step = $("last-hand-review-link");
  step.hidden = !last.review_facts;
  step.href = `/review?table=${encodeURIComponent(tableId)}&hand=${last.index}`;
  const link = $("last-hand-record");
  link.href = last.record;
  link.setAttribute("download", `euchre-${tableId}-hand-${last.index + 1}.json`);
}

/** The end-of-hand review in the page's language when the server sends its facts
 * (`review_facts`), else the server's own sentence (`review`), else null. */
function reviewContent(last) {
  const f = last.review_facts;
  if (!f || !Array.isArray(f.maker_side) || !f.maker_side.length) return last.review || null;
  const team = f.team ?? !cutthroat();
  const who = team
    ? t("review.makers", { names: f.maker_side.map(seatName).join(", ") })
    : t("review.maker", { name: seatName(f.maker_side[0]) });
  const frag = fmt("review.best", { who, could: f.could_take, took: f.took });
  frag.append(" ");
  const m = f.mistake;
  if (!m) frag.append(t("review.clean"));
  else frag.append(mistakeLine(m, team));
  return frag;
}

/** The first costly card in words: its trick, its player, the better card, and
 * who would have gained how many tricks and points ("Trick 3: West played 10♦;
 * A♣ would have won one more trick for the defenders"). */
function mistakeLine(m, team) {
  const side = m.side === "maker" ? (team ? "makers" : "maker") : "defenders";
  const count = (kind, n) => (has(`review.${kind}.${n}`) ? t(`review.${kind}.${n}`) : String(n));
  return fmt(m.points ? "review.mistake_points" : "review.mistake_same", {
    trick: m.trick,
    name: seatName(m.seat),
    played: cardInline(m.played),
    best: cardInline(m.best),
    tricks: count("tricks", m.cost),
    side: t(`review.side.${side}`),
    points: count("points", m.points),
  });
}

function renderHistory() {
  const tb = table();
  const played = tb.hands_played ?? 0;
  const known = new Map(storedHistory().map((h) => [h.index, h]));
  const box = $("history");
  box.replaceChildren();
  const cols = cutthroat() ? [...Array(seatCount()).keys()] : [0, 1];
  const colName = (c) => (cutthroat() ? seatName(c) : teamName(c));
  box.append(
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        el("th", { scope: "col" }, t("history.hand")),
        ...cols.map((c) => el("th", { scope: "col" }, colName(c))),
        el("th", { scope: "col" }, t("history.record")),
      ),
    ),
  );
  const body = el("tbody");
  for (let i = 0; i < played; i++) {
    const h = known.get(i);
    const row = el(
      "tr",
      { dataset: { index: String(i) } },
      el("th", { scope: "row" }, String(i + 1)),
    );
    for (const c of cols) {
      const cell = el("td");
      if (h) {
        const p = h.points?.[c] ?? 0;
        const pts = p ? `+${p}` : "·";
        cell.textContent = `${pts} (${h.scores?.[c] ?? ""})`;
      } else cell.textContent = "–";
      row.append(cell);
    }
    row.append(
      el(
        "td",
        {},
        el(
          "a",
          {
            href: `/api/tables/${encodeURIComponent(tableId)}/hands/${i}`,
            download: `euchre-${tableId}-hand-${i + 1}.json`,
          },
          t("history.download_hand"),
        ),
      ),
    );
    body.append(row);
  }
  box.append(body);
  $("match-record").href = `/api/tables/${encodeURIComponent(tableId)}/record`;
  $("match-record").setAttribute("download", `euchre-${tableId}-match.json`);
  $("match-record").hidden = played === 0;
}

function renderWinner() {
  const tb = table();
  const box = $("winner");
  const winners = tb.winners || [];
  if (!winners.length) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  let names;
  if (cutthroat()) names = winners.map(seatName);
  else names = [...new Set(winners.map((s) => s % 2))].map((side) => teamName(side));
  const mine_ = mySeat() !== null && winners.includes(mySeat());
  box.textContent =
    names.length === 1 && cutthroat()
      ? t("winner.one", { name: names[0] })
      : t("winner.many", { names: names.join(", ") });
  if (mine_) box.append(" ", el("span", { class: "badge you" }, t("winner.you")));
  box.dataset.winners = winners.join(",");
}

// -- who is connected; the end of the match: why, the score chart, the rematch ----

function presenceDot(s, withText = false) {
  const online = presence.includes(s);
  const label = t(online ? "presence.online" : "presence.offline");
  const dot = el("span", {
    class: "presence",
    dataset: { online: online ? "1" : "0" },
    role: "img",
    "aria-label": label,
    title: label,
  });
  if (!withText) return dot;
  return el("span", { class: "presence-note muted" }, dot, " ", label);
}

/** Who is connected changes without a state: ask the summary now and then. */
async function refreshPresence() {
  if (!state || gone || document.hidden) return;
  try {
    const summary = await api.table(tableId);
    if (!Array.isArray(summary.connected)) return;
    if (summary.connected.join() === presence.join() && !summary.rematch === !table()?.rematch)
      return;
    presence = summary.connected;
    if (summary.rematch && state.table && !state.table.rematch) state.table.rematch = summary.rematch;
    render();
  } catch {
    // asked again shortly
  }
}

/** The columns of the match: a seat each in Cutthroat, a team each in partnership. */
function matchSides() {
  return cutthroat() ? [...Array(seatCount()).keys()] : [0, 1];
}

const sideName = (c) => (cutthroat() ? seatName(c) : teamName(c));

/** Why the match ended: who reached the target, and a tie explained. */
function renderWhy(tb) {
  const target = tb.rules?.target ?? 10;
  const scores = tb.scores ?? [];
  const winners = tb.winners || [];
  const sides = cutthroat() ? winners : [...new Set(winners.map((s) => s % 2))];
  const names = sides.map(sideName).join(", ");
  const top = Math.max(...sides.map((c) => scores[c] ?? 0));
  $("match-end-why").textContent = t(sides.length > 1 ? "match.why_shared" : "match.why", {
    names,
    score: top,
    target,
  });
  const tie = $("match-end-tie");
  tie.hidden = true;
  if (!cutthroat()) return;
  const history = tb.hand_scores || [];
  if (sides.length > 1) {
    tie.hidden = false;
    tie.textContent = t("match.tie_share", { names, score: top });
    return;
  }
  // play on: the first hand after which the leaders were level at or over the target
  for (let i = 0; i < history.length - 1; i++) {
    const row = history[i];
    const best = Math.max(...row);
    const level = row.flatMap((p, s) => (p === best ? [s] : []));
    if (best >= target && level.length > 1) {
      tie.hidden = false;
      tie.textContent = t("match.tie_play_on", {
        n: i + 1,
        names: level.map(seatName).join(", "),
        score: best,
        more: history.length - 1 - i,
      });
      return;
    }
  }
}

const SVG = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** The per-hand score chart: a line per seat (or team), the target dashed. */
function renderChart(tb) {
  const box = $("score-chart");
  const sides = matchSides();
  const history = [sides.map(() => 0), ...(tb.hand_scores || []).map((r) => sides.map((c) => r[c]))];
  const target = tb.rules?.target ?? 10;
  const hands = history.length - 1;
  const top = Math.max(target, ...history.flat());
  const W = 480;
  const H = 220;
  const pad = { l: 34, r: 12, t: 12, b: 28 };
  const x = (i) => pad.l + (hands ? (i * (W - pad.l - pad.r)) / hands : 0);
  const y = (v) => H - pad.b - (v * (H - pad.t - pad.b)) / top;
  const svg = svgEl("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: "chart",
    role: "img",
    "aria-label": t("match.chart"),
  });
  svg.append(svgEl("line", { x1: pad.l, y1: y(0), x2: W - pad.r, y2: y(0), class: "axis" }));
  svg.append(svgEl("line", { x1: pad.l, y1: pad.t, x2: pad.l, y2: y(0), class: "axis" }));
  const goal = svgEl("line", { x1: pad.l, y1: y(target), x2: W - pad.r, y2: y(target) });
  goal.setAttribute("class", "target");
  svg.append(goal);
  const label = (text, ax, ay, cls) => {
    const node = svgEl("text", { x: ax, y: ay, class: cls });
    node.textContent = text;
    svg.append(node);
  };
  label(String(target), pad.l - 6, y(target) + 4, "tick y");
  if (y(target) - y(top) > 16) label(String(top), pad.l - 6, y(top) + 4, "tick y");
  label("0", pad.l - 6, y(0) + 4, "tick y");
  const step = Math.max(1, Math.ceil(hands / 12));
  for (let i = step; i <= hands; i += step) label(String(i), x(i), H - pad.b + 16, "tick x");
  sides.forEach((c, k) => {
    const points = history.map((r, i) => `${x(i)},${y(r[k])}`).join(" ");
    svg.append(svgEl("polyline", { points, class: `series series-${k}` }));
    const last = history[hands];
    svg.append(svgEl("circle", { cx: x(hands), cy: y(last[k]), r: 4, class: `series series-${k}` }));
  });
  box.replaceChildren(svg);
  box.dataset.hands = String(hands);
  $("score-chart-legend").replaceChildren(
    el("span", { class: "chart-title" }, t("match.chart")),
    ...sides.map((c, k) =>
      el(
        "span",
        { class: `legend series-${k}` },
        el("span", { class: "swatch" }),
        `${sideName(c)}: ${history[hands][k]}`,
      ),
    ),
  );
}

/** Partnership: the score rows in their team's colour. */
function markTeams() {
  const rows = [...$("scores").querySelectorAll("tr")];
  rows.forEach((tr, i) => {
    if (cutthroat()) delete tr.dataset.team;
    else tr.dataset.team = String(i);
  });
}

function renderMatchEnd() {
  markTeams();
  const tb = table();
  const box = $("match-end");
  const over = tb?.status === "over";
  box.hidden = !over;
  if (!over) return;
  renderWhy(tb);
  renderChart(tb);
  const button = $("rematch-button");
  const note = $("rematch-note");
  const seated = mySeat() !== null && Boolean(mine);
  button.hidden = !seated;
  button.textContent = t(tb.rematch ? "match.rematch_join" : "match.rematch");
  button.dataset.rematch = tb.rematch ? "ready" : "none";
  note.hidden = !tb.rematch;
  note.textContent = tb.rematch ? t("match.rematch_ready") : "";
}

async function rematch() {
  if (!mine) return;
  const ready = table()?.rematch;
  if (ready && savedSeat(ready)) {
    location.assign(`/t/${encodeURIComponent(ready)}`); // this browser took its seat already
    return;
  }
  const button = $("rematch-button");
  button.disabled = true;
  try {
    const made = await api.rematch(tableId, mine.token);
    saveSeat(made.table_id, made.seat, made.token);
    location.assign(made.invite || `/t/${made.table_id}`);
  } catch (err) {
    toast(errorText(err.code, err.message));
    button.disabled = false;
  }
}

// -- keyboard --------------------------------------------------------------------

function onKey(e) {
  const target = e.target;
  if (
    target instanceof HTMLInputElement ||
    target instanceof HTMLSelectElement ||
    target instanceof HTMLTextAreaElement
  )
    return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (document.querySelector("dialog[open]")) return;
  const cards = [...document.querySelectorAll("#me .hand .card")];
  if (/^[0-9]$/.test(e.key) && cards.length) {
    const i = e.key === "0" ? 9 : Number(e.key) - 1;
    const card = cards[i];
    if (card) {
      e.preventDefault();
      card.focus();
      if (card.getAttribute("aria-disabled") !== "true") card.click();
      else explainCard(card);
    }
    return;
  }
  if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && cards.length) {
    const i = cards.indexOf(document.activeElement);
    const next = i < 0 ? 0 : (i + (e.key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length;
    e.preventDefault();
    cards[next].focus();
  }
}

// -- start ------------------------------------------------------------------------

async function main() {
  await setLanguage(pickLanguage());
  mountSwitch($("lang"));
  mountRules($("rules-button"), $("rules-dialog"), $("rules-body"), variant);
  onLanguage(() => {
    apply(document);
    render();
    renderSoundButton();
  });
  mountSound();
  $("start-button").addEventListener("click", start);
  $("copy-invite").addEventListener("click", async () => {
    const input = $("invite-link");
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      toast(t("wait.copied"));
    } catch {
      document.execCommand?.("copy");
    }
  });
  mountPace();
  $("hint-button").addEventListener("click", askHint);
  $("last-trick-button").addEventListener("click", () => {
    miniTrick($("last-trick-body"), lastTrick(), lastTrickTrump());
    $("last-trick-dialog").showModal();
  });
  for (const close of $("last-trick-dialog").querySelectorAll("[data-close]")) {
    close.addEventListener("click", () => $("last-trick-dialog").close());
  }
  $("last-hand-close").addEventListener("click", () => {
    if (state?.last_hand) sessionStorage.setItem(dismissKey(), String(state.last_hand.index));
    renderLastHand();
  });
  document.addEventListener("keydown", onKey);
  // For tests and curious people: the last state this page got (its own seat's view only).
  // `state` is the state on show; `newest` the newest the server sent (see pacing).
  window.euchreTable = {
    state: () => state,
    newest: () => (incoming.length ? incoming[incoming.length - 1] : state),
  };
  if (!tableId) {
    toast(t("error.not_found"));
    return;
  }
  setConn("connecting");
  connect();
  setInterval(() => {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" }));
  }, 25000);
  setInterval(refreshPresence, 5000);
  $("rematch-button").addEventListener("click", rematch);
  document.body.dataset.ready = "1";
}

main();
