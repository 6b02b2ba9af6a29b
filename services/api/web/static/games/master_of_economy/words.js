// Names and numbers in words, from the catalog (GET /api/catalog/master_of_economy): the corporations, the
// commodities and their market rows, the factories, the score → share price bands. The page hard-codes none of them.

import { api } from "../../shell/api.js";

export const GAME = "master_of_economy";

/** The ten phases of a stage (ME-G-5). */
export const PHASES = ["Investments", "Procurement", "Production", "Trade", "Financial operations",
  "Investments", "Procurement", "Production", "Trade", "Shareholders meeting"];

/** Between stages (§10): the action sequence for the next stage, set by the receipts. */
export const BETWEEN = "Action sequence for the next stage";

/** A phase's name: 1-10, or the time between stages. */
export const phaseName = (n) => (n > PHASES.length ? BETWEEN : PHASES[n - 1] || "Setup");

/** What each step of a phase asks, in a few words. */
export const STEPS = {
  setup: "setting up", pick: "picking corporations", auction: "sealed bids for the first order",
  auction_reveal: "revealing the bids", investments: "investments", procurement: "procurement",
  ac_move: "the additional corporation moves", tokens: "sealed additional-corporation tokens", bids: "placing bids",
  resolve: "resolving the market", resolving: "resolving the market", ac_score: "scoring the tokens",
  interest: "interest", bank_trade: "share trading with the bank", credit: "credits", embezzle: "embezzlement",
  propose: "dividend proposals", vote: "sealed dividend ballots", vote_count: "counting the votes",
  redeem: "redemption", stand: "standing for manager", ballot: "sealed election ballots",
  ballot_count: "counting the ballots", tiebreak: "breaking the tie", player_trade: "players' share trading",
  receipts: "receipts", ended: "the game is over",
};

/** The sealed steps: every seat that owes a choice makes it privately; all are revealed together. */
export const SEALED = new Set(["auction", "tokens", "vote", "ballot"]);

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

export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

export const euros = (n) => (n === null || n === undefined ? "hidden" : `${Number(n).toLocaleString("en")} €`);

export class Words {
  constructor(catalog) {
    this.cat = catalog;
    this.corps = Object.fromEntries(catalog.corporations.map((c) => [c.key, c]));
    this.commodities = catalog.commodities;
    this.commodity = Object.fromEntries(catalog.commodities.map((c) => [c.key, c]));
    this.factories = catalog.factories;
    this.factory = Object.fromEntries(catalog.factories.map((f) => [f.key, f]));
    this.rules = catalog.rules;
  }

  corpName(key) {
    return (this.corps[key] || { name: key }).name;
  }

  /** The first word of a corporation's name ("Blue"). */
  corpShort(key) {
    return this.corpName(key).split(" ")[0];
  }

  commodityName(key) {
    return (this.commodity[key] || { name: key }).name;
  }

  factoryName(key) {
    return (this.factory[key] || { name: key }).name;
  }

  /** The share price at ``points`` (table 15.4). */
  priceAt(points) {
    let price = 0;
    for (const band of this.cat.prices) if (points >= band.points) price = band.price;
    return price;
  }

  /** A holder ("bank", "seat:N", "corp:KEY") in words. */
  holder(text, label) {
    if (text === "bank") return "the bank";
    const [kind, who] = text.split(":");
    return kind === "seat" ? label(Number(who)) : this.corpShort(who);
  }
}
