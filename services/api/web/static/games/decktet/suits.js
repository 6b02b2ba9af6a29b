// The Decktet's six suits as symbols drawn by the page (no font, no image): Moons a crescent, Suns a rayed disc,
// Waves three waves, Leaves a leaf, Wyrms a serpent, Knots two interlaced loops. Each is drawn in a 24-unit box
// and always goes with its name (a title, a label or the text beside it), so colour is never the only cue.

import { el } from "./svg.js";

const RAYS = Array.from({ length: 8 }, (_, i) => {
  const a = (i * Math.PI) / 4;
  const p = (r) => `${(12 + r * Math.cos(a)).toFixed(2)} ${(12 + r * Math.sin(a)).toFixed(2)}`;
  return `M${p(7.3)}L${p(10.8)}`;
}).join("");

/** Each suit's shapes: [tag, attributes] (filled unless ``stroke`` says otherwise). */
const SHAPES = {
  M: [["path", { d: "M11.32 3.03A9 9 0 1 0 20.81 13.86A7.2 7.2 0 1 1 11.32 3.03Z" }]],
  S: [["circle", { cx: 12, cy: 12, r: 5.2 }], ["path", { d: RAYS, class: "line" }]],
  V: [["path", { class: "line", d: "M2.5 7.5q2.4-3 4.8 0t4.8 0t4.8 0t4.8 0M2.5 12.5q2.4-3 4.8 0t4.8 0t4.8 0t4.8 0M2.5 17.5q2.4-3 4.8 0t4.8 0t4.8 0t4.8 0" }]],
  L: [["path", { d: "M3.5 20.5C3.5 10 9.5 3.5 20.5 3.5C20.5 14 14 20.5 3.5 20.5Z" }],
    ["path", { class: "vein", d: "M4.5 19.5L15.5 8.5" }]],
  Y: [["path", { class: "line thick", d: "M3.5 19.5C7 23 11.5 20 11 15.5S8 8 12.5 5.5S19 6 19.5 8" }],
    ["circle", { cx: 19.2, cy: 8.6, r: 2.6 }]],
  K: [["rect", { class: "line", x: 8, y: 2.8, width: 8, height: 18.4, rx: 4 }],
    ["rect", { class: "line", x: 2.8, y: 8, width: 18.4, height: 8, rx: 4 }],
  ],
};

const shape = (tag, attrs) => el(tag, attrs);

/** The suit's shapes in a <g> placed at (x, y), ``size`` units wide (for a board or a card). */
export function suitGroup(code, x, y, size) {
  const g = shape("g", { class: `suit suit-${code}`, transform: `translate(${x} ${y}) scale(${size / 24})` });
  for (const [tag, attrs] of SHAPES[code] || []) g.append(shape(tag, attrs));
  if (!SHAPES[code]) {
    const t = shape("text", { x: 12, y: 17, "text-anchor": "middle", class: "suit-letter" });
    t.textContent = code;
    g.append(t);
  }
  return g;
}

/** The suit as a small inline <svg> for HTML (named for screen readers by ``name``, or hidden when the text
 * beside it names it already). */
export function suitIcon(code, name = "") {
  const svg = shape("svg", { viewBox: "0 0 24 24", class: `suit-icon suit-${code}`, focusable: "false" });
  if (name) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", name);
    const title = shape("title", {});
    title.textContent = name;
    svg.append(title);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  svg.append(suitGroup(code, 0, 0, 24));
  return svg;
}
