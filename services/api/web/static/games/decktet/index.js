// Decktet Magnate (designed by Cristyn Magnus) in the play-by-web shell: the bundle the shell imports for games of
// type "decktet" (the interface is described in /static/shell/bundles.js).

import { mount } from "./board.js";
import { PLAN } from "./computer.js";
import { seatLabel } from "./label.js";
import { optionsForm } from "./options.js";
import { t, tn } from "./words.js";

const ROLL_EVENTS = new Set(["decktet.dice_rolled", "decktet.taxed", "decktet.income_paid", "decktet.income_chosen"]);

export default {
  title: "Decktet Magnate",
  styles: [new URL("./decktet.css", import.meta.url).href],
  labels: { seat: t("Player"), score: t("Districts") },
  optionsForm,
  mount,
  seatLabel,
  formatScore: (n) => tn("{n} district", "{n} districts", Number(n)),
  seed: (view) => (view ? { commitment: view.seed_commitment, seed: view.seed } : null),
  lineClass: (line) => (line.event === PLAN ? "ai-line" : ROLL_EVENTS.has(line.event) ? "roll-line" : ""),
  summary: (view) => (view.phase === "ended" ? t("finished")
    : view.final_round ? t("turn {turn}, final round", { turn: view.turn }) : t("turn {turn}", { turn: view.turn })),
};
