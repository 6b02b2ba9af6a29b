// The table as SVG: the districts (the Excuse in the middle of the Pawns, or of the Courts with V7) and each
// seat's columns of properties and deeds. Two players face each other across the line of districts (the viewer
// below); three sit in the gaps of a Y (V4.2), the Excuse at its centre, with each seat's own columns drawn
// below it. Every district says who controls it now and each builder's value there.

import { num } from "../../shell/i18n.js";
import { cardStrip, districtCard, STRIP, stripHeight } from "./cards.js";
import { el, fitted, svgBox } from "./svg.js";
import { t, tn } from "./words.js";

const PITCH = 84; // a column's width and the gap to the next
const DW = 76;
const DH = 58;
const GAP = 4;
const M = 8;

function columnHeight(column) {
  return column.reduce((sum, p) => sum + stripHeight(p) + GAP, 0);
}

/** A seat's value in a district, as a badge (filled in its colour when it controls the district). */
function valueBadge(x, y, value, seat, controls, who, letter) {
  const text = `${controls ? "★ " : ""}${num(value)}`;
  const w = 10 + text.length * 6;
  const title = controls ? t("{player}: value {value} in district {letter} (controls it)", { player: who, value, letter })
    : t("{player}: value {value} in district {letter}", { player: who, value, letter });
  return el("g", { class: `value owner-${seat}${controls ? " controls" : ""}` }, el("title", {}, title),
    el("rect", { x: x - w / 2, y, width: w, height: 13, rx: 6.5, class: "value-bg" }),
    el("text", { x, y: y + 10, "text-anchor": "middle", "font-size": 9, class: "value-text" }, text));
}

/** The cards of one column, from (x, y) away from the district: downwards, or upwards when ``up``. */
function drawColumn(g, column, { x, y, up, ctx, owner }) {
  let at = y;
  for (const placed of column) {
    const h = stripHeight(placed);
    if (up) at -= h;
    g.append(cardStrip(ctx.words, placed, { x, y: at, variant: ctx.view.variant, owner }));
    at += up ? -GAP : h + GAP;
  }
}

/** A seat's name, with "(you)" for the viewer's own. */
function who(seat, ctx) {
  return seat === ctx.me ? t("{player} (you)", { player: ctx.label(seat) }) : ctx.label(seat);
}

/** "2 districts · value 17". */
function standing(s) {
  return tn("{n} district · value {total}", "{n} districts · value {total}", s.districts, { total: s.total });
}

function seatTitle(x, y, seat, ctx, anchor = "start", width = 400) {
  const s = ctx.view.seats[seat];
  const text = `${who(seat, ctx)} · ${standing(s)}`;
  return fitted(x, y, text, { size: 11, width, cls: `seat-title owner-${seat}`, anchor });
}

/** A seat's name over its districts and value, in two lines (the Y's gaps are narrow). */
function seatName(x, y, seat, ctx, anchor) {
  const s = ctx.view.seats[seat];
  return el("g", { class: `seat-name owner-${seat}` },
    fitted(x, y, who(seat, ctx), { size: 12, width: 160, cls: "seat-title", anchor }),
    el("text", { x, y: y + 14, "text-anchor": anchor, "font-size": 10, class: "seat-sub" }, standing(s)));
}

/** Two players: the other seat's columns above the districts, growing upwards; the viewer's below. */
function faceOff(view, ctx) {
  const n = view.districts.length;
  const bottom = ctx.me !== null && ctx.me !== undefined ? ctx.me : 0;
  const top = view.seats.length === 2 ? 1 - bottom : (bottom + 1) % view.seats.length;
  const topH = Math.max(STRIP.h, ...view.seats[top].columns.map(columnHeight));
  const botH = Math.max(STRIP.h, ...view.seats[bottom].columns.map(columnHeight));
  const width = 2 * M + (n - 1) * PITCH + DW;
  const g = el("g");
  let y = M;
  g.append(seatTitle(M, y + 11, top, ctx, "start", width - 2 * M));
  y += 18;
  const base = y + topH;
  view.districts.forEach((d, i) => drawColumn(g, view.seats[top].columns[i], { x: M + i * PITCH, y: base, up: true, ctx, owner: top }));
  y = base + 2;
  view.districts.forEach((d, i) => g.append(valueBadge(M + i * PITCH + DW / 2, y, view.seats[top].values[i], top,
    d.controller === top, ctx.label(top), d.letter)));
  y += 16;
  view.districts.forEach((d, i) => g.append(districtCard(ctx.words, d, { x: M + i * PITCH, y, w: DW, h: DH,
    controller: d.controller, who: d.controller !== null ? ctx.label(d.controller) : "" })));
  y += DH + 3;
  view.districts.forEach((d, i) => g.append(valueBadge(M + i * PITCH + DW / 2, y, view.seats[bottom].values[i], bottom,
    d.controller === bottom, ctx.label(bottom), d.letter)));
  y += 17;
  view.districts.forEach((d, i) => drawColumn(g, view.seats[bottom].columns[i], { x: M + i * PITCH, y, up: false, ctx, owner: bottom }));
  y += botH + 2;
  g.append(seatTitle(M, y + 11, bottom, ctx, "start", width - 2 * M));
  y += 18;
  const svg = svgBox(width, y, { cls: "table-svg line" });
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", tn("The table: {n} district in a line; {top} above, {bottom} below",
    "The table: {n} districts in a line; {top} above, {bottom} below", n, { top: ctx.label(top), bottom: ctx.label(bottom) }));
  svg.removeAttribute("aria-hidden");
  svg.append(g);
  return [svg];
}

