// The lobby: choose one of the server's games (GET /api/catalog), fill in its options (the form is the game's
// bundle's; the players' names are the shell's), create it with an Idempotency-Key, hand out one invite link
// per other human seat (the host may revoke one or issue a new one), and list "My games", your turn first: a
// signed-in player's from the server (every device, live), a guest's from the seats this browser keeps.
//
// The creator's browser keeps only the creator's own seat (the host seat): a signed-in creator claims it at once
// (it is then played with the session, on any device); a guest keeps its token here.

import { mountAccount, onMyGames, showMyGames, showNotices } from "./account.js";
import { api, inWords, randomKey } from "./api.js";
import { bundleOf } from "./bundles.js";
import { tableOptionsForm } from "./clocks.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { copyButton, inviteItem } from "./invites.js";
import { seats } from "./seats.js";
import { mountTables } from "./tables.js";
import "./language.js";

const $ = (sel) => document.querySelector(sel);

const lobby = {
  games: [], // GET /api/catalog
  entry: null, // the chosen game's line of it
  bundle: null,
  form: null, // its bundle's options form: {read(), seats(), table()?}
  table: null, // the table's options form (time limit, timeouts, take-back): {read()}
  names: [], // the name field of each seat (kept when the form is redrawn or another game is chosen)
  choosing: 0,
  attempt: null, // {key, body}: the Idempotency-Key of the creation not yet answered, and what it sent
  player: null, // the signed-in player, or null (a guest)
  mine: null, // the server's "My games" (signed in)
};

