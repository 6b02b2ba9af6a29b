// Each company's public state; cash and advertising only where this viewer may see them.

import { h } from "../../shell/dom.js";
import { num } from "../../shell/i18n.js";
import { money, t } from "./words.js";

/** What to add after an AI seat's name: its difficulty, and "AI" unless the name says so already (the AI's
 * own company is called "AI"; an AI may also play a human company). */
function aiKind(label, view, words) {
  const level = view.difficulty ? (words.difficulties[view.difficulty] || { name: view.difficulty }).name : "";
  const ai = words.company(words.cat.ai_company.key);
  if (label === ai || label.endsWith(`(${ai})`)) return level ? " " + t("({level})", { level }) : "";
  return " " + (level ? t("· AI ({level})", { level }) : t("· AI"));
}

export function renderCompanies(container, view, words, players, mySeat) {
  const table = h("table", { class: "company-table" },
    h("caption", { class: "visually-hidden" }, t("Companies")),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("Company")), h("th", { scope: "col", class: "num" }, t("Cash")),
      h("th", { scope: "col", class: "num" }, h("abbr", { title: t("Advertising tokens") }, t("Ads"))),
      h("th", { scope: "col" }, t("Plots")), h("th", { scope: "col" }, t("Turn")))));
  const body = h("tbody");
  for (const s of view.seats) {
    const mine = s.seat === mySeat;
    const onTurn = view.on_turn.includes(s.seat);
    const badge = h("span", { class: `owner-html owner-bg-${s.seat}` }, s.kind === "ai" ? t("AI") : String(s.seat + 1));
    const label = words.seat(s.seat, view, players);
    const who = h("th", { scope: "row" }, badge, h("span", { class: "who" }, ` ${label}`),
      mine ? h("span", { class: "you" }, " " + t("(you)")) : null,
      s.kind === "ai" ? h("span", { class: "kind" }, aiKind(label, view, words)) : null);
    const hidden = (v, text) => (v === null || v === undefined ? h("span", { class: "hidden-value" }, t("hidden")) : text);
    body.append(h("tr", { class: `${mine ? "mine" : ""}${onTurn ? " on-turn" : ""}`, "data-seat": String(s.seat) },
      who,
      h("td", { class: "num cash" }, hidden(s.cash, money(s.cash))),
      h("td", { class: "num advertising" }, hidden(s.advertising, num(s.advertising || 0))),
      h("td", { class: "plots" }, s.plots.length ? s.plots.join(" ") : "—"),
      h("td", { class: "turn-cell" }, onTurn ? t("▶ on turn") : view.first_player === s.seat ? t("first player") : "")));
  }
  table.append(body);
  container.replaceChildren(table);
}
