// The JSON API, as the pages use it: requests, errors in words, command ids and creation keys.

import { t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, body, retryAfter = null) {
    super((body && body.message) || t("The server answered {status}.", { status: String(status) }));
    this.status = status;
    this.code = (body && body.code) || `http/${status}`;
    this.details = (body && body.details) || {};
    const seconds = Number(retryAfter);
    this.retryAfter = retryAfter !== null && Number.isFinite(seconds) ? seconds : null;
  }
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** A cookie's value (the CSRF token is in a cookie the page may read: ``csrftoken``). */
export function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

/** The CSRF token of this browser's session: a pre-session's before signing in (the server sets it as the
 * ``csrftoken`` cookie too). Each session has its own, so a page asks again after signing in or out. */
export async function csrfToken() {
  const answer = await request("GET", "/api/auth/csrf");
  return answer.csrf_token;
}

/** The one way the pages call the API: JSON in and out, a seat's token as ``Authorization: Bearer`` when given,
 * and, on every write, the CSRF header that a signed-in page's cookie requires (``X-CSRFToken`` = the
 * ``csrftoken`` cookie, its session's token). A write refused for its CSRF token (a session older than its token,
 * a cookie lost) fetches the session's token and is sent once more. Errors are thrown as ApiError. */
async function request(method, path, options = {}) {
  try {
    return await send(method, path, options);
  } catch (err) {
    if (SAFE.has(method) || options.csrfRetried || !(err instanceof ApiError) || err.code !== "auth/csrf") throw err;
    await csrfToken();
    return send(method, path, { ...options, csrfRetried: true });
  }
}

async function send(method, path, { token, body, headers: extra } = {}) {
  const headers = { Accept: "application/json", ...extra };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (!SAFE.has(method) && !headers["X-CSRFToken"]) {
    const csrf = cookie("csrftoken");
    if (csrf) headers["X-CSRFToken"] = csrf;
  }
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, { code: "network/unreachable", message: t("The server cannot be reached.") });
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
  advice: (id, token) => request("GET", `/api/games/${enc(id)}/advice`, { token }),
  plans: (id, token) => request("GET", `/api/games/${enc(id)}/plans`, { token }),
  setPlan: (id, plan, token) => request("PUT", `/api/games/${enc(id)}/plans`, { token, body: { plan } }),
  clearPlans: (id, kind, token) =>
    request("DELETE", `/api/games/${enc(id)}/plans${kind ? `?kind=${enc(kind)}` : ""}`, { token }),
  // The log and the story are redacted for their caller: a seat sees what its token may see.
  history: (id, after = 0, token = null) => request("GET", `/api/games/${enc(id)}/history?after=${after}`, { token }),
  events: (id, after = 0, token = null) => request("GET", `/api/games/${enc(id)}/events?after=${after}`, { token }),
  /** The state at a version as the caller may see it (``viewer`` "auditor": everything, once the game is over). */
  stateAt: (id, at, token = null, viewer = null) =>
    request("GET", `/api/games/${enc(id)}/state?at=${at}${viewer ? `&viewer=${enc(viewer)}` : ""}`, { token }),
  submit: (id, token, command, expectedVersion) =>
    request("POST", `/api/games/${enc(id)}/commands`, {
      token,
      body: { command_id: newCommandId(), expected_version: expectedVersion, command },
    }),
  exportUrl: (id) => `/api/games/${enc(id)}/export`,
  // -- ratings (docs/PLAYERS.md "Ratings") --
  leaderboard: (game, offset = 0) => request("GET", `/api/ratings/${enc(game)}/leaderboard?offset=${offset}`),
  playerRatings: (playerId) => request("GET", `/api/players/${enc(playerId)}/ratings`),
  // Opened without the token (no secret in a URL the server logs): the stream is then the public's, which is
  // all the page needs from it (a signal that the game moved on; the page then reads the seat's own view).
  streamUrl: (id, after) => `/api/games/${enc(id)}/stream?after=${after}`,

  // -- seats that belong to people (docs/PLAYERS.md) --
  /** Claims the invite ``token``'s seat for the signed-in player -> {game_id, seat, version}. */
  claim: (id, token) => request("POST", `/api/games/${enc(id)}/claim`, { token }),
  /** The host (its seat's ``token``, or the session when null) revokes / reissues a free seat's invite. */
  revokeInvite: (id, seat, token) => request("DELETE", `/api/games/${enc(id)}/seats/${seat}/invite`, { token }),
  newInvite: (id, seat, token) => request("POST", `/api/games/${enc(id)}/seats/${seat}/invite`, { token }),
  /** A guest gives up the seat of its invite ``token``: the link stops working and the seat is free again. */
  release: (id, token) => request("POST", `/api/games/${enc(id)}/release`, { token }),

  // -- the public table --
  openGames: () => request("GET", "/api/tables/open"),
  liveGames: (limit, before = null) => request("GET", `/api/tables/live?limit=${limit}${before ? `&before=${before}` : ""}`),
  /** The signed-in player takes a free seat of a listed game -> {game_id, seat, version, url}. */
  join: (id) => request("POST", `/api/games/${enc(id)}/join`),
  /** A seat of a finished game (its ``token``, or the session when null) asks for its rematch. */
  rematch: (id, token) => request("POST", `/api/games/${enc(id)}/rematch`, { token }),

  // -- players --
  sendLink: (email, next) => request("POST", "/api/auth/link", { body: { email, next } }),
  /** Signs in with a link's token, with the CSRF token of this browser's pre-session (login CSRF: a sign-in this
   * page did not ask for is refused); the session it starts has a new id and a token of its own. */
  signIn: async (token) => request("POST", "/api/auth/session", {
    body: { token }, headers: { "X-CSRFToken": await csrfToken() },
  }),
  signOut: () => request("DELETE", "/api/auth/session"),
  whoami: () => request("GET", "/api/me"),
  rename: (name) => request("PATCH", "/api/me", { body: { name } }),
  /** Keeps the page's language in the account (mails and pushes speak it too). */
  saveLanguage: (language) => request("PUT", "/api/me/language", { body: { language } }),
  myGames: () => request("GET", "/api/me/games"),
  myStreamUrl: "/api/me/stream",
  devMail: () => request("GET", "/api/dev/mail"),

  // -- notifications --
  notices: () => request("GET", "/api/me/notices"),
  readNotices: (ids = []) => request("POST", "/api/me/notices/read", { body: { notice_ids: ids } }),
  settings: () => request("GET", "/api/me/settings"),
  saveSettings: (body) => request("PUT", "/api/me/settings", { body }),
  webhooks: () => request("GET", "/api/me/webhooks"),
  addWebhook: (url, shape) => request("POST", "/api/me/webhooks", { body: { url, shape } }),
  removeWebhook: (id) => request("DELETE", `/api/me/webhooks/${enc(id)}`),
  pushKey: () => request("GET", "/api/push/key"),
  subscribePush: (subscription) => request("POST", "/api/me/push", { body: subscription }),
  unsubscribePush: (endpoint) => request("DELETE", "/api/me/push", { body: { endpoint } }),
  deliveries: () => request("GET", "/api/me/deliveries"),

  // -- vacations: every clock of the player's running games waits --
  vacation: () => request("GET", "/api/me/vacation"),
  goAway: (days) => request("POST", "/api/me/vacation", { body: { days } }),
  comeBack: () => request("DELETE", "/api/me/vacation"),
};

