// Decktet Magnate's game page inside the shell: the districts and the properties (main column), the players and the piles and the
// computer (side column); in the move panel, under the moves, the seat's hand and the roll as it happens.

import { playerOf } from "../../shell/bundles.js";
import { h } from "../../shell/dom.js";
import { focusCard, renderActions } from "./actions.js";
import { plansIn, renderComputer } from "./computer.js";
import { renderHand } from "./hand.js";
import { seatLabel } from "./label.js";
import { renderPiles, renderPlayers } from "./players.js";
import { Roll } from "./roll.js";
import { tableSvgs } from "./table.js";
import { t, tn, wordsFor } from "./words.js";

function panel(id, title, ...children) {
  return h("section", { id, class: `panel ${id}`, "aria-labelledby": `${id}-title` },
    h("h2", { id: `${id}-title` }, title), ...children);
}

/** The table's panel: the SVGs, a button to enlarge them (a phone scrolls them sideways inside the panel), and a
 * line that reads out a card that was tapped or clicked. */
function tablePanel() {
  const zoom = h("button", { type: "button", id: "zoom", "aria-pressed": "false", "aria-controls": "table-wrap" }, t("Enlarge"));
  const wrap = h("div", { class: "table-wrap", id: "table-wrap" });
  const info = h("p", { id: "table-info", class: "table-info", "aria-live": "polite" }, t("Tap or click a card to read it."));
  zoom.addEventListener("click", () => {
    const on = wrap.classList.toggle("enlarged");
    zoom.setAttribute("aria-pressed", String(on));
  });
  wrap.addEventListener("click", (e) => {
    const target = e.target.closest("[aria-label][data-card], [aria-label][data-district]");
    if (target) info.textContent = target.getAttribute("aria-label");
  });
  const section = h("section", { id: "districts", class: "panel districts", "aria-labelledby": "districts-title" },
    h("div", { class: "table-tools" }, h("h2", { id: "districts-title" }, t("The districts")), zoom), wrap, info);
  return { section, wrap };
}

export async function mount(slots, env) {
  const view = env.game.view;
  const words = await wordsFor(view && view.variant ? view.variant.dataset : undefined); // none: the current tables
  const { section: table, wrap } = tablePanel();
  const hand = h("section", { id: "hand-panel", class: "hand-panel", "aria-labelledby": "hand-title" },
    h("h3", { id: "hand-title" }, t("Your hand")), h("div", { id: "hand-body" }));
  const rollBox = h("div", { id: "roll", class: "roll-panel", "aria-live": "polite" });
  const players = panel("players", t("Players"), h("div", { id: "players-body" }));
  const piles = panel("piles", t("Cards"), h("div", { id: "piles-body" }));
  const computerBody = h("div", { id: "computer-body" });
  const computer = h("section", { id: "computer", class: "panel computer", "aria-labelledby": "computer-title", hidden: true },
    h("h2", { id: "computer-title" }, t("The computer")), computerBody);
  slots.turn.append(hand, rollBox);
  slots.side.append(players, piles, computer);
  slots.main.append(table);
  const roll = new Roll(rollBox, words);
  let last = null;
  let plans = []; // the computer's plans, from the history's lines

  const labeller = (s) => (seat) => seatLabel(playerOf(seat, s.players), s.view);

  function showRoll() {
    if (last) roll.render(last.view, labeller(last));
  }

  function showComputer() {
    if (last) renderComputer(computer, computerBody, last.view, plans);
  }

  return {
    render(s) {
      last = s;
      plans = plansIn(env.lines());
      const { view, seat } = s;
      const label = labeller(s);
      const me = seat !== null && seat !== undefined ? seat : null;
      const ctx = { words, label, me };
      renderActions(slots.actions, { view, legal: s.legal, seat: me, words, label, send: env.send });
      wrap.replaceChildren(...tableSvgs(view, ctx));
      hand.querySelector("h3").textContent = me === null ? t("Hands") : t("Your hand");
      renderHand(hand.querySelector("#hand-body"), view, { ...ctx, onCard: (card) => focusCard(slots.actions, card) });
      renderPlayers(players.querySelector("#players-body"), view, ctx);
      renderPiles(piles.querySelector("#piles-body"), view, ctx);
      showComputer();
      showRoll();
      return { turn: String(view.turn), phase: view.phase, active: String(view.active) };
    },

    status(s) {
      const v = s.view;
      if (v.phase === "ended") return tn("Game over after {n} turn", "Game over after {n} turns", v.turn);
      const label = labeller(s);
      const who = s.seat === v.active ? t("your turn") : t("{player} to play", { player: label(v.active) });
      if (!v.final_round) return t("Turn {turn} · {who}", { turn: v.turn, who });
      if (v.turns_left === null || v.turns_left === undefined) return t("Turn {turn} · {who} · final round", { turn: v.turn, who });
      return tn("Turn {turn} · {who} · final round: {n} turn left", "Turn {turn} · {who} · final round: {n} turns left",
        v.turns_left, { turn: v.turn, who });
    },

    onEvents(events) {
      if (roll.note(events)) showRoll();
    },

    onHistory(lines) {
      plans = plansIn(lines);
      showComputer();
    },
  };
}
