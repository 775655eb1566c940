// Cards drawn as SVG: rank and suit symbol (red hearts and diamonds, black
// spades and clubs), a joker and a card back. Cards travel as notation:
// "JH", "TD", "9C", "JK" (RULES.md §5).

import { t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
export const SUITS = ["C", "D", "H", "S"];
const RANKS = "789TJQKA";

// Suit shapes in a 100 x 100 box (drawn, so no font is needed for them).
const SHAPES = {
  H: [
    [
      "path",
      {
        d: "M50 92C22 68 2 50 2 29C2 13 14 3 28 3C38 3 46 9 50 18C54 9 62 3 72 3C86 3 98 13 98 29C98 50 78 68 50 92Z",
      },
    ],
  ],
  D: [["path", { d: "M50 2L88 50L50 98L12 50Z" }]],
  S: [
    [
      "path",
      {
        d: "M50 3C62 20 98 38 98 60C98 76 86 86 72 86C63 86 56 81 53 74C54 85 58 92 67 98H33C42 92 46 85 47 74C44 81 37 86 28 86C14 86 2 76 2 60C2 38 38 20 50 3Z",
      },
    ],
  ],
  C: [
    ["circle", { cx: 50, cy: 27, r: 23 }],
    ["circle", { cx: 25, cy: 61, r: 23 }],
    ["circle", { cx: 75, cy: 61, r: 23 }],
    ["circle", { cx: 50, cy: 55, r: 14 }],
    ["path", { d: "M46 58C46 78 41 90 32 98H68C59 90 54 78 54 58Z" }],
  ],
};

export function isRed(suit) {
  return suit === "H" || suit === "D";
}

function el(name, attrs = {}, children = []) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

function suitShape(suit, x, y, size, rotate = false) {
  const s = size / 100;
  const tr = rotate
    ? `translate(${x + size} ${y + size}) rotate(180) scale(${s})`
    : `translate(${x} ${y}) scale(${s})`;
  const g = el("g", { transform: tr });
  for (const [name, attrs] of SHAPES[suit]) g.append(el(name, attrs));
  return g;
}

/** The short rank shown on a card face ("10", "J", "B" in German...). */
export function rankText(code) {
  return t(`rank.short.${code[0]}`);
}

/** A card's name in words, for screen readers ("jack of hearts"). */
export function cardName(code) {
  if (code === "JK") return t("card.joker");
  return t("card.name", { rank: t(`rank.${code[0]}`), suit: t(`suit.${code[1]}.one`) });
}

/** A small inline SVG suit symbol (for text lines). */
export function suitIcon(suit) {
  const svg = el("svg", {
    viewBox: "0 0 100 100",
    class: `suit-icon ${isRed(suit) ? "red" : "black"}`,
    role: "img",
    "aria-label": t(`suit.${suit}`),
  });
  svg.append(suitShape(suit, 0, 0, 100));
  return svg;
}

/** The SVG face of a card (60 x 84 units). */
export function cardSvg(code) {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg", "aria-hidden": "true" });
  svg.append(
    el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, class: "card-face" }),
  );
  if (code === "JK") {
    svg.classList.add("joker");
    const label = t("card.joker.short");
    svg.append(
      el("polygon", {
        points:
          "30.0,29.0 33.5,39.1 44.3,39.4 35.7,45.9 38.8,56.1 30.0,50.0 21.2,56.1 24.3,45.9 15.7,39.4 26.5,39.1",
        class: "joker-star",
      }),
    );
    svg.append(el("text", { x: 5, y: 14, class: "rank-text small" }, [label]));
    svg.append(
      el("text", { x: 55, y: 80, "text-anchor": "end", class: "rank-text small" }, [label]),
    );
    return svg;
  }
  const suit = code[1];
  svg.classList.add(isRed(suit) ? "red" : "black");
  const rank = rankText(code);
  svg.append(el("text", { x: 4, y: 17, class: "rank-text" }, [rank]));
  svg.append(suitShape(suit, 5, 21, 11));
  const bottom = el("g", { transform: "rotate(180 30 42)" });
  bottom.append(el("text", { x: 4, y: 17, class: "rank-text" }, [rank]));
  bottom.append(suitShape(suit, 5, 21, 11));
  svg.append(bottom);
  svg.append(suitShape(suit, 18, 30, 24));
  return svg;
}

