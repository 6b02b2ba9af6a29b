// The computer's seats: who it plays and at what level, and why it played its last turns (its plan, recorded
// before its actions: ``decktet.ai_turn_planned``, told by the history in the reader's language).

import { h } from "../../shell/dom.js";
import { levelName } from "./label.js";
import { listing, t } from "./words.js";

export const PLAN = "decktet.ai_turn_planned";

/** The plans among history lines, oldest first: [{version, text}] (the line names the seat). */
export function plansIn(lines) {
  return lines.filter((line) => line.event === PLAN).map((line) => ({ version: line.version, text: line.text }));
}

/** Shows (or hides, in a game without the computer) the panel; ``plans`` are the plans seen so far. */
export function renderComputer(section, body, view, plans) {
  const seats = view.variant.seats.map((s, i) => [s, i]).filter(([s]) => s.kind === "ai");
  section.hidden = !seats.length;
  if (!seats.length) return;
  const recent = plans.slice(-4).reverse();
  const list = h("ol", { class: "plans", id: "ai-plans" },
    ...recent.map((p) => h("li", { "data-version": String(p.version) }, p.text)));
  const played = listing(seats.map(([s, i]) => t("seat {number} at level {level}", { number: i + 1, level: levelName(s.level) })));
  body.replaceChildren(
    h("p", {}, t("The computer plays {seats}. It decides from what its seat may know: its own hand and the public table, never the others' hands.", { seats: played })),
    h("h3", {}, t("Why it played as it did")),
    recent.length ? list : h("p", { class: "hint" }, t("No turn of its own yet.")));
}
