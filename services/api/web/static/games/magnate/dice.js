// Dice drawn as dice: pips for a rolled face; final values (after advertising and modifiers, possibly
// off the faces) as numbers on a die.

import { t } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 25], [72, 25], [28, 50], [72, 50], [28, 75], [72, 75]],
};

/** One die as an <svg> element; ``mark`` styles it (e.g. "five" for one advertising set to 5). */
export function die(value, { mark = "", label = "", number = false } = {}) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", `die ${mark}`.trim());
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label || t("die showing {value}", { value }));
  const face = document.createElementNS(SVG, "rect");
  Object.entries({ x: 4, y: 4, width: 92, height: 92, rx: 16, class: "die-face" }).forEach(([k, v]) => face.setAttribute(k, v));
  svg.append(face);
  if (PIPS[value] && !number) {
    for (const [cx, cy] of PIPS[value]) {
      const pip = document.createElementNS(SVG, "circle");
      Object.entries({ cx, cy, r: 9, class: "die-pip" }).forEach(([k, v]) => pip.setAttribute(k, v));
      svg.append(pip);
    }
  } else {
    const text = document.createElementNS(SVG, "text");
    Object.entries({ x: 50, y: 52, class: "die-number", "text-anchor": "middle", "dominant-baseline": "central" })
      .forEach(([k, v]) => text.setAttribute(k, v));
    text.textContent = String(value);
    svg.append(text);
  }
  return svg;
}

/** A row of dice in a <span>, with the faces also as text for screen readers and copy-paste. */
export function diceRow(values, { marks = [], caption = "", numbers = false } = {}) {
  const row = document.createElement("span");
  row.className = "dice-row";
  if (caption) {
    const c = document.createElement("span");
    c.className = "dice-caption";
    c.textContent = caption;
    row.append(c);
  }
  values.forEach((v, i) => row.append(die(v, { mark: marks[i] || "", number: numbers })));
  return row;
}
