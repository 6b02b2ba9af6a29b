// The JSON API, as the pages use it: requests, errors in words, command ids and creation keys.

export class ApiError extends Error {
  constructor(status, body, retryAfter = null) {
    super((body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.code = (body && body.code) || `http/${status}`;
    this.details = (body && body.details) || {};
    const seconds = Number(retryAfter);
    this.retryAfter = retryAfter !== null && Number.isFinite(seconds) ? seconds : null;
  }
}

async function request(method, path, { token, body, headers: extra } = {}) {
  const headers = { Accept: "application/json", ...extra };
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
  if (!response.ok) throw new ApiError(response.status, data, response.headers.get("Retry-After"));
  return data;
}

/** A random key of letters, digits and '-' (a UUID where the browser has crypto.randomUUID, which only secure
 * contexts do; else 128 random bits in hex): a command id, or a game creation's Idempotency-Key. */
export function randomKey() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  if (globalThis.crypto && crypto.getRandomValues) {
    return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

export const newCommandId = randomKey;

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** An answer worth waiting for and asking again: no answer at all, the server busy or its stores away
 * (503, 502, 504) or too many requests (429, after its Retry-After). */
function transient(err) {
  return err instanceof ApiError && [0, 429, 502, 503, 504].includes(err.status);
}

/** ``call()`` again (up to ``attempts`` times in all) while its failure is transient. Only for requests that
 * are safe to repeat: reads, and a creation with its Idempotency-Key. */
async function retrying(call, attempts = 3) {
  for (let n = 1; ; n++) {
    try {
      return await call();
    } catch (err) {
      if (n >= attempts || !transient(err)) throw err;
      const wait = err.retryAfter !== null ? err.retryAfter * 1000 : 700 * n;
      await sleep(Math.min(Math.max(wait, 200), 5000));
    }
  }
}

const enc = encodeURIComponent;

export const api = {
  /** The games this server offers: [{game, title, data_version, ai_levels, options_schema}]. */
  games: () => request("GET", "/api/catalog"),
  /** A game's own tables (names, costs, tracks ...), for its bundle. */
  catalog: (game, dataset) => request("GET", `/api/catalog/${enc(game)}${dataset ? `?dataset=${enc(dataset)}` : ""}`),
  /** Creates a game; ``key`` is the Idempotency-Key of this creation attempt, so a retry (here, after a
   * transient failure, or the player's own with the same form) gets the same game instead of a second one. */
  create: (body, key) => retrying(() => request("POST", "/api/games", { body, headers: { "Idempotency-Key": key } })),
  game: (id) => request("GET", `/api/games/${enc(id)}`),
  me: (id, token) => request("GET", `/api/games/${enc(id)}/me`, { token }),
  // The log and the story are redacted for their caller: a seat sees what its token may see.
  history: (id, after = 0, token = null) => request("GET", `/api/games/${enc(id)}/history?after=${after}`, { token }),
  events: (id, after = 0, token = null) => request("GET", `/api/games/${enc(id)}/events?after=${after}`, { token }),
  submit: (id, token, command, expectedVersion) =>
    request("POST", `/api/games/${enc(id)}/commands`, {
      token,
      body: { command_id: newCommandId(), expected_version: expectedVersion, command },
    }),
  exportUrl: (id) => `/api/games/${enc(id)}/export`,
  // Opened without the token (no secret in a URL the server logs): the stream is then the public's, which is
  // all the page needs from it (a signal that the game moved on; the page then reads the seat's own view).
  streamUrl: (id, after) => `/api/games/${enc(id)}/stream?after=${after}`,
};

const HINTS = {
  "conflict/version": "The game moved on before your move arrived. The page now shows the latest state: please try again.",
  "conflict/idempotency_key_reused": "This form was already sent with other settings: please create the game again.",
  "auth/invalid_token": "This link's seat key is not valid for this game.",
  "auth/missing_token": "This page has no seat key: open your invite link.",
  "game/not_found": "There is no such game.",
  "network/unreachable": "The server cannot be reached. Check your connection and try again.",
  "rate/limited": "Too many requests from this address: wait a moment and try again.",
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
