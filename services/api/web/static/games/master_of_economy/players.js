// The players (side column): cash (or "hidden"), receipts, the shares each holds, the AC tokens left, the start
// bid once revealed and, in a sealed step, whether each has chosen (never what, but the viewer's own choice).

import { h } from "../../shell/dom.js";
import { sealedCount } from "./actions.js";
import { list, num } from "../../shell/i18n.js";
import { euros, SEALED, t } from "./words.js";

export function renderPlayers(container, view, words, label, me) {
  const team = (s) => (view.variant.teams || []).findIndex((members) => members.includes(s));
  const sealed = SEALED.has(view.step);
  const count = sealedCount(view);
  container.replaceChildren(
    count ? h("p", { class: "sealed-count", id: "sealed-count" },
      t("Sealed: {chosen} of {of} have chosen", { chosen: count.chosen, of: count.of })) : "",
    h("ul", { class: "players", id: "players-list" }, ...view.players.map((p) => {
      const shares = Object.entries(p.shares).map(([k, packets]) => t("{corporation} {shares}",
        { corporation: words.corpShort(k), shares: packets.reduce((a, b) => a + b, 0) }));
      const status = sealed && p.chosen !== null ? (p.chosen ? t("has chosen") : t("choosing…")) : "";
      return h("li", { class: `player${p.seat === me ? " me" : ""}${view.waiting.includes(p.seat) ? " on-turn" : ""}`, "data-seat": String(p.seat) },
        h("strong", { class: "who" }, label(p.seat)),
        p.corporation ? h("span", { class: `hint corp-${p.corporation}` }, ` · ${words.corpShort(p.corporation)}`) : "",
        team(p.seat) >= 0 ? h("span", { class: "hint" }, t(" · team {number}", { number: team(p.seat) + 1 })) : "",
        h("br"), h("span", { class: "cash" }, t("Cash {amount}", { amount: euros(p.cash) })),
        t(" · receipts {n}", { n: p.receipts }),
        p.tokens.length ? t(" · tokens {tokens}", { tokens: p.tokens.map(num).join(", ") }) : "",
        p.start_bid !== null && p.start_bid !== undefined ? t(" · start bid {amount}", { amount: euros(p.start_bid) }) : "",
        h("br"), h("span", { class: "holdings" }, shares.length ? t("Shares: {shares}", { shares: list(shares) })
          : t("No shares")),
        status ? h("span", { class: `sealed-status${p.chosen ? " chosen" : ""}` }, ` · ${status}`) : "",
        p.seat === me && p.choice ? h("span", { class: "own-choice" },
          t(" · your sealed choice: {choice}", { choice: p.choice.map(num).join(", ") })) : "");
    })));
}
