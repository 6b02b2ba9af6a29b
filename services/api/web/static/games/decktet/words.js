// Names and numbers in words, from the catalog (GET /api/catalog/decktet): the suits, every card's name, rank and
// suits, the prices the page explains. The page hard-codes no card. Every word goes through the game's catalog
// (the "decktet" domain, in the page's language): the data's names are its messages too.

import { api } from "../../shell/api.js";
import { list, words } from "../../shell/i18n.js";

export const GAME = "decktet";

export const { t, tn, tc } = await words(GAME);

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

/** ``a``, ``a and b``, ``a, b and c``, the language's way. */
export function listing(items) {
  return items.length <= 1 ? items[0] || "" : list(items);
}

/** ``n`` tokens of a suit by its code: "1 Moon", "3 Moons" (each suit its own plural). */
export function amount(code, n, name = code) {
  switch (code) {
    case "M": return tn("{n} Moon", "{n} Moons", n);
    case "S": return tn("{n} Sun", "{n} Suns", n);
    case "V": return tn("{n} Wave", "{n} Waves", n);
    case "L": return tn("{n} Leaf", "{n} Leaves", n);
    case "Y": return tn("{n} Wyrm", "{n} Wyrms", n);
    case "K": return tn("{n} Knot", "{n} Knots", n);
    default: return tn("{n} token of {suit}", "{n} tokens of {suit}", n, { suit: t(name) });
  }
}

const RANKS = { 0: () => t("Excuse"), 1: () => t("Ace"), N: () => t("Crown"), P: () => t("Pawn"), T: () => t("Court") };
const SHORT_RANKS = {
  0: () => "", 1: () => tc("rank mark", "A"), N: () => tc("rank mark", "C"), P: () => tc("rank mark", "P"),
  T: () => tc("rank mark", "Ct"),
};

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

  /** The card's name in the page's language. */
  name(id) { return t(this.card(id).name); }

  /** "The Diplomat" -> "Diplomat" (where space is short; a translated name is kept whole). */
  shortName(id) {
    const english = this.card(id).name;
    const said = t(english);
    return said === english ? english.replace(/^The /, "") : said;
  }

  suit(code) { return t((this.suitBy[code] || { name: code }).name); }

  rankName(rank) { return rank in RANKS ? RANKS[rank]() : rank; }

  /** "8", "A", "Ct" ... as printed in a card's corner. */
  rankMark(rank) { return rank in SHORT_RANKS ? SHORT_RANKS[rank]() : rank; }

  /** "The Diplomat (8; Moons and Suns)" */
  describe(id) {
    const c = this.card(id);
    const rank = this.rankName(c.rank);
    if (!c.suits.length) return t("{card} ({rank})", { card: this.name(id), rank });
    return t("{card} ({rank}; {suits})", { card: this.name(id), rank, suits: listing(c.suits.map((s) => this.suit(s))) });
  }

  /** ``n`` tokens of the suit ``code``: "3 Moons". */
  amount(code, n) { return amount(code, n, (this.suitBy[code] || { name: code }).name); }

  /** Six counts in suit order -> "3 Moons and 1 Knot" ("nothing" when all are 0). */
  tokens(counts) {
    const parts = this.suits.map((s, i) => [s, counts[i] || 0]).filter(([, n]) => n).map(([s, n]) => this.amount(s.code, n));
    return parts.length ? listing(parts) : t("nothing");
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
