// The property market: land price track and zone, crash track, available tenants, advertising spent,
// plots sold this round and the decks (as counts, with the public discard piles).

import { h } from "../../shell/dom.js";
import { money } from "./words.js";

function landTrack(view, words) {
  const m = view.market;
  const list = h("ol", { class: "track land-track", "aria-label": "Land price track" });
  for (const space of words.cat.land_price_track) {
    const here = space.position === m.land_price_position;
    const zone = words.zones[space.zone] || { name: space.zone };
    list.append(h("li", {
      class: `space zone-${space.zone}${here ? " here" : ""}`,
      title: `Position ${space.position}: ${money(space.price)}, ${zone.name} zone`,
      "aria-current": here ? "true" : null,
    }, h("span", { class: "space-price" }, String(space.price))));
  }
  return list;
}

function crashTrack(view, words) {
  const { minimum, maximum } = words.cat.crash_track;
  const list = h("ol", { class: "track crash-track", "aria-label": "Crash track" });
  for (let i = minimum; i <= maximum; i++) {
    const here = i === view.market.crash;
    list.append(h("li", { class: `space${i === minimum ? " crash-end" : ""}${here ? " here" : ""}`, "aria-current": here ? "true" : null },
      h("span", { class: "space-price" }, String(i))));
  }
  return list;
}

function tenantTable(view, words) {
  const kinds = Object.keys(view.market.available);
  const table = h("table", { class: "tenants-table" },
    h("caption", {}, "Available tenants (and the supply left)"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Tenant"), h("th", { scope: "col" }, "Available"),
      h("th", { scope: "col" }, "Supply"), h("th", { scope: "col" }, "Rent"))));
  const body = h("tbody");
  for (const kind of kinds) {
    const k = words.kind(kind);
    const type = words.typeIndex(k.tenant_type);
    body.append(h("tr", { "data-kind": kind },
      h("th", { scope: "row" }, h("span", { class: `chip-html type-${type}` }, k.letter), ` ${k.name}`),
      h("td", { class: "num available-count" }, String(view.market.available[kind])),
      h("td", { class: "num" }, String(view.market.supply[kind])),
      h("td", { class: "num" }, money(k.rent))));
  }
  table.append(body);
  return table;
}

export function renderMarket(container, view, words) {
  const m = view.market;
  const zone = words.zones[m.zone] || { name: m.zone };
  const lastRisk = m.risk_discard.length ? m.risk_discard[m.risk_discard.length - 1] : null;
  const risk = lastRisk && words.riskCards[lastRisk];
  const facts = h("dl", { class: "facts" },
    h("dt", {}, "Land price"), h("dd", { id: "land-price" }, `${money(m.land_price)} — ${zone.name} zone (position ${m.land_price_position})`),
    h("dt", {}, "Crash marker"), h("dd", { id: "crash-marker" }, `${m.crash} (the market crashes at ${words.cat.crash_track.minimum})`),
    h("dt", {}, "Advertising spent this round"), h("dd", { id: "advertising-spent" }, String(m.advertising_spent)),
    h("dt", {}, "Plots sold this round"), h("dd", { id: "plots-sold" }, String(m.plots_sold)),
    h("dt", {}, "Risk deck"), h("dd", {}, `${m.risk_deck} left, ${m.risk_discard.length} drawn` +
      (risk ? ` (last: ${risk.id}, crash ${risk.top}, land price ${risk.bottom} at the crash)` : "")),
    h("dt", {}, "New tenant deck"), h("dd", {}, `${m.tenant_deck} left`),
  );
  container.replaceChildren(
    facts,
    h("h3", {}, "Land price track"), landTrack(view, words),
    h("h3", {}, "Crash track"), crashTrack(view, words),
    tenantTable(view, words),
  );
}
