// The commodity market board (§7.1, table 15.3): per commodity, the IMPORT column (the buyers' queue and the bids
// set aside), the export fields with their prices and the corporation bidding on each, the AC's blocking marker
// and the demand marker (on its start box while the row waits for a trade phase).

import { h } from "../../shell/dom.js";
import { list } from "../../shell/i18n.js";
import { euros, t } from "./words.js";

const STAGES = ["", t("local market"), t("exports done"), t("closed")];

/** A field's title: the commodity, the field, its price, whose bid is on it, whether the AC blocks it. */
function fieldTitle(name, n, price, bidder, blocked) {
  const args = { goods: name, field: n, price: euros(price), corporation: bidder };
  if (bidder && blocked) return t("{goods}, export field {field}: {price}, {corporation}'s bid, blocked by the AC", args);
  if (bidder) return t("{goods}, export field {field}: {price}, {corporation}'s bid", args);
  if (blocked) return t("{goods}, export field {field}: {price}, blocked by the AC", args);
  return t("{goods}, export field {field}: {price}", args);
}

export function marketBoard(view, words) {
  const highlighted = words.rules.trade.highlighted_field;
  // before the boards are formed (the picks, the auction), the empty board
  const rows = view.rows.length ? view.rows : words.commodities.map((c) => ({ commodity: c.key, imports: [], aside: [],
    exports: c.fields.map(() => null), ac: false, demand: 0, stage: 0 }));
  return h("div", { class: "market", id: "market" }, ...rows.map((row) => {
    const c = words.commodity[row.commodity] || { name: row.commodity, fields: [] };
    const name = words.commodityName(row.commodity);
    const fields = row.exports.map((bid, i) => {
      const n = i + 1;
      const blocked = row.ac && n === highlighted;
      return h("li", {
        class: `field${bid ? ` corp-${bid} taken` : ""}${n === highlighted ? " highlighted" : ""}${blocked ? " blocked" : ""}`,
        "data-field": String(n),
        title: fieldTitle(name, n, c.fields[i], bid ? words.corpName(bid) : null, blocked),
      }, h("span", { class: "field-price" }, c.fields[i] || ""), h("span", { class: "field-bid" },
        bid ? words.corpShort(bid)[0] : blocked ? t("AC") : ""));
    });
    // the demand marker waits on its start box (N + 1, from the data) until the row is resolved in a trade phase
    const demand = row.stage ? row.demand : (c.demand_start ?? row.demand);
    const imports = [...row.imports.map((k) => words.corpShort(k)),
      ...row.aside.map((k) => t("{corporation} (aside)", { corporation: words.corpShort(k) }))];
    return h("section", { class: "market-row", "data-commodity": row.commodity },
      h("h3", {}, name, h("span", { class: "hint" },
        t(" · import {price} · demand {demand}", { price: euros(c.import_price), demand }),
        row.stage ? ` · ${STAGES[row.stage]}` : "")),
      h("p", { class: "imports" }, h("span", { class: "imports-label" }, t("IMPORT:")), " ",
        imports.length ? list(imports) : t("no bids")),
      h("ol", { class: "fields" }, ...fields));
  }));
}
