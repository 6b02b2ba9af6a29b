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
import { list } from "../../shell/i18n.js";
import { euros, phaseName, STEPS, t, wordsFor } from "./words.js";

function panel(id, title) {
  const body = h("div", { id: `${id}-body` });
  const section = h("section", { id, class: `panel ${id}`, "aria-labelledby": `${id}-title` },
    h("h2", { id: `${id}-title` }, title), body);
  return [section, body];
}

export async function mount(slots, env) {
  const view = env.game.view;
  const words = await wordsFor(view && view.variant ? view.variant.dataset : undefined);
  const [phases, phasesBody] = panel("stage", t("The stage"));
  const [market, marketBody] = panel("market-board", t("The market"));
  const [corps, corpsBody] = panel("corporations", t("The corporations"));
  const [players, playersBody] = panel("players", t("Players"));
  const [points, pointsBody] = panel("points", t("Points and share prices"));
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
        const best = (v.results || []).filter((r) => r.rank === 1)
          .map((r) => t("{seat} ({result})", { seat: label(r.seat), result: euros(r.result) }));
        return best.length ? t("Game over in stage {stage} · won by {winners}", { stage: v.stage, winners: list(best) })
          : t("Game over in stage {stage}", { stage: v.stage });
      }
      const mine = s.seat !== null && s.seat !== undefined && s.legal.length > 0;
      const others = v.waiting.filter((x) => x !== s.seat).map(label);
      const who = mine ? t("your turn") : others.length ? t("waiting for {seats}", { seats: list(others) })
        : t("the game moves on");
      const count = sealedCount(v);
      const step = STEPS[v.step] || v.step;
      const where = v.phase ? t("Stage {stage}, phase {number} {phase} ({step})",
        { stage: v.stage, number: v.phase, phase: phaseName(v.phase), step })
        : t("Setup: {step}", { step });
      return count ? t("{where} · {who} · sealed: {chosen} of {of} have chosen",
        { where, who, chosen: count.chosen, of: count.of }) : t("{where} · {who}", { where, who });
    },
  };
}
