// The AI's board (level, decks as counts, discard pile, last card, holdings) and its explained decisions.

import { h } from "../../shell/dom.js";
import { roman } from "./words.js";

function cardText(card, words) {
  const c = words.aiCards[card];
  if (!c) return card;
  const act = (a) => ({ buy: "buy land", build: "build", sell: "sell", consult: "consult" }[a] || a);
  if (c.kind === "single") return `${c.id}: ${act(c.top)} (else ${act(c.default)}), advertising ${c.ads}`;
  const what = c.kind === "land_price" ? `land price ≥ ${c.threshold}K` : `crash marker ≤ ${c.threshold}`;
  return `${c.id}: ${act(c.top)}, or ${act(c.bottom)} when ${what} (else ${act(c.default)}), advertising ${c.ads}`;
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
