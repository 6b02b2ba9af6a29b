// The seat's standing shortfall preferences (spec §17, "Interrupts"): how much of its own cash it gives a corporation
// it manages that is short (ME-X-1), and which factory types it sells first; with them set the server answers the
// shortfall at once instead of asking. Shown to the seat only (the view gives no other viewer these preferences),
// at any time while the game runs: setting them is not a move, so it is offered whether or not it is the seat's
// turn. The form is drawn again only when the preferences change, so a re-render while typing keeps the input.

import { actionForm } from "../../shell/actionform.js";
import { h } from "../../shell/dom.js";
import { euros, t } from "./words.js";

const SET = "master_of_economy.set_shortfall_preferences";
const CLEAR = "master_of_economy.clear_shortfall_preferences";
const MAX_COVER = 1000000;

/** The preferences in words. */
export function preferencesText(words, prefs) {
  if (!prefs) return t("None: you are asked at each shortfall.");
  const ranked = prefs.sell_first.map((k) => words.factoryName(k));
  const amount = euros(prefs.cover_up_to);
  if (!ranked.length) return t("Give up to {amount} of your cash, then sell in the factory table's order.", { amount });
  return t("Give up to {amount} of your cash, then sell {factories} first (other types in the table's order).",
    { amount, factories: ranked.join(t(", then ")) });
}

function form(ctx, prefs) {
  const { words } = ctx;
  const cover = h("input", { type: "number", id: "prefs-cover", name: "cover_up_to", min: "0", max: String(MAX_COVER),
    step: "1", inputmode: "numeric", class: "param-int", value: String(prefs ? prefs.cover_up_to : 0) });
  const ranks = words.factories.map((_, i) => h("select", { id: `prefs-rank-${i}`, name: `rank-${i}`, class: "prefs-rank" },
    h("option", { value: "" }, "—"),
    ...words.factories.map((f) => h("option", { value: f.key,
      selected: prefs && prefs.sell_first[i] === f.key ? true : null }, t(f.name)))));
  const read = (submitter, error) => {
    if (submitter && submitter.value === "clear") return { type: CLEAR };
    const amount = Number(cover.value);
    if (!Number.isInteger(amount) || amount < 0 || amount > MAX_COVER) {
      error.textContent = t("Give an amount from 0 to {most}.", { most: euros(MAX_COVER) });
      return null;
    }
    const ranked = ranks.map((s) => s.value).filter(Boolean);
    if (new Set(ranked).size !== ranked.length) {
      error.textContent = t("Rank each factory type once.");
      return null;
    }
    return { type: SET, cover_up_to: amount, sell_first: ranked };
  };
  return actionForm(ctx, "shortfall-preferences", (f) => {
    f.append(
      h("p", { class: "row param" }, h("label", { for: cover.id }, t("Give up to (€)")), " ", cover),
      h("fieldset", { class: "prefs-ranks" }, h("legend", {}, t("Sell first (then the table's order)")),
        ...ranks.map((s, i) => h("span", { class: "prefs-rank-box" },
          h("label", { for: s.id }, t("{n}.", { n: i + 1 })), " ", s))),
      h("p", { class: "buttons" },
        h("button", { type: "submit", value: "set", id: "prefs-save" }, prefs ? t("Change") : t("Set")),
        prefs ? " " : "", prefs ? h("button", { type: "submit", value: "clear", id: "prefs-clear" }, t("Clear")) : ""));
  }, read);
}

const drawn = new WeakMap();

/** Draws the preferences of ``ctx.seat`` into ``container`` (nothing for a spectator or once the game is over). */
export function renderPreferences(container, ctx) {
  const { view, seat } = ctx;
  const mine = seat !== null && seat !== undefined && view.players[seat];
  if (!mine || view.step === "ended" || view.step === "setup") {
    container.replaceChildren();
    drawn.delete(container);
    return;
  }
  const prefs = mine.preferences || null;
  const key = JSON.stringify(prefs);
  const last = drawn.get(container);
  if (last && last.key === key && !last.node.querySelector("form[aria-busy]")) return;
  const details = h("details", { class: "shortfall-prefs", id: "shortfall-prefs", open: last && last.open() ? true : null },
    h("summary", {}, t("Your shortfall preferences")),
    h("p", { class: "hint", id: "prefs-now" }, preferencesText(ctx.words, prefs)),
    h("p", { class: "hint" }, t("When a corporation you manage cannot pay, these answer for you at once; only you see them.")),
    form(ctx, prefs));
  container.replaceChildren(details);
  drawn.set(container, { key, node: details, open: () => details.open });
}
