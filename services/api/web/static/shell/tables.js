// The public table (docs/PLAYERS.md, "Open games, watching and rematch"): the lobby's "Open games" (games their
// creators listed, with a person's seat free: a signed-in player joins one) and "Games to watch" (listed running
// games, most recently moved first, a page at a time), both live on the lobby's one stream (the server sends them
// again when they change; the page asks only for the next page of games to watch); and the "Rematch" button of a finished game's standings. Game-agnostic: a game is shown
// by the title the server gives it.

import { signInHref } from "./account.js";
import { api, inWords } from "./api.js";
import { h } from "./dom.js";
import { ago, t, tn, when as written } from "./i18n.js";
import { ratedNote, ratedTables } from "./ratings.js";
import { seats } from "./seats.js";

const WATCH_PAGE = 10;

function when(text) {
  return written(text) || text;
}

function seatList(game) {
  return game.seats.map((s) => (s.kind !== "human" ? t("{name} (AI)", { name: s.name })
    : s.taken ? s.name : t("{name} (free)", { name: s.name }))).join(", ");
}

/** One open game: who sits there, how many seats are free, and "Join" (or "Sign in to join"). */
function openItem(game, player, onJoined, rated) {
  const error = h("p", { class: "error", role: "alert" });
  let action;
  if (player) {
    action = h("button", { type: "button", class: "join-button", "data-game": game.game_id,
      "aria-label": tn("Join {game} ({n} seat free)", "Join {game} ({n} seats free)", game.seats_free, { game: game.title }) },
    t("Join"));
    action.addEventListener("click", async () => {
      action.disabled = true;
      error.textContent = "";
      try {
        const joined = await api.join(game.game_id);
        onJoined(joined);
      } catch (err) {
        error.textContent = inWords(err);
        action.disabled = false;
      }
    });
  } else {
    action = h("a", { href: signInHref("/"), class: "button-link sign-in-to-join" }, t("Sign in to join"));
  }
  return h("li", { class: "game open-game", "data-game": game.game_id, "data-game-type": game.game_type },
    h("p", {}, h("strong", { class: "game-title" }, game.title), ` · ${seatList(game)}`, rated ? ratedNote(rated) : "",
      h("span", { class: "game-status" }, " ", tn("— {free} of {n} seat free, set up {date}", "— {free} of {n} seats free, set up {date}",
        game.seats_taken + game.seats_free, { free: game.seats_free, date: when(game.created_at) }))),
    h("p", { class: "buttons" }, action, " ", h("a", { href: `/play/${encodeURIComponent(game.game_id)}` }, t("Watch"))),
    error);
}

function watchItem(game) {
  return h("li", { class: "game live-game", "data-game": game.game_id, "data-game-type": game.game_type },
    h("a", { href: `/play/${encodeURIComponent(game.game_id)}` }, h("strong", { class: "game-title" }, game.title),
      ` · ${game.seats.map((s) => s.name).join(", ")}`),
    h("span", { class: "game-status" }, " ", h("time", { datetime: game.updated_at, title: when(game.updated_at) },
      t("— last move {ago}", { ago: ago(game.updated_at) || when(game.updated_at) }))));
}

/** Mounts "Open games" and "Games to watch" in ``openSection`` and ``watchSection`` (each with a list, an empty
 * note and, for watching, a "More" button); ``player`` is the signed-in player or null. Both lists come live on the
 * lobby's one stream (GET /api/tables/stream), which also brings a signed-in player's games and notices
 * (``on.games``, ``on.notices``). */
export function mountTables({ openList, openEmpty, watchList, watchEmpty, watchMore, player, on = {} }) {
  let cursor = null;
  let busy = false;
  let latest = null;

  function onJoined(joined) {
    location.href = `/play/${encodeURIComponent(joined.game_id)}`;
  }

  /** Shows the lists (the lobby stream's ``tables``: {open, live}); a newer one waits for the one being shown. */
  async function show(lists) {
    latest = lists;
    if (busy) return;
    busy = true;
    try {
      while (latest) {
        const { open, live } = latest;
        latest = null;
        await showLists(open, live);
      }
    } finally {
      busy = false;
    }
  }

  async function showLists(open, live) {
    try {
      const held = new Set(seats.all().map((s) => s.game_id));
      const shown = open.games.filter((g) => !held.has(g.game_id));
      const rated = await ratedTables(shown.map((g) => g.game_id)).catch(() => new Map()); // the host's rating
      openList.replaceChildren(...shown.map((g) => openItem(g, player, onJoined, rated.get(g.game_id))));
      openEmpty.hidden = openList.children.length > 0;
      watchList.replaceChildren(...live.games.map(watchItem));
      watchEmpty.hidden = live.games.length > 0;
      cursor = live.next_before;
      watchMore.hidden = cursor === null || cursor === undefined;
    } catch (err) {
      openEmpty.hidden = false;
      openEmpty.textContent = inWords(err);
    }
  }

  watchMore.addEventListener("click", async () => {
    if (cursor === null) return;
    watchMore.disabled = true;
    try {
      const page = await api.liveGames(WATCH_PAGE, cursor);
      watchList.append(...page.games.map(watchItem));
      cursor = page.next_before;
      watchMore.hidden = cursor === null || cursor === undefined;
    } finally {
      watchMore.disabled = false;
    }
  });
  const source = new EventSource("/api/tables/stream");
  const listen = (name, fn) => source.addEventListener(name, (message) => {
    let data;
    try {
      data = JSON.parse(message.data);
    } catch (err) {
      return;
    }
    fn(data);
  });
  listen("tables", show);
  if (on.games) listen("games", on.games);
  if (on.notices) listen("notices", on.notices);
  return source;
}

/** The "Rematch" part of a finished game's standings: a link to the rematch once there is one, else (for a seat of
 * the game) a button that sets it up. ``token``: the guest's seat token (null: the session's seat). */
export function rematchPart({ gameId, rematchId, seat, token }) {
  const box = h("div", { class: "rematch", id: "rematch" });
  const link = (id) => h("p", {}, h("a", { href: `/play/${encodeURIComponent(id)}`, id: "rematch-link",
    class: "button-link" }, t("Go to the rematch")));
  if (rematchId) {
    box.append(link(rematchId));
    return box;
  }
  if (seat === null || seat === undefined) return box;
  const error = h("p", { class: "error", role: "alert" });
  const button = h("button", { type: "button", id: "rematch-button", class: "primary" }, t("Rematch"));
  const invites = h("ul", { class: "invite-list", "aria-label": t("Invite links of the rematch") });
  button.addEventListener("click", async () => {
    button.disabled = true;
    error.textContent = "";
    try {
      const made = await api.rematch(gameId, token);
      const own = made.seats.find((s) => s.seat === seat);
      if (own && own.token) {
        seats.keep({ game_id: made.game_id, game_type: made.game_type, seat, token: own.token, name: own.name });
      }
      for (const s of made.seats) {
        if (s.seat === seat || !s.invite_url) continue;
        invites.append(h("li", {}, t("Seat {seat} ({name}):", { seat: s.seat + 1, name: s.name }), " ",
          h("input", { type: "text", readonly: true, value: s.invite_url, class: "invite-url",
            "aria-label": t("Invite link for seat {seat} of the rematch", { seat: s.seat + 1 }) })));
      }
      button.replaceWith(link(made.game_id).firstChild);
    } catch (err) {
      error.textContent = inWords(err);
      button.disabled = false;
    }
  });
  box.append(h("p", { class: "hint" }, t("Play again: the same game, options and seats; players who held a seat hold it again.")),
    button, error, invites);
  return box;
}