/** Where the Y's districts lie (V4.2; the data's reading: arm 0 is a, b; c the Excuse; arm 1 d, e; arm 2 f, g). */
const Y_PLACES = { a: [-190, -110], b: [-95, -55], c: [0, 0], d: [95, -55], e: [190, -110], f: [0, 110], g: [0, 220] };
/** Where each seat sits: in the gap between the two arms it builds on. */
const Y_SEATS = [[0, -172, "middle"], [62, 150, "start"], [-62, 150, "end"]];

/** Three players: the districts in a Y, each with its builders' values. */
function yMap(view, ctx) {
  const g = el("g", { transform: "translate(240 196)" });
  const centre = Y_PLACES.c;
  for (const outer of ["a", "e", "g"]) {
    const [x, y] = Y_PLACES[outer];
    g.append(el("line", { x1: centre[0], y1: centre[1], x2: x, y2: y, class: "arm" }));
  }
  for (const d of view.districts) {
    const [cx, cy] = Y_PLACES[d.letter];
    g.append(districtCard(ctx.words, d, { x: cx - DW / 2, y: cy - DH / 2, w: DW, h: DH, controller: d.controller,
      who: d.controller !== null ? ctx.label(d.controller) : "" }));
    const bw = 30;
    d.builders.forEach((s, i) => {
      const bx = cx - ((d.builders.length - 1) * bw) / 2 + i * bw;
      g.append(valueBadge(bx, cy + DH / 2 + 2, view.seats[s].values[view.districts.indexOf(d)], s, d.controller === s,
        ctx.label(s), d.letter));
    });
  }
  view.seats.forEach((s, i) => {
    const [x, y, anchor] = Y_SEATS[i] || [0, 0, "middle"];
    g.append(seatName(x, y, i, ctx, anchor));
  });
  const svg = svgBox(480, 480, { cls: "table-svg y-map" });
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", t("The districts in a Y: the Excuse at the centre, two Pawns on each arm; each player sits between the two arms they build on"));
  svg.removeAttribute("aria-hidden");
  svg.append(g);
  return svg;
}

/** One seat's columns in the districts it builds in (three players), its districts' names above them. */
function seatRows(view, seat, ctx) {
  const mine = view.districts.map((d, i) => [d, i]).filter(([d]) => d.builders.includes(seat));
  const width = 2 * M + (mine.length - 1) * PITCH + DW;
  const height = Math.max(STRIP.h, ...mine.map(([, i]) => columnHeight(view.seats[seat].columns[i])));
  const g = el("g");
  g.append(seatTitle(M, M + 11, seat, ctx, "start", width - 2 * M));
  mine.forEach(([d, i], k) => {
    const x = M + k * PITCH;
    const control = d.controller === seat;
    g.append(el("g", { class: `mini-district${control ? ` controlled owner-${seat}` : ""}` },
      el("rect", { x, y: M + 18, width: DW, height: 16, rx: 4, class: "mini-face" }),
      fitted(x + 4, M + 30, `${d.letter} · ${ctx.words.shortName(d.card)}`, { size: 9, width: DW - 36, cls: "card-name" }),
      el("text", { x: x + DW - 4, y: M + 30, "text-anchor": "end", "font-size": 8.5, class: "mini-value" },
        `${control ? "★ " : ""}${num(view.seats[seat].values[i])}`)));
    drawColumn(g, view.seats[seat].columns[i], { x, y: M + 38, up: false, ctx, owner: seat });
  });
  const svg = svgBox(width, M + 40 + height, { cls: `table-svg seat-rows owner-${seat}` });
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", t("{player}'s properties", { player: ctx.label(seat) }));
  svg.setAttribute("data-seat", String(seat));
  svg.removeAttribute("aria-hidden");
  svg.append(g);
  return svg;
}

/** The SVGs of the table for ``view``; ``ctx`` = {words, label(seat), me, view}. */
export function tableSvgs(view, ctx) {
  const full = { ...ctx, view };
  const yLayout = view.variant.three && view.districts.every((d) => d.letter in Y_PLACES) && view.seats.length === 3;
  if (!yLayout) return faceOff(view, full);
  const order = view.seats.map((s) => s.seat).sort((a, b) => Number(b === ctx.me) - Number(a === ctx.me));
  return [yMap(view, full), ...order.map((s) => seatRows(view, s, full))];
}
