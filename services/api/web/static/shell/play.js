// The game page's frame: finds the seat (the signed-in player's claimed seat, played with the session; or the
// link's token, or one this browser keeps, played as a guest), reads the game (GET /api/games/{id} -> game_type),
// loads that game's bundle (bundles.js) to draw the board and the moves, and runs what every game shares: the
// seat's view and legal commands (GET /me, read once at load), the live stream (live.js: every later change arrives
// on it, the page reads nothing again after being told), the history, the "just now" lines, the header and the
// final standings. A signed-in player who opens an invite link is offered to claim its seat (POST /claim); a guest,
// to sign in to keep it, or to give it up (POST /release: the seat is free again for someone else); a link whose
// seat another player claimed, or that the host revoked, is refused in words.
// The host gets the invites of the seats nobody has claimed yet. The chat is chat.js's panel.

import { mountAccount, setTitle, showMyGames, showNotices } from "./account.js";
import { configureAdvice } from "./advice.js";
import { ApiError, api, inWords } from "./api.js";
import { bundleOf, playerOf } from "./bundles.js";
import { mountChat } from "./chat.js";
import { mountNotes } from "./notes.js";
import { mountPlans } from "./plans.js";
import { TablePanel } from "./clocks.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { renderFinal } from "./final.js";
import { linkRules, showPhaseHelp } from "./help.js";
import { History } from "./history.js";
import { inviteItem } from "./invites.js";
import { follow } from "./live.js";
import { keepHead } from "./receipt.js";
import { linkedVersion, mountReplay } from "./replay.js";
import { offer, offerClaim, offerSignIn } from "./seatoffer.js";
import { seats } from "./seats.js";
import { Takebacks } from "./takebacks.js";
import "./language.js";

const $ = (sel) => document.querySelector(sel);
const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
/** At load, the events of the last RECENT versions go to the board (so it can show what just happened). */
const RECENT = 80;

const page = {
  token: null, // the guest's seat token (null: the session's seat, or watching)
  auth: null, // "token" | "session" | null (watching)
  player: null, // the signed-in player, or null
  invites: "", // the unclaimed seats the host's panel shows
  seat: null,
  version: -1,
  gameVersion: -1,
  game: null, // GET /api/games/{id}: game_type, title, status, on_turn, players, outcome
  data: null, // what this page shows: GET /me (a seat) or the public game
  bundle: null,
  board: null,
  history: null,
  table: null, // the panel "The table": clocks, stand-ins, and the viewer's own seat's buttons
  takebacks: null, // the banner of takebacks of moves (takebacks.js)
  live: "connecting", // the stream's state: while it is not "live", the page reads after its own moves
  replay: null, // the scrubber (replay.js): while it replays, the live game is kept but not drawn
  held: [], // the stream's events that arrived while replaying, for the board once it is live again
};

function tokenFromHash() {
  return new URLSearchParams(location.hash.slice(1)).get("token");
}

function announce(text) {
  const node = $("#announcer");
  const p = document.createElement("p");
  p.textContent = text;
  node.append(p);
  while (node.childElementCount > 5) node.firstElementChild.remove();
}

function showError(text) {
  const banner = $("#load-error");
  banner.textContent = text;
  banner.hidden = !text;
}

/** How this page names a seat (the bundle's words), as of the view it shows. */
function label(seat, data = page.data) {
  return page.bundle.seatLabel(playerOf(seat, data.players), data.view);
}

/** Several seats on turn at once: a step of simultaneous (sealed) choices, where another seat's choice changes
 * nothing this seat may do. */
const together = () => (page.game.on_turn || []).length > 1;

async function send(command) {
  const simultaneous = together();
  try {
    keepHead(gameId, page.seat, await api.submit(gameId, page.token, command, page.version));
  } catch (err) {
    if (!(err instanceof ApiError && err.code === "conflict/version")) throw err;
    await refresh();
    if (!simultaneous || !(page.game.on_turn || []).includes(page.seat)) {
      $("#notice").textContent = inWords(err);
      return;
    }
    // another seat's sealed choice came first: the same choice is sent again, judged on the game as it is now
    keepHead(gameId, page.seat, await api.submit(gameId, page.token, command, page.version));
  }
  $("#notice").textContent = "";
  if (page.live !== "live") await refresh(); // else the stream brings the move's version
}

