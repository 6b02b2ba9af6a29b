// The corporation boards (§1, table 15.7): cash, points and share price, credits, the factories of each type (and
// those supplied this phase), the warehouse's commodities, and who holds each share packet.

import { h } from "../../shell/dom.js";
import { euros } from "./words.js";

function holderList(corp, words, label) {
  const by = new Map();
  corp.packets.forEach((holder, i) => {
    if (!by.has(holder)) by.set(holder, []);
    by.get(holder).push(i + 1);
  });
  return h("ul", { class: "packets" }, ...[...by].map(([holder, packets]) => h("li", { "data-holder": holder },
    `${words.holder(holder, label)}: ${packets.join(", ")}`)));
}

export function corpBoards(view, words, label) {
  return h("div", { class: "corps", id: "corps" }, ...view.corps.map((c) => {
    const manager = c.automated ? "automated (the AC)" : c.manager === null ? "no manager" : `managed by ${label(c.manager)}`;
    const stats = [["Cash", euros(c.cash)], ["Points", String(c.points)], ["Share", euros(c.price)],
      ["Credits", String(c.credits)], ["Receipts", String(c.receipts)], ["Bids", String(c.bids)]];
    const factories = words.factories.map((f, i) => [f, c.factories[i] || 0, c.supplied[i] || 0]).filter(([, n]) => n);
    const goods = words.commodities.map((k, i) => [k, c.goods[i] || 0]).filter(([, n]) => n);
    const stored = c.goods.reduce((a, b) => a + b, 0);
    return h("section", { class: `corp corp-${c.key}${c.automated ? " automated" : ""}`, "data-corp": c.key },
      h("h3", {}, h("span", { class: "corp-swatch" }), c.name),
      h("p", { class: "hint manager" }, manager, c.elected !== null && c.elected !== undefined ? ` · next: ${label(c.elected)}` : ""),
      h("dl", { class: "stats" }, ...stats.flatMap(([k, v]) => [h("dt", {}, k), h("dd", { "data-stat": k.toLowerCase() }, v)])),
      c.automated ? null : h("p", { class: "factories" }, h("strong", {}, "Factories: "),
        factories.length ? factories.map(([f, n, s]) => `${n} ${f.name.toLowerCase()}${s ? ` (${s} supplied)` : ""}`).join(", ") : "none"),
      c.automated ? null : h("p", { class: "warehouse" }, h("strong", {}, `Warehouse (${stored}/${words.cat.warehouse}): `),
        goods.length ? goods.map(([k, n]) => `${n} ${k.name.toLowerCase()}`).join(", ") : "empty"),
      h("details", { class: "shares" }, h("summary", {}, "Shares"), holderList(c, words, label)));
  }));
}
