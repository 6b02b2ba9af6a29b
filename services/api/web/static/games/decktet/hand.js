// The seat's own hand (the others see only how many cards each holds), each card with what it costs, what a
// deed on it costs and what it sells for; and §3.4's open aid to counting: the cards this viewer has not seen
// (the draw pile and the hands it may not see, together), listed only when asked for.

import { h } from "../../shell/dom.js";
import { num } from "../../shell/i18n.js";
import { cardSvg, completion } from "./cards.js";
import { suitIcon } from "./suits.js";
import { t, tn } from "./words.js";

/** What a card costs and gives, in words (for screen readers) and in symbols: one symbol a token. */
function costs(words, id, variant) {
  const c = words.card(id);
  const price = completion(words, id, variant);
  const ace = c.rank === "1";
  const sale = ace ? Array(variant.originalAces ? words.prices.original_ace_sale : words.prices.ace_sale).fill(c.suits[0]) : c.suits;
  const deed = words.deedPrice(id);
  const sells = words.saleValue(id, variant);
  const said = ace ? t("Buy for {price}; a deed costs {deed}; sells for {sale}.", { price: words.amount(c.suits[0], price), deed, sale: sells })
    : tn("Buy for {n} token in its suits; a deed costs {deed}; sells for {sale}.",
      "Buy for {n} tokens in its suits; a deed costs {deed}; sells for {sale}.", price, { deed, sale: sells });
  const icons = (suits) => suits.map((s) => suitIcon(s));
  return h("p", { class: "card-costs" }, h("span", { class: "visually-hidden" }, said),
    h("span", { "aria-hidden": "true", title: said },
      h("span", { class: "cost" }, t("Buy"), " ", h("b", {}, num(price)), ...(ace ? icons([c.suits[0]]) : [])),
      h("span", { class: "cost" }, t("Deed"), " ", ...icons(c.suits)),
      h("span", { class: "cost" }, t("Sells"), " ", ...icons(sale))));
}

function unseenList(details, view, words) {
  const list = h("ul", { class: "unseen-list" }, ...view.unseen.map((id) => h("li", {}, words.describe(id))));
  details.replaceChildren(details.querySelector("summary"), list);
}

/** ``ctx`` = {words, me, onCard(id)}: clicking a card of the hand asks to play it. */
export function renderHand(container, view, ctx) {
  const { words } = ctx;
  const parts = [];
  const seat = ctx.me !== null && ctx.me !== undefined ? view.seats[ctx.me] : null;
  if (seat && seat.hand) {
    const cards = seat.hand.map((id) => {
      const item = h("li", { class: "hand-card", "data-card": id },
        h("button", { type: "button", class: "card-button", "aria-label": t("{card}: play it", { card: words.describe(id) }) }, cardSvg(words, id)),
        costs(words, id, view.variant));
      item.querySelector("button").addEventListener("click", () => ctx.onCard(id));
      return item;
    });
    parts.push(cards.length ? h("ul", { class: "hand", id: "hand" }, ...cards) : h("p", {}, t("Your hand is empty.")));
  } else {
    parts.push(h("p", { class: "hint" }, t("Each player's hand is hidden from the others: only its size is shown.")));
  }
  const was = container.querySelector("details.unseen");
  const details = h("details", { class: "unseen", id: "unseen", open: was && was.open ? true : null },
    h("summary", {}, seat ? tn("Cards you have not seen: {n} card", "Cards you have not seen: {n} cards", view.unseen.length)
      : tn("Cards the table has not seen: {n} card", "Cards the table has not seen: {n} cards", view.unseen.length)));
  details.addEventListener("toggle", () => {
    if (details.open) unseenList(details, view, words);
  });
  if (details.open) unseenList(details, view, words);
  parts.push(details);
  container.replaceChildren(...parts);
}
