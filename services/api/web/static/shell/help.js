// Rules at hand: a game's "How to play" (GET /api/catalog/{game}/help, the game package's help/en.toml with its
// catalog's numbers filled in by the server). It draws the page /rules/{game}; on the game page it says above the
// move forms what the current phase is for and what each kind of move the seat has does (one sentence each, by the
// view's phase field and the legal commands' types), links the rules, and, in a game that is a tutorial, shows the
// tutorial's step: the first whose facts all hold (fields of the seat's view, and what the game's bundle adds with
// its optional ``tutorialFacts(state)``), so it advances as the game does. Names no game.

import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import "./language.js";

const fetched = new Map();
/** Below this width the moves' sentences start folded, so the move forms stay in view. */
const NARROW = "(max-width: 40rem)";

/** A game's help (asked once per page), or null when the game has none. */
export function helpOf(gameType) {
  if (!fetched.has(gameType)) {
    fetched.set(gameType, fetch(`/api/catalog/${encodeURIComponent(gameType)}/help`, { headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => { fetched.delete(gameType); return null; }));
  }
  return fetched.get(gameType);
}

export const rulesUrl = (gameType) => `/rules/${encodeURIComponent(gameType)}`;

function section(s) {
  const nodes = [h("h2", {}, s.heading), ...s.paragraphs.map((p) => h("p", {}, p))];
  if (s.items.length) nodes.push(h("ul", {}, ...s.items.map((i) => h("li", {}, i))));
  if (s.table) {
    nodes.push(h("div", { class: "rules-table" }, h("table", {},
      h("thead", {}, h("tr", {}, ...s.table.columns.map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, ...s.table.rows.map((row) => h("tr", {}, ...row.map((c) => h("td", {}, c))))))));
  }
  return h("section", { class: "panel rules-section" }, ...nodes);
}

/** The page /rules/{game}: every section, then what each phase is for and what each move does. */
async function rulesPage() {
  const game = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  const main = document.querySelector("#rules");
  const help = await helpOf(game);
  if (!help) {
    document.querySelector("#rules-title").textContent = t("No rules here");
    main.replaceChildren(h("p", { class: "error", role: "alert" }, t("This server has no rules for a game called “{game}”.", { game })));
    return;
  }
  document.title = help.title;
  document.querySelector("#rules-title").textContent = help.title;
  document.querySelector("#rules-summary").textContent = help.summary;
  main.replaceChildren(...help.sections.map(section));
}

/** What a help line says of one phase (or null). */
export function phaseLine(help, view) {
  if (!help || !view) return null;
  return help.phases[String(view[help.phase_field])] || null;
}

/** The tutorial's step for ``facts`` (the view and the bundle's facts), or null when the game is no tutorial. */
export function tutorialStep(help, facts) {
  const tutorial = help && help.tutorial;
  const holds = (when) => Object.entries(when).every(([k, v]) => facts[k] === v);
  if (!tutorial || !holds(tutorial.active)) return null;
  const index = tutorial.steps.findIndex((s) => holds(s.when));
  return index < 0 ? null : { number: index + 1, of: tutorial.steps.length, text: tutorial.steps[index].text };
}

/** The game page's help above the move forms: the phase's sentence, each legal kind of move's, and the tutorial's
 * step. ``state`` is the board's (view, legal, seat, over); ``bundle`` may add tutorial facts. */
export async function showPhaseHelp(container, gameType, state, bundle) {
  const help = await helpOf(gameType);
  if (!help || !container) return;
  const nodes = [];
  const step = state.seat !== null && !state.over
    ? tutorialStep(help, { ...state.view, ...(bundle && bundle.tutorialFacts ? bundle.tutorialFacts(state) : {}) }) : null;
  if (step) {
    nodes.push(h("div", { class: "tutorial-step", id: "tutorial-step", role: "status" },
      h("p", { class: "tutorial-title" }, t("Tutorial — step {number} of {of}", step)), h("p", {}, step.text)));
  }
  const phase = state.over ? null : phaseLine(help, state.view);
  if (phase) nodes.push(h("p", { class: "phase-line", id: "phase-line" }, phase));
  const types = [...new Set((state.legal || []).map((t) => t.command && t.command.type))]
    .filter((t) => t && help.commands[t]);
  if (types.length) {
    const list = h("ul", { class: "move-help", id: "move-help" }, ...types.map((t) =>
      h("li", { "data-command": t }, help.commands[t])));
    const previous = container.querySelector("details.move-help-box");
    const open = previous ? previous.open : !window.matchMedia(NARROW).matches; // a phone keeps the moves in view
    nodes.push(h("details", { class: "move-help-box", open: open ? true : null },
      h("summary", {}, types.length === 1 ? t("What this move does")
        : tn("What each move does ({n})", "What each move does ({n})", types.length)), list));
  }
  container.replaceChildren(...nodes);
  container.hidden = nodes.length === 0;
}

/** Points a link at the game's rules. */
export function linkRules(anchor, gameType) {
  if (!anchor) return;
  anchor.href = rulesUrl(gameType);
  anchor.hidden = false;
}

if (document.body && document.body.classList.contains("rules-page")) rulesPage();
