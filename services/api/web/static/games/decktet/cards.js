// Cards drawn by the page (no scanned art): a full card (rank in the corner, its suits as symbols, its name), a
// district card, and the strip a card makes in a column (a deed dashed, with the tokens on it and how far it is
// from complete).

import { suitGroup } from "./suits.js";
import { el, fitted, svgBox } from "./svg.js";
import { num } from "../../shell/i18n.js";
import { listing, t } from "./words.js";

/** The completion cost of a deed (R4.2a, as the catalog prices it): only to draw how far along it is. */
export function completion(words, id, variant) {
  const c = words.card(id);
  if (c.rank === "1") return variant && variant.originalAces ? words.prices.original_ace_price : words.prices.ace_price;
  if (c.rank === "T" || c.rank === "P") return words.prices.court_price;
  return Number(c.rank) || 0;
}

/** Where a card's big suit symbols go in its middle, by how many suits it has. */
const MIDDLE = {
  1: [[0.5, 0.5, 0.42]],
  2: [[0.36, 0.36, 0.32], [0.64, 0.64, 0.32]],
  3: [[0.5, 0.28, 0.27], [0.28, 0.68, 0.27], [0.72, 0.68, 0.27]],
};

/** Splits a name over two lines at the space nearest its middle (if it is long). */
function lines(name, max) {
  if (name.length <= max || !name.includes(" ")) return [name];
  const spaces = [...name.matchAll(/ /g)].map((m) => m.index);
  const at = spaces.reduce((best, i) => (Math.abs(i - name.length / 2) < Math.abs(best - name.length / 2) ? i : best));
  return [name.slice(0, at), name.slice(at + 1)];
}

/** A whole card as a <g> at (x, y), ``w`` × ``h``. */
export function cardFace(words, id, { x = 0, y = 0, w = 80, h = 112, cls = "" } = {}) {
  const c = words.card(id);
  const g = el("g", { class: `card rank-${c.rank} ${cls}`.trim(), "data-card": id });
  g.append(el("rect", { x, y, width: w, height: h, rx: 7, class: "card-face" }));
  const mark = words.rankMark(c.rank);
  if (mark) g.append(el("text", { x: x + 6, y: y + 17, class: "card-rank", "font-size": 15 }, mark));
  c.suits.forEach((s, i) => g.append(suitGroup(s, x + 5, y + 21 + i * 13, 11)));
  const box = { x: x + 18, y: y + 6, w: w - 24, h: h - 36 };
  (MIDDLE[c.suits.length] || []).forEach(([fx, fy, fs], i) => {
    const size = Math.min(box.w, box.h) * fs * 1.6;
    g.append(suitGroup(c.suits[i], box.x + box.w * fx - size / 2, box.y + box.h * fy - size / 2, size));
  });
  if (!c.suits.length) {
    g.append(el("text", { x: x + w / 2, y: y + h / 2 - 4, class: "card-blank", "text-anchor": "middle", "font-size": 22 }, "∅"));
  }
  const parts = lines(words.name(id), 13);
  parts.forEach((part, i) => g.append(fitted(x + w / 2, y + h - 8 - (parts.length - 1 - i) * 11, part,
    { size: 10, width: w - 8, cls: "card-name", anchor: "middle" })));
  return g;
}

/** A card as a standalone <svg> (the hand, the discard pile), named for screen readers. */
export function cardSvg(words, id, { w = 80, h = 112, cls = "" } = {}) {
  const svg = svgBox(w, h, { cls: `card-svg ${cls}`.trim(), label: words.describe(id) });
  svg.append(cardFace(words, id, { w, h }));
  return svg;
}

/** A district card as a <g>: its letter, rank and suits, name; outlined in the colour of who controls it. */
export function districtCard(words, district, { x, y, w, h, controller = null, who = "" }) {
  const c = words.card(district.card);
  const owned = controller !== null && controller !== undefined;
  const args = { letter: district.letter, card: words.describe(district.card), player: who };
  const label = owned ? t("District {letter}: {card}, controlled by {player}", args)
    : t("District {letter}: {card}, controlled by nobody", args);
  const g = el("g", { class: `district${owned ? ` controlled owner-${controller}` : ""}`, "data-district": district.letter,
    role: "img", "aria-label": label }, el("title", {}, label));
  g.append(el("rect", { x, y, width: w, height: h, rx: 6, class: "district-face" }));
  g.append(el("circle", { cx: x + 10, cy: y + 10, r: 7.5, class: "district-letter-bg" }));
  g.append(el("text", { x: x + 10, y: y + 13.5, class: "district-letter", "text-anchor": "middle", "font-size": 10 },
    district.letter));
  const mark = words.rankMark(c.rank);
  if (mark) g.append(el("text", { x: x + w - 5, y: y + 13, class: "card-rank", "text-anchor": "end", "font-size": 11 }, mark));
  const n = c.suits.length;
  c.suits.forEach((s, i) => g.append(suitGroup(s, x + w / 2 - (n * 15) / 2 + i * 15 + 1, y + 17, 13)));
  if (!n) g.append(el("text", { x: x + w / 2, y: y + 29, class: "card-blank", "text-anchor": "middle", "font-size": 9 }, t("no suit")));
  g.append(fitted(x + w / 2, y + h - 7, words.shortName(district.card), { size: 9.5, width: w - 8, cls: "card-name", anchor: "middle" }));
  return g;
}

