// Each player's public state (R1.7): their Crowns, their supply of tokens per suit, how many cards they hold,
// the districts they would control now and their development value (the first tie-breaker); and the piles:
// the draw pile (a count), the discard pile, the reshuffles left and the final round's warning (R6.5).

import { h } from "../../shell/dom.js";
import { num } from "../../shell/i18n.js";
import { cardSvg } from "./cards.js";
import { suitIcon } from "./suits.js";
import { listing, t, tn } from "./words.js";

function supply(counts, words) {
  return h("ul", { class: "supply", "aria-label": t("Tokens") }, ...words.suits.map((s, i) =>
    h("li", { class: `token${counts[i] ? "" : " none"}`, "data-suit": s.code, title: words.amount(s.code, counts[i]) },
      suitIcon(s.code), h("span", { class: "count" }, num(counts[i])),
      h("span", { class: "visually-hidden" }, ` ${words.suit(s.code)}`))));
}

function crowns(ids, words) {
  return h("span", { class: "crowns" }, ...ids.map((id) => {
    const c = words.card(id);
    return h("span", { class: "crown" }, suitIcon(c.suits[0], t("{card} (Crown of {suit})", { card: words.name(id), suit: words.suit(c.suits[0]) })));
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
        h("strong", { class: "who" }, ctx.label(s.seat)), mine ? h("span", { class: "you" }, " ", t("(you)")) : null,
        spec && spec.kind === "ai" ? h("span", { class: "kind" }, " · ", t("the computer plays it")) : null,
        onTurn ? h("span", { class: "turn-mark" }, " ▶ ", t("on turn")) : null),
      supply(s.supply, words),
      h("p", { class: "player-facts" },
        h("span", {}, t("Crowns"), " ", crowns(s.crowns, words)),
        h("span", { class: "hand-size" }, tn("Hand: {n} card", "Hand: {n} cards", s.hand_size)),
        h("span", { class: "control" }, t("Districts: {districts} (value {total})", { districts: s.districts, total: s.total }))));
  });
  container.replaceChildren(h("ul", { class: "players" }, ...items));
}

/** The draw pile, the discard pile, the reshuffles left and the final round. */
export function renderPiles(container, view, ctx) {
  const { words } = ctx;
  const total = view.piles.reduce((a, b) => a + b, 0);
  const cards = tn("{n} card", "{n} cards", total);
  const draw = view.piles.length > 1
    ? t("{cards} ({decks})", { cards, decks: listing(view.piles.map((n, i) => t("{player}'s deck {n}", { player: ctx.label(i), n }))) })
    : cards;
  const facts = h("dl", { class: "facts piles" },
    h("dt", {}, t("Draw pile")), h("dd", { id: "draw-pile" }, draw),
    h("dt", {}, t("Discard pile")), h("dd", { id: "discard-pile" }, tn("{n} card", "{n} cards", view.discard.length)),
    h("dt", {}, t("Reshuffles left")), h("dd", { id: "reshuffles" }, num(view.reshuffles)));
  const parts = [];
  if (view.final_round && view.phase !== "ended") {
    const known = view.turns_left !== null && view.turns_left !== undefined;
    parts.push(h("p", { class: "final-round", id: "final-round", role: "status" }, known
      ? tn("Final round: the draw pile is exhausted, nobody draws again — {n} turn left.",
        "Final round: the draw pile is exhausted, nobody draws again — {n} turns left.", view.turns_left)
      : t("Final round: the draw pile is exhausted, nobody draws again.")));
  }
  parts.push(facts);
  if (view.discard.length) {
    const top = view.discard.slice(-4).reverse();
    parts.push(h("p", { class: "hint" }, t("Discarded last:")),
      h("div", { class: "discard-row" }, ...top.map((id) => cardSvg(words, id, { w: 60, h: 84, cls: "small" }))));
  }
  container.replaceChildren(...parts);
}
