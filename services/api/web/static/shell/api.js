// The JSON API, as the pages use it: requests, errors in words, and command ids.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.code = (body && body.code) || `http/${status}`;
    this.details = (body && body.details) || {};
  }
}

async function request(method, path, { token, body } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, { code: "network/unreachable", message: "The server cannot be reached." });
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (err) {
    data = { message: text };
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export function newCommandId() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export const api = {
  catalog: (game, dataset) => request("GET", `/api/catalog/${game}?dataset=${encodeURIComponent(dataset)}`),
  create: (body) => request("POST", "/api/games", { body }),
  game: (id) => request("GET", `/api/games/${id}`),
  me: (id, token) => request("GET", `/api/games/${id}/me`, { token }),
  history: (id, after = 0) => request("GET", `/api/games/${id}/history?after=${after}`),
  submit: (id, token, command, expectedVersion) =>
    request("POST", `/api/games/${id}/commands`, {
      token,
      body: { command_id: newCommandId(), expected_version: expectedVersion, command },
    }),
  exportUrl: (id) => `/api/games/${id}/export`,
  // The log carries no secrets, so the stream is opened without the token (no secret in a URL).
  streamUrl: (id, after) => `/api/games/${id}/stream?after=${after}`,
};

const HINTS = {
  "conflict/version": "The game moved on before your move arrived. The page now shows the latest state: please try again.",
  "auth/invalid_token": "This link's seat key is not valid for this game.",
  "auth/missing_token": "This page has no seat key: open your invite link.",
  "game/not_found": "There is no such game.",
  "network/unreachable": "The server cannot be reached. Check your connection and try again.",
  "infra/unavailable": "The server is busy or its database is unreachable. Try again in a moment.",
};

/** An API error as a sentence for the player (the rule's own message for rule violations). */
export function inWords(err) {
  if (!(err instanceof ApiError)) return `Something went wrong: ${err && err.message ? err.message : err}`;
  const hint = HINTS[err.code];
  if (err.code.startsWith("rule/") || err.code.startsWith("request/")) {
    const message = err.message.charAt(0).toUpperCase() + err.message.slice(1);
    return message.endsWith(".") ? message : `${message}.`;
  }
  return hint || err.message;
}
