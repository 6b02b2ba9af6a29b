// Names and numbers in words, from the catalog (GET /api/catalog/master_of_economy): the corporations, the
// commodities and their market rows, the factories, the score → share price bands. The page hard-codes none of them;
// every word goes through the game's catalog in the page's language (t, tn), the data's names too (t(name)).

import { api } from "../../shell/api.js";
import { words } from "../../shell/i18n.js";

export const { t, tn, tc } = await words("master_of_economy");

export const GAME = "master_of_economy";

/** The ten phases of a stage (ME-G-5). */
export const PHASES = [t("Investments"), t("Procurement"), t("Production"), t("Trade"), t("Financial operations"),
  t("Investments"), t("Procurement"), t("Production"), t("Trade"), t("Shareholders meeting")];

/** Between stages (§10): the action sequence for the next stage, set by the receipts. */
export const BETWEEN = t("Action sequence for the next stage");

/** A phase's name: 1-10, or the time between stages. */
export const phaseName = (n) => (n > PHASES.length ? BETWEEN : PHASES[n - 1] || t("Setup"));

/** What each step of a phase asks, in a few words. */
export const STEPS = {
  setup: t("setting up"), pick: t("picking corporations"), auction: t("sealed bids for the first order"),
  auction_reveal: t("revealing the bids"), investments: t("investments"), procurement: t("procurement"),
  ac_move: t("the additional corporation moves"), tokens: t("sealed additional-corporation tokens"),
  bids: t("placing bids"), resolve: t("resolving the market"), resolving: t("resolving the market"),
  ac_score: t("scoring the tokens"), interest: t("interest"), bank_trade: t("share trading with the bank"),
  credit: t("credits"), embezzle: t("embezzlement"), propose: t("dividend proposals"),
  vote: t("sealed dividend ballots"), vote_count: t("counting the votes"), redeem: t("redemption"),
  stand: t("standing for manager"), ballot: t("sealed election ballots"), ballot_count: t("counting the ballots"),
  tiebreak: t("breaking the tie"), player_trade: t("players' share trading"), receipts: t("receipts"),
  ended: t("the game is over"),
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

/** An amount of money ("12 €", the sign where the language puts it), or "hidden". */
export const euros = (n) => (n === null || n === undefined ? t("hidden") : t("{amount} €", { amount: Number(n) }));

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
    return this.corps[key] ? t(this.corps[key].name) : key;
  }

  /** The first word of a corporation's name ("Blue"). */
  corpShort(key) {
    return this.corpName(key).split(" ")[0];
  }

  commodityName(key) {
    return this.commodity[key] ? t(this.commodity[key].name) : key;
  }

  factoryName(key) {
    return this.factory[key] ? t(this.factory[key].name) : key;
  }

  /** The share price at ``points`` (table 15.4). */
  priceAt(points) {
    let price = 0;
    for (const band of this.cat.prices) if (points >= band.points) price = band.price;
    return price;
  }

  /** A holder ("bank", "seat:N", "corp:KEY") in words. */
  holder(text, label) {
    if (text === "bank") return t("the bank");
    const [kind, who] = text.split(":");
    return kind === "seat" ? label(Number(who)) : this.corpShort(who);
  }
}
