// The lobby: create a game (seats human or AI, difficulty, advanced tenants, tutorial setup), hand out one
// invite link per human seat, and list the games this browser holds seats in, showing where it is our turn.

import { api, inWords } from "./api.js";
import { h } from "./dom.js";
import { seats } from "./seats.js";
import { PHASES, Words } from "../games/magnate/words.js";

const $ = (sel) => document.querySelector(sel);
let words = null;

function seatRow(i, kind) {
  const kindId = `seat-${i}-kind`;
  const nameId = `seat-${i}-name`;
  const select = h("select", { id: kindId, name: kindId, class: "seat-kind" },
    h("option", { value: "human" }, "Human"), h("option", { value: "ai" }, "AI"));
  select.value = kind;
  select.addEventListener("change", syncDifficulty);
  return h("li", { class: "seat-row" },
    h("span", { class: "seat-number" }, `Seat ${i + 1}`),
    h("label", { for: kindId, class: "visually-hidden" }, `Seat ${i + 1} is played by`),
    select,
    h("label", { for: nameId, class: "visually-hidden" }, `Seat ${i + 1} player name`),
    h("input", { id: nameId, name: nameId, class: "seat-name", type: "text", maxlength: "40", placeholder: "name (optional)", autocomplete: "off" }));
}

function drawSeats() {
  const n = Number($("#seat-count").value);
  const list = $("#seat-list");
  const old = [...list.children].map((li) => ({ kind: li.querySelector(".seat-kind").value, name: li.querySelector(".seat-name").value }));
  list.replaceChildren();
  for (let i = 0; i < n; i++) {
    const row = seatRow(i, old[i] ? old[i].kind : i === n - 1 && n === 2 && !old.length ? "ai" : "human");
    if (old[i]) row.querySelector(".seat-name").value = old[i].name;
    list.append(row);
  }
  syncTutorial();
  syncDifficulty();
}

function syncDifficulty() {
  const anyAi = [...document.querySelectorAll(".seat-kind")].some((s) => s.value === "ai");
  $("#difficulty").disabled = !anyAi;
}

function syncTutorial() {
  const tutorial = $("#tutorial").checked;
  const hint = $("#tutorial-hint");
  hint.hidden = !tutorial;
  $("#advanced").disabled = tutorial;
  if (tutorial) {
    $("#advanced").checked = false;
    hint.textContent = `The tutorial setup is for ${words.cat.setup.tutorial_seats} human seats on the standard side.`;
    for (const s of document.querySelectorAll(".seat-kind")) {
      s.value = "human";
      s.disabled = true;
    }
  } else {
    for (const s of document.querySelectorAll(".seat-kind")) s.disabled = false;
  }
}

function seedFromQuery() {
  const seed = new URLSearchParams(location.search).get("seed");
  return seed && /^([0-9a-fA-F]{2}){1,64}$/.test(seed) ? seed : null;
}

async function create(e) {
  e.preventDefault();
  const error = $("#create-error");
  error.textContent = "";
  const rows = [...document.querySelectorAll(".seat-row")];
  const options = {
    seats: rows.map((li) => ({ kind: li.querySelector(".seat-kind").value })),
    advanced: $("#advanced").checked,
    tutorial: $("#tutorial").checked,
  };
  if (options.seats.some((s) => s.kind === "ai")) options.difficulty = $("#difficulty").value;
  const body = {
    game: "magnate",
    options,
    names: rows.map((li) => li.querySelector(".seat-name").value.trim() || null),
  };
  const seed = seedFromQuery();
  if (seed) body.seed = seed;
  const button = $("#create-button");
  button.disabled = true;
  try {
    const created = await api.create(body);
    showCreated(created);
  } catch (err) {
    error.textContent = inWords(err);
    button.focus();
  } finally {
    button.disabled = false;
  }
}

