// The ratings' own pages (docs/PLAYERS.md "Ratings"): a game's leaderboard at /leaderboard/{game} (a page of players
// at a time, the highest rating first, each name linking to the player's page) and a player's page at
// /players/{player_id} (their rating in each game they played rated games of, each linking to that game's
// leaderboard). Both read only the public ratings routes; the shell names no game (titles come from the server).

import { api, inWords } from "./api.js";
import { h } from "./dom.js";
import { num, t, tn, when } from "./i18n.js";
import "./language.js";

export const leaderboardUrl = (gameType) => `/leaderboard/${encodeURIComponent(gameType)}`;
export const playerUrl = (playerId) => `/players/${encodeURIComponent(playerId)}`;

/** The path's second part (the game type or the player id). */
const subject = () => decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");

function failed(main, err) {
  main.replaceChildren(h("p", { class: "error", role: "alert" }, inWords(err)));
}

function boardRow(row) {
  return h("tr", { class: "board-row", "data-player": row.player_id },
    h("td", { class: "position" }, num(row.position)),
    h("td", {}, h("a", { href: playerUrl(row.player_id) }, row.name)),
    h("td", { class: "rating" }, num(row.rating)),
    h("td", { class: "games" }, num(row.games)));
}

async function leaderboardPage() {
  const game = subject();
  const main = document.querySelector("#board");
  let first;
  try {
    first = await api.leaderboard(game);
  } catch (err) {
    document.querySelector("#board-title").textContent = t("No leaderboard here");
    failed(main, err);
    return;
  }
  const heading = t("Leaderboard: {game}", { game: first.title });
  document.title = heading;
  document.querySelector("#board-title").textContent = heading;
  if (!first.rows.length) {
    main.replaceChildren(h("p", { id: "board-empty" }, t("No rated game of {game} has ended yet.", { game: first.title })));
    return;
  }
  const body = h("tbody", {}, ...first.rows.map(boardRow));
  const more = h("button", { type: "button", id: "board-more", hidden: first.next_offset === null }, t("Show more"));
  let next = first.next_offset;
  more.addEventListener("click", async () => {
    more.disabled = true;
    try {
      const page = await api.leaderboard(game, next);
      body.append(...page.rows.map(boardRow));
      next = page.next_offset;
      more.hidden = next === null;
    } catch (err) {
      main.append(h("p", { class: "error", role: "alert" }, inWords(err)));
    } finally {
      more.disabled = false;
    }
  });
  main.replaceChildren(h("table", { id: "board-table", class: "board-table" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("Place")), h("th", { scope: "col" }, t("Player")),
      h("th", { scope: "col" }, t("Rating")), h("th", { scope: "col" }, t("Rated games")))),
    body), more);
}

async function playerPage() {
  const main = document.querySelector("#player");
  let player;
  try {
    player = await api.playerRatings(subject());
  } catch (err) {
    document.querySelector("#player-title").textContent = t("No such player");
    failed(main, err);
    return;
  }
  document.title = player.name;
  document.querySelector("#player-title").textContent = player.name;
  if (!player.ratings.length) {
    main.replaceChildren(h("p", { id: "player-unrated" }, t("{name} has played no rated game yet.", { name: player.name })));
    return;
  }
  main.replaceChildren(h("h2", {}, t("Ratings")), h("ul", { id: "player-ratings" },
    ...player.ratings.map((r) => h("li", { class: "player-rating", "data-game-type": r.game_type },
      h("a", { href: leaderboardUrl(r.game_type) }, r.title), " ",
      h("strong", { class: "rating" }, num(r.rating)), " ",
      tn("after {n} rated game", "after {n} rated games", r.games), " · ",
      t("last changed {moment}", { moment: when(Date.parse(r.updated_at)) })))));
}

if (document.body.classList.contains("leaderboard-page")) leaderboardPage();
else if (document.body.classList.contains("player-page")) playerPage();
