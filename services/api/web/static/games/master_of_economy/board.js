// Master of Economy's game page inside the shell: the phase track, the market board and the corporation boards
// (main column); the players and the points track (side column); the seat's moves in the move panel, and below
// them the seat's own standing shortfall preferences (§17), which it may change at any time.

import { playerOf } from "../../shell/bundles.js";
import { h } from "../../shell/dom.js";
import { renderActions, sealedCount } from "./actions.js";
import { corpBoards } from "./corps.js";
import { seatLabel } from "./label.js";
import { marketBoard } from "./market.js";
import { renderPlayers } from "./players.js";
import { renderPreferences } from "./preferences.js";
import { phaseTrack, pointsTrack } from "./tracks.js";
import { euros, phaseName, STEPS, wordsFor } from "./words.js";

function panel(id, title) {
  const body = h("div", { id: `${id}-body` });
  const section = h("section", { id, class: `panel ${id}`, "aria-labelledby": `${id}-title` },
    h("h2", { id: `${id}-title` }, title), body);
  return [section, body];
}

export async function mount(slots, env) {
  const view = env.game.view;
  const words = await wordsFor(view && view.variant ? view.variant.dataset : undefined);
  const [phases, phasesBody] = panel("stage", "The stage");
  const [market, marketBody] = panel("market-board", "The market");
  const [corps, corpsBody] = panel("corporations", "The corporations");
  const [players, playersBody] = panel("players", "Players");
  const [points, pointsBody] = panel("points", "Points and share prices");
  slots.main.append(phases, market, corps);
  slots.side.append(players, points);
  const prefs = h("div", { id: "prefs-box", class: "prefs-box" });
  slots.turn.append(prefs);

  const labeller = (s) => (seat) => seatLabel(playerOf(seat, s.players), s.view);

  return {
    render(s) {
      const { view, seat } = s;
      const label = labeller(s);
      const me = seat !== null && seat !== undefined ? seat : null;
      renderActions(slots.actions, { view, legal: s.legal, seat: me, words, label, send: env.send });
      renderPreferences(prefs, { view, seat: me, words, send: env.send });
      phasesBody.replaceChildren(phaseTrack(view, words, label));
      marketBody.replaceChildren(marketBoard(view, words));
      corpsBody.replaceChildren(corpBoards(view, words, label));
      renderPlayers(playersBody, view, words, label, me);
      pointsBody.replaceChildren(pointsTrack(view, words));
      return { stage: String(view.stage), phase: String(view.phase), step: view.step };
    },

    status(s) {
      const v = s.view;
      const label = labeller(s);
      if (v.step === "ended") {
        const best = (v.results || []).filter((r) => r.rank === 1).map((r) => `${label(r.seat)} (${euros(r.result)})`);
        return `Game over in stage ${v.stage}${best.length ? ` · won by ${best.join(" and ")}` : ""}`;
      }
      const mine = s.seat !== null && s.seat !== undefined && s.legal.length > 0;
      const others = v.waiting.filter((x) => x !== s.seat).map(label);
      const who = mine ? "your turn" : others.length ? `waiting for ${others.join(", ")}` : "the game moves on";
      const count = sealedCount(v);
      const sealed = count ? ` · sealed: ${count.chosen} of ${count.of} have chosen` : "";
      const where = v.phase ? `Stage ${v.stage}, phase ${v.phase} ${phaseName(v.phase)} (${STEPS[v.step] || v.step})`
        : `Setup: ${STEPS[v.step] || v.step}`;
      return `${where} · ${who}${sealed}`;
    },
  };
}