function boardState() {
  const { data, game } = page;
  return { view: data.view, legal: data.legal || [], seat: page.seat, players: data.players || [],
    version: page.version, over: Boolean(game.outcome) };
}

function render() {
  if (page.replay && page.replay.active()) {
    page.replay.moved();
    return;
  }
  const { game, bundle } = page;
  const state = boardState();
  const mine = page.seat !== null && state.legal.length > 0;
  const me = page.seat !== null ? label(page.seat) : null;
  const title = bundle.title || game.title;
  $("#game-title").textContent = me ? t("{game} — {name}", { game: title, name: me }) : t("{game} — watching", { game: title });
  setTitle(mine ? t("(Your turn) {game}", { game: game.title }) : game.title);
  document.body.classList.toggle("my-turn", mine);
  $("#turn-title").textContent = page.seat === null ? t("Watching") : mine ? t("Your move")
    : state.over ? t("Game over") : t("Waiting");
  const marks = page.board.render(state) || {};
  showPhaseHelp($("#phase-help"), game.game_type, state, bundle);
  $("#status").textContent = page.board.status(state);
  page.table.render({ table: page.data.table || game.table, seat: page.seat, onTurn: game.on_turn || [],
    over: Boolean(game.outcome) });
  page.takebacks.render({ table: page.data.table || game.table, seat: page.seat, over: Boolean(game.outcome) });
  renderFinal($("#final"), $("#final-body"), { gameId, gameType: game.game_type, outcome: game.outcome, bundle,
    view: state.view, label: (seat) => label(seat), seat: page.seat, token: page.token, rematchId: game.rematch_id });
  if (state.over) offer(); // a finished game's seat can no longer be claimed or kept: nothing to offer
  Object.assign(document.body.dataset, marks, { version: String(page.version), auth: page.auth || "public" });
  renderInvites();
}

/** The board at a replayed version (replay.js): the game's own bundle draws the view at that version, no moves. */
function drawAt(view, version) {
  const state = { view, legal: [], seat: page.seat, players: page.data.players || page.game.players || [], version,
    over: Boolean(page.game.outcome) && version >= page.gameVersion };
  const marks = page.board.render(state) || {};
  $("#status").textContent = page.board.status(state);
  document.body.classList.remove("my-turn"); // a past version takes no move (render() marks it again when live)
  Object.assign(document.body.dataset, marks);
}

/** The history as the board is drawn: up to the version replayed, else all of it. */
function shownLines() {
  const lines = page.history.lines;
  return page.replay && page.replay.active() ? lines.filter((l) => l.version <= page.replay.version()) : lines;
}

/** Leaving the replay: the events held meanwhile go to the board, which draws the game as it is now. */
function backToLive() {
  const held = page.held.splice(0);
  if (held.length && page.board.onEvents) page.board.onEvents(held);
  if (page.board.onHistory) page.board.onHistory(page.history.lines);
  render();
}

/** The host's panel: the other people's seats nobody has claimed, each with "Revoke" / "New link". */
function renderInvites() {
  const players = page.game.players || [];
  const host = page.game.host_seat !== undefined && page.game.host_seat !== null ? page.game.host_seat : seats.hosting(gameId);
  const open = page.seat !== null && host === page.seat && !page.game.outcome
    ? players.filter((p) => p.kind === "human" && !p.claimed && p.seat !== page.seat) : [];
  const key = open.map((p) => p.seat).join(",");
  if (key === page.invites) return;
  page.invites = key;
  $("#invites").hidden = open.length === 0;
  $("#invites-list").replaceChildren(...open.map((p) => inviteItem({ gameId, seat: p.seat, label: label(p.seat),
    inviteUrl: null, hostToken: page.token })));
}

/** The last few lines of the story, next to the move (the other seats' moves as they happen). */
function renderLatest() {
  const items = page.history.lines.slice(-6).map((line) =>
    h("li", { class: `depth-${line.depth}`, "data-event": line.event }, line.text));
  $("#latest").replaceChildren(...items);
}

