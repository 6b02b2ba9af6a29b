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
// language, which carries the same messages, a version's three as one "version" message. nchan gives each message
// its own id, beginning with its time, and resumes after the last one seen; the first subscription asks for what was published since the page began reading
// the game (a move between its reads and its subscription is not lost: what it already holds is dropped by the
// versions, as after a pusher's restart). Every renew_s seconds the page ends its subscription and opens the next
// one after the last message it saw (each marks the seat present for a while; nginx ends none itself: in nchan
// 1.3.6's Redis mode a subscription it timed out leaves the channel deaf on that box). A signed-in player's page
// hears its player's own channel on the same connection ("games" and "notices", nchan's multiplexing), and reads its
// games once at load.

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

/** How long a reconnecting stream may take before the page says so. */
const QUIET_MS = 4000;

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
  const state = on.state || (() => {});
  let held = after; // the version shown: a push server's channel may repeat older ones (a pusher that restarted)
  let pending = {}; // a version's history and state, until its events (the last of its messages) arrive
  const handlers = {
    history: (data) => { pending.history = data; },
    state: (data) => { pending.state = data; },
    events: (data) => {
      const events = { ...data, events: (data.events || []).filter((e) => !(e.version <= held)) };
      held = Math.max(held, data.version || 0);
      const batch = { events, history: pending.history || null, state: pending.state || null };
      pending = {};
      on.version(batch);
    },
  };
  // a push server's channel carries a version's three messages as one (docs/SCALING.md)
  handlers.version = (data) => {
    if (data.history) handlers.history(data.history);
    handlers.state(data.state);
    handlers.events(data.events);
  };
  for (const name of ["chat", "mutes", "notices", "games"]) if (on[name]) handlers[name] = on[name];
  let lastId = ""; // the last message's id: where the next subscription resumes

  // One subscription: its messages, and its breaks. The browser reconnects by itself after a break (resuming by
  // Last-Event-ID): one that heals within QUIET_MS is not shown as one.
  const subscribe = (url) => {
    const source = new EventSource(url);
    let quiet = null;
    source.addEventListener("open", () => { clearTimeout(quiet); quiet = null; state("live"); });
    source.addEventListener("error", () => {
      if (source !== current) return; // ended by this page (a renewal)
      if (source.readyState === EventSource.CLOSED) { clearTimeout(quiet); state("closed"); return; }
      if (quiet === null) quiet = setTimeout(() => { quiet = null; if (source === current && source.readyState !== EventSource.OPEN) state("reconnecting"); }, QUIET_MS);
    });
    for (const [name, fn] of Object.entries(handlers)) {
      source.addEventListener(name, (message) => {
        if (source !== current) return;
        if (message.lastEventId) lastId = message.lastEventId;
        let data;
        try {
          data = JSON.parse(message.data);
        } catch (err) {
          return;
        }
        fn(data);
      });
    }
    return source;
  };
  state("connecting");
  let current = subscribe(pushed ? where.url : `${where.url}?after=${after}&chat=${chat}`);
  // nchan: the page ends its subscription every renew_s seconds and opens the next one after the last message it
  // saw (each subscription marks the seat present for a while; nginx ends none itself, docs/SCALING.md).
  if (pushed && where.renew_s > 0) {
    setInterval(() => {
      if (current.readyState === EventSource.CLOSED) return;
      // after the last message seen; none seen yet: from where the first subscription began
      const next = lastId ? `${where.url.split("?")[0]}?last_event_id=${enc(lastId)}` : where.url;
      current.close();
      current = subscribe(next);
    }, where.renew_s * 1000);
  }
  if (pushed && on.games && where.url.includes("/player/")) { // nchan sends the player's games when they change:
    fetch("/api/me/games", { headers: { Accept: "application/json" } }) // as they are now, once at load
      .then((answer) => (answer.ok ? answer.json() : null)).then((games) => { if (games) on.games(games); })
      .catch(() => {});
  }
  return current;
}