/** The name field of seat ``i``, for the game's form to place in the seat's row. */
function nameField(i) {
  if (!lobby.names[i]) {
    const id = `seat-${i}-name`;
    lobby.names[i] = h("span", { class: "name-field" },
      h("label", { for: id, class: "visually-hidden" }, t("Seat {seat} player name", { seat: i + 1 })),
      h("input", { id, name: id, class: "seat-name", type: "text", maxlength: "40", placeholder: t("name (optional)"),
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
  $("#game-rules").href = `/rules/${encodeURIComponent(entry.game)}`;
  $("#game-leaderboard").href = `/leaderboard/${encodeURIComponent(entry.game)}`;
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
    $("#create-error").textContent = t("{game} cannot be set up here: {reason}", { game: entry.title || entry.game, reason: failure(err) });
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
    // the table: the shell's choices, and the seats the game's form gives a stand-in from the start
    const table = { ...lobby.table.read(), ...(form.table ? form.table() : {}) };
    // the defaults (no time limit, seats may be taken back, nobody stands in) are the server's too: say nothing
    const plain = !table.clock && table.takeback !== false && !(table.stand_ins || []).length
      && Object.keys(table).every((k) => ["clock", "takeback", "stand_ins"].includes(k));
    if ($("#rated")?.checked) table.rated = true; // a rated game: ratings change when it ends
    if (!plain || table.rated) body.table = table;
    if ($("#listed").checked) body.listed = true;
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
    await showCreated(created, bundle);
  } catch (err) {
    error.textContent = inWords(err);
    button.focus();
  } finally {
    button.disabled = false;
  }
}

/** The host's seat of a created game: the server's ``host_seat``, else the first person's seat. */
function hostOf(created) {
  const human = created.seats.filter((s) => s.kind === "human");
  return human.find((s) => s.seat === created.host_seat) || human[0] || null;
}

async function showCreated(created, bundle) {
  const list = $("#invite-list");
  list.replaceChildren();
  const host = hostOf(created);
  let hostToken = host ? host.token : null;
  let claimed = false;
  if (host && lobby.player) {
    try {
      await api.claim(created.game_id, host.token); // the creator's own seat, in their account
      claimed = true;
      hostToken = null;
    } catch (err) {
      claimed = false; // kept as a guest's seat below; the game page offers the claim again
    }
  }
  if (host && !claimed) {
    seats.keep({ game_id: created.game_id, game_type: created.game_type, seat: host.seat, token: host.token,
      name: host.name, host: true });
  }
  if (host) seats.hosting(created.game_id, host.seat);
  const play = host && (claimed ? `/play/${encodeURIComponent(created.game_id)}`
    : `${new URL(host.invite_url).pathname}${new URL(host.invite_url).hash}`);
  if (host && !created.seats.some((s) => s.kind === "human" && s.seat !== host.seat)) {
    location.assign(play); // every other seat is the computer's: no link to hand out, the game starts now
    return;
  }
  for (const s of created.seats) {
    const label = bundle.seatLabel(s, null);
    if (s.kind === "stand_in") {
      list.append(h("li", { class: "invite ai-seat stand-in-seat", "data-seat": String(s.seat) },
        h("strong", {}, t("Seat {seat}: {name}", { seat: s.seat + 1, name: label })), " ", t("— the computer plays it: no link needed.")));
      continue;
    }
    if (s.kind !== "human") {
      list.append(h("li", { class: "invite ai-seat" }, h("strong", {}, t("Seat {seat}: {name}", { seat: s.seat + 1, name: label })),
        " ", t("— the computer plays it: no link needed.")));
      continue;
    }
    if (host && s.seat === host.seat) {
      const inputId = `invite-${s.seat}`;
      const [copy, copied] = copyButton(s.seat, inputId, () => s.invite_url);
      list.append(h("li", { class: "invite host-seat", "data-seat": String(s.seat) },
        h("strong", {}, t("Seat {seat}: {name} — your seat", { seat: s.seat + 1, name: label })),
        claimed ? h("p", { class: "hint" }, t("Kept in your account: play it from any device you sign in on."))
          : h("p", { class: "hint" }, t("Your own link (this browser keeps it): open it in another browser to play there, or sign in to keep the seat in an account.")),
        claimed ? "" : h("label", { for: inputId, class: "visually-hidden" }, t("Invite link for seat {seat}", { seat: s.seat + 1 })),
        claimed ? "" : h("input", { id: inputId, type: "text", readonly: true, value: s.invite_url, class: "invite-url" }),
        h("span", { class: "buttons" }, claimed ? "" : copy, h("a", { href: play, class: "button-link" }, t("Play seat {seat}", { seat: s.seat + 1 })),
          claimed ? "" : copied)));
      continue;
    }
    list.append(inviteItem({ gameId: created.game_id, seat: s.seat, label, inviteUrl: s.invite_url, hostToken }));
  }
  const section = $("#created");
  section.hidden = false;
  section.focus();
  loadMyGames();
}

/** The state of a game in a few words, by its bundle if it says ("round 3, bidding"). */
async function summary(game) {
  if (game.status === "finished") return t("finished");
  try {
    const bundle = await bundleOf(game.game_type, { styles: false });
    return (bundle.summary && bundle.summary(game.view)) || t("running");
  } catch (err) {
    return t("running");
  }
}

/** A guest's games: the seats this browser keeps (each read from the server). */
async function localGames(held) {
  const byGame = new Map();
  for (const s of held) {
    if (!byGame.has(s.game_id)) byGame.set(s.game_id, []);
    byGame.get(s.game_id).push(s);
  }
  return Promise.all([...byGame].map(async ([gameId, mine]) => {
    let game = null;
    try {
      game = await api.game(gameId);
    } catch (err) {
      return h("li", { class: "game gone" }, t("Game {id}: {reason}", { id: gameId.slice(0, 8), reason: inWords(err) }));
    }
    const status = await summary(game);
    const links = mine.sort((a, b) => a.seat - b.seat).map((s) => {
      const turn = game.on_turn.includes(s.seat);
      return h("li", { class: turn ? "your-turn" : "" },
        h("a", { href: `/play/${encodeURIComponent(gameId)}#token=${encodeURIComponent(s.token)}` },
          s.name ? t("Seat {seat} ({name})", { seat: s.seat + 1, name: s.name }) : t("Seat {seat}", { seat: s.seat + 1 })),
        turn ? h("strong", { class: "turn-flag" }, " ", t("— your turn")) : "");
    });
    const players = (game.players || []).map((p) => p.name).filter(Boolean).join(", ");
    const anyTurn = mine.some((s) => game.on_turn.includes(s.seat));
    return h("li", { class: `game${anyTurn ? " your-turn" : ""}${lobby.player ? " guest-seat" : ""}`, "data-game": gameId,
      "data-game-type": game.game_type },
    h("p", {}, h("strong", { class: "game-title" }, game.title || game.game_type),
      players ? ` · ${players}` : "", h("span", { class: "game-status" }, ` — ${status}`),
      lobby.player ? h("span", { class: "hint" }, " ", t("(kept in this browser, not in your account)")) : ""),
    h("ul", { class: "seat-links" }, ...links));
  }));
}

/** A signed-in player's game, as GET /api/me/games lists it. */
function accountGame(g) {
  const name = (g.names || [])[g.seat] || "";
  const players = (g.names || []).filter(Boolean).join(", ");
  const status = g.status === "finished" ? t("finished") : g.your_turn ? t("your turn") : t("waiting for the others");
  return h("li", { class: `game${g.your_turn ? " your-turn" : ""}`, "data-game": g.game_id, "data-game-type": g.game_type },
    h("p", {}, h("strong", { class: "game-title" }, g.title || g.game_type), players ? ` · ${players}` : "",
      h("span", { class: "game-status" }, ` — ${status}`)),
    h("ul", { class: "seat-links" }, h("li", { class: g.your_turn ? "your-turn" : "" },
      h("a", { href: `/play/${encodeURIComponent(g.game_id)}` }, name ? t("Seat {seat} ({name})", { seat: g.seat + 1, name }) : t("Seat {seat}", { seat: g.seat + 1 })),
      g.your_turn ? h("strong", { class: "turn-flag" }, " ", t("— your turn")) : "")));
}

let drawing = 0;

async function loadMyGames() {
  const attempt = ++drawing;
  const list = $("#my-games-list");
  let items = [];
  if (lobby.player) {
    const account = lobby.mine ? lobby.mine.games : [];
    const inAccount = new Set(account.map((g) => g.game_id));
    const local = await localGames(seats.all().filter((s) => !inAccount.has(s.game_id)));
    items = [...account.map(accountGame), ...local];
    $("#my-games-source").textContent = lobby.mine ? t("Your account's games, on every device you sign in on (kept up to date live).")
      : t("Loading your account's games…");
  } else {
    items = await localGames(seats.all());
    $("#my-games-source").textContent = "";
  }
  if (attempt !== drawing) return; // a newer list was drawn meanwhile
  $("#my-games-empty").hidden = items.length > 0;
  $("#my-games-empty").textContent = lobby.player ? t("No games yet. Create one below, or open an invite link to claim its seat.")
    : t("No games in this browser yet. Create one below, or open an invite link.");
  // your turn first (the server's order otherwise)
  items.sort((a, b) => Number(b.classList.contains("your-turn")) - Number(a.classList.contains("your-turn")));
  list.replaceChildren(...items);
}

async function start() {
  $("#create-form").addEventListener("submit", create);
  lobby.table = tableOptionsForm($("#table-options-slot"));
  lobby.player = await mountAccount({ live: "page" }); // the player's games and notices come on the lobby's stream
  if (lobby.player) { // rated games are between signed-in players: offered to them only
    $(".listed-choice").after(h("p", { class: "row rated-choice" }, h("input", { type: "checkbox", id: "rated", name: "rated" }),
      h("label", { for: "rated" }, t("Rated: the game changes its players' ratings (every person's seat must be a signed-in player's; the computer is not rated)"))));
  }
  if (lobby.player) {
    onMyGames((games) => {
      lobby.mine = games;
      loadMyGames();
    });
  }
  const seed = seedFromQuery();
  if (seed) {
    $("#seed-note").hidden = false;
    $("#seed-note").textContent = t("Sandbox seed from the address: {seed} (only a sandbox server accepts it).", { seed });
  }
  loadMyGames();
  mountTables({ openList: $("#open-games-list"), openEmpty: $("#open-games-empty"), watchList: $("#live-games-list"),
    watchEmpty: $("#live-games-empty"), watchMore: $("#live-games-more"), player: lobby.player,
    on: { games: showMyGames, notices: showNotices } });
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
    $("#create-error").textContent = t("This server offers no games.");
    return;
  }
  for (const g of lobby.games) select.append(h("option", { value: g.game }, g.title || g.game));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && lobby.games.some((g) => g.game === wanted)) select.value = wanted;
  select.addEventListener("change", chooseGame);
  await chooseGame();
}

start();
