// The lobby: choose one of the server's games (GET /api/catalog), fill in its options (the form is the game's
// bundle's; the players' names are the shell's), create it with an Idempotency-Key, hand out one invite link
// per human seat, and list the games this browser holds seats in, where it is our turn first.

import { api, inWords, randomKey } from "./api.js";
import { bundleOf } from "./bundles.js";
import { h } from "./dom.js";
import { seats } from "./seats.js";

const $ = (sel) => document.querySelector(sel);

const lobby = {
  games: [], // GET /api/catalog
  entry: null, // the chosen game's line of it
  bundle: null,
  form: null, // its bundle's options form: {read(), seats()}
  names: [], // the name field of each seat (kept when the form is redrawn or another game is chosen)
  choosing: 0,
  attempt: null, // {key, body}: the Idempotency-Key of the creation not yet answered, and what it sent
};

/** The name field of seat ``i``, for the game's form to place in the seat's row. */
function nameField(i) {
  if (!lobby.names[i]) {
    const id = `seat-${i}-name`;
    lobby.names[i] = h("span", { class: "name-field" },
      h("label", { for: id, class: "visually-hidden" }, `Seat ${i + 1} player name`),
      h("input", { id, name: id, class: "seat-name", type: "text", maxlength: "40", placeholder: "name (optional)",
        autocomplete: "off" }));
  }
  return lobby.names[i];
}

function seedFromQuery() {
  const seed = new URLSearchParams(location.search).get("seed");
  return seed && /^([0-9a-fA-F]{2}){1,64}$/.test(seed) ? seed : null;
}

function failure(err) {
  return err && err.code ? inWords(err) : String(err && err.message ? err.message : err);
}

/** Draws the chosen game's options form (its bundle's). */
async function chooseGame() {
  const entry = lobby.games.find((g) => g.game === $("#game-type").value);
  const container = $("#game-options");
  const button = $("#create-button");
  const attempt = ++lobby.choosing;
  button.disabled = true;
  $("#create-error").textContent = "";
  lobby.form = null;
  container.removeAttribute("data-game");
  container.setAttribute("aria-busy", "true");
  try {
    const bundle = await bundleOf(entry.game);
    const box = h("div", { class: "options" });
    const form = await bundle.optionsForm(box, entry, { nameField });
    if (attempt !== lobby.choosing) return; // another game was chosen meanwhile
    container.replaceChildren(box);
    container.dataset.game = entry.game;
    Object.assign(lobby, { entry, bundle, form });
    button.disabled = false;
  } catch (err) {
    if (attempt !== lobby.choosing) return;
    container.replaceChildren();
    $("#create-error").textContent = `${entry.title || entry.game} cannot be set up here: ${failure(err)}`;
  } finally {
    if (attempt === lobby.choosing) container.removeAttribute("aria-busy");
  }
}

async function create(e) {
  e.preventDefault();
  const { entry, bundle, form } = lobby;
  if (!form) return;
  const error = $("#create-error");
  error.textContent = "";
  let body;
  try {
    const names = form.seats().map((_, i) => nameField(i).querySelector("input").value.trim() || null);
    body = { game: entry.game, options: form.read(), names };
  } catch (err) {
    error.textContent = failure(err);
    return;
  }
  const seed = seedFromQuery();
  if (seed) body.seed = seed;
  // One key per creation: sending the same form again after a failure is a retry of it (the server then
  // answers with the game it may have made already); another form, or a new game after this one, a new key.
  const sent = JSON.stringify(body);
  if (!lobby.attempt || lobby.attempt.body !== sent) lobby.attempt = { key: randomKey(), body: sent };
  const button = $("#create-button");
  button.disabled = true;
  try {
    const created = await api.create(body, lobby.attempt.key);
    lobby.attempt = null;
    showCreated(created, bundle);
  } catch (err) {
    error.textContent = inWords(err);
    button.focus();
  } finally {
    button.disabled = false;
  }
}

function showCreated(created, bundle) {
  const list = $("#invite-list");
  list.replaceChildren();
  for (const s of created.seats) {
    const label = bundle.seatLabel(s, null);
    if (s.kind !== "human") {
      list.append(h("li", { class: "invite ai-seat" }, h("strong", {}, `Seat ${s.seat + 1}: ${label}`), " — the AI plays it: no link needed."));
      continue;
    }
    seats.keep({ game_id: created.game_id, game_type: created.game_type, seat: s.seat, token: s.token, name: s.name });
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

/** The state of a game in a few words, by its bundle if it says ("round 3, bidding"). */
async function summary(game) {
  if (game.status === "finished") return "finished";
  try {
    const bundle = await bundleOf(game.game_type, { styles: false });
    return (bundle.summary && bundle.summary(game.view)) || "running";
  } catch (err) {
    return "running";
  }
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
    const status = await summary(game);
    const links = mine.sort((a, b) => a.seat - b.seat).map((s) => {
      const turn = game.on_turn.includes(s.seat);
      return h("li", { class: turn ? "your-turn" : "" },
        h("a", { href: `/play/${encodeURIComponent(gameId)}#token=${encodeURIComponent(s.token)}` },
          `Seat ${s.seat + 1}${s.name ? ` (${s.name})` : ""}`),
        turn ? h("strong", { class: "turn-flag" }, " — your turn") : "");
    });
    const players = (game.players || []).map((p) => p.name).filter(Boolean).join(", ");
    const anyTurn = mine.some((s) => game.on_turn.includes(s.seat));
    return h("li", { class: `game${anyTurn ? " your-turn" : ""}`, "data-game": gameId, "data-game-type": game.game_type },
      h("p", {}, h("strong", { class: "game-title" }, game.title || game.game_type),
        players ? ` · ${players}` : "", h("span", { class: "game-status" }, ` — ${status}`)),
      h("ul", { class: "seat-links" }, ...links));
  }));
  // your turn first, then the newest
  items.sort((a, b) => Number(b.classList.contains("your-turn")) - Number(a.classList.contains("your-turn")));
  list.replaceChildren(...items);
}

async function start() {
  $("#create-form").addEventListener("submit", create);
  const seed = seedFromQuery();
  if (seed) {
    $("#seed-note").hidden = false;
    $("#seed-note").textContent = `Sandbox seed from the address: ${seed} (only a sandbox server accepts it).`;
  }
  loadMyGames();
  const select = $("#game-type");
  try {
    lobby.games = await api.games();
  } catch (err) {
    $("#create-button").disabled = true;
    $("#create-error").textContent = inWords(err);
    return;
  }
  if (!lobby.games.length) {
    $("#create-button").disabled = true;
    $("#create-error").textContent = "This server offers no games.";
    return;
  }
  for (const g of lobby.games) select.append(h("option", { value: g.game }, g.title || g.game));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && lobby.games.some((g) => g.game === wanted)) select.value = wanted;
  select.addEventListener("change", chooseGame);
  await chooseGame();
}

start();
