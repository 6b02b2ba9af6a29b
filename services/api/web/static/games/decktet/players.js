// Each player's public state (R1.7): their Crowns, their supply of tokens per suit, how many cards they hold,
// the districts they would control now and their development value (the first tie-breaker); and the piles:
// the draw pile (a count), the discard pile, the reshuffles left and the final round's warning (R6.5).

import { h } from "../../shell/dom.js";
import { cardSvg } from "./cards.js";
import { suitIcon } from "./suits.js";
import { plural } from "./words.js";

function supply(counts, words) {
  return h("ul", { class: "supply", "aria-label": "Tokens" }, ...words.suits.map((s, i) =>
    h("li", { class: `token${counts[i] ? "" : " none"}`, "data-suit": s.code, title: `${counts[i]} ${s.name}` },
      suitIcon(s.code), h("span", { class: "count" }, String(counts[i])),
      h("span", { class: "visually-hidden" }, ` ${s.name}`))));
}

function crowns(ids, words) {
  return h("span", { class: "crowns" }, ...ids.map((id) => {
    const c = words.card(id);
    return h("span", { class: "crown" }, suitIcon(c.suits[0], `${c.name} (Crown of ${words.suit(c.suits[0])})`));
  }));
}

/** The players, one block each; ``ctx`` = {words, label(seat), me}. */
export function renderPlayers(container, view, ctx) {
  const { words } = ctx;
  const over = view.phase === "ended";
  const items = view.seats.map((s) => {
    const mine = s.seat === ctx.me;
    const onTurn = !over && view.active === s.seat;
    const spec = view.variant.seats[s.seat];
    return h("li", { class: `player owner-${s.seat}${mine ? " mine" : ""}${onTurn ? " on-turn" : ""}`, "data-seat": String(s.seat) },
      h("p", { class: "player-name" }, h("span", { class: `seat-dot owner-${s.seat}`, "aria-hidden": "true" }),
        h("strong", { class: "who" }, ctx.label(s.seat)), mine ? h("span", { class: "you" }, " (you)") : null,
        spec && spec.kind === "ai" ? h("span", { class: "kind" }, " · the computer plays it") : null,
        onTurn ? h("span", { class: "turn-mark" }, " ▶ on turn") : null),
      supply(s.supply, words),
      h("p", { class: "player-facts" },
        h("span", {}, "Crowns ", crowns(s.crowns, words)),
        h("span", { class: "hand-size" }, `Hand: ${plural(s.hand_size, "card")}`),
        h("span", { class: "control" }, `Districts: ${s.districts} (value ${s.total})`)));
  });
  container.replaceChildren(h("ul", { class: "players" }, ...items));
}

/** The draw pile, the discard pile, the reshuffles left and the final round. */
export function renderPiles(container, view, ctx) {
  const { words } = ctx;
  const total = view.piles.reduce((a, b) => a + b, 0);
  const draw = view.piles.length > 1
    ? `${plural(total, "card")} (${view.piles.map((n, i) => `${ctx.label(i)}'s deck ${n}`).join(", ")})`
    : plural(total, "card");
  const facts = h("dl", { class: "facts piles" },
    h("dt", {}, "Draw pile"), h("dd", { id: "draw-pile" }, draw),
    h("dt", {}, "Discard pile"), h("dd", { id: "discard-pile" }, plural(view.discard.length, "card")),
    h("dt", {}, "Reshuffles left"), h("dd", { id: "reshuffles" }, String(view.reshuffles)));
  const parts = [];
  if (view.final_round && view.phase !== "ended") {
    const left = view.turns_left !== null && view.turns_left !== undefined ? `${plural(view.turns_left, "turn")} left` : "";
    parts.push(h("p", { class: "final-round", id: "final-round", role: "status" },
      `Final round: the draw pile is exhausted, nobody draws again${left ? ` — ${left}` : ""}.`));
  }
  parts.push(facts);
  if (view.discard.length) {
    const top = view.discard.slice(-4).reverse();
    parts.push(h("p", { class: "hint" }, "Discarded last:"),
      h("div", { class: "discard-row" }, ...top.map((id) => cardSvg(words, id, { w: 60, h: 84, cls: "small" }))));
  }
  container.replaceChildren(...parts);
}
