// The hand review page (/review): steps through a finished hand card by card
// with the exact solver's value of each card the player could have played.
// The hand comes from a table (?table=ID&hand=N: its record, from the server)
// or from a record file the player opens; either way the server replays and
// solves it (POST /api/review, docs/protocol.md): the page only shows what
// the answer says, and reads a file only to send it.

import { ApiError, api, savedSeat } from "./api.js";
import { cardImage, cardInline, sortForDisplay, suitIcon } from "./cards.js";
import {
  apply,
  fmt,
  has,
  mountSwitch,
  onLanguage,
  pickLanguage,
  setLanguage,
  t,
} from "./i18n.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

let review = null; // the POST /api/review answer
let seats = null; // the table summary's seats, when the hand is a table's
let mine = null; // this browser's seat at that table, if any
let title = null; // [key, params] of the hand's title
let index = 0; // the card shown: an index into review.plays

// -- small helpers (as on the table page) -----------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}


function cardsInline(codes) {
  const span = el("span");
  codes.forEach((c, i) => {
    if (i) span.append(" ");
    span.append(cardInline(c));
  });
  return span;
}

function suitInline(letter) {
  return el("span", { class: "suit-inline" }, suitIcon(letter), " ", t(`suit.${letter}`));
}

/** A seat named as the table page names it: the person's name or the bot's. */
function seatName(s) {
  const seat = seats?.[s];
  if (!seat) return t("seat.number", { n: s + 1 });
  if (seat.kind === "bot") return t("seat.bot_name", { n: s + 1, level: t(`level.${seat.level}`) });
  return seat.name || t("seat.number", { n: s + 1 });
}

const cutthroat = () => review?.variant === "cutthroat";
function sideWord(prefix, side) {
  return t(`${prefix}.${side === "maker" ? (cutthroat() ? "maker" : "makers") : "defenders"}`);
}

function count(key, n) {
  return has(`${key}.${n}`) ? t(`${key}.${n}`) : String(n);
}

// -- loading ------------------------------------------------------------------------

function showError(text) {
  $("rv-error").textContent = text;
  $("rv-error").hidden = !text;
  $("rv-status").textContent = "";
}

function errorText(err) {
  if (err instanceof ApiError && err.status) return t("rv.error", { message: err.message });
  const key = `error.${err?.code}`;
  return has(key) ? t(key) : String(err?.message ?? err);
}

async function load(getRecord) {
  showError("");
  $("rv-status").textContent = t("rv.loading");
  try {
    const record = await getRecord();
    review = await api.review(record);
  } catch (err) {
    review = null;
    render();
    showError(errorText(err));
    return;
  }
  index = 0;
  $("rv-status").textContent = "";
  render();
}

async function loadTableHand(tableId, n) {
  title = ["rv.hand_title", { n: n + 1, table: tableId }];
  const back = $("rv-back");
  back.href = `/t/${encodeURIComponent(tableId)}`;
  back.hidden = false;
  mine = savedSeat(tableId)?.seat ?? null;
  try {
    const summary = await api.table(tableId);
    seats = summary.seats;
    title = ["rv.hand_title", { n: n + 1, table: summary.name || tableId }];
  } catch {
    seats = null;
  }
  await load(() => api.handRecord(tableId, n));
}

function loadFile(file) {
  seats = null;
  mine = null;
  title = ["rv.file_title", { file: file.name }];
  load(async () => {
    try {
      return JSON.parse(await file.text());
    } catch {
      throw new ApiError(0, "bad_json", t("error.bad_json"));
    }
  });
}

// -- drawing --------------------------------------------------------------------------

function render() {
  $("rv-hand").hidden = !review;
  $("rv-step").hidden = !review || !review.plays.length;
  if (!review) return;
  renderHand();
  if (review.plays.length) renderStep();
}

