// The lobby: create a table (variant, every rule option with its default, a
// bot level per seat), list the open tables, join or watch one.

import { api, saveName, saveSeat, savedName } from "./api.js";
import { apply, has, mountSwitch, onLanguage, pickLanguage, setLanguage, t } from "./i18n.js";
import { mountRules } from "./rules.js";

const $ = (id) => document.getElementById(id);
let options = null;

/** The label of a choice value of a rule option (a number stays a number). */
export function choiceLabel(name, value) {
  const key = `choice.${name}.${value}`;
  return has(key) ? t(key) : String(value);
}

function seatCount() {
  return $("variant").value === "partnership" ? 4 : 3;
}

function renderSeats() {
  const box = $("seat-levels");
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  for (let seat = 0; seat < seatCount(); seat++) {
    const row = document.createElement("div");
    row.className = "field seat-level";
    const label = document.createElement("label");
    label.htmlFor = `seat-${seat}`;
    label.textContent = seat === 0 ? t("lobby.seat_you") : t("seat.number", { n: seat + 1 });
    const select = document.createElement("select");
    select.id = `seat-${seat}`;
    select.name = `seat-${seat}`;
    select.dataset.seat = String(seat);
    if (seat === 0) {
      const opt = document.createElement("option");
      opt.value = "";
      opt.dataset.i18n = "lobby.seat_human";
      opt.textContent = t("lobby.seat_human");
      select.append(opt);
      select.disabled = true;
    } else {
      const open = document.createElement("option");
      open.value = "";
      open.dataset.i18n = "lobby.seat_open";
      open.textContent = t("lobby.seat_open");
      select.append(open);
      for (const level of options.bot_levels) {
        const opt = document.createElement("option");
        opt.value = level;
        opt.dataset.i18n = `level.bot.${level}`;
        opt.textContent = t(`level.bot.${level}`);
        select.append(opt);
      }
      select.value = before[seat] ?? options.default_bot_level;
    }
    row.append(label, select);
    box.append(row);
  }
}

function ruleInput(opt) {
  const id = `opt-${opt.name}`;
  const row = document.createElement("div");
  row.className = "field rule-option";
  row.dataset.option = opt.name;
  const label = document.createElement("label");
  label.htmlFor = id;
  label.dataset.i18n = `opt.${opt.name}`;
  label.textContent = t(`opt.${opt.name}`);
  let input;
  if (Array.isArray(opt.choices)) {
    input = document.createElement("select");
    opt.choices.forEach((value, i) => {
      const o = document.createElement("option");
      o.value = String(i);
      o.textContent = choiceLabel(opt.name, value);
      if (has(`choice.${opt.name}.${value}`)) o.dataset.i18n = `choice.${opt.name}.${value}`;
      if (value === opt.default) o.selected = true;
      input.append(o);
    });
    input.dataset.kind = "choice";
  } else if (opt.type === "bool" || opt.type === "boolean" || typeof opt.default === "boolean") {
    input = document.createElement("input");
    input.type = "checkbox";
    input.checked = Boolean(opt.default);
    input.dataset.kind = "bool";
    row.classList.add("checkbox");
  } else if (opt.type === "int" || opt.type === "integer" || typeof opt.default === "number") {
    input = document.createElement("input");
    input.type = "number";
    input.min = "1";
    input.step = "1";
    input.value = String(opt.default);
    input.dataset.kind = "int";
  } else {
    input = document.createElement("input");
    input.value = String(opt.default ?? "");
    input.dataset.kind = "text";
  }
  input.id = id;
  input.name = opt.name;
  const help = document.createElement("small");
  help.className = "muted";
  if (has(`opt.${opt.name}.help`)) {
    help.dataset.i18n = `opt.${opt.name}.help`;
    help.textContent = t(`opt.${opt.name}.help`);
    input.setAttribute("aria-describedby", `${id}-help`);
    help.id = `${id}-help`;
  }
  if (input.type === "checkbox") row.append(input, label, help);
  else row.append(label, input, help);
  return row;
}

function renderOptions() {
  const variant = $("variant");
  variant.replaceChildren(
    ...options.variants.map((v) => {
      const o = document.createElement("option");
      o.value = v;
      o.dataset.i18n = `variant.${v}`;
      o.textContent = t(`variant.${v}`);
      return o;
    }),
  );
  variant.value = options.variants.includes("cutthroat") ? "cutthroat" : options.variants[0];
  variant.addEventListener("change", () => {
    renderSeats();
    showApplicable();
  });
  $("rule-options").replaceChildren(
    ...options.options.filter((o) => o.name !== "variant").map(ruleInput),
  );
  renderSeats();
  showApplicable();
}

/** Whether a rule option applies to the chosen game (the API lists its variants). */
function applies(opt) {
  return !Array.isArray(opt.variants) || opt.variants.includes($("variant").value);
}

function showApplicable() {
  for (const opt of options.options) {
    const row = document.querySelector(`.rule-option[data-option="${opt.name}"]`);
    if (row) row.hidden = !applies(opt);
  }
}

