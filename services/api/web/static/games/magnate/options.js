// Magnate's part of the lobby's "New game" form: the number of seats, which are played by a person and which by
// the computer (the rulebook's AI, at most one seat), its difficulty (the rulebook's names, explained), advanced tenants, the tutorial setup, and the tutorial against the computer
// (the tutorial's human seats, the computer standing in for all but the first: ``table.stand_ins``). Limits and
// names come from the catalog; the players' names are the shell's fields (``env.nameField(i)``), in each seat's row.

import { h } from "../../shell/dom.js";
import { t, wordsFor } from "./words.js";

/** The rulebook's difficulties in a sentence: how the computer values the plots it sells at each. */
function difficultyWords(words, levels) {
  const told = levels.map((key) => {
    const d = words.difficulties[key] || { name: key };
    const m = Number(d.sale_value_modifier || 0);
    if (m === 0) return t("{level}: sells plots at their worth", { level: d.name });
    return m < 0 ? t("{level}: sells plots {n} below their worth", { level: d.name, n: Math.abs(m) })
      : t("{level}: sells plots {n} above their worth", { level: d.name, n: Math.abs(m) });
  });
  return t("How hard the computer (the rulebook's AI) plays, easiest first — {levels}.", { levels: told.join("; ") });
}

/** Draws the form into ``container``; returns {read() -> options, seats() -> [{kind}]}. */
export async function optionsForm(container, entry, env) {
  const words = await wordsFor(entry.data_version);
  const { min_seats: min, max_seats: max, tutorial_seats: tutorialSeats } = words.cat.setup;
  const $ = (sel) => container.querySelector(sel);
  const kinds = () => [...container.querySelectorAll(".seat-kind")];

  const count = h("select", { id: "seat-count", name: "seat-count" });
  for (let n = min; n <= max; n++) count.append(h("option", { value: String(n) }, String(n)));
  count.value = String(min);
  const difficulty = h("select", { id: "difficulty", name: "difficulty", "aria-describedby": "difficulty-hint" });
  const levels = entry.ai_levels && entry.ai_levels.length ? entry.ai_levels : words.cat.difficulties.map((d) => d.key);
  for (const key of levels) difficulty.append(h("option", { value: key }, (words.difficulties[key] || { name: key }).name));
  const advanced = h("input", { type: "checkbox", id: "advanced", name: "advanced" });
  const tutorial = h("input", { type: "checkbox", id: "tutorial", name: "tutorial" });
  const tutorialHint = h("p", { id: "tutorial-hint", class: "hint", hidden: true });
  const versus = h("input", { type: "checkbox", id: "tutorial-ai", name: "tutorial-ai", "aria-describedby": "tutorial-ai-hint" });

  container.append(
    h("fieldset", {},
      h("legend", {}, t("Seats")),
      h("label", { for: "seat-count" }, t("Number of seats")), " ", count,
      h("ol", { id: "seat-list", class: "seat-list" }),
      h("p", { class: "hint" }, t("At most one seat can be the computer. Each person's seat gets its own invite link."))),
    h("fieldset", {},
      h("legend", {}, t("Options")),
      h("p", {}, h("label", { for: "difficulty" }, t("AI difficulty")), " ", difficulty),
      h("p", { id: "difficulty-hint", class: "hint" }, difficultyWords(words, levels)),
      h("p", { class: "check" }, advanced,
        h("label", { for: "advanced" }, t("Advanced tenants (subtypes: students, families, boutiques …)"))),
      h("p", { class: "check" }, tutorial, h("label", { for: "tutorial" }, t("Tutorial setup (fixed board from the rulebook)"))),
      tutorialHint,
      h("p", { class: "check" }, versus, h("label", { for: "tutorial-ai" }, t("Tutorial against the computer"))),
      h("p", { id: "tutorial-ai-hint", class: "hint" },
        t("Learn the game alone: the tutorial setup, you play seat 1 and the computer plays the other {others}.",
          { others: tutorialSeats - 1 }))));

  function syncDifficulty() {
    difficulty.disabled = !kinds().some((s) => s.value === "ai");
  }

  function syncTutorial() {
    if (versus.checked) tutorial.checked = true;
    tutorial.disabled = versus.checked;
    const on = tutorial.checked;
    tutorialHint.hidden = !on;
    advanced.disabled = on;
    if (on) {
      advanced.checked = false;
      tutorialHint.textContent = t("The tutorial setup is for {n} human seats on the standard side.", { n: tutorialSeats });
    }
    for (const s of kinds()) {
      if (on) s.value = "human";
      s.disabled = on;
    }
    for (const note of container.querySelectorAll(".seat-note")) note.hidden = !versus.checked;
  }

  function seatRow(i, kind) {
    const kindId = `seat-${i}-kind`;
    const select = h("select", { id: kindId, name: kindId, class: "seat-kind" },
      h("option", { value: "human" }, t("A person")), h("option", { value: "ai" }, t("The computer")));
    select.value = kind;
    select.addEventListener("change", syncDifficulty);
    return h("li", { class: "seat-row" },
      h("span", { class: "seat-number" }, t("Seat {number}", { number: i + 1 })),
      h("label", { for: kindId, class: "visually-hidden" }, t("Seat {number} is played by", { number: i + 1 })),
      select,
      i > 0 ? h("span", { class: "seat-note", hidden: true }, t("the computer plays it")) : null,
      env.nameField(i));
  }

  function drawSeats() {
    const n = Number(count.value);
    const list = $("#seat-list");
    const old = kinds().map((s) => s.value);
    list.replaceChildren();
    for (let i = 0; i < n; i++) {
      list.append(seatRow(i, old[i] || (i === n - 1 && n === 2 && !old.length ? "ai" : "human")));
    }
    syncTutorial();
    syncDifficulty();
  }

  count.addEventListener("change", drawSeats);
  tutorial.addEventListener("change", () => {
    if (tutorial.checked) {
      count.value = String(tutorialSeats);
      drawSeats();
    }
    syncTutorial();
    syncDifficulty();
  });
  versus.addEventListener("change", () => {
    if (versus.checked) {
      tutorial.checked = true;
      count.value = String(tutorialSeats);
      drawSeats();
    }
    count.disabled = versus.checked;
    syncTutorial();
    syncDifficulty();
  });
  drawSeats();

  const seats = () => kinds().map((s) => ({ kind: s.value }));
  return {
    seats,
    read() {
      const options = { seats: seats(), advanced: advanced.checked, tutorial: tutorial.checked };
      if (options.seats.some((s) => s.kind === "ai")) options.difficulty = difficulty.value;
      return options;
    },
    /** The table's seats that the computer plays from the start (the tutorial against the computer). */
    table() {
      return versus.checked ? { stand_ins: seats().map((_, i) => i).filter((i) => i > 0) } : {};
    },
  };
}