function showCreated(created) {
  const list = $("#invite-list");
  list.replaceChildren();
  for (const s of created.seats) {
    const company = words.company(s.payload.company);
    const label = s.name && s.name !== s.payload.company && s.name !== company ? `${s.name} (${company})` : company;
    if (s.kind !== "human") {
      list.append(h("li", { class: "invite ai-seat" }, h("strong", {}, `Seat ${s.seat + 1}: ${label}`), " — the AI plays it: no link needed."));
      continue;
    }
    seats.keep({ game_id: created.game_id, seat: s.seat, token: s.token, name: s.name, company: s.payload.company });
    const url = new URL(s.invite_url);
    const local = `${location.origin}${url.pathname}${url.hash}`;
    const inputId = `invite-${s.seat}`;
    const copy = h("button", { type: "button" }, `Copy link for seat ${s.seat + 1}`);
    const copied = h("span", { class: "copied", role: "status" });
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(s.invite_url);
        copied.textContent = "Copied.";
      } catch (err) {
        document.getElementById(inputId).select();
        copied.textContent = "Select the link and copy it.";
      }
    });
    list.append(h("li", { class: "invite", "data-seat": String(s.seat) },
      h("strong", {}, `Seat ${s.seat + 1}: ${label}`),
      h("label", { for: inputId, class: "visually-hidden" }, `Invite link for seat ${s.seat + 1}`),
      h("input", { id: inputId, type: "text", readonly: true, value: s.invite_url, class: "invite-url" }),
      h("span", { class: "buttons" }, copy, h("a", { href: local, class: "button-link" }, `Play seat ${s.seat + 1}`), copied)));
  }
  const section = $("#created");
  section.hidden = false;
  section.focus();
  loadMyGames();
}

async function loadMyGames() {
  const held = seats.all();
  const list = $("#my-games-list");
  $("#my-games-empty").hidden = held.length > 0;
  const byGame = new Map();
  for (const s of held) {
    if (!byGame.has(s.game_id)) byGame.set(s.game_id, []);
    byGame.get(s.game_id).push(s);
  }
  const items = await Promise.all([...byGame].map(async ([gameId, mine]) => {
    let game = null;
    try {
      game = await api.game(gameId);
    } catch (err) {
      return h("li", { class: "game gone" }, `Game ${gameId.slice(0, 8)}: ${inWords(err)}`);
    }
    const view = game.view;
    const status = game.status === "finished" ? "finished" : `round ${view.round}, ${PHASES[view.phase] || view.phase}`;
    const links = mine.sort((a, b) => a.seat - b.seat).map((s) => {
      const turn = game.on_turn.includes(s.seat);
      const label = `Seat ${s.seat + 1}${s.name && s.name !== s.company ? ` (${s.name})` : ""}`;
      return h("li", { class: turn ? "your-turn" : "" },
        h("a", { href: `/play/${gameId}#token=${encodeURIComponent(s.token)}` }, label),
        turn ? h("strong", { class: "turn-flag" }, " — your turn") : "");
    });
    const players = view.seats.map((s) => words.company(s.company)).join(", ");
    const anyTurn = mine.some((s) => game.on_turn.includes(s.seat));
    return h("li", { class: `game${anyTurn ? " your-turn" : ""}`, "data-game": gameId },
      h("p", {}, h("strong", {}, players), ` — ${status}`), h("ul", { class: "seat-links" }, ...links));
  }));
  // your turn first, then the newest
  items.sort((a, b) => Number(b.classList.contains("your-turn")) - Number(a.classList.contains("your-turn")));
  list.replaceChildren(...items);
}

async function start() {
  try {
    words = new Words(await api.catalog("magnate", "v1"));
  } catch (err) {
    $("#create-error").textContent = inWords(err);
    return;
  }
  const { min_seats: min, max_seats: max } = words.cat.setup;
  const count = $("#seat-count");
  for (let n = min; n <= max; n++) count.append(h("option", { value: String(n) }, String(n)));
  count.value = String(min);
  count.addEventListener("change", drawSeats);
  for (const d of words.cat.difficulties) $("#difficulty").append(h("option", { value: d.key }, d.name));
  $("#tutorial").addEventListener("change", () => {
    if ($("#tutorial").checked) {
      count.value = String(words.cat.setup.tutorial_seats);
      drawSeats();
    }
    syncTutorial();
    syncDifficulty();
  });
  drawSeats();
  const seed = seedFromQuery();
  if (seed) {
    $("#seed-note").hidden = false;
    $("#seed-note").textContent = `Sandbox seed from the address: ${seed} (only a sandbox server accepts it).`;
  }
  $("#create-form").addEventListener("submit", create);
  loadMyGames();
}

start();
