// Replay: the game page's scrubber over a game's versions. At a version the board is the game's own bundle's,
// drawn from GET /api/games/{id}/state?at=N (a finished game's as the auditor sees it, which everyone may; a running
// game's as this page's viewer may see it, the server redacting the rest), and the history shows its lines up to
// that version, the line of that version marked. Steps: one version, one round (the versions where a line of one of
// the game's ``round_events`` starts, GET /api/catalog), first and last; the keyboard's arrows (with Shift: by
// round), Home and End. The URL carries the version (``?v=N``, kept up to date with history.replaceState), so a
// link opens the replay there. While replaying, the page does not draw the live game (play.js holds it back); "Back
// to live" draws the game as it is now.

import { ApiError, api, inWords } from "./api.js";
import { h } from "./dom.js";
import { num, t } from "./i18n.js";

const PARAM = "v";
/** Views kept, so stepping back and forth reads each version once. */
const KEPT = 200;
/** A drag of the range asks for the version it rests on, not for every one it passes. */
const SETTLE_MS = 120;

/** The version a link asks to open (``?v=N``), or null. */
export function linkedVersion() {
  const raw = new URLSearchParams(location.search).get(PARAM);
  return raw !== null && /^\d{1,12}$/.test(raw) ? Number(raw) : null;
}

/** This page's URL at ``version`` (null: the live game), its other parameters and its fragment kept. */
function urlAt(version) {
  const params = new URLSearchParams(location.search);
  if (version === null) params.delete(PARAM);
  else params.set(PARAM, String(version));
  const query = params.toString();
  return `${location.pathname}${query ? `?${query}` : ""}${location.hash}`;
}

/** A URL to share: the version, never the fragment (which holds a seat's secret token). */
function shareUrl(version) {
  const params = new URLSearchParams(location.search);
  params.set(PARAM, String(version));
  return `${location.origin}${location.pathname}?${params}`;
}

/** The largest of the sorted ``versions`` below ``v`` (null: none). */
function before(versions, v) {
  let found = null;
  for (const x of versions) {
    if (x >= v) break;
    found = x;
  }
  return found;
}

/**
 * Mounts the replay into ``host`` (an empty section). ``env``:
 *   gameId, gameType, token() (the guest seat's token, or null: the session's seat or the public),
 *   head() (the latest version this page knows), over() (the game has ended),
 *   lines() (the history's lines), list (the history's <ol>),
 *   draw(view, version) (draws the board at a version), live() (draws the live game again).
 * Returns {active(), version(), open(version), linesAdded(), moved()}.
 */
