// The signed-in player on every page: the header's account bar (name, settings, sign out; or "Sign in"), a link
// to the development mailbox on a server that keeps its mail instead of sending it, the notices (a live unread
// badge and list), the tab title's "(n)" while games wait for the player, and the browser's own notifications
// while the tab is hidden (permission asked only when the player presses "Notify me in this browser").
//
// One live connection per page: GET /api/me/stream (Server-Sent Events): ``games`` (the body of GET
// /api/me/games) on connect and whenever one of them moves, ``notices`` (the body of GET /api/me/notices) when
// something new was noticed, so the page asks nothing again. While it is open the server knows the player is here,
// so it mails and pushes nothing. The game page's one stream carries the notices too (``showNotices``).

import { ApiError, api, inWords } from "./api.js";
import { h } from "./dom.js";
import { num, t, tn, when as written, within } from "./i18n.js";

let asked = null;

/** The signed-in player ({player_id, email, name}) or null; asked once per page. */
export function whoami() {
  if (!asked) {
    asked = api.whoami().catch((err) => {
      if (!(err instanceof ApiError) || err.status !== 401) console.warn(t("Who is signed in is not known: {reason}", { reason: inWords(err) }));
      return null;
    });
  }
  return asked;
}

// -- the tab title -----------------------------------------------------------------------------------------

const title = { base: document.title, waiting: 0 };

function paintTitle() {
  document.title = `${title.waiting ? `(${title.waiting}) ` : ""}${title.base}`;
}

/** The page's own title; the account prefixes "(n)" while n games wait for the player. */
export function setTitle(text) {
  title.base = text;
  paintTitle();
}

// -- my games, live ----------------------------------------------------------------------------------------

const watchers = new Set();
let games = null; // the last ``games`` message
let stream = null;

/** ``fn(body of GET /api/me/games)`` now (if known) and on every change, while signed in. */
export function onMyGames(fn) {
  watchers.add(fn);
  if (games) fn(games);
}

/** The player's games (the body of GET /api/me/games, as a stream brings it): the title's "(n)" and every
 * ``onMyGames`` watcher. */
export function showMyGames(body) {
  games = body;
  title.waiting = games.waiting || 0;
  paintTitle();
  for (const fn of watchers) fn(games);
}

function follow() {
  if (stream) return;
  stream = new EventSource(api.myStreamUrl);
  stream.addEventListener("games", (message) => {
    try {
      showMyGames(JSON.parse(message.data));
    } catch (err) {
      // a message cut short: the next one brings the whole list again
    }
  });
  stream.addEventListener("notices", (message) => {
    try {
      showNotices(JSON.parse(message.data));
    } catch (err) {
      // a message cut short: the next one brings the whole list again
    }
  });
  stream.addEventListener("error", () => {
    if (stream.readyState === EventSource.CLOSED) {
      stream = null; // signed out elsewhere, or the server refused: this page stops following
    }
  });
}

// -- notices -------------------------------------------------------------------------------------------------

const inbox = { seen: new Set(), first: true, notices: [], unread: 0 };
const $ = (id) => document.getElementById(id);

function when(iso) {
  return written(iso);
}

function renderNotices() {
  const count = $("unread-count");
  if (!count) return;
  count.textContent = num(inbox.unread);
  count.hidden = inbox.unread === 0;
  $("notices-button").setAttribute("aria-label", tn("Notices, {n} unread", "Notices, {n} unread", inbox.unread));
  const items = inbox.notices.slice(0, 30).map((n) => h("li", { class: n.read ? "read" : "unread", "data-kind": n.kind },
    h("a", { href: `/play/${encodeURIComponent(n.game_id)}` }, n.text),
    h("time", { datetime: n.created_at }, ` ${when(n.created_at)}`)));
  $("notices-list").replaceChildren(...items);
  $("notices-empty").hidden = items.length > 0;
}

/** The browser's own notification, for notices that arrive while the tab is hidden (if the player allowed it). */
function tell(notice) {
  if (!("Notification" in window) || Notification.permission !== "granted" || !document.hidden) return;
  try {
    const shown = new Notification(notice.text, { tag: notice.notice_id, body: t("Open the game") });
    shown.addEventListener("click", () => {
      window.focus();
      location.assign(`/play/${encodeURIComponent(notice.game_id)}`);
    });
  } catch (err) {
    // some browsers allow notifications only from a service worker: the badge still counts it
  }
}

/** The game this page shows (/play/<id>): its notices are read by looking at it. */
const shownGame = (() => {
  const found = location.pathname.match(/^\/play\/([^/]+)/);
  return found ? decodeURIComponent(found[1]) : null;
})();

/** Marks read the unread notices of the game on screen (none while the tab is hidden): the turn the player is
 * making here is no unread notice. The server already writes read the notices of a seat whose page is open. */
async function readShownGame() {
  if (!shownGame || document.hidden) return;
  const ids = inbox.notices.filter((n) => !n.read && n.game_id === shownGame).map((n) => n.notice_id);
  if (!ids.length) return;
  try {
    inbox.unread = (await api.readNotices(ids)).unread;
  } catch (err) {
    return; // counted until the next notice reloads the list
  }
  inbox.notices = inbox.notices.map((n) => (ids.includes(n.notice_id) ? { ...n, read: true } : n));
}

