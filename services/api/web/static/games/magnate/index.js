// Magnate: The First City in the play-by-web shell: the bundle the shell imports for games of type "magnate"
// (the interface is described in /static/shell/bundles.js).

import { optionsForm } from "./options.js";
import { mount } from "./board.js";
import { tutorialFacts } from "./tutorial.js";
import { PHASES, currentWords, money, t } from "./words.js";

const MARKET_EVENTS = new Set([
  "magnate.risk_card_drawn", "magnate.land_price_moved", "magnate.new_tenants_arrived",
  "magnate.for_sale_marker_drawn", "magnate.market_crashed",
]);

/** "Ada (Vector Properties)", or the company alone when the player kept its name. */
function seatLabel(player, view) {
  const words = currentWords();
  const key = (player.payload && player.payload.company) || (view && view.seats[player.seat] ? view.seats[player.seat].company : null);
  const company = key ? (words ? words.company(key) : key) : t("Seat {number}", { number: player.seat + 1 });
  const name = player.name ? (words && key ? words.chosenName(player.name, key) : player.name !== key ? player.name : "") : "";
  return name && name !== company ? t("{name} ({company})", { name, company }) : company;
}

export default {
  title: "Magnate",
  styles: [new URL("./magnate.css", import.meta.url).href],
  labels: { seat: t("Company"), score: t("Cash") },
  optionsForm,
  mount,
  seatLabel,
  formatScore: money,
  seed: (view) => (view ? { commitment: view.seed_commitment, seed: view.seed } : null),
  lineClass: (line) => (MARKET_EVENTS.has(line.event) ? "market-line" : ""),
  tutorialFacts,
  summary: (view) => t("round {round}, {phase}", { round: view.round, phase: PHASES[view.phase] || view.phase }),
};
