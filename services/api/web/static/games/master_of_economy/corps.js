// The corporation boards (§1, table 15.7): cash, points and share price, credits, the factories of each type (and
// those supplied this phase), the warehouse's commodities, and who holds each share packet.

import { h } from "../../shell/dom.js";
import { list, num } from "../../shell/i18n.js";
import { euros, t } from "./words.js";

function holderList(corp, words, label) {
  const by = new Map();
  corp.packets.forEach((holder, i) => {
    if (!by.has(holder)) by.set(holder, []);
    by.get(holder).push(i + 1);
  });
  return h("ul", { class: "packets" }, ...[...by].map(([holder, packets]) => h("li", { "data-holder": holder },
    t("{holder}: {packets}", { holder: words.holder(holder, label), packets: packets.map(num).join(", ") }))));
}

export function corpBoards(view, words, label) {
  return h("div", { class: "corps", id: "corps" }, ...view.corps.map((c) => {
    const manager = c.automated ? t("automated (the AC)") : c.manager === null ? t("no manager")
      : t("managed by {seat}", { seat: label(c.manager) });
    const stats = [["cash", t("Cash"), euros(c.cash)], ["points", t("Points"), num(c.points)],
      ["share", t("Share"), euros(c.price)], ["credits", t("Credits"), num(c.credits)],
      ["receipts", t("Receipts"), num(c.receipts)], ["bids", t("Bids"), num(c.bids)]];
    const factories = words.factories.map((f, i) => [f, c.factories[i] || 0, c.supplied[i] || 0]).filter(([, n]) => n);
    const goods = words.commodities.map((k, i) => [k, c.goods[i] || 0]).filter(([, n]) => n);
    const stored = c.goods.reduce((a, b) => a + b, 0);
    return h("section", { class: `corp corp-${c.key}${c.automated ? " automated" : ""}`, "data-corp": c.key },
      h("h3", {}, h("span", { class: "corp-swatch" }), words.corpName(c.key)),
      h("p", { class: "hint manager" }, manager, c.elected !== null && c.elected !== undefined
        ? t(" · next: {seat}", { seat: label(c.elected) }) : ""),
      h("dl", { class: "stats" }, ...stats.flatMap(([key, k, v]) => [h("dt", {}, k), h("dd", { "data-stat": key }, v)])),
      c.automated ? null : h("p", { class: "factories" }, h("strong", {}, t("Factories:")), " ",
        factories.length ? list(factories.map(([f, n, s]) => (s
          ? t("{n} {factory} ({supplied} supplied)", { n, factory: t(f.name), supplied: s })
          : t("{n} {goods}", { n, goods: t(f.name) })))) : t("none")),
      c.automated ? null : h("p", { class: "warehouse" }, h("strong", {},
        t("Warehouse ({stored}/{size}):", { stored, size: words.cat.warehouse })), " ",
      goods.length ? list(goods.map(([k, n]) => t("{n} {goods}", { n, goods: t(k.name) }))) : t("empty")),
      h("details", { class: "shares" }, h("summary", {}, t("Shares")), holderList(c, words, label)));
  }));
}
