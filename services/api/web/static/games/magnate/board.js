// Magnate's game page inside the shell: the city map (main column), the companies, the property market and
// the AI (side column), the last roll as dice (under the moves) and the moves themselves.

import { h } from "../../shell/dom.js";
import { renderActions } from "./actions.js";
import { renderAi } from "./ai.js";
import { City, legend } from "./city.js";
import { renderCompanies } from "./companies.js";
import { diceRow } from "./dice.js";
import { renderMarket } from "./market.js";
import { list } from "../../shell/i18n.js";
import { PHASES, SYSTEM_JOBS, t, tn, wordsFor } from "./words.js";

const AI_EVENTS = new Set(["magnate.ai_decided", "magnate.ai_die_rolled", "magnate.ai_level_raised"]);

/** The history lines that explain the AI's moves. */
export function decisions(lines) {
  return lines.filter((l) => AI_EVENTS.has(l.event));
}

function panel(id, title, ...children) {
  return h("section", { id, class: `panel ${id}`, "aria-labelledby": `${id}-title` },
    h("h2", { id: `${id}-title` }, title), ...children);
}

function cityPanel() {
  const zoom = h("button", { type: "button", id: "zoom", "aria-pressed": "false", "aria-controls": "city" }, t("Enlarge the map"));
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  Object.entries({ id: "city", role: "group", "aria-label": t("The city: centre and six neighbourhoods") })
    .forEach(([k, v]) => svg.setAttribute(k, v));
  const wrap = h("div", { class: "city-wrap" }, svg);
  zoom.addEventListener("click", () => {
    const on = wrap.classList.toggle("enlarged");
    zoom.setAttribute("aria-pressed", String(on));
  });
  const section = h("section", { id: "city-panel", class: "panel city", "aria-labelledby": "city-title" },
    h("h2", { id: "city-title" }, t("The city")),
    h("div", { class: "city-tools" },
      h("p", { class: "hint" },
        h("span", { class: "on-hover" }, t("Hover a plot, or Tab to the map and use the arrow keys, to read it.")),
        h("span", { class: "on-touch" }, t("Tap a plot to read it."))),
      zoom),
    wrap,
    h("div", { id: "plot-info", class: "plot-info", "aria-live": "polite" }),
    h("div", { id: "legend", class: "legend" }));
  return { section, svg };
}

