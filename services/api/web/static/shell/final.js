// Once a game is over: the final standings (GET /api/games/{id} -> outcome), the revealed seed where the game
// commits to one, and the audit export. The game's bundle names the seats and formats the scores.

import { api } from "./api.js";
import { NOTES } from "./clocks.js";
import { h } from "./dom.js";
import { list, num, t, tn, within } from "./i18n.js";
import { receiptPart } from "./receipt.js";
import { rematchPart } from "./tables.js";

/** Shows (or hides, while ``outcome`` is null) the final panel; ``label(seat)`` names a seat; ``seat`` and ``token``
 * (the caller's seat, and a guest's token) offer a rematch, ``rematchId`` links to it once there is one. */
export function renderFinal(section, container, { gameId, gameType, outcome, bundle, view, label, seat = null,
  token = null, rematchId = null }) {
  section.hidden = !outcome;
  if (!outcome) return;
  const labels = { seat: t("Player"), score: t("Score"), ...(bundle.labels || {}) };
  // what the table says of a seat: timed out, left, resigned, forfeited (a column only when a seat has one)
  const notes = outcome.standings.some((s) => s.note);
  const table = h("table", { class: "standings" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Rank")), h("th", { scope: "col" }, labels.seat),
      h("th", { scope: "col", class: "num" }, labels.score), notes ? h("th", { scope: "col" }, t("Note")) : null)));
  const body = h("tbody");
  for (const s of outcome.standings) {
    body.append(h("tr", { class: s.rank === 1 ? "winner" : "", "data-seat": String(s.seat), "data-note": s.note || "" },
      h("td", {}, s.rank === 1 ? t("1 (winner)") : num(s.rank)),
      h("th", { scope: "row" }, label(s.seat)),
      h("td", { class: "num score" }, bundle.formatScore(s.score)),
      notes ? h("td", { class: "note" }, s.note ? NOTES[s.note] || s.note : "") : null));
  }
  table.append(body);
  const winners = outcome.standings.filter((s) => s.rank === 1).map((s) => label(s.seat));
  const parts = [h("p", { class: "winner-line" }, winnerLine(winners, outcome.rounds)), table];
  const seed = bundle.seed ? bundle.seed(view) : null;
  parts.push(h("h3", {}, t("Check every roll and draw")));
  if (seed && seed.commitment) {
    parts.push(
      h("p", {}, ...within(t("The game's secret seed, committed to at the start (SHA-256 {hash}), is now revealed:"),
        { hash: h("code", { class: "hash" }, seed.commitment) })),
      h("p", {}, h("code", { id: "revealed-seed", class: "hash" }, seed.seed || t("(not yet revealed)"))));
  }
  const link = h("a", { href: api.exportUrl(gameId), download: `${gameType}-${gameId}.jsonl`, id: "export-link" },
    t("Download the audit export (JSON Lines)"));
  parts.push(h("p", {}, ...within(t("{link} — check it with the server's {verify} command."),
    { link, verify: h("code", {}, "verify") })));
  const receipt = container.querySelector("#receipt") || receiptPart(gameId); // kept: its check's result
  if (receipt) parts.push(receipt);
  const key = `${gameId}:${seat}:${rematchId}`;
  if (container.dataset.rematch === key && container.querySelector("#rematch")) {
    parts.push(container.querySelector("#rematch")); // kept as it is (the invites it may show)
  } else {
    parts.push(rematchPart({ gameId, rematchId, seat, token }));
  }
  container.dataset.rematch = key;
  container.replaceChildren(...parts);
}

/** Who won, after how many rounds (when the game counts them). */
function winnerLine(winners, rounds) {
  const names = list(winners);
  if (rounds) {
    if (winners.length > 1) return tn("Shared victory after {n} round: {names}.", "Shared victory after {n} rounds: {names}.", rounds, { names });
    if (winners.length) return tn("{name} wins after {n} round.", "{name} wins after {n} rounds.", rounds, { name: names });
    return tn("Nobody wins after {n} round: every seat resigned or forfeited.", "Nobody wins after {n} rounds: every seat resigned or forfeited.", rounds);
  }
  if (winners.length > 1) return t("Shared victory: {names}.", { names });
  if (winners.length) return t("{name} wins.", { name: names });
  return t("Nobody wins: every seat resigned or forfeited.");
}