/** The SVG back of a card. */
export function backSvg() {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg back", "aria-hidden": "true" });
  const id = `hatch${Math.random().toString(36).slice(2, 8)}`;
  const pattern = el(
    "pattern",
    { id, width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
    [
      el("rect", { width: 6, height: 6, class: "back-bg" }),
      el("line", { x1: 0, y1: 0, x2: 0, y2: 6, class: "back-line" }),
    ],
  );
  svg.append(el("defs", {}, [pattern]));
  svg.append(
    el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, class: "back-edge" }),
  );
  svg.append(el("rect", { x: 4, y: 4, width: 52, height: 76, rx: 3, fill: `url(#${id})` }));
  return svg;
}

// -- sorting a hand for display: trump first (strongest first), then the
// other suits alternating colours, each strongest first (as
// euchre.cards.display_key does for the terminal game).

function suitIndex(letter) {
  return SUITS.indexOf(letter);
}

function effectiveSuit(code, trump) {
  if (code === "JK") return trump === null ? 4 : trump;
  const s = suitIndex(code[1]);
  if (trump !== null && code[0] === "J" && s === (trump ^ 3)) return trump;
  return s;
}

function trumpOrder(code, trump) {
  if (code === "JK") return 20;
  const s = suitIndex(code[1]);
  const r = RANKS.indexOf(code[0]);
  if (code[0] === "J") return s === trump ? 19 : 18;
  return 10 + (r < 4 ? r : r - 1);
}

function displayKey(code, trump) {
  const t4 = trump === null ? 4 : trump;
  const s = effectiveSuit(code, trump);
  if (t4 < 4 && s === t4) return [0, -trumpOrder(code, t4)];
  if (s === 4) return [0, -99];
  const order = t4 === 4 ? [0, 1, 3, 2] : [t4 ^ 1, t4 ^ 3, t4 ^ 2];
  const pos = order.includes(s) ? order.indexOf(s) + 1 : 5;
  return [pos, -RANKS.indexOf(code[0])];
}

/** Cards sorted as a player holds them; trumpLetter may be null. */
export function sortForDisplay(cards, trumpLetter) {
  const trump = trumpLetter ? suitIndex(trumpLetter) : null;
  return [...cards].sort((a, b) => {
    const ka = displayKey(a, trump);
    const kb = displayKey(b, trump);
    return ka[0] - kb[0] || ka[1] - kb[1];
  });
}

/** A focusable card: a <button> with the SVG face (or back when code is null). */
export function cardButton(code, { label } = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "card";
  if (code) {
    b.dataset.card = code;
    b.append(cardSvg(code));
    b.setAttribute("aria-label", label ?? cardName(code));
  } else {
    b.append(backSvg());
  }
  return b;
}

/** A card picture that is not a control. */
export function cardImage(code) {
  const d = document.createElement("span");
  d.className = "card static";
  if (code) {
    d.dataset.card = code;
    d.append(cardSvg(code));
    d.setAttribute("role", "img");
    d.setAttribute("aria-label", cardName(code));
  } else {
    d.classList.add("facedown");
    d.append(backSvg());
  }
  return d;
}

/** A card written inline: rank and suit symbol, with its name for readers. */
export function cardInline(code) {
  const span = document.createElement("span");
  span.className = "card-inline";
  span.setAttribute("aria-label", cardName(code));
  if (code === "JK") {
    span.textContent = t("card.joker.short");
    span.classList.add("joker");
    return span;
  }
  const r = document.createElement("span");
  r.setAttribute("aria-hidden", "true");
  r.textContent = rankText(code);
  span.append(r, suitIcon(code[1]));
  span.classList.add(code[1] === "H" || code[1] === "D" ? "red" : "black");
  return span;
}
