// Names and numbers in words, from the catalog (GET /api/catalog/decktet): the suits, every card's name, rank and
// suits, the prices the page explains. The page hard-codes no card.

import { api } from "../../shell/api.js";

export const GAME = "decktet";

const loaded = new Map();

/** The words of a dataset, read once. */
export function wordsFor(dataset) {
  if (!loaded.has(dataset)) {
    loaded.set(dataset, api.catalog(GAME, dataset).then((catalog) => new Words(catalog)).catch((err) => {
      loaded.delete(dataset);
      throw err;
    }));
  }
  return loaded.get(dataset);
}

/** ``a``, ``a and b``, ``a, b and c``. */
export function listing(items) {
  if (items.length <= 1) return items[0] || "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

const RANKS = { 0: "Excuse", 1: "Ace", N: "Crown", P: "Pawn", T: "Court" };
const SHORT_RANKS = { 0: "", 1: "A", N: "C", P: "P", T: "Ct" };

export class Words {
  constructor(catalog) {
    this.cat = catalog;
    this.suits = catalog.suits; // printed order: the order of every token count
    this.suitBy = Object.fromEntries(catalog.suits.map((s, i) => [s.code, { ...s, index: i }]));
    this.cards = Object.fromEntries(catalog.cards.map((c) => [c.code, c]));
    this.prices = catalog.prices;
  }

  /** A card id as the page shows it: its catalog entry (a copy digit, with two Decktets, is dropped). */
  card(id) {
    const c = this.cards[id] || this.cards[id.slice(0, -1)];
    return c ? { ...c, id } : { id, code: id, name: id, rank: "?", suits: [] };
  }

  name(id) { return this.card(id).name; }

  /** "The Diplomat" -> "Diplomat" (where space is short). */
  shortName(id) { return this.name(id).replace(/^The /, ""); }

  suit(code) { return (this.suitBy[code] || { name: code }).name; }

  rankName(rank) { return RANKS[rank] || rank; }

  /** "8", "A", "Ct" ... as printed in a card's corner. */
  rankMark(rank) { return rank in SHORT_RANKS ? SHORT_RANKS[rank] : rank; }

  /** "The Diplomat (8; Moons and Suns)" */
  describe(id) {
    const c = this.card(id);
    const suits = listing(c.suits.map((s) => this.suit(s)));
    return `${c.name} (${this.rankName(c.rank)}${suits ? `; ${suits}` : ""})`;
  }

  /** Six counts in suit order -> "3 Moons and 1 Knots" ("nothing" when all are 0). */
  tokens(counts) {
    const parts = this.suits.map((s, i) => [s, counts[i] || 0]).filter(([, n]) => n).map(([s, n]) => `${n} ${s.name}`);
    return parts.length ? listing(parts) : "nothing";
  }

  /** A payment as a command carries it ({M: 3, S: 5}) -> "3 Moons and 5 Suns" (suit order). */
  payment(bySuit) {
    return this.tokens(this.suits.map((s) => bySuit[s.code] || 0));
  }

  /** What selling a card gives (R4.7, V5): shown before the sale. */
  saleValue(id, variant) {
    const c = this.card(id);
    if (c.rank === "1") {
      const n = variant && variant.originalAces ? this.prices.original_ace_sale : this.prices.ace_sale;
      return this.payment({ [c.suits[0]]: n });
    }
    return this.payment(Object.fromEntries(c.suits.map((s) => [s, 1])));
  }

  /** What a deed costs (R4.6: one token of each of the card's suits). */
  deedPrice(id) {
    return this.payment(Object.fromEntries(this.card(id).suits.map((s) => [s, 1])));
  }
}
