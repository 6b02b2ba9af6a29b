// The commodity market board (§7.1, table 15.3): per commodity, the IMPORT column (the buyers' queue and the bids
// set aside), the export fields with their prices and the corporation bidding on each, the AC's blocking marker
// and the demand marker (on its start box while the row waits for a trade phase).

import { h } from "../../shell/dom.js";

const STAGES = ["", "local market", "exports done", "closed"];

export function marketBoard(view, words) {
  const highlighted = words.rules.trade.highlighted_field;
  // before the boards are formed (the picks, the auction), the empty board
  const rows = view.rows.length ? view.rows : words.commodities.map((c) => ({ commodity: c.key, imports: [], aside: [],
    exports: c.fields.map(() => null), ac: false, demand: 0, stage: 0 }));
  return h("div", { class: "market", id: "market" }, ...rows.map((row) => {
    const c = words.commodity[row.commodity] || { name: row.commodity, fields: [] };
    const fields = row.exports.map((bid, i) => {
      const n = i + 1;
      const blocked = row.ac && n === highlighted;
      return h("li", {
        class: `field${bid ? ` corp-${bid} taken` : ""}${n === highlighted ? " highlighted" : ""}${blocked ? " blocked" : ""}`,
        "data-field": String(n),
        title: `${c.name}, export field ${n}: ${c.fields[i]} €${bid ? `, ${words.corpName(bid)}'s bid` : ""}${blocked ? ", blocked by the AC" : ""}`,
      }, h("span", { class: "field-price" }, c.fields[i] || ""), h("span", { class: "field-bid" },
        bid ? words.corpShort(bid)[0] : blocked ? "AC" : ""));
    });
    // the demand marker waits on its start box (N + 1, from the data) until the row is resolved in a trade phase
    const demand = row.stage ? row.demand : (c.demand_start ?? row.demand);
    const imports = [...row.imports.map((k) => words.corpShort(k)), ...row.aside.map((k) => `${words.corpShort(k)} (aside)`)];
    return h("section", { class: "market-row", "data-commodity": row.commodity },
      h("h3", {}, c.name, h("span", { class: "hint" }, ` · import ${c.import_price} € · demand ${demand}`,
        row.stage ? ` · ${STAGES[row.stage]}` : "")),
      h("p", { class: "imports" }, h("span", { class: "imports-label" }, "IMPORT: "), imports.length ? imports.join(", ") : "no bids"),
      h("ol", { class: "fields" }, ...fields));
  }));
}