export const STRIP = { w: 76, h: 30, deedH: 42, prefH: 9 };

/** How tall a card's strip is in a column (a deed has a line more: its tokens; and one for its owner's
 * preference). */
export function stripHeight(placed) {
  if (!placed.deed) return STRIP.h;
  return STRIP.deedH + (placed.preference ? STRIP.prefH : 0);
}

/** A placed card (developed, or a deed with its tokens) as a strip at (x, y). */
export function cardStrip(words, placed, { x, y, variant, owner }) {
  const c = words.card(placed.card);
  const w = STRIP.w;
  const h = stripHeight(placed);
  const on = placed.tokens.reduce((a, b) => a + b, 0);
  const cost = placed.deed ? completion(words, placed.card, variant) : 0;
  const tokens = words.tokens(placed.tokens);
  const deedArgs = { card: words.describe(placed.card), tokens, on, cost, suit: placed.preference ? words.suit(placed.preference) : "" };
  let label = words.describe(placed.card);
  if (placed.deed && placed.preference) {
    label = on ? t("{card}: a deed with {tokens} on it ({on} of {cost}); it pays you {suit} on the others' rolls", deedArgs)
      : t("{card}: a deed with no tokens on it ({on} of {cost}); it pays you {suit} on the others' rolls", deedArgs);
  } else if (placed.deed) {
    label = on ? t("{card}: a deed with {tokens} on it ({on} of {cost})", deedArgs)
      : t("{card}: a deed with no tokens on it ({on} of {cost})", deedArgs);
  }
  const g = el("g", { class: `placed owner-${owner}${placed.deed ? " deed" : ""}`, "data-card": placed.card,
    role: "img", "aria-label": label }, el("title", {}, label));
  g.append(el("rect", { x, y, width: w, height: h, rx: 4, class: "strip-face" }));
  g.append(el("text", { x: x + 4, y: y + 12, class: "card-rank", "font-size": 11 }, words.rankMark(c.rank)));
  c.suits.forEach((s, i) => g.append(suitGroup(s, x + 19 + i * 11, y + 3, 10)));
  g.append(fitted(x + 4, y + 25, words.shortName(placed.card), { size: 8.5, width: w - 8, cls: "card-name" }));
  if (!placed.deed) return g;
  g.append(el("text", { x: x + w - 3, y: y + 11, class: "deed-progress", "text-anchor": "end", "font-size": 8 }, t("{on}/{cost}", { on, cost })));
  let at = x + 4;
  words.suits.forEach((s, i) => {
    if (!placed.tokens[i]) return;
    g.append(suitGroup(s.code, at, y + 30, 8));
    g.append(el("text", { x: at + 9, y: y + 37, class: "token-count", "font-size": 8 }, num(placed.tokens[i])));
    at += 17;
  });
  if (!on) g.append(el("text", { x: x + 4, y: y + 37, class: "token-none", "font-size": 7.5 }, t("no tokens")));
  if (at < x + w - 22) {
    g.append(el("text", { x: x + w - 3, y: y + 37, class: "deed-mark", "text-anchor": "end", "font-size": 7.5 }, t("deed")));
  }
  if (placed.preference) {
    g.append(el("text", { x: x + 4, y: y + 47, class: "pref", "font-size": 7.5 }, t("pays you")));
    g.append(suitGroup(placed.preference, x + 36, y + 40, 8));
    g.append(el("text", { x: x + 46, y: y + 47, class: "pref", "font-size": 7.5 }, words.suit(placed.preference)));
  }
  return g;
}

/** "The Diplomat, The Pact and ..." for a list of card ids. */
export function cardList(words, ids) {
  return listing(ids.map((id) => words.name(id)));
}
