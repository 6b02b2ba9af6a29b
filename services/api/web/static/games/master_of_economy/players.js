// The players (side column): cash (or "hidden"), receipts, the shares each holds, the AC tokens left, the start
// bid once revealed and, in a sealed step, whether each has chosen (never what, but the viewer's own choice).

import { h } from "../../shell/dom.js";
import { sealedCount } from "./actions.js";
import { euros, SEALED } from "./words.js";

export function renderPlayers(container, view, words, label, me) {
  const team = (s) => (view.variant.teams || []).findIndex((t) => t.includes(s));
  const sealed = SEALED.has(view.step);
  const count = sealedCount(view);
  container.replaceChildren(
    count ? h("p", { class: "sealed-count", id: "sealed-count" }, `Sealed: ${count.chosen} of ${count.of} have chosen`) : "",
    h("ul", { class: "players", id: "players-list" }, ...view.players.map((p) => {
      const shares = Object.entries(p.shares).map(([k, packets]) => `${words.corpShort(k)} ${packets.reduce((a, b) => a + b, 0)}`);
      const status = sealed && p.chosen !== null ? (p.chosen ? "has chosen" : "choosing…") : "";
      return h("li", { class: `player${p.seat === me ? " me" : ""}${view.waiting.includes(p.seat) ? " on-turn" : ""}`, "data-seat": String(p.seat) },
        h("strong", { class: "who" }, label(p.seat)),
        p.corporation ? h("span", { class: `hint corp-${p.corporation}` }, ` · ${words.corpShort(p.corporation)}`) : "",
        team(p.seat) >= 0 ? h("span", { class: "hint" }, ` · team ${team(p.seat) + 1}`) : "",
        h("br"), h("span", { class: "cash" }, `Cash ${euros(p.cash)}`), ` · receipts ${p.receipts}`,
        p.tokens.length ? ` · tokens ${p.tokens.join(", ")}` : "",
        p.start_bid !== null && p.start_bid !== undefined ? ` · start bid ${euros(p.start_bid)}` : "",
        h("br"), h("span", { class: "holdings" }, shares.length ? `Shares: ${shares.join(", ")}` : "No shares"),
        status ? h("span", { class: `sealed-status${p.chosen ? " chosen" : ""}` }, ` · ${status}`) : "",
        p.seat === me && p.choice ? h("span", { class: "own-choice" }, ` · your sealed choice: ${p.choice.join(", ")}`) : "");
    })));
}