async function loadNotices(arriving = false) {
  let got;
  try {
    got = await api.notices();
  } catch (err) {
    return;
  }
  await showNotices(got, arriving);
}

/** Shows the player's notices (the body of GET /api/me/notices: read at load, or brought by the game page's
 * stream, which carries them so that page never asks again). */
export async function showNotices(got, arriving = true) {
  inbox.notices = got.notices || [];
  inbox.unread = got.unread || 0;
  for (const n of inbox.notices) {
    if (!inbox.seen.has(n.notice_id)) {
      inbox.seen.add(n.notice_id);
      // a notice of this page's own game was written read (its page is open), but a hidden tab still shows it
      if (arriving && !inbox.first && (!n.read || n.game_id === shownGame)) tell(n);
    }
  }
  inbox.first = false;
  await readShownGame();
  renderNotices();
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) readShownGame().then(renderNotices);
});

/** The "Notify me in this browser" button (the browser asks for permission only when it is pressed) and what
 * became of it; ``id`` names the button (the state is ``<id>-state``). */
export function browserNotifications(id = "notify-button") {
  const button = h("button", { type: "button", id }, t("Notify me in this browser"));
  const state = h("span", { id: `${id}-state`, class: "hint", role: "status" });
  const paint = () => {
    if (!("Notification" in window)) {
      button.hidden = true;
      state.textContent = t("This browser cannot show notifications.");
    } else if (Notification.permission === "granted") {
      button.hidden = true;
      state.textContent = t("This browser tells you when the tab is hidden.");
    } else if (Notification.permission === "denied") {
      button.hidden = true;
      state.textContent = t("Notifications are blocked in this browser's settings.");
    }
  };
  button.addEventListener("click", async () => {
    try {
      await Notification.requestPermission();
    } catch (err) {
      // an old browser's callback form: the state below says what became of it
    }
    paint();
    if (Notification.permission === "default") state.textContent = t("Not allowed yet: the browser asked nothing or you closed its question.");
  });
  paint();
  return h("span", { class: "buttons" }, button, state);
}

function noticesPanel() {
  const button = h("button", { type: "button", id: "notices-button", class: "notices-button", "aria-expanded": "false",
    "aria-controls": "notices-panel", "aria-label": tn("Notices, {n} unread", "Notices, {n} unread", 0) },
  t("Notices"), " ", h("span", { id: "unread-count", class: "badge", hidden: true }, "0"));
  const readAll = h("button", { type: "button", id: "read-all" }, t("Mark all read"));
  const panel = h("section", { id: "notices-panel", class: "notices-panel", "aria-label": t("Notices"), hidden: true },
    h("h2", { class: "visually-hidden" }, t("Notices")),
    h("p", { id: "notices-empty", class: "hint" }, t("Nothing yet: you are told here when a game waits for you.")),
    h("ul", { id: "notices-list", class: "notices-list" }),
    h("div", { class: "buttons" }, readAll, browserNotifications()));
  const toggle = (open) => {
    panel.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
  };
  button.addEventListener("click", () => toggle(panel.hidden));
  panel.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      toggle(false);
      button.focus();
    }
  });
  readAll.addEventListener("click", async () => {
    try {
      inbox.unread = (await api.readNotices()).unread;
      inbox.notices = inbox.notices.map((n) => ({ ...n, read: true }));
    } catch (err) {
      // the next notice reloads the list anyway
    }
    renderNotices();
  });
  return h("div", { class: "notices" }, button, panel);
}

// -- the header's account bar ----------------------------------------------------------------------------------

async function devMailLink() {
  try {
    await api.devMail();
  } catch (err) {
    return null; // a server that sends its mail: no such page
  }
  return h("a", { href: "/dev/mail", class: "dev-mail", id: "dev-mail-link" }, t("Development mailbox"));
}

/** Where "Sign in" comes back to: this page (without the fragment, which may hold a seat's key). */
export function signInHref(next = location.pathname + location.search) {
  return `/signin?next=${encodeURIComponent(next)}`;
}

/** Draws the account bar into ``#account`` and, when signed in, follows the player's games and notices
 * (``live: "page"``: reads the notices once, the page's own one stream bringing the rest: ``showNotices``,
 * ``showMyGames``). Returns the player (or null). */
export async function mountAccount({ live = true, signInLink = true } = {}) {
  const nav = document.getElementById("account");
  const [player, mail] = await Promise.all([whoami(), devMailLink()]);
  if (!nav) return player;
  const parts = [];
  if (player) {
    const out = h("button", { type: "button", id: "sign-out" }, t("Sign out"));
    out.addEventListener("click", async () => {
      out.disabled = true;
      try {
        await api.signOut();
      } catch (err) {
        // the cookie may be gone already: the lobby says who is signed in
      }
      location.assign("/");
    });
    parts.push(noticesPanel(),
      h("span", { class: "who", id: "signed-in-as" }, ...within(t("Signed in as {name}"),
        { name: h("strong", {}, player.name || player.email) })),
      h("a", { href: "/settings", id: "settings-link" }, t("Settings")), out);
  } else if (signInLink) {
    parts.push(h("a", { href: signInHref(), id: "sign-in-link", class: "button-link" }, t("Sign in")));
  }
  if (mail) parts.push(mail);
  nav.replaceChildren(...parts);
  nav.dataset.state = player ? "signed-in" : "guest";
  if (player && live) {
    if (live !== "page") follow();
    loadNotices();
  }
  return player;
}
