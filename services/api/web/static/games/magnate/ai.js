// The AI's board (level, decks as counts, discard pile, last card, holdings) and its explained decisions.

import { h } from "../../shell/dom.js";
import { list } from "../../shell/i18n.js";
import { money, roman, t } from "./words.js";

/** A card as the rules (§11.5) and the engine read it: a threshold card's top action when the value is at least
 * the threshold, its bottom action when below; the default only when the chosen action is impossible. */
export function cardText(card, words) {
  const c = words.aiCards[card];
  if (!c) return card;
  const act = (a) => ({ buy: t("buy land"), build: t("build"), sell: t("sell"), consult: t("consult") }[a] || a);
  const args = { card: c.id, top: act(c.top), bottom: act(c.bottom), fallback: act(c.default), ads: c.ads };
  if (c.kind === "single") return t("{card}: {top} (if impossible: {fallback}), advertising {ads}", args);
  if (c.kind === "land_price") {
    return t("{card}: {top} when land price ≥ {at}, {bottom} when land price < {at} (if impossible: {fallback}), " +
      "advertising {ads}", { ...args, at: money(c.threshold) });
  }
  return t("{card}: {top} when crash marker ≥ {at}, {bottom} when crash marker < {at} (if impossible: {fallback}), " +
    "advertising {ads}", { ...args, at: c.threshold });
}

export function renderAi(section, container, view, words, decisions) {
  const ai = view.ai;
  section.hidden = !ai;
  if (!ai) return;
  const difficulty = words.difficulties[view.difficulty] || { name: view.difficulty };
  const decks = ai.decks.map((n, i) => t("{level}: {n}", { level: roman(i + 1), n })).join(", ");
  const built = ai.top_row.length ? list(ai.top_row) : t("none");
  const unbuilt = ai.bottom_row.filter(Boolean);
  const facts = h("dl", { class: "facts" },
    h("dt", {}, t("Level")), h("dd", { id: "ai-level" },
      t("{level} (difficulty: {difficulty})", { level: roman(ai.level), difficulty: difficulty.name })),
    h("dt", {}, t("Cards left")), h("dd", {}, decks),
    h("dt", {}, t("Last card")), h("dd", {}, ai.last_card ? cardText(ai.last_card, words) : t("none yet")),
    h("dt", {}, t("Discard pile")), h("dd", {}, ai.discard.length ? ai.discard.join(", ") : t("empty")),
    h("dt", {}, t("Holdings")), h("dd", {}, t("built: {built}; unbuilt: {unbuilt}",
      { built, unbuilt: unbuilt.length ? list(unbuilt) : t("none") })),
  );
  const items = h("ol", { class: "decisions", id: "ai-decisions" });
  for (const line of decisions.slice(-6)) items.append(h("li", {}, line.text));
  container.replaceChildren(facts, h("h3", {}, t("Why the AI did what it did")),
    decisions.length ? items : h("p", {}, t("No decision yet.")));
}