export async function mount(slots, env) {
  const words = await wordsFor(env.game.view.dataset);
  const { section: citySection, svg } = cityPanel();
  const dice = h("div", { id: "dice", class: "dice-panel" });
  const companies = panel("companies", t("Companies"), h("div", { id: "company-table" }));
  const market = h("section", { id: "market", class: "panel market", "aria-labelledby": "market-title" },
    h("h2", { id: "market-title" }, t("Property market")), h("div", { id: "market-body" }));
  const aiBody = h("div", { id: "ai-body" });
  const ai = h("section", { id: "ai", class: "panel ai", "aria-labelledby": "ai-title", hidden: true },
    h("h2", { id: "ai-title" }, t("The AI")), aiBody);
  slots.turn.append(dice);
  slots.side.append(companies, market, ai);
  slots.main.append(citySection);
  const city = new City(svg, citySection.querySelector("#plot-info"));

  const last = { state: null, roll: null, diceKey: undefined, diceFaces: undefined };

  /** The last roll as dice; redrawn only when it changed, and rolled (animated) when its faces are new. Not
   * once the game is over: the final standings come first, and a roll from before the crash no longer
   * matters. */
  function renderDice() {
    const roll = last.roll;
    const s = last.state;
    const view = s && s.view;
    const a = view && view.attraction;
    const asking = Boolean(a && s.legal.length && roll && a.plot === roll.plot); // the form shows these dice
    const over = Boolean(view && view.phase === "ended");
    const key = JSON.stringify([roll, asking, over, view ? view.round : null]);
    if (key === last.diceKey) return;
    const faces = roll ? JSON.stringify([roll.seat, roll.plot, roll.faces]) : null;
    const animate = last.diceFaces !== undefined && faces !== last.diceFaces;
    last.diceKey = key;
    last.diceFaces = faces;
    if (!roll || !view || asking || over) { dice.replaceChildren(); return; }
    const who = words.seat(roll.seat, view, s.players);
    const parts = [h("h3", {}, t("Last roll")), h("p", {}, t("{who}, attracting tenants to {plot}:", { who, plot: roll.plot })),
      diceRow(roll.faces, { caption: t("rolled"), marks: roll.faces.map(() => "") })];
    if (roll.final) {
      const marks = roll.final.map((_, i) => (roll.fives.includes(i) ? "five" : ""));
      const modifier = `${roll.modifier > 0 ? "+" : "−"}${Math.abs(roll.modifier)}`;
      const fives = roll.fives.length;
      let caption = t("final");
      if (fives && roll.modifier) {
        caption = tn("final (advertising set {n} die to 5, {modifier} each)",
          "final (advertising set {n} dice to 5, {modifier} each)", fives, { modifier });
      } else if (fives) {
        caption = tn("final (advertising set {n} die to 5)", "final (advertising set {n} dice to 5)", fives);
      } else if (roll.modifier) {
        caption = t("final ({modifier} each)", { modifier });
      }
      parts.push(diceRow(roll.final, { caption, marks, numbers: true }));
    }
    if (roll.tenants) {
      parts.push(h("p", {}, roll.tenants.length ? t("Moving in: {tenants}.", { tenants: words.tenants(roll.tenants) })
        : t("Nobody moves in.")));
    }
    dice.replaceChildren(...parts);
    dice.classList.toggle("fresh", animate);
  }

  /** Dice as they happen, from stored events (the live stream's, or the recent log's at load). */
  function noteDice(events) {
    let changed = false;
    for (const e of events) {
      const p = e.payload || {};
      if (e.type === "magnate.dice_rolled") {
        last.roll = { seat: p.seat, plot: p.plot, faces: p.faces, final: null, fives: [], modifier: 0, tenants: null };
        changed = true;
      } else if (e.type === "magnate.dice_settled" && last.roll && last.roll.plot === p.plot) {
        Object.assign(last.roll, { final: p.final, fives: p.fives, modifier: p.modifier });
        changed = true;
      } else if (e.type === "magnate.tenants_moved_in" && last.roll && last.roll.plot === p.plot) {
        last.roll.tenants = p.tenants;
        changed = true;
      }
    }
    return changed;
  }

  const showAi = (s) => renderAi(ai, aiBody, s.view, words, decisions(env.lines()));

  return {
    render(s) {
      last.state = s;
      const { view, players, seat } = s;
      renderActions(slots.actions, { view, legal: s.legal, seat, words, players, send: env.send });
      city.render(view, words, players, seat);
      legend(citySection.querySelector("#legend"), view, words, players);
      renderCompanies(companies.querySelector("#company-table"), view, words, players, seat);
      renderMarket(market.querySelector("#market-body"), view, words);
      showAi(s);
      renderDice();
      return { round: String(view.round), phase: view.phase };
    },

    status(s) {
      const { view } = s;
      const phase = PHASES[view.phase] || view.phase;
      if (view.phase === "ended") return t("Round {round} · {phase}", { round: view.round, phase });
      const mine = s.seat !== null && view.on_turn.includes(s.seat);
      const turn = mine ? t("your turn") : view.on_turn.length
        ? t("{seats} to play", { seats: list(view.on_turn.map((seat) => words.seat(seat, view, s.players))) })
        : SYSTEM_JOBS[view.system_job] || t("automatic step");
      return t("Round {round} · {phase} · {turn}", { round: view.round, phase, turn });
    },

    onEvents(events) {
      if (noteDice(events) && last.state) renderDice();
    },

    onHistory() {
      if (last.state) showAi(last.state);
    },
  };
}
