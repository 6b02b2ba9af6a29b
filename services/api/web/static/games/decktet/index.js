// Decktet Magnate (designed by Cristyn Magnus) in the play-by-web shell: the bundle the shell imports for games of
// type "decktet" (the interface is described in /static/shell/bundles.js).

import { mount } from "./board.js";
import { PLAN } from "./computer.js";
import { seatLabel } from "./label.js";
import { optionsForm } from "./options.js";
import { plural } from "./words.js";

const ROLL_EVENTS = new Set(["decktet.dice_rolled", "decktet.taxed", "decktet.income_paid", "decktet.income_chosen"]);

export default {
  title: "Decktet Magnate",
  styles: [new URL("./decktet.css", import.meta.url).href],
  labels: { seat: "Player", score: "Districts" },
  optionsForm,
  mount,
  seatLabel,
  formatScore: (n) => plural(Number(n), "district"),
  seed: (view) => (view ? { commitment: view.seed_commitment, seed: view.seed } : null),
  lineClass: (line) => (line.event === PLAN ? "ai-line" : ROLL_EVENTS.has(line.event) ? "roll-line" : ""),
  summary: (view) => (view.phase === "ended" ? "finished"
    : `turn ${view.turn}${view.final_round ? ", final round" : ""}`),
};
