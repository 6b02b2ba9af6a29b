// The stage's phase track (which of the ten phases is current, ME-G-5) and the points track with the share price
// of each band (table 15.4): every corporation's marker on it.

import { h } from "../../shell/dom.js";
import { BETWEEN, PHASES, STEPS } from "./words.js";

/** What is going on inside the phase: whose meeting (its proposals, its candidates), a shortfall. */
function situation(view, words, label) {
  const out = [];
  const m = view.meeting;
  if (view.phase === 10 && view.target) {
    const parts = [`The meeting treats ${words.corpName(view.target)}`];
    if (m.proposals.length) parts.push(`dividends proposed: ${m.proposals.map((k) => `${k} € a share`).join(", ")}`);
    if (m.candidates.length) parts.push(`standing for manager: ${m.candidates.map(label).join(", ")}`);
    if (m.tied.length) parts.push(`tied: ${m.tied.map(label).join(", ")}`);
    out.push(h("p", { class: "meeting-line", id: "meeting-line" }, `${parts.join("; ")}.`));
  }
  const sf = view.shortfall;
  if (sf) {
    out.push(h("p", { class: "shortfall-line", id: "shortfall-line" },
      `${words.corpName(sf.corporation)} cannot pay ${sf.due} € (${sf.reason}): its manager must cover it`,
      sf.most_cover !== null && sf.most_cover !== undefined ? ` (at most ${sf.most_cover} € from the manager)` : "", "."));
  }
  return out;
}

export function phaseTrack(view, words, label) {
  const stages = words.rules.game.stages;
  return h("div", { class: "phase-track" },
    h("p", { class: "stage-line", id: "stage-line" }, `Stage ${view.stage || 1} of ${stages}`,
      view.trade_phase ? ` · trade phase ${view.trade_phase}` : "", ` · ${STEPS[view.step] || view.step}`),
    h("ol", { class: "phases", id: "phases" }, ...PHASES.map((name, i) => h("li", {
      class: `phase${i + 1 === view.phase ? " current" : ""}${i + 1 < view.phase ? " done" : ""}`,
      "data-phase": String(i + 1), "aria-current": i + 1 === view.phase ? "step" : null,
    }, h("span", { class: "phase-number" }, String(i + 1)), h("span", { class: "phase-name" }, name)))),
    view.phase > PHASES.length ? h("p", { class: "between", id: "between" }, `After phase 10: ${BETWEEN.toLowerCase()}.`) : null,
    ...situation(view, words, label));
}

/** The points track, band by band: [from–to] at price P, with the corporations whose points fall in it. */
export function pointsTrack(view, words) {
  const { min_points: min, max_points: max, end_points: end } = words.rules.game;
  const bands = words.cat.prices;
  return h("ol", { class: "points-track", id: "points-track" }, ...bands.map((band, i) => {
    const to = i + 1 < bands.length ? bands[i + 1].points - 1 : max;
    const here = view.corps.filter((c) => c.points >= Math.max(band.points, min) && c.points <= to);
    return h("li", { class: "band", "data-price": String(band.price) },
      h("span", { class: "band-range" }, `${band.points}–${to} points`),
      h("span", { class: "band-price" }, `share ${band.price} €`),
      h("span", { class: "band-corps" }, ...here.map((c) => h("span", { class: `marker corp-${c.key}`,
        "data-corp": c.key, title: `${c.name}: ${c.points} points` }, `${words.corpShort(c.key)} ${c.points}`))));
  }), h("li", { class: "band end-note hint" }, `The game ends after a trade phase in which a corporation reaches ${end} points.`));
}
