// Names and numbers in words, from the catalog (the page hard-codes no table).

import { api } from "../../shell/api.js";

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

export function money(k) {
  if (k === null || k === undefined) return "hidden";
  return `${Number(k).toLocaleString("en-GB")}K`;
}

export function roman(n) {
  return ["I", "II", "III", "IV", "V", "VI"][n - 1] || String(n);
}

export const PHASES = {
  setup: "Setup",
  bidding: "Phase 1 · bid for turn order",
  attracting: "Phase 2 · attract tenants and collect rent",
  actions: "Phase 3 · actions",
  market: "Phase 4 · property market",
  ended: "The crash: game over",
};

export const SYSTEM_JOBS = {
  "magnate.roll_dice": "rolling the dice",
  "magnate.ai_turn": "the AI is thinking",
  "magnate.process_market": "the property market moves",
  "magnate.reveal_seed": "revealing the seed",
};

export class Words {
  constructor(catalog) {
    this.cat = catalog;
    const by = (rows, key = "key") => Object.fromEntries(rows.map((r) => [r[key], r]));
    this.companies = by([...catalog.companies, catalog.ai_company]);
    this.buildings = by(catalog.buildings);
    this.types = by(catalog.tenant_types);
    this.subtypes = by(catalog.tenant_subtypes);
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

  /** "3 Students, 1 Family" */
  tenants(kinds) {
    const counts = new Map();
    for (const k of kinds) counts.set(k, (counts.get(k) || 0) + 1);
    return [...counts].map(([k, n]) => `${n} ${this.tenant(k)}`).join(", ") || "none";
  }

  /** "+1 Home, −1 Industry" */
  effects(effects) {
    return effects.map((e) => `${e.delta > 0 ? "+" : "−"}${Math.abs(e.delta)} ${this.typeName(e.building_type)}`).join(", ");
  }

  rent(kinds) {
    return kinds.reduce((sum, k) => sum + this.kind(k).rent, 0);
  }

  /** "Ada (Vector Properties)", or the company alone when the name is the company. */
  seat(seat, view, players) {
    const s = view.seats[seat];
    const player = (players || []).find((p) => p.seat === seat);
    const company = s ? this.company(s.company) : `Seat ${seat + 1}`;
    const name = player && player.name && player.name !== (s && s.company) ? player.name : "";
    return name && name !== company ? `${name} (${company})` : company;
  }
}
