// The AI's board (level, decks as counts, discard pile, last card, holdings) and its explained decisions.

import { h } from "../../shell/dom.js";
import { money, roman } from "./words.js";

/** A card as the rules (§11.5) and the engine read it: a threshold card's top action when the value is at least
 * the threshold, its bottom action when below; the default only when the chosen action is impossible. */
export function cardText(card, words) {
  const c = words.aiCards[card];
  if (!c) return card;
  const act = (a) => ({ buy: "buy land", build: "build", sell: "sell", consult: "consult" }[a] || a);
  const fallback = `if impossible: ${act(c.default)}`;
  if (c.kind === "single") return `${c.id}: ${act(c.top)} (${fallback}), advertising ${c.ads}`;
  const [test, at] = c.kind === "land_price" ? ["land price", money(c.threshold)] : ["crash marker", String(c.threshold)];
  return `${c.id}: ${act(c.top)} when ${test} ≥ ${at}, ${act(c.bottom)} when ${test} < ${at} (${fallback}), ` +
    `advertising ${c.ads}`;
}

export function renderAi(section, container, view, words, decisions) {
  const ai = view.ai;
  section.hidden = !ai;
  if (!ai) return;
  const difficulty = words.difficulties[view.difficulty] || { name: view.difficulty };
  const decks = ai.decks.map((n, i) => `${roman(i + 1)}: ${n}`).join(", ");
  const facts = h("dl", { class: "facts" },
    h("dt", {}, "Level"), h("dd", { id: "ai-level" }, `${roman(ai.level)} (difficulty: ${difficulty.name})`),
    h("dt", {}, "Cards left"), h("dd", {}, decks),
    h("dt", {}, "Last card"), h("dd", {}, ai.last_card ? cardText(ai.last_card, words) : "none yet"),
    h("dt", {}, "Discard pile"), h("dd", {}, ai.discard.length ? ai.discard.join(", ") : "empty"),
    h("dt", {}, "Holdings"), h("dd", {}, `built: ${ai.top_row.join(", ") || "none"}; unbuilt: ${ai.bottom_row.filter(Boolean).join(", ") || "none"}`),
  );
  const list = h("ol", { class: "decisions", id: "ai-decisions" });
  for (const line of decisions.slice(-6)) list.append(h("li", {}, line.text));
  container.replaceChildren(facts, h("h3", {}, "Why the AI did what it did"),
    decisions.length ? list : h("p", {}, "No decision yet."));
}
