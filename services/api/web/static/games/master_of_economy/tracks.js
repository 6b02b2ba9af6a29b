// The stage's phase track (which of the ten phases is current, ME-G-5) and the points track with the share price
// of each band (table 15.4): every corporation's marker on it.

import { h } from "../../shell/dom.js";
import { list } from "../../shell/i18n.js";
import { BETWEEN, euros, PHASES, STEPS, t, tn } from "./words.js";

/** Why a corporation must pay (a shortfall's reason). */
const REASONS = { local: t("a purchase"), import: t("a purchase abroad"), interest: t("interest") };

/** What is going on inside the phase: whose meeting (its proposals, its candidates), a shortfall. */
function situation(view, words, label) {
  const out = [];
  const m = view.meeting;
  if (view.phase === 10 && view.target) {
    const lines = [t("The meeting treats {corporation}.", { corporation: words.corpName(view.target) })];
    if (m.proposals.length) {
      lines.push(t("Dividends proposed: {amounts}.",
        { amounts: list(m.proposals.map((k) => t("{amount} a share", { amount: euros(k) }))) }));
    }
    if (m.candidates.length) lines.push(t("Standing for manager: {seats}.", { seats: list(m.candidates.map(label)) }));
    if (m.tied.length) lines.push(t("Tied: {seats}.", { seats: list(m.tied.map(label)) }));
    out.push(h("p", { class: "meeting-line", id: "meeting-line" }, lines.join(" ")));
  }
  const sf = view.shortfall;
  if (sf) {
    const args = { corporation: words.corpName(sf.corporation), amount: euros(sf.due), reason: REASONS[sf.reason] || sf.reason,
      most: euros(sf.most_cover) };
    out.push(h("p", { class: "shortfall-line", id: "shortfall-line" },
      sf.most_cover !== null && sf.most_cover !== undefined
        ? t("{corporation} cannot pay {amount} ({reason}): its manager must cover it (at most {most} from the manager).", args)
        : t("{corporation} cannot pay {amount} ({reason}): its manager must cover it.", args)));
  }
  return out;
}

export function phaseTrack(view, words, label) {
  const stages = words.rules.game.stages;
  return h("div", { class: "phase-track" },
    h("p", { class: "stage-line", id: "stage-line" }, t("Stage {stage} of {stages}", { stage: view.stage || 1, stages }),
      view.trade_phase ? t(" · trade phase {number}", { number: view.trade_phase }) : "", ` · ${STEPS[view.step] || view.step}`),
    h("ol", { class: "phases", id: "phases" }, ...PHASES.map((name, i) => h("li", {
      class: `phase${i + 1 === view.phase ? " current" : ""}${i + 1 < view.phase ? " done" : ""}`,
      "data-phase": String(i + 1), "aria-current": i + 1 === view.phase ? "step" : null,
    }, h("span", { class: "phase-number" }, String(i + 1)), h("span", { class: "phase-name" }, name)))),
    view.phase > PHASES.length ? h("p", { class: "between", id: "between" },
      t("After phase 10: {name}.", { name: BETWEEN })) : null,
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
      h("span", { class: "band-range" }, t("{from}–{to} points", { from: band.points, to })),
      h("span", { class: "band-price" }, t("share {price}", { price: euros(band.price) })),
      h("span", { class: "band-corps" }, ...here.map((c) => h("span", { class: `marker corp-${c.key}`,
        "data-corp": c.key, title: tn("{corporation}: {n} point", "{corporation}: {n} points", c.points,
          { corporation: words.corpName(c.key), n: c.points }) },
      t("{corporation} {points}", { corporation: words.corpShort(c.key), points: c.points })))));
  }), h("li", { class: "band end-note hint" },
    t("The game ends after a trade phase in which a corporation reaches {n} points.", { n: end })));
}
