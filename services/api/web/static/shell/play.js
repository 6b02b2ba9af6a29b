// The game page: loads the seat's view and legal commands, draws everything, follows the live stream.

import { ApiError, api, inWords } from "./api.js";
import { renderActions } from "../games/magnate/actions.js";
import { renderAi } from "../games/magnate/ai.js";
import { City, legend } from "../games/magnate/city.js";
import { renderCompanies } from "../games/magnate/companies.js";
import { diceRow } from "../games/magnate/dice.js";
import { History, renderFinal } from "./history.js";
import { follow } from "./live.js";
import { h } from "./dom.js";
import { renderMarket } from "../games/magnate/market.js";
import { seats } from "./seats.js";
import { PHASES, SYSTEM_JOBS, Words } from "../games/magnate/words.js";

const $ = (sel) => document.querySelector(sel);
const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");

const page = {
  token: null,
  seat: null,
  version: -1,
  view: null,
  legal: [],
  players: [],
  words: null,
  dataset: null,
  lastRoll: null,
  source: null,
};
const city = new City($("#city"), $("#plot-info"));
const history = new History($("#history-list"));

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

async function wordsFor(view) {
  if (!page.words || page.dataset !== view.dataset) {
    page.words = new Words(await api.catalog("magnate", view.dataset));
    page.dataset = view.dataset;
  }
  return page.words;
}

function statusText(view) {
  const phase = PHASES[view.phase] || view.phase;
  if (view.phase === "ended") return `Round ${view.round} · ${phase}`;
  const mine = page.seat !== null && view.on_turn.includes(page.seat);
  const turn = mine ? "your turn" : view.on_turn.length
    ? `${view.on_turn.map((s) => page.words.seat(s, view, page.players)).join(", ")} to play`
    : SYSTEM_JOBS[view.system_job] || "automatic step";
  return `Round ${view.round} · ${phase} · ${turn}`;
}

/** The last roll as dice; redrawn only when it changed, and rolled (animated) when its faces are new. Not
 * once the game is over: the final standings come first, and a roll from before the crash no longer matters. */
function renderDice() {
  const roll = page.lastRoll;
  const panel = $("#dice");
  const a = page.view && page.view.attraction;
  const asking = Boolean(a && page.legal.length && roll && a.plot === roll.plot); // the form shows these dice
  const over = Boolean(page.view && page.view.phase === "ended");
  const key = JSON.stringify([roll, asking, over, page.view ? page.view.round : null]);
  if (key === page.diceKey) return;
  const faces = roll ? JSON.stringify([roll.seat, roll.plot, roll.faces]) : null;
  const animate = page.diceFaces !== undefined && faces !== page.diceFaces;
  page.diceKey = key;
  page.diceFaces = faces;
  if (!roll || !page.view || asking || over) { panel.replaceChildren(); return; }
  const who = page.words.seat(roll.seat, page.view, page.players);
  const parts = [h("h3", {}, "Last roll"), h("p", {}, `${who}, attracting tenants to ${roll.plot}:`),
    diceRow(roll.faces, { caption: "rolled", marks: roll.faces.map(() => "") })];
  if (roll.final) {
    const marks = roll.final.map((_, i) => (roll.fives.includes(i) ? "five" : ""));
    const how = [roll.fives.length ? `advertising set ${roll.fives.length} to 5` : "", roll.modifier ? `${roll.modifier > 0 ? "+" : "−"}${Math.abs(roll.modifier)} each` : ""]
      .filter(Boolean).join(", ");
    parts.push(diceRow(roll.final, { caption: `final${how ? ` (${how})` : ""}`, marks, numbers: true }));
  }
  if (roll.tenants) parts.push(h("p", {}, roll.tenants.length ? `Moving in: ${page.words.tenants(roll.tenants)}.` : "Nobody moves in."));
  panel.replaceChildren(...parts);
  panel.classList.toggle("fresh", animate);
}

/** Dice as they happen, from stored events (the live stream's, or the recent log's at load). */
function noteDice(events) {
  let changed = false;
  for (const e of events) {
    const p = e.payload;
    if (e.type === "magnate.dice_rolled") {
      page.lastRoll = { seat: p.seat, plot: p.plot, faces: p.faces, final: null, fives: [], modifier: 0, tenants: null };
      changed = true;
    } else if (e.type === "magnate.dice_settled" && page.lastRoll && page.lastRoll.plot === p.plot) {
      Object.assign(page.lastRoll, { final: p.final, fives: p.fives, modifier: p.modifier });
      changed = true;
    } else if (e.type === "magnate.tenants_moved_in" && page.lastRoll && page.lastRoll.plot === p.plot) {
      page.lastRoll.tenants = p.tenants;
      changed = true;
    }
  }
  return changed;
}

