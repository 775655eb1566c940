// HTTP calls to the server (docs/protocol.md) and the seat tokens kept in
// localStorage, one per table, so a reload keeps the seat.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, "network", String(e));
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(res.status, err.code || "http", err.message || `HTTP ${res.status}`);
  }
  return data;
}

export const api = {
  options: () => call("GET", "/api/options"),
  tables: () => call("GET", "/api/tables"),
  table: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`),
  create: (body) => call("POST", "/api/tables", body),
  join: (id, seat, name) =>
    call("POST", `/api/tables/${encodeURIComponent(id)}/join`, { seat, name }),
  start: (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/start`, { token }),
  rematch: (id, token) =>
    call("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, { token }),
  handRecord: (id, n) => call("GET", `/api/tables/${encodeURIComponent(id)}/hands/${n}`),
  review: (record) => call("POST", "/api/review", record),
};

const tokenKey = (id) => `euchre.seat.${id}`;

/** The saved {seat, token} for a table, or null. */
export function savedSeat(id) {
  try {
    const v = JSON.parse(localStorage.getItem(tokenKey(id)) || "null");
    return v && typeof v.token === "string" && Number.isInteger(v.seat) ? v : null;
  } catch {
    return null;
  }
}

export function saveSeat(id, seat, token) {
  localStorage.setItem(tokenKey(id), JSON.stringify({ seat, token }));
}

export function forgetSeat(id) {
  localStorage.removeItem(tokenKey(id));
}

export function savedName() {
  return localStorage.getItem("euchre.name") || "";
}

export function saveName(name) {
  localStorage.setItem("euchre.name", name);
}
