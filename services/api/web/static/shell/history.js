// The story of the game so far (GET /history: the server tells the events in sentences), and once the
// market has crashed the final standings, the revealed seed and the audit export.
//
// Events know a seat only by its company, so the server's sentences name seats by company ("Vector
// Properties buys 1A"); each line says where it names which seat (``seats``: start and end in the text), and
// the page puts there the name its headers use ("Ada (Vector Properties)").

import { api } from "./api.js";
import { h } from "./dom.js";
import { money } from "../games/magnate/words.js";

const MARKET_EVENTS = new Set([
  "magnate.risk_card_drawn", "magnate.land_price_moved", "magnate.new_tenants_arrived",
  "magnate.for_sale_marker_drawn", "magnate.market_crashed",
]);

export class History {
  constructor(list) {
    this.list = list;
    this.lines = [];
    this.version = 0;
  }

  /** Adds lines (from GET /history?after=...), each seat named by ``name(seat)``, and returns the new ones. */
  add(page, name) {
    const fresh = page.lines.filter((l) => l.version > this.version).map((l) => ({ ...l, text: named(l, name) }));
    if (!fresh.length) {
      this.version = Math.max(this.version, page.version);
      return [];
    }
    const wrap = this.list;
    const atBottom = !wrap || wrap.scrollHeight - wrap.scrollTop - wrap.clientHeight < 40;
    for (const line of fresh) {
      const li = h("li", { class: `depth-${line.depth}${MARKET_EVENTS.has(line.event) ? " market-line" : ""}`,
        "data-event": line.event, "data-version": String(line.version) }, line.text);
      this.list.append(li);
    }
    this.lines.push(...fresh);
    this.version = Math.max(this.version, page.version);
    if (atBottom && wrap) wrap.scrollTop = wrap.scrollHeight;
    return fresh;
  }

  decisions() {
    return this.lines.filter((l) => l.event === "magnate.ai_decided" || l.event === "magnate.ai_die_rolled"
      || l.event === "magnate.ai_level_raised");
  }
}

/** A line's text with each seat it names (``line.seats``, UTF-16 offsets as JavaScript counts) named by
 * ``name(seat)``. */
export function named(line, name) {
  if (!name || !line.seats || !line.seats.length) return line.text;
  let text = "";
  let at = 0;
  for (const s of line.seats) {
    text += line.text.slice(at, s.start) + name(s.seat);
    at = s.end;
  }
  return text + line.text.slice(at);
}

export function renderFinal(section, container, gameId, view, words, players) {
  const over = view.phase === "ended";
  section.hidden = !over;
  if (!over) return;
  const table = h("table", { class: "standings" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Rank"), h("th", { scope: "col" }, "Company"), h("th", { scope: "col" }, "Cash"))));
  const body = h("tbody");
  for (const s of view.standings) {
    body.append(h("tr", { class: s.rank === 1 ? "winner" : "" },
      h("td", {}, s.rank === 1 ? "1 (winner)" : String(s.rank)),
      h("th", { scope: "row" }, words.seat(s.seat, view, players)),
      h("td", { class: "num" }, money(s.cash))));
  }
  table.append(body);
  const winners = view.standings.filter((s) => s.rank === 1).map((s) => words.seat(s.seat, view, players));
  container.replaceChildren(
    h("p", { class: "winner-line" }, winners.length > 1 ? `Shared victory: ${winners.join(", ")}.` : `${winners[0] || "Nobody"} wins.`),
    table,
    h("h3", {}, "Check every roll and draw"),
    h("p", {}, "The game's secret seed, committed to at the start (SHA-256 ", h("code", { class: "hash" }, view.seed_commitment), "), is now revealed:"),
    h("p", {}, h("code", { id: "revealed-seed", class: "hash" }, view.seed || "(not yet revealed)")),
    h("p", {}, h("a", { href: api.exportUrl(gameId), download: `magnate-${gameId}.jsonl`, id: "export-link" },
      "Download the audit export (JSON Lines)"), " — check it with ", h("code", {}, "magnate verify"), "."),
  );
}