function pointsText(points) {
  if (!points || points.every((p) => !p)) return t("hand.no_points");
  const parts = [];
  const cols = cutthroat() ? [...points.keys()] : [0, 1];
  for (const s of cols) {
    if (!points[s]) continue;
    const name = cutthroat()
      ? seatName(s)
      : t("team.name", { a: seatName(s % 2), b: seatName((s % 2) + 2) });
    parts.push(t("hand.points_one", { name, points: points[s] }));
  }
  return parts.join(" · ");
}

function renderHand() {
  $("rv-title").textContent = title ? t(title[0], title[1]) : t("rv.heading");
  const result = review.result;
  const line = $("rv-result");
  line.replaceChildren();
  if (result?.thrown_in) line.append(t("hand.thrown_in"), " ");
  else if (result?.trump && Number.isInteger(result.maker)) {
    const took = review.review?.took ?? 0;
    line.append(
      fmt("hand.result", { name: seatName(result.maker), suit: suitInline(result.trump), n: took }),
      " ",
    );
  }
  line.append(el("strong", {}, pointsText(result?.points)));
  const summary = $("rv-summary");
  summary.replaceChildren();
  const f = review.review;
  if (f) {
    const who = cutthroat()
      ? t("review.maker", { name: seatName(f.maker_side[0]) })
      : t("review.makers", { names: f.maker_side.map(seatName).join(", ") });
    summary.append(
      el("strong", {}, t("hand.review")),
      " ",
      fmt("review.best", { who, could: f.could_take, took: f.took }),
      " ",
    );
    const m = f.mistake;
    if (!m) summary.append(t("review.clean"));
    else {
      summary.append(
        fmt(m.points ? "review.mistake_points" : "review.mistake_same", {
          trick: m.trick,
          name: seatName(m.seat),
          played: cardInline(m.played),
          best: cardInline(m.best),
          tricks: count("review.tricks", m.cost),
          side: sideWord("review.side", m.side),
          points: count("review.points", m.points),
        }),
      );
    }
  }
  summary.hidden = !f;
  $("rv-bidding").replaceChildren(...review.calls.map((c) => el("li", {}, callText(c))));
}

/** A call of the bidding in words (the table page's log lines). */
function callText(c) {
  const name = seatName(c.seat);
  const [word, ...rest] = c.action.split(" ");
  if (word === "pass") return t("log.pass", { name });
  if (word === "order") {
    const d = review.dealer;
    const how = c.seat === d ? "accept" : !cutthroat() && (c.seat - d + 4) % 4 === 2 ? "assist" : "order";
    return t(`log.${how}`, { name });
  }
  if (word === "call") return fmt("log.call", { name, suit: suitInline(rest[0]) });
  if (word === "pickup") return fmt("log.pickup_card", { name, card: cardInline(rest[0]) });
  if (word === "decline") return t("log.decline", { name });
  if (word === "alone") return t("log.alone", { name });
  if (word === "keep") return fmt("log.keep_cards", { name, cards: cardsInline(rest) });
  return t("log.other", { name, action: c.action });
}

function badge(cls, key) {
  return el("span", { class: `badge ${cls}` }, t(key));
}

