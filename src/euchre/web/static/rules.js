// The rules summary, one click away on both pages: a <dialog> with the short
// rules of Cutthroat and of partnership Euchre, all text from the catalog.

import { onLanguage, t } from "./i18n.js";

export const RULE_SECTIONS = {
  cutthroat: ["deal", "bid", "dummy", "alone", "play", "score"],
  partnership: ["deal", "bid", "alone", "play", "score"],
};
const PREFIX = { cutthroat: "rules.ct", partnership: "rules.pt" };

function paragraphs(text) {
  return text.split("\n").map((line) => {
    const p = document.createElement(line.startsWith("• ") ? "li" : "p");
    p.textContent = line.startsWith("• ") ? line.slice(2) : line;
    return p;
  });
}

function section(heading, text) {
  const s = document.createElement("section");
  const h = document.createElement("h3");
  h.textContent = heading;
  s.append(h);
  let list = null;
  for (const node of paragraphs(text)) {
    if (node.tagName === "LI") {
      if (!list) {
        list = document.createElement("ul");
        s.append(list);
      }
      list.append(node);
    } else {
      list = null;
      s.append(node);
    }
  }
  return s;
}

function render(body, variant) {
  const tabs = document.createElement("div");
  tabs.className = "tabs";
  tabs.setAttribute("role", "tablist");
  const content = document.createElement("div");
  content.className = "rules-content";
  for (const v of ["cutthroat", "partnership"]) {
    const b = document.createElement("button");
    b.type = "button";
    b.setAttribute("role", "tab");
    b.dataset.variant = v;
    b.textContent = t(`variant.${v}`);
    b.setAttribute("aria-selected", String(v === variant));
    b.addEventListener("click", () => render(body, v));
    tabs.append(b);
  }
  content.append(...paragraphs(t(`${PREFIX[variant]}.intro`)));
  for (const name of RULE_SECTIONS[variant]) {
    content.append(section(t(`${PREFIX[variant]}.${name}.h`), t(`${PREFIX[variant]}.${name}.p`)));
  }
  content.append(section(t("rules.cards.h"), t("rules.cards.p")));
  body.replaceChildren(tabs, content);
  body.dataset.variant = variant;
}

/** Wire a button to open the rules dialog; variant() says which game first. */
export function mountRules(button, dialog, body, variant = () => "cutthroat") {
  button.addEventListener("click", () => {
    render(body, variant());
    dialog.showModal();
  });
  for (const close of dialog.querySelectorAll("[data-close]")) {
    close.addEventListener("click", () => dialog.close());
  }
  dialog.addEventListener("click", (e) => {
    if (e.target === dialog) dialog.close();
  });
  onLanguage(() => {
    if (dialog.open) render(body, body.dataset.variant || variant());
  });
}
