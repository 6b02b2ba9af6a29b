// The computer's seats: who it plays and at what level, and why it played its last turns (its plan, recorded
// before its actions: ``decktet.ai_turn_planned``, from the game's events).

import { h } from "../../shell/dom.js";

export const PLAN = "decktet.ai_turn_planned";

/** The plans among new events, oldest first: [{version, seat, level, explanation}]. */
export function plansIn(events) {
  return events.filter((e) => e.type === PLAN && e.payload)
    .map((e) => ({ version: e.version, seat: e.payload.seat, level: e.payload.level, explanation: e.payload.explanation }));
}

/** Shows (or hides, in a game without the computer) the panel; ``plans`` are the plans seen so far. */
export function renderComputer(section, body, view, plans, label) {
  const seats = view.variant.seats.map((s, i) => [s, i]).filter(([s]) => s.kind === "ai");
  section.hidden = !seats.length;
  if (!seats.length) return;
  const recent = plans.slice(-4).reverse();
  const list = h("ol", { class: "plans", id: "ai-plans" },
    ...recent.map((p) => h("li", { "data-version": String(p.version) }, h("strong", {}, `${label(p.seat)}: `), p.explanation)));
  body.replaceChildren(
    h("p", {}, `The computer plays ${seats.map(([s, i]) => `seat ${i + 1} at level ${s.level}`).join(" and ")}. `,
      "It decides from what its seat may know: its own hand and the public table, never the others' hands."),
    h("h3", {}, "Why it played as it did"),
    recent.length ? list : h("p", { class: "hint" }, "No turn of its own yet."));
}