/** The public game and, with a token, the seat's own view; the public one never older than the seat's. */
async function read() {
  let [game, me] = await Promise.all([api.game(gameId), page.auth ? api.me(gameId, page.token) : null]);
  if (me && game.version < me.version) game = await api.game(gameId);
  return { game, data: me || game };
}

/** Shows a version: its new history lines (seats named as the headers name them) and its game and seat view, unless
 * an older one than shown (a read that crossed the stream's message). */
function show({ game, data, history }) {
  const fresh = history ? page.history.add(history, (seat) => label(seat, data || page.data)) : [];
  if (fresh.length) renderLatest();
  if (fresh.length && page.replay) page.replay.linesAdded();
  if (page.version >= 0) {
    for (const line of fresh.slice(-4)) announce(line.text);
  }
  // A read answered after the stream brought a later version is older than what is shown: never drawn over it.
  const older = game && data && (data.version < page.version || game.version < page.gameVersion);
  if (game && data && !older && (data.version !== page.version || game.version !== page.gameVersion)) {
    page.seat = page.auth ? data.seat : null;
    page.version = data.version;
    page.gameVersion = game.version;
    page.game = game;
    page.data = data;
    render();
  } else if (fresh.length && page.board.onHistory && !(page.replay && page.replay.active())) {
    page.board.onHistory(page.history.lines);
  }
}

/** A version the stream brought: its events to the board, then its history and state (never older than shown). */
function arrived({ events, history, state }) {
  if (page.plans) page.plans.heard(); // a plan held may have been played, or have expired
  if (page.replay && page.replay.active()) page.held.push(...(events.events || []));
  else if (page.board.onEvents) page.board.onEvents(events.events || []);
  page.takebacks.heard(events.events || []);
  for (const e of events.events || []) { // the moves a takeback took back stay in the story, marked
    if (e.type === "table.moves_undone") page.history.markTakenBack(e.payload.back_to, e.version, t("(taken back)"));
  }
  if (state && page.auth && !state.me) { // the stream could not open as this seat (its cookie refused): read it
    refresh().catch((err) => { $("#notice").textContent = inWords(err); });
    return;
  }
  const newer = state && state.game.version >= page.gameVersion;
  const data = newer ? (page.auth ? state.me : state.game) : null;
  show({ game: newer ? state.game : null, data, history });
}

let running = null;
let again = false;

/** Reloads the views and the new history lines; calls made meanwhile are merged into one more reload. */
async function refresh() {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    do {
      again = false;
      const { game, data } = await read();
      show({ game, data, history: await api.history(gameId, page.history.version, page.token) });
    } while (again);
  })();
  try {
    await running;
  } finally {
    running = null;
  }
}

function chooseSeat(held) {
  const list = h("ul", { class: "seat-choice" });
  for (const s of held) {
    list.append(h("li", {}, h("a", { href: `#token=${encodeURIComponent(s.token)}` }, s.name
      ? t("Play seat {seat} ({name})", { seat: s.seat + 1, name: s.name }) : t("Play seat {seat}", { seat: s.seat + 1 }))));
  }
  $("#notice").replaceChildren(t("This browser holds several seats of this game:"), " ", list);
}

function failed(err, what) {
  showError(inWords(err));
  $("#status").textContent = what;
  if (err instanceof ApiError && (err.status === 401 || err.code === "seat/claimed") && page.token) seats.forgetToken(page.token);
}

/** The seat this page plays: the link's (or a kept) token, else the signed-in player's claimed seat, else none. */
async function findSeat() {
  let sessionSeat = null;
  if (page.player) {
    try {
      sessionSeat = (await api.me(gameId)).seat;
    } catch (err) {
      sessionSeat = null; // no seat of theirs in this game
    }
  }
  const fromLink = tokenFromHash();
  let token = fromLink;
  if (!token && sessionSeat === null) {
    const held = seats.forGame(gameId);
    if (held.length === 1) token = held[0].token;
    else if (held.length > 1) chooseSeat(held);
  }
  if (token) {
    try {
      const me = await api.me(gameId, token);
      Object.assign(page, { token, auth: "token" });
      const seat = { gameId, token, seat: me.seat, hostSeat: page.game.host_seat };
      if (page.player) offerClaim(seat, page.player);
      else offerSignIn(seat);
      return;
    } catch (err) {
      if (!(err instanceof ApiError) || !["seat/claimed", "auth/invalid_token"].includes(err.code)) throw err;
      seats.forgetToken(token);
      let mine = false;
      if (err.code === "seat/claimed" && sessionSeat !== null) {
        try {
          mine = (await api.claim(gameId, token)).seat === sessionSeat; // the player's own claimed link
        } catch (again) {
          mine = false;
        }
      }
      if (!mine) showError(inWords(err));
      if (fromLink) history.replaceState(null, "", location.pathname + location.search);
    }
  }
  if (sessionSeat !== null) Object.assign(page, { token: null, auth: "session" });
}

