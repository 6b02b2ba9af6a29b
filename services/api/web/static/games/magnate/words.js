// Names and numbers in words, from the catalog (the page hard-codes no table). Every word goes through the game's
// catalog in the page's language (t, tn), the data's names too (t(name)); amounts through one money message.

import { api } from "../../shell/api.js";
import { lang, words } from "../../shell/i18n.js";

export const { t, tn, tc } = await words("magnate");

export const GAME = "magnate";

const loaded = new Map();
let latest = null;

/** The words of a dataset (GET /api/catalog/magnate?dataset=...), read once. */
export function wordsFor(dataset) {
  if (!loaded.has(dataset)) {
    loaded.set(dataset, api.catalog(GAME, dataset).then((catalog) => {
      latest = new Words(catalog);
      return latest;
    }).catch((err) => {
      loaded.delete(dataset);
      throw err;
    }));
  }
  return loaded.get(dataset);
}

/** The words last read (for what must name things at once), or null before any. */
export function currentWords() {
  return latest;
}

/** An amount in $K the language's way (1,200K · 1 200 тыс. $ · 1.200K $): the message the history's money uses. */
export function money(k) {
  if (k === null || k === undefined) return t("hidden");
  return t("{amount}K", { amount: Number(k) });
}

export function roman(n) {
  return ["I", "II", "III", "IV", "V", "VI"][n - 1] || String(n);
}

export const PHASES = {
  setup: t("Setup"),
  bidding: t("Phase 1 · bid for turn order"),
  attracting: t("Phase 2 · attract tenants and collect rent"),
  actions: t("Phase 3 · actions"),
  market: t("Phase 4 · property market"),
  ended: t("The crash: game over"),
};

export const SYSTEM_JOBS = {
  "magnate.roll_dice": t("rolling the dice"),
  "magnate.ai_turn": t("the AI is thinking"),
  "magnate.process_market": t("the property market moves"),
  "magnate.reveal_seed": t("revealing the seed"),
};

/** Catalog rows with their names in the page's language (the data's English names are the catalog's keys). */
const named = (rows) => rows.map((row) => (row.name ? { ...row, name: t(row.name) } : row));

const initials = (name) => name.replace(/-/g, " ").split(/\s+/).filter((w) => /^[\p{L}\p{N}]/u.test(w))
  .map((w) => w[0]).join("").toUpperCase();

/** The rows with their map letters taken from the names in the page's language, as the catalog takes them from the
 * English ones (domain/magnate/catalog_view.py ``letters``): initials, names that clash spelled out further. */
function lettered(rows) {
  if (lang === "en") return rows;
  const out = new Map(rows.map((r) => [r.key, initials(r.name) || r.key[0].toUpperCase()]));
  const longest = Math.max(0, ...rows.map((r) => r.name.length));
  for (let width = 2; width <= longest; width++) {
    const values = [...out.values()];
    const clashes = [...out].filter(([, v]) => values.filter((x) => x === v).length > 1).map(([k]) => k);
    if (!clashes.length) break;
    for (const key of clashes) out.set(key, rows.find((r) => r.key === key).name.replace(/ /g, "").slice(0, width).toUpperCase());
  }
  return rows.map((r) => ({ ...r, letter: out.get(r.key) }));
}

export class Words {
  constructor(catalog) {
    this.cat = {
      ...catalog,
      tenant_types: lettered(named(catalog.tenant_types)),
      tenant_subtypes: lettered(named(catalog.tenant_subtypes)),
    };
    const index = (rows, key = "key") => Object.fromEntries(rows.map((r) => [r[key], r]));
    const by = (rows, key = "key") => index(named(rows), key);
    this.companies = by([...catalog.companies, catalog.ai_company]);
    /** The companies' names as the data (and a seat's default name) has them, before translation. */
    this.companyKeys = Object.fromEntries([...catalog.companies, catalog.ai_company].map((c) => [c.key, c.name]));
    this.buildings = by(catalog.buildings);
    this.types = index(this.cat.tenant_types);
    this.subtypes = index(this.cat.tenant_subtypes);
    this.kinds = { ...this.types, ...this.subtypes };
    this.features = by(catalog.features);
    this.neighbourhoods = by(catalog.neighbourhoods);
    this.zones = by(catalog.zones);
    this.difficulties = by(catalog.difficulties);
    this.aiCards = by(catalog.ai_cards, "id");
    this.riskCards = by(catalog.risk_cards, "id");
    this.prices = by(catalog.land_price_track, "position");
    this.typeOrder = catalog.tenant_types.map((t) => t.key);
  }

  company(key) { return (this.companies[key] || { name: key }).name; }
  building(key) { return (this.buildings[key] || { name: key }).name; }
  kind(key) { return this.kinds[key] || { key, name: key, letter: "?", tenant_type: key, rent: 0, population: 0 }; }
  tenant(key) { return this.kind(key).name; }
  letter(key) { return this.kind(key).letter; }
  typeOf(key) { return this.kind(key).tenant_type; }
  typeLetter(type) { return (this.types[type] || { letter: type[0].toUpperCase() }).letter; }
  typeName(type) { return (this.types[type] || { name: type }).name; }
  typeIndex(type) { return Math.max(0, this.typeOrder.indexOf(type)); }
  feature(key) { return this.features[key] || { key, name: key, effects: [] }; }

  /** "Students ×3, Family ×1" (as the history counts them) */
  tenants(kinds) {
    const counts = new Map();
    for (const k of kinds) counts.set(k, (counts.get(k) || 0) + 1);
    return [...counts].map(([k, n]) => t("{kind} ×{n}", { kind: this.tenant(k), n })).join(", ") || t("none");
  }

  /** "+1 Home, −1 Industry" */
  effects(effects) {
    return effects.map((e) => (e.delta > 0
      ? t("+{n} {type}", { n: Math.abs(e.delta), type: this.typeName(e.building_type) })
      : t("−{n} {type}", { n: Math.abs(e.delta), type: this.typeName(e.building_type) }))).join(", ");
  }

  rent(kinds) {
    return kinds.reduce((sum, k) => sum + this.kind(k).rent, 0);
  }

  /** "Ada (Vector Properties)", or the company alone when the name is the company. */
  seat(seat, view, players) {
    const s = view.seats[seat];
    const player = (players || []).find((p) => p.seat === seat);
    const company = s ? this.company(s.company) : t("Seat {number}", { number: seat + 1 });
    const name = player && player.name ? this.chosenName(player.name, s ? s.company : null) : "";
    return name && name !== company ? t("{name} ({company})", { name, company }) : company;
  }

  /** A seat's name, unless it is only its company's key or name (the default): then "". */
  chosenName(name, key) {
    return key && (name === key || name === this.companyKeys[key] || name === this.company(key)) ? "" : name;
  }
}