function renderStep() {
  const plays = review.plays;
  index = Math.max(0, Math.min(index, plays.length - 1));
  const step = plays[index];
  const trump = review.result?.trump ?? null;
  $("rv-count").textContent = t("rv.step", { n: index + 1, total: plays.length });
  $("rv-first").disabled = $("rv-prev").disabled = index === 0;
  $("rv-next").disabled = $("rv-last").disabled = index === plays.length - 1;
  $("rv-step").dataset.step = String(index);
  $("rv-headline").textContent = t("rv.to_play", { trick: step.trick, name: seatName(step.seat) });

  // every seat's cards before this card (the hand is over: all are public)
  const value = new Map(step.values.map((v) => [v.card, v]));
  const boxes = step.hands.map((cards, s) => {
    const head = el("div", { class: "seat-head" }, el("span", { class: "seat-name" }, seatName(s)));
    const badges = el("span", { class: "badges" });
    if (s === mine) badges.append(badge("you", "badge.you"));
    if (s === review.dealer) badges.append(badge("dealer", "badge.dealer"));
    if (s === review.result?.maker) badges.append(badge("maker", "badge.maker"));
    const out = review.sitting_out?.includes(s);
    if (out) badges.append(badge("out", "badge.out"));
    head.append(badges);
    const hand = el("div", { class: out ? "rv-cards rv-out" : "rv-cards" });
    for (const code of sortForDisplay(cards, trump)) {
      const card = cardImage(code);
      const v = s === step.seat ? value.get(code) : null;
      if (v) card.classList.add(v.loss ? "rv-worse" : "rv-best");
      else if (s === step.seat) card.classList.add("dim");
      if (s === step.seat && code === step.played) card.classList.add("rv-played");
      hand.append(card);
    }
    const meta = el("div", { class: "seat-meta" }, t("seat.tricks", { n: step.tricks_won[s] }));
    const cls = s === step.seat ? "seat rv-seat to-act" : "seat rv-seat";
    return el("div", { class: cls, dataset: { seat: String(s) } }, head, hand, meta);
  });
  $("rv-seats").replaceChildren(...boxes);

  // the trick so far, and this card
  const trick = [...step.table, [step.seat, step.played]].map(([s, code]) => {
    const box = el("div", { class: "mini" }, cardImage(code), el("span", {}, seatName(s)));
    if (s === step.seat) box.classList.add("rv-now");
    if (step.won_by === s) box.classList.add("winner");
    return box;
  });
  $("rv-trick").replaceChildren(...trick);
  const outcome = $("rv-outcome");
  outcome.replaceChildren(fmt("rv.played", { name: seatName(step.seat), card: cardInline(step.played) }));
  if (Number.isInteger(step.won_by)) outcome.append(" ", t("rv.won_by", { name: seatName(step.won_by) }));

  // the solver's value of each legal card, best first, in words
  $("rv-values-title").textContent = t("rv.values", { side: sideWord("rv.side", step.side) });
  const items = step.values.map((v) => {
    const li = el(
      "li",
      { class: v.loss ? "rv-worse" : "rv-best", dataset: { card: v.card } },
      cardInline(v.card),
      " ",
      el("span", { class: "rv-tricks" }, t("rv.value_tricks", { n: v.tricks })),
      " ",
    );
    const word = step.values.length === 1 ? t("rv.only") : v.loss ? count("rv.loss", v.loss) : t("rv.best");
    li.append(el("span", { class: "rv-word" }, word));
    if (v.card === step.played) {
      li.classList.add("rv-played");
      li.append(" ", el("span", { class: "badge rv-played-tag" }, t("rv.played_tag")));
    }
    return li;
  });
  $("rv-values").replaceChildren(...items);
}

function go(to) {
  if (!review?.plays.length) return;
  index = Math.max(0, Math.min(to, review.plays.length - 1));
  renderStep();
}

function onKey(e) {
  if (!review?.plays.length || e.altKey || e.ctrlKey || e.metaKey) return;
  const tag = e.target?.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const moves = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: review.plays.length - 1 };
  if (!(e.key in moves)) return;
  e.preventDefault();
  go(moves[e.key]);
}

async function main() {
  await setLanguage(pickLanguage());
  mountSwitch($("lang"));
  apply(document);
  onLanguage(() => render());
  $("rv-first").addEventListener("click", () => go(0));
  $("rv-prev").addEventListener("click", () => go(index - 1));
  $("rv-next").addEventListener("click", () => go(index + 1));
  $("rv-last").addEventListener("click", () => go(Infinity));
  document.addEventListener("keydown", onKey);
  $("rv-file").addEventListener("change", (e) => {
    const file = e.target.files?.[0];
    e.target.value = ""; // the same file may be opened again
    if (file) loadFile(file);
  });
  const tableId = params.get("table");
  const hand = Number(params.get("hand"));
  if (tableId && Number.isInteger(hand) && hand >= 0) await loadTableHand(tableId, hand);
  else $("rv-status").textContent = t("rv.empty");
}

main();
