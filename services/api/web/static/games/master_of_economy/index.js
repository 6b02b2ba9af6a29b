// Master of Economy (Andrzej Kurek, Sinonis 2010) in the play-by-web shell: the bundle the shell imports for games
// of type "master_of_economy" (the interface is described in /static/shell/bundles.js).

import { mount } from "./board.js";
import { seatLabel } from "./label.js";
import { optionsForm } from "./options.js";
import { euros, phaseName, t } from "./words.js";

export default {
  title: t("Master of Economy"),
  styles: [new URL("./master_of_economy.css", import.meta.url).href],
  labels: { seat: t("Player"), score: t("Result") },
  optionsForm,
  mount,
  seatLabel,
  formatScore: (n) => euros(Number(n)),
  seed: (view) => (view ? { commitment: view.seed_commitment, seed: view.seed } : null),
  summary: (view) => (view.step === "ended" ? t("finished")
    : t("stage {stage}, {phase}", { stage: view.stage || 1, phase: phaseName(view.phase) })),
};