const HINTS = {
  "conflict/version": t("The game moved on before your move arrived. The page now shows the latest state: please try again."),
  "conflict/idempotency_key_reused": t("This form was already sent with other settings: please create the game again."),
  "auth/invalid_token": t("This invite link is not valid for this game (the host may have revoked it): ask the host for a new one."),
  "auth/missing_token": t("This page has no seat key: open your invite link."),
  "game/not_found": t("There is no such game."),
  "network/unreachable": t("The server cannot be reached. Check your connection and try again."),
  "rate/limited": t("Too many requests from this address: wait a moment and try again."),
  "infra/unavailable": t("The server is busy or its database is unreachable. Try again in a moment."),
  "seat/claimed": t("This seat belongs to another player: its invite link no longer opens it. Ask the game's host for a new invite."),
  "seat/already_seated": t("You already hold a seat in this game: one player, one seat."),
  "seat/not_host": t("Only the game's host manages its invites."),
  "seat/full": t("Every seat of this game was just taken: pick another open game."),
  "seat/in_use": t("Guests are playing the free seats of this game with their invite links: pick another open game."),
  "seat/host": t("The seat of the game's creator cannot be given up."),
  "seat/not_found": t("This game has no such person's seat."),
  "table/nobody_plays": t("A game needs at least one seat a person plays: make a seat human."),
  "table/unlisted": t("This game is not open to join: ask its host for an invite link."),
  "auth/signed_out": t("You are signed out: sign in again."),
  "auth/csrf": t("This page's security token is missing or stale: reload the page and try again."),
  "auth/link_used": t("This sign-in link was used already: each link works once. Ask for a new one below."),
  "auth/origin": t("This request came from another site's page, so it was refused."),
  "auth/link_expired": t("This sign-in link has expired. Ask for a new one below."),
  "auth/link_invalid": t("This is not a valid sign-in link. Ask for a new one below."),
  "mail/unavailable": t("The mail could not be sent just now. Try again in a minute."),
  "mail/not_configured": t("This server sends no mail, so it cannot send sign-in links. Ask whoever runs it."),
  "request/invalid_name": t("A name needs a visible character and no line breaks or other control characters."),
  "request/too_many_webhooks": t("You have 5 webhooks already: remove one first."),
  "table/stand_in": t("The computer plays your seat now: take your seat back first, if this table allows it."),
  "table/no_takeback": t("This seat cannot be taken back at this table."),
  "table/already_gone": t("You have already left or resigned this game."),
  "vacation/away": t("You are on vacation already."),
  "vacation/not_away": t("You are not on vacation."),
};

/** An API error as a sentence for the player (the rule's own message for rule violations). */
export function inWords(err) {
  if (!(err instanceof ApiError)) return t("Something went wrong: {reason}", { reason: String(err && err.message ? err.message : err) });
  const hint = HINTS[err.code];
  if (hint && err.code.startsWith("request/")) return hint;
  if (err.code.startsWith("rule/") || err.code.startsWith("request/")) {
    const message = err.message.charAt(0).toUpperCase() + err.message.slice(1);
    return message.endsWith(".") ? message : `${message}.`;
  }
  return hint || err.message;
}
