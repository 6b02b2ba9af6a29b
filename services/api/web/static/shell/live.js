// The game page's one live connection: GET /api/games/{id}/stream (Server-Sent Events) carries everything the page
// shows as it changes, so the page never asks again after being told. For each new version: "history" (the new
// lines of the story, in the page's language), "state" ({game, me}: the public game and the seat's own view and
// legal commands) and last "events" (the events the seat may see); then "chat" (a new line of the chat), "mutes"
// (the whole chat, when the host mutes or unmutes a seat) and, for a signed-in player, "games" and "notices" (as
// "My games"' stream sends them). The browser
// reconnects by itself, resuming after the last id it saw (Last-Event-ID: the version and the chat's last line), so
// nothing is missed and nothing is read again.
//
// An EventSource sends no Authorization header: a guest's seat token is handed over once as a bearer
// (POST .../stream/seat), which sets a cookie only this game's stream receives; the token is never in a URL.
//
// The server says where the stream is (GET .../stream/address): the API's own, or, when the site is served through
// nginx with nchan (docs/SCALING.md), the push server's channel of this seat (or the public's) in the page's
// language, which carries the same named messages. nchan gives each message its own id, beginning with its time, and
// resumes after the last one seen; the first subscription asks for what was published since the page began reading
// the game (a move between its reads and its subscription is not lost: what it already holds is dropped by the
// versions, as after a pusher's restart). A signed-in player's page hears its player's own channel on the same
// connection ("games" and "notices", nchan's multiplexing), and reads its games once at load.

import { cookie } from "./api.js";

const enc = encodeURIComponent;

/** Lets this browser's stream of ``gameId`` open as the seat of ``token`` (null: the session's seat, or none). */
async function keepSeat(gameId, token) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const csrf = cookie("csrftoken");
  if (csrf) headers["X-CSRFToken"] = csrf;
  if (!token && !csrf) return; // no seat and no session: the public's stream, nothing to keep
  try {
    await fetch(`/api/games/${enc(gameId)}/stream/seat`, { method: "POST", headers });
  } catch (err) {
    // the stream opens as the public's; the next load tries again
  }
}

/** Where this page's stream is: {kind: "python" | "nchan", url}; nchan's from the time this page began loading. */
async function address(gameId) {
  const back = Math.min(600, Math.ceil(performance.now() / 1000) + 2); // seconds, and some for the boxes' clocks
  try {
    const answer = await fetch(`/api/games/${enc(gameId)}/stream/address?back=${back}`,
      { headers: { Accept: "application/json" } });
    if (answer.ok) return await answer.json();
  } catch (err) {
    // the API's own stream
  }
  return { kind: "python", url: `/api/games/${enc(gameId)}/stream` };
}

/** Follows the game from version ``after`` and chat line ``chat``. ``on``: {version({events, history, state}),
 * chat(line), mutes(chat), notices(body), games(body), state(connection)}, each optional but ``version``. */
export async function follow(gameId, { after, chat = 0, token = null }, on) {
  await keepSeat(gameId, token);
  const where = await address(gameId);
  const pushed = where.kind === "nchan";
  const source = new EventSource(pushed ? where.url : `${where.url}?after=${after}&chat=${chat}`);
  const state = on.state || (() => {});
  let held = after; // the version shown: a push server's channel may repeat older ones (a pusher that restarted)
  state("connecting");
  source.addEventListener("open", () => state("live"));
  source.addEventListener("error", () => state(source.readyState === EventSource.CLOSED ? "closed" : "reconnecting"));
  const listen = (name, fn) => source.addEventListener(name, (message) => {
    let data;
    try {
      data = JSON.parse(message.data);
    } catch (err) {
      return;
    }
    fn(data);
  });
  let pending = {}; // a version's history and state, until its events (the last of its messages) arrive
  listen("history", (data) => { pending.history = data; });
  listen("state", (data) => { pending.state = data; });
  listen("events", (data) => {
    const events = { ...data, events: (data.events || []).filter((e) => !(e.version <= held)) };
    held = Math.max(held, data.version || 0);
    const batch = { events, history: pending.history || null, state: pending.state || null };
    pending = {};
    on.version(batch);
  });
  if (on.chat) listen("chat", on.chat);
  if (on.mutes) listen("mutes", on.mutes);
  if (on.notices) listen("notices", on.notices);
  if (on.games) listen("games", on.games);
  if (pushed && on.games && where.url.includes("/player/")) { // nchan sends the player's games when they change:
    fetch("/api/me/games", { headers: { Accept: "application/json" } }) // as they are now, once at load
      .then((answer) => (answer.ok ? answer.json() : null)).then((games) => { if (games) on.games(games); })
      .catch(() => {});
  }
  return source;
}