async function start() {
  page.player = await mountAccount({ live: "page" }); // the player's games and notices come on the game's stream
  try {
    page.game = await api.game(gameId);
  } catch (err) {
    failed(err, t("The game could not be loaded."));
    return;
  }
  try {
    page.bundle = await bundleOf(page.game.game_type);
    linkRules($("#rules-link"), page.game.game_type);
    page.history = new History($("#history-list"), (line) => (page.bundle.lineClass ? page.bundle.lineClass(line) : ""));
    configureAdvice({ gameId, gameType: page.game.game_type, token: () => page.token, version: () => page.version });
    page.board = await page.bundle.mount(
      { actions: $("#actions"), turn: $("#turn-extra"), side: $("#game-side"), main: $("#game-main") },
      { gameId, game: page.game, send, lines: shownLines },
    );
  } catch (err) {
    showError(t("This page cannot show a game of this kind ({game}): {reason}",
      { game: page.game.game_type, reason: String(err && err.message ? err.message : err) }));
    $("#status").textContent = t("The game could not be shown.");
    return;
  }
  page.table = new TablePanel($("#table-panel"), $("#time-control"), $("#stood-in"),
    { gameId, label: (seat) => label(seat), token: () => page.token, refresh });
  page.takebacks = new Takebacks($("#takeback"),
    { gameId, label: (seat) => label(seat), token: () => page.token, refresh });
  try {
    await findSeat();
    await refresh();
  } catch (err) {
    failed(err, t("The game could not be loaded."));
    return;
  }
  if (page.auth === "token" && page.seat !== null) {
    seats.keep({ game_id: gameId, game_type: page.game.game_type, seat: page.seat, token: page.token,
      name: playerOf(page.seat, page.data.players).name });
  }
  if (page.board.onEvents) {
    try {
      const recent = await api.events(gameId, Math.max(0, page.version - RECENT), page.token);
      page.board.onEvents(recent.events || []);
    } catch (err) {
      // the board just starts without them
    }
  }
  page.replay = mountReplay($("#replay"), { gameId, gameType: page.game.game_type, token: () => page.token,
    head: () => Math.max(page.version, page.gameVersion), over: () => Boolean(page.game.outcome),
    lines: () => page.history.lines, list: $("#history-list"), draw: drawAt, live: backToLive });
  if (linkedVersion() !== null) await page.replay.open(linkedVersion());
  const chat = mountChat($("#invites").parentElement, gameId, () => ({ token: page.token, seat: page.seat }));
  await chat.start();
  if (page.auth === "session") mountNotes($("#invites").parentElement, gameId); // the signed-in seat's own notes
  if (page.seat !== null) { // the seat's own planned moves
    page.plans = await mountPlans($("#invites").parentElement, { gameId, token: () => page.token });
  }
  await follow(gameId, { after: page.version, chat: chat.seen(), token: page.auth === "token" ? page.token : null }, {
    version: arrived,
    chat: chat.add,
    mutes: chat.reset,
    notices: showNotices,
    games: showMyGames, // the player's other games: the title's "(n)"
    state: (state) => {
      page.live = state;
      const c = $("#connection");
      c.dataset.state = state;
      c.textContent = { live: t("● live"), connecting: t("connecting…"), reconnecting: t("reconnecting…"),
        closed: t("offline") }[state] || state;
    },
  });
}

window.addEventListener("hashchange", () => location.reload());
start();