export function mountReplay(host, env) {
  const state = { active: false, version: 0, wanted: 0, rounds: [], roundEvents: null, views: new Map(), timer: 0,
    asked: 0 };
  const range = h("input", { type: "range", id: "replay-range", min: "1", max: "1", step: "1", value: "1",
    "aria-label": t("Version") });
  const button = (id, text, label, onClick) => {
    const b = h("button", { type: "button", id, title: label, "aria-label": label }, text);
    b.addEventListener("click", onClick);
    return b;
  };
  const first = button("replay-first", "|◀", t("First version"), () => go(1));
  const prevRound = button("replay-prev-round", "◀◀", t("Previous round"), () => go(roundBefore()));
  const prev = button("replay-prev", "◀", t("Previous version"), () => go(state.wanted - 1));
  const next = button("replay-next", "▶", t("Next version"), () => go(state.wanted + 1));
  const nextRound = button("replay-next-round", "▶▶", t("Next round"), () => go(roundAfter()));
  const last = button("replay-last", "▶|", t("Last version"), () => go(env.head()));
  const where = h("p", { id: "replay-where", class: "replay-where", "aria-live": "polite" });
  const link = h("a", { id: "replay-link", class: "replay-link", href: "" }, t("Link to this version"));
  const failure = h("p", { id: "replay-error", class: "error", role: "alert", hidden: true });
  const back = h("button", { type: "button", id: "replay-live", class: "primary" }, t("Back to live"));
  const enter = h("button", { type: "button", id: "replay-open" }, t("Replay the game"));
  const controls = h("div", { class: "replay-controls", hidden: true },
    h("div", { class: "replay-steps", role: "group", "aria-label": t("Steps") }, first, prevRound, prev, range, next,
      nextRound, last),
    where, h("p", { class: "replay-links" }, link, " ", back), failure,
    h("p", { class: "hint" }, t("Arrow keys: a version; with Shift: a round; Home and End: the first and the last.")));
  host.replaceChildren(h("h2", { id: "replay-title" }, t("Replay")), enter, controls);
  host.hidden = false;

  enter.addEventListener("click", () => open(env.head()));
  back.addEventListener("click", leave);
  range.addEventListener("input", () => go(Number(range.value), { settle: true }));
  controls.addEventListener("keydown", (event) => {
    if (event.target === link || event.altKey || event.ctrlKey || event.metaKey) return;
    const steps = {
      ArrowLeft: () => (event.shiftKey ? roundBefore() : state.wanted - 1),
      ArrowDown: () => (event.shiftKey ? roundBefore() : state.wanted - 1),
      ArrowRight: () => (event.shiftKey ? roundAfter() : state.wanted + 1),
      ArrowUp: () => (event.shiftKey ? roundAfter() : state.wanted + 1),
      PageUp: roundBefore,
      PageDown: roundAfter,
      Home: () => 1,
      End: () => env.head(),
    };
    if (!steps[event.key]) return;
    event.preventDefault();
    go(steps[event.key]());
  });

  async function roundStarts() {
    if (state.roundEvents === null) {
      try {
        const entry = (await api.games()).find((g) => g.game === env.gameType);
        state.roundEvents = new Set((entry && entry.round_events) || []);
      } catch (err) {
        state.roundEvents = new Set(); // steps by version only
      }
    }
    state.rounds = [...new Set(env.lines().filter((l) => state.roundEvents.has(l.event)).map((l) => l.version))]
      .sort((a, b) => a - b);
    prevRound.disabled = nextRound.disabled = state.rounds.length === 0;
  }

  function roundBefore() {
    const r = before(state.rounds, state.wanted);
    return r === null ? 1 : r;
  }

  function roundAfter() {
    const r = state.rounds.find((x) => x > state.wanted);
    return r === undefined ? env.head() : r;
  }

  async function open(version) {
    if (!state.active) {
      state.active = true;
      document.body.classList.add("replaying");
      enter.hidden = true;
      controls.hidden = false;
    }
    await roundStarts();
    go(version);
    range.focus();
  }

  function leave() {
    state.active = false;
    clearTimeout(state.timer);
    state.asked += 1; // an answer still on its way is not drawn
    document.body.classList.remove("replaying");
    delete document.body.dataset.replay;
    enter.hidden = false;
    controls.hidden = true;
    failure.hidden = true;
    for (const li of env.list.children) {
      li.hidden = false;
      li.classList.remove("replay-at");
    }
    history.replaceState(null, "", urlAt(null));
    env.live();
    enter.focus();
  }

  /** Moves the scrubber to ``version`` (kept within the game) and draws it (after a drag settles). */
  function go(version, { settle = false } = {}) {
    if (!state.active) return;
    const head = Math.max(1, env.head());
    const v = Math.min(Math.max(1, Math.round(Number(version) || 1)), head);
    state.wanted = v;
    range.max = String(head);
    range.value = String(v);
    first.disabled = prev.disabled = v <= 1;
    last.disabled = next.disabled = v >= head;
    where.textContent = t("Version {version} of {last}", { version: num(v), last: num(head) });
    link.href = shareUrl(v);
    history.replaceState(null, "", urlAt(v));
    clearTimeout(state.timer);
    if (settle && !state.views.has(v)) state.timer = setTimeout(() => show(v), SETTLE_MS);
    else show(v);
  }

  async function viewAt(version) {
    if (state.views.has(version)) return state.views.get(version);
    const over = env.over();
    const answer = await api.stateAt(env.gameId, version, over ? null : env.token(), over ? "auditor" : null);
    if (state.views.size >= KEPT) state.views.delete(state.views.keys().next().value);
    state.views.set(version, answer.view);
    return answer.view;
  }

  async function show(version) {
    const ticket = ++state.asked;
    let view;
    try {
      view = await viewAt(version);
    } catch (err) {
      if (ticket !== state.asked) return;
      failure.textContent = err instanceof ApiError ? inWords(err) : String(err);
      failure.hidden = false;
      return;
    }
    if (ticket !== state.asked || !state.active) return;
    failure.hidden = true;
    state.version = version;
    env.draw(view, version);
    markLines();
    document.body.dataset.replay = String(version);
  }

  /** The history up to the version shown, its latest line marked (and in sight). */
  function markLines() {
    const v = state.version;
    let at = null;
    for (const li of env.list.children) {
      const lv = Number(li.dataset.version);
      li.hidden = lv > v;
      li.classList.remove("replay-at");
      if (lv <= v) at = lv;
    }
    let shown = null;
    for (const li of env.list.children) {
      if (Number(li.dataset.version) === at) {
        li.classList.add("replay-at");
        shown = shown || li;
      }
    }
    if (shown) env.list.scrollTop = Math.max(0, shown.offsetTop - env.list.offsetTop - env.list.clientHeight / 3);
  }

  return {
    active: () => state.active,
    /** The version drawn. */
    version: () => state.version,
    open,
    /** The history got lines: those after the version shown stay hidden; new rounds are steps. */
    linesAdded() {
      if (!state.active) return;
      markLines();
      roundStarts();
    },
    /** The game moved on: the scrubber reaches its new last version. */
    moved() {
      if (!state.active) return;
      const head = Math.max(1, env.head());
      range.max = String(head);
      last.disabled = next.disabled = state.wanted >= head;
      where.textContent = t("Version {version} of {last}", { version: num(state.wanted), last: num(head) });
    },
  };
}
