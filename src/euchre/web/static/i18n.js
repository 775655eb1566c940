// Translations: the page's words live in /static/i18n/{lang}.json.
//
// t(key, params) looks a key up in the current catalog (English as the
// fallback) and fills {placeholders}; apply(root) fills every element that
// carries data-i18n (its text) or data-i18n-attr="attr:key;attr:key".

export const LANGS = ["en", "es", "de", "it", "sl"];
const STORE_KEY = "euchre.lang";

let current = "en";
let catalog = {};
let fallback = {};
const listeners = [];

async function load(lang) {
  const res = await fetch(`/static/i18n/${lang}.json`);
  if (!res.ok) throw new Error(`catalog ${lang}: HTTP ${res.status}`);
  return res.json();
}

/** The language to use: the remembered choice, else the browser's list. */
export function pickLanguage() {
  const saved = localStorage.getItem(STORE_KEY);
  if (saved && LANGS.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

/** Load a language (and English underneath it) and translate the page. */
export async function setLanguage(lang, remember = false) {
  if (!LANGS.includes(lang)) lang = "en";
  if (!Object.keys(fallback).length) fallback = await load("en");
  catalog = lang === "en" ? fallback : await load(lang);
  current = lang;
  if (remember) localStorage.setItem(STORE_KEY, lang);
  document.documentElement.lang = lang;
  apply(document);
  for (const fn of listeners) fn(lang);
}

export function language() {
  return current;
}

/** Call fn after every language change (to redraw dynamic parts). */
export function onLanguage(fn) {
  listeners.push(fn);
}

/** Whether the catalog has this key. */
export function has(key) {
  return key in catalog || key in fallback;
}

/** The text of key with {name} placeholders filled from params. */
export function t(key, params = {}) {
  let text = catalog[key] ?? fallback[key];
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** Translate every data-i18n / data-i18n-attr element under root. */
export function apply(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((s) => s.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
}

/** Fill a <select> with the languages (each named in its own tongue). */
export function mountSwitch(select) {
  select.replaceChildren(
    ...LANGS.map((lang) => {
      const opt = document.createElement("option");
      opt.value = lang;
      opt.dataset.i18n = `lang.${lang}`;
      opt.textContent = t(`lang.${lang}`);
      return opt;
    }),
  );
  select.value = current;
  select.addEventListener("change", () => setLanguage(select.value, true));
  onLanguage((lang) => {
    select.value = lang;
  });
}

/** A translated line whose {placeholders} may be DOM nodes (cards, suits). */
export function fmt(key, params = {}) {
  const frag = document.createDocumentFragment();
  const text = t(
    key,
    Object.fromEntries(Object.entries(params).filter(([, v]) => !(v instanceof Node))),
  );
  let last = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    const node = params[m[1]];
    if (!(node instanceof Node)) continue;
    frag.append(text.slice(last, m.index), node.cloneNode(true));
    last = m.index + m[0].length;
  }
  frag.append(text.slice(last));
  return frag;
}