function readRules() {
  const rules = { variant: $("variant").value };
  for (const opt of options.options) {
    if (opt.name === "variant" || !applies(opt)) continue;
    const input = $(`opt-${opt.name}`);
    if (!input) continue;
    if (input.dataset.kind === "choice") rules[opt.name] = opt.choices[Number(input.value)];
    else if (input.dataset.kind === "bool") rules[opt.name] = input.checked;
    else if (input.dataset.kind === "int") rules[opt.name] = Number.parseInt(input.value, 10);
    else rules[opt.name] = input.value;
  }
  return rules;
}

function showError(el, err) {
  el.hidden = false;
  const key = `error.${err.code}`;
  el.textContent = has(key) ? `${t(key)} — ${err.message}` : err.message;
}

async function create(event) {
  event.preventDefault();
  const error = $("create-error");
  error.hidden = true;
  const name = $("player-name").value.trim();
  if (!name) {
    showError(error, { code: "name_required", message: t("lobby.name_required") });
    return;
  }
  saveName(name);
  const bots = [];
  for (let seat = 0; seat < seatCount(); seat++) {
    const v = seat === 0 ? "" : $(`seat-${seat}`).value;
    bots.push(v || null);
  }
  // a seat given a bot level is a bot from the start; "" is open for a friend
  const botSeats = bots.flatMap((level, seat) => (seat > 0 && level ? [seat] : []));
  const body = { rules: readRules(), bots, bot_seats: botSeats, player: { seat: 0, name } };
  body.name = $("table-name").value.trim() || t("lobby.default_name", { name });
  const button = $("create-button");
  button.disabled = true;
  try {
    const made = await api.create(body);
    saveSeat(made.table_id, made.seat, made.token);
    location.assign(made.invite || `/t/${made.table_id}`);
  } catch (err) {
    showError(error, err);
    button.disabled = false;
  }
}

// -- "Play now": you and two bots, Cutthroat with the rule book's defaults ------------

async function playNow() {
  const error = $("create-error");
  error.hidden = true;
  const name = $("player-name").value.trim() || t("lobby.play_now.name");
  saveName(name);
  const level = options.default_bot_level;
  const body = {
    rules: { variant: "cutthroat" },
    bots: [null, level, level],
    bot_seats: [1, 2],
    player: { seat: 0, name },
    name: t("lobby.default_name", { name }),
  };
  const button = $("play-now");
  button.disabled = true;
  try {
    const made = await api.create(body);
    saveSeat(made.table_id, made.seat, made.token);
    await api.start(made.table_id, made.token);
    location.assign(made.invite || `/t/${made.table_id}`);
  } catch (err) {
    showError(error, err);
    button.disabled = false;
  }
}

function tableRow(table) {
  const li = document.createElement("li");
  li.className = "table-row";
  li.dataset.tableId = table.table_id;
  const title = document.createElement("div");
  title.className = "table-title";
  const name = document.createElement("strong");
  name.textContent = table.name || table.table_id;
  const variant = table.rules?.variant ?? (table.seats.length === 4 ? "partnership" : "cutthroat");
  const meta = document.createElement("span");
  meta.className = "muted";
  meta.textContent = [t(`variant.${variant}`), t(`status.${table.status}`)].join(" · ");
  title.append(name, " ", meta);
  const seats = document.createElement("div");
  seats.className = "table-seats";
  seats.textContent = table.seats
    .map((s) =>
      s.kind === "empty"
        ? t(s.reserved ? "seat.kept" : "seat.open")
        : s.kind === "bot"
          ? t(`level.bot.${s.level}`)
          : s.name,
    )
    .join(" · ");
  const actions = document.createElement("div");
  actions.className = "table-actions";
  const open =
    table.status === "waiting" && table.seats.some((s) => s.kind === "empty" && !s.reserved);
  if (open) {
    const join = document.createElement("a");
    join.className = "button primary";
    join.href = `/t/${table.table_id}`;
    join.textContent = t("lobby.join");
    actions.append(join);
  }
  const watch = document.createElement("a");
  watch.className = "button secondary";
  watch.href = `/t/${table.table_id}?watch=1`;
  watch.textContent = t("lobby.watch");
  actions.append(watch);
  li.append(title, seats, actions);
  return li;
}

let lastTables = [];

function renderTables() {
  $("table-list").replaceChildren(...lastTables.map(tableRow));
  $("no-tables").hidden = lastTables.length > 0;
}

async function refreshTables() {
  try {
    const data = await api.tables();
    lastTables = data.tables || [];
    renderTables();
  } catch {
    // The list refreshes again shortly.
  }
}

async function main() {
  await setLanguage(pickLanguage());
  mountSwitch($("lang"));
  mountRules(
    $("rules-button"),
    $("rules-dialog"),
    $("rules-body"),
    () => $("variant").value || "cutthroat",
  );
  $("player-name").value = savedName();
  options = await api.options();
  renderOptions();
  $("create-form").addEventListener("submit", create);
  $("play-now").addEventListener("click", playNow);
  onLanguage(() => {
    apply(document);
    renderSeats();
    renderTables();
  });
  await refreshTables();
  setInterval(refreshTables, 4000);
  document.body.dataset.ready = "1";
}

main();
