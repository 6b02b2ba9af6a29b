// The property market: land price track and zone, crash track, available tenants, advertising spent,
// plots sold this round and the decks (as counts, with the public discard piles).

import { h } from "../../shell/dom.js";
import { num } from "../../shell/i18n.js";
import { money, t } from "./words.js";

function landTrack(view, words) {
  const m = view.market;
  const list = h("ol", { class: "track land-track", "aria-label": t("Land price track") });
  for (const space of words.cat.land_price_track) {
    const here = space.position === m.land_price_position;
    const zone = words.zones[space.zone] || { name: space.zone };
    list.append(h("li", {
      class: `space zone-${space.zone}${here ? " here" : ""}`,
      title: t("Position {position}: {price}, {zone} zone", { position: space.position, price: money(space.price), zone: zone.name }),
      "aria-current": here ? "true" : null,
    }, h("span", { class: "space-price" }, String(space.price))));
  }
  return list;
}

function crashTrack(view, words) {
  const { minimum, maximum } = words.cat.crash_track;
  const list = h("ol", { class: "track crash-track", "aria-label": t("Crash track") });
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
    h("caption", {}, t("Available tenants (and the supply left)")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Tenant")), h("th", { scope: "col" }, t("Available")),
      h("th", { scope: "col" }, t("Supply")), h("th", { scope: "col" }, t("Rent")))));
  const body = h("tbody");
  for (const kind of kinds) {
    const k = words.kind(kind);
    const type = words.typeIndex(k.tenant_type);
    body.append(h("tr", { "data-kind": kind },
      h("th", { scope: "row" }, h("span", { class: `chip-html type-${type}` }, k.letter), ` ${k.name}`),
      h("td", { class: "num available-count" }, num(view.market.available[kind])),
      h("td", { class: "num" }, num(view.market.supply[kind])),
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
    h("dt", {}, t("Land price")), h("dd", { id: "land-price" }, t("{price} — {zone} zone (position {position})",
      { price: money(m.land_price), zone: zone.name, position: m.land_price_position })),
    h("dt", {}, t("Crash marker")), h("dd", { id: "crash-marker" }, t("{crash} (the market crashes at {minimum})",
      { crash: m.crash, minimum: words.cat.crash_track.minimum })),
    h("dt", {}, t("Advertising spent this round")), h("dd", { id: "advertising-spent" }, num(m.advertising_spent)),
    h("dt", {}, t("Plots sold this round")), h("dd", { id: "plots-sold" }, num(m.plots_sold)),
    h("dt", {}, t("Risk deck")), h("dd", {}, risk
      ? t("{left} left, {drawn} drawn (last: {card}, crash {top}, land price {bottom} at the crash)",
        { left: m.risk_deck, drawn: m.risk_discard.length, card: risk.id, top: risk.top, bottom: risk.bottom })
      : t("{left} left, {drawn} drawn", { left: m.risk_deck, drawn: m.risk_discard.length })),
    h("dt", {}, t("New tenant deck")), h("dd", {}, t("{left} left", { left: m.tenant_deck })),
  );
  container.replaceChildren(
    facts,
    h("h3", {}, t("Land price track")), landTrack(view, words),
    h("h3", {}, t("Crash track")), crashTrack(view, words),
    tenantTable(view, words),
  );
}