async function send(command) {
  try {
    await api.submit(gameId, page.token, command, page.version);
  } catch (err) {
    if (err instanceof ApiError && err.code === "conflict/version") {
      $("#notice").textContent = inWords(err);
      await refresh();
      return;
    }
    throw err;
  }
  $("#notice").textContent = "";
  await refresh();
}

function render(data) {
  const { view } = data;
  const words = page.words;
  page.view = view;
  page.legal = data.legal || [];
  page.players = data.players || [];
  const me = page.seat !== null ? words.seat(page.seat, view, page.players) : null;
  $("#game-title").textContent = me ? `Magnate — ${me}` : "Magnate — watching";
  const mine = page.seat !== null && page.legal.length > 0;
  document.title = `${mine ? "(Your turn) " : ""}Magnate: The First City`;
  $("#status").textContent = statusText(view);
  document.body.classList.toggle("my-turn", mine);
  $("#turn-title").textContent = page.seat === null ? "Watching" : mine ? "Your move" : view.phase === "ended" ? "Game over" : "Waiting";
  renderActions($("#actions"), { view, legal: page.legal, seat: page.seat, words, players: page.players, send });
  city.render(view, words, page.players, page.seat);
  legend($("#legend"), view, words, page.players);
  renderCompanies($("#company-table"), view, words, page.players, page.seat);
  renderMarket($("#market-body"), view, words);
  renderAi($("#ai"), $("#ai-body"), view, words, history.decisions());
  renderFinal($("#final"), $("#final-body"), gameId, view, words, page.players);
  renderDice();
  Object.assign(document.body.dataset, { version: String(page.version), round: String(view.round), phase: view.phase });
}

/** The last few lines of the story, next to the move (the AI's moves and the market as they happen). */
function renderLatest() {
  const items = history.lines.slice(-6).map((line) =>
    h("li", { class: `depth-${line.depth}`, "data-event": line.event }, line.text));
  $("#latest").replaceChildren(...items);
}

let running = null;
let again = false;

/** Reloads the view and the new history lines; calls made meanwhile are merged into one more reload. */
async function refresh() {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    do {
      again = false;
      const data = page.token ? await api.me(gameId, page.token) : await api.game(gameId);
      const words = await wordsFor(data.view);
      const named = (seat) => words.seat(seat, data.view, data.players || []); // as the headers name seats
      const fresh = history.add(await api.history(gameId, history.version), named);
      if (fresh.length) renderLatest();
      if (page.version >= 0) {
        for (const line of fresh.slice(-4)) announce(line.text);
      }
      if (data.version !== page.version) {
        page.seat = page.token ? data.seat : null;
        page.version = data.version;
        render(data);
      } else {
        renderAi($("#ai"), $("#ai-body"), page.view, page.words, history.decisions());
      }
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
    list.append(h("li", {}, h("a", { href: `#token=${encodeURIComponent(s.token)}` }, `Play seat ${s.seat + 1}${s.name ? ` (${s.name})` : ""}`)));
  }
  $("#notice").replaceChildren("This browser holds several seats of this game: ", list);
}

async function start() {
  page.token = tokenFromHash();
  if (!page.token) {
    const held = seats.forGame(gameId);
    if (held.length === 1) page.token = held[0].token;
    else if (held.length > 1) chooseSeat(held);
  }
  try {
    await refresh();
  } catch (err) {
    showError(inWords(err));
    $("#status").textContent = "The game could not be loaded.";
    if (err instanceof ApiError && err.status === 401 && page.token) seats.forgetToken(page.token);
    return;
  }
  if (page.token && page.seat !== null) {
    const player = page.players.find((p) => p.seat === page.seat);
    seats.keep({ game_id: gameId, seat: page.seat, token: page.token, name: player ? player.name : "",
      company: page.view.seats[page.seat].company });
  }
  try {
    const recent = await fetch(`/api/games/${gameId}/events?after=${Math.max(0, page.version - 80)}`).then((r) => r.json());
    if (noteDice(recent.events || [])) renderDice();
  } catch (err) {
    // the dice panel just starts empty
  }
  page.source = follow(gameId, page.version, {
    onEvents: (data) => {
      if (noteDice(data.events)) renderDice();
      refresh().catch((err) => { $("#notice").textContent = inWords(err); });
    },
    onState: (state) => {
      const c = $("#connection");
      c.dataset.state = state;
      c.textContent = { live: "● live", connecting: "connecting…", reconnecting: "reconnecting…", closed: "offline" }[state] || state;
    },
  });
}

$("#zoom").addEventListener("click", () => {
  const on = $(".city-wrap").classList.toggle("enlarged");
  $("#zoom").setAttribute("aria-pressed", String(on));
});
window.addEventListener("hashchange", () => location.reload());
start();
