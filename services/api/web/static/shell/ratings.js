// Ratings (docs/PLAYERS.md, "Ratings"): which open tables are rated and their host's rating (for the lobby's open
// games), and the signed-in player's own ratings per game (a section of the settings page). Game-agnostic: a game
// is named by the title the server gives it.

import { ApiError, inWords } from "./api.js";
import { h } from "./dom.js";
import { num, t, tn } from "./i18n.js";

async function read(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, data, response.headers.get("Retry-After"));
  return data;
}

/** Of these games, the rated ones: a Map of game id -> {rating (null: the host has no rating yet), games}. */
export async function ratedTables(gameIds) {
  if (!gameIds.length) return new Map();
  const query = gameIds.map((id) => `game=${encodeURIComponent(id)}`).join("&");
  const found = await read(`/api/ratings/tables?${query}`);
  return new Map(found.tables.map((r) => [r.game_id, r]));
}

/** The words an open game shows when it is rated: "Rated · host 1,069" (or "host not rated yet"). */
export function ratedNote(rated) {
  const text = rated.rating === null || rated.rating === undefined ? t("Rated game · the host has no rating yet")
    : t("Rated game · host's rating {rating}", { rating: num(rated.rating) });
  return h("span", { class: "rated-table", "data-host-rating": rated.rating ?? "" }, " ", text);
}

/** The settings page's "Your ratings": each game's rating and the rated games played. */
export function ratingsSection(player) {
  const list = h("ul", { id: "my-ratings-list" });
  const empty = h("p", { id: "my-ratings-empty", class: "hint", hidden: true },
    t("No rated games yet. Create a game with “Rated” ticked, or join a rated open game."));
  const box = h("section", { id: "my-ratings", "aria-labelledby": "my-ratings-title" },
    h("h2", { id: "my-ratings-title" }, t("Your ratings")),
    h("p", { class: "hint" }, t("A rating per game, from your rated games against other players (the computer is not rated). A newcomer starts at {start}.", { start: num(1000) })),
    list, empty,
    h("p", {}, h("a", { id: "my-player-page", href: `/players/${encodeURIComponent(player.player_id)}` },
      t("Your public page"))));
  read(`/api/players/${encodeURIComponent(player.player_id)}/ratings`).then((mine) => {
    list.replaceChildren(...mine.ratings.map((r) => h("li", { class: "my-rating", "data-game-type": r.game_type },
      h("a", { href: `/leaderboard/${encodeURIComponent(r.game_type)}` }, h("strong", {}, r.title)), " ",
      tn("{rating} after {n} rated game", "{rating} after {n} rated games", r.games, { rating: num(r.rating) }))));
    empty.hidden = mine.ratings.length > 0;
  }).catch((err) => {
    empty.hidden = false;
    empty.textContent = inWords(err);
  });
  return box;
}
