// The city as SVG: the centre (0) and the six neighbourhoods in their real arrangement (1 top, 2 upper
// right, 3 lower right, 4 bottom, 5 lower left, 6 upper left), each a 3x3 grid of plots A-I row by row.
// Plots show their feature and its bonus/penalty arrows, 'for sale' signs, buildings in their owner's
// colour with the tenants as letters; a plot's tooltip (and the panel under the map) tells its dice now.

import { money, t, tn } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const LETTERS = "ABCDEFGHI";
const CELL = 64;
const TILE = 3 * CELL;
const GAP = 16;
const STEP = TILE + GAP;
const OFFSETS = { 0: [0, 0], 1: [0, -1], 2: [1, -0.5], 3: [1, 0.5], 4: [0, 1], 5: [-1, 0.5], 6: [-1, -0.5] };
const EXTENT = STEP + TILE / 2 + 4;

function el(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Where a plot lies: its tile position, row, column and top-left corner in SVG units. */
export function place(plot) {
  const pos = Number(plot[0]);
  const index = LETTERS.indexOf(plot[1]);
  const row = Math.floor(index / 3);
  const col = index % 3;
  const [ox, oy] = OFFSETS[pos];
  return { pos, row, col, x: ox * STEP - TILE / 2 + col * CELL, y: oy * STEP - TILE / 2 + row * CELL };
}

/** Plots on the same tile sharing an edge or a corner (§2.2). */
export function adjacent(plot) {
  const { pos, row, col } = place(plot);
  const out = [];
  for (let r = Math.max(0, row - 1); r <= Math.min(2, row + 1); r++) {
    for (let c = Math.max(0, col - 1); c <= Math.min(2, col + 1); c++) {
      if (r !== row || c !== col) out.push(`${pos}${LETTERS[r * 3 + c]}`);
    }
  }
  return out;
}

/** "Apartment building" -> "Apartment", "Industrial park (factory)" -> "Industrial park". */
function shortName(name) {
  return name.replace(/\s*\(.*\)\s*/, "").replace(/\s+(building|block|unit)$/i, "");
}

/** A name on the map in a box of the plot, wrapped by the browser to at most ``lines`` lines (one text, whatever the
 * language: a name is never cut into pieces by the page). */
function label(g, box, { top, height, lines, cls }, text) {
  const object = el("foreignObject", { x: box.x + 3, y: box.y + top, width: CELL - 6, height });
  const div = document.createElementNS("http://www.w3.org/1999/xhtml", "div");
  div.setAttribute("class", `map-label ${cls}`);
  div.style.setProperty("-webkit-line-clamp", String(lines));
  div.textContent = text;
  object.append(div);
  g.append(object);
}

function tileName(pos, view, words) {
  if (pos === 0) return t("City centre");
  const key = view.neighbourhoods[pos - 1];
  return t("{position} · {neighbourhood}", { position: pos, neighbourhood: (words.neighbourhoods[key] || { name: key }).name });
}

/** The neighbour effects that reach the building on ``plot`` (distinct sources, §6.3). */
export function influences(plot, view, words) {
  const here = view.plots.find((p) => p.plot === plot);
  if (!here || !here.building) return [];
  const type = words.buildings[here.building].tenant_type;
  const seen = new Map();
  for (const other of adjacent(plot)) {
    const p = view.plots.find((q) => q.plot === other);
    if (p.feature) seen.set(`feature:${p.feature}`, { name: words.feature(p.feature).name, effects: words.feature(p.feature).effects, at: other });
    for (const kind of p.tenants) seen.set(`tenant:${kind}`, { name: words.tenant(kind), effects: words.kind(kind).effects || [], at: other });
  }
  const out = [];
  for (const source of seen.values()) {
    for (const e of source.effects) if (e.building_type === type) out.push({ ...source, delta: e.delta });
  }
  return out;
}

/** Everything about one plot, in sentences (the tooltip and the panel under the map). */
export function describe(plot, view, words, players) {
  const p = view.plots.find((q) => q.plot === plot);
  const { pos } = place(plot);
  const lines = [t("Plot {plot} — {tile}", { plot, tile: tileName(pos, view, words) })];
  if (p.feature) {
    const f = words.feature(p.feature);
    lines.push(t("Feature: {feature} ({effects} to buildings on adjacent plots). Never for sale.",
      { feature: f.name, effects: words.effects(f.effects) }));
  } else if (pos === 0 && !p.building) {
    lines.push(t("City hall."));
  }
  if (p.for_sale) lines.push(t("For sale at the land price, {price}.", { price: money(view.market.land_price) }));
  if (p.owner !== null && p.owner !== undefined) lines.push(t("Owner: {owner}.", { owner: words.seat(p.owner, view, players) }));
  else if (!p.feature && pos !== 0 && !p.for_sale) lines.push(t("Unowned."));
  if (p.building) {
    const b = words.buildings[p.building];
    lines.push(t("{building} ({type}), {count}/{capacity} tenants: {tenants}.", { building: b.name,
      type: words.typeName(b.tenant_type), count: p.tenants.length, capacity: b.capacity, tenants: words.tenants(p.tenants) }));
    const modifier = p.modifier >= 0 ? `+${p.modifier}` : `−${Math.abs(p.modifier)}`;
    lines.push(tn("Attracting now: {n} die, {modifier} on each die.", "Attracting now: {n} dice, {modifier} on each die.",
      p.dice, { modifier }));
    const inf = influences(plot, view, words);
    const neighbours = inf.map((i) => t("{delta} {source} ({plot})", { delta: i.delta > 0 ? "+1" : "−1", source: i.name, plot: i.at }))
      .join(", ");
    if (inf.length && b.bonus) {
      lines.push(t("Neighbours: {neighbours}; building bonus +{bonus}.", { neighbours, bonus: b.bonus }));
    } else if (inf.length) {
      lines.push(t("Neighbours: {neighbours}.", { neighbours }));
    } else if (b.bonus) {
      lines.push(t("Building bonus +{bonus}.", { bonus: b.bonus }));
    }
  }
  if (p.value !== null && p.value !== undefined) {
    lines.push(t("Sale value {value} × {price} = {amount}.", { value: p.value, price: money(view.market.land_price),
      amount: money(p.value * view.market.land_price) }));
  }
  return lines;
}

function drawFeature(g, box, p, words) {
  const f = words.feature(p.feature);
  g.append(el("rect", { x: box.x + 2, y: box.y + 2, width: CELL - 4, height: CELL - 4, rx: 6, class: "feature-bg" }));
  label(g, box, { top: 13, height: 30, lines: 3, cls: "feature-name" }, f.name.replace(/\s*\(.*\)/, ""));
  const arrows = el("text", { x: box.x + CELL / 2, y: box.y + CELL - 8, class: "effects", "text-anchor": "middle" });
  for (const e of f.effects) {
    const span = el("tspan", { class: e.delta > 0 ? "bonus" : "penalty" },
      `${e.delta > 0 ? "▲" : "▼"}${words.typeLetter(e.building_type)} `);
    arrows.append(span);
  }
  g.append(arrows);
}

function drawBuilding(g, box, p, words, view) {
  const b = words.buildings[p.building];
  const owner = p.owner === null || p.owner === undefined ? "none" : p.owner;
  g.append(el("rect", { x: box.x + 4, y: box.y + 11, width: CELL - 8, height: CELL - 14, rx: 4,
    class: `building owner-fill-${owner} type-edge-${words.typeIndex(b.tenant_type)}` }));
  label(g, box, { top: 12, height: 20, lines: 2, cls: "building-name" }, shortName(b.name));
  const top = box.y + 36;
  for (let i = 0; i < b.capacity; i++) {
    const cx = box.x + 7 + (i % 3) * 17;
    const cy = top + Math.floor(i / 3) * 12;
    const kind = p.tenants[i];
    if (kind) {
      const type = words.typeIndex(words.typeOf(kind));
      g.append(el("rect", { x: cx, y: cy, width: 16, height: 11, rx: 2, class: `chip type-${type}` }));
      g.append(el("text", { x: cx + 8, y: cy + 8.2, class: "chip-letter", "text-anchor": "middle" }, words.letter(kind)));
    } else {
      g.append(el("rect", { x: cx + 0.5, y: cy + 0.5, width: 15, height: 10, rx: 2, class: "chip empty" }));
    }
  }
  if (view.attraction && view.attraction.plot === p.plot) {
    g.append(el("rect", { x: box.x + 1, y: box.y + 1, width: CELL - 2, height: CELL - 2, rx: 6, class: "attracting" }));
  }
}

function drawPlot(svg, p, view, words, players, mySeat) {
  const box = place(p.plot);
  const owned = p.owner !== null && p.owner !== undefined;
  const kind = p.feature ? "feature" : box.pos === 0 ? "centre" : "buildable";
  const g = el("g", {
    class: `plot ${kind}${owned ? ` owned owner-${p.owner}` : ""}${owned && p.owner === mySeat ? " mine" : ""}${p.for_sale ? " for-sale" : ""}`,
    "data-plot": p.plot, tabindex: "-1", role: "img",
  });
  const lines = describe(p.plot, view, words, players);
  g.setAttribute("aria-label", lines.join(" "));
  g.append(el("title", {}, lines.join("\n")));
  g.append(el("rect", { x: box.x, y: box.y, width: CELL, height: CELL, class: "cell" }));
  if (p.feature) drawFeature(g, box, p, words);
  else if (p.building) drawBuilding(g, box, p, words, view);
  else if (box.pos === 0) {
    g.append(el("text", { x: box.x + CELL / 2, y: box.y + CELL / 2 + 3, class: "building-name", "text-anchor": "middle" }, t("City hall")));
  }
  g.append(el("text", { x: box.x + 3, y: box.y + 9, class: "plot-id" }, p.plot));
  if (p.for_sale) {
    g.append(el("rect", { x: box.x + CELL - 27, y: box.y + 2, width: 25, height: 10, rx: 2, class: "sale-sign" }));
    const sign = t("SALE");
    g.append(el("text", { x: box.x + CELL - 14.5, y: box.y + 9.5, class: "sale-text", "text-anchor": "middle",
      textLength: sign.length > 4 ? 22 : null, lengthAdjust: "spacingAndGlyphs" }, sign));
    if (!p.building) g.append(el("text", { x: box.x + CELL / 2, y: box.y + 40, class: "sale-big", "text-anchor": "middle" }, "$"));
  }
  if (owned) {
    g.append(el("rect", { x: box.x + 1.5, y: box.y + 1.5, width: CELL - 3, height: CELL - 3, rx: 5, class: `owner-ring owner-stroke-${p.owner}` }));
    const label = view.seats[p.owner].kind === "ai" ? t("AI") : String(p.owner + 1);
    g.append(el("circle", { cx: box.x + CELL - 8, cy: box.y + 8, r: 7, class: `owner-badge owner-fill-${p.owner}` }));
    g.append(el("text", { x: box.x + CELL - 8, y: box.y + 10.5, class: "owner-badge-text", "text-anchor": "middle" }, label));
  }
  svg.append(g);
  return g;
}

/** Draws the city into ``svg`` and keeps the plot panel and keyboard focus working across redraws. */
export class City {
  constructor(svg, info) {
    this.svg = svg;
    this.info = info;
    this.current = "0E";
    this.svg.setAttribute("viewBox", `${-EXTENT} ${-EXTENT - 10} ${2 * EXTENT} ${2 * EXTENT + 10}`);
    this.svg.addEventListener("keydown", (e) => this.key(e));
    this.svg.addEventListener("focusin", (e) => this.focused(e));
    this.svg.addEventListener("mouseover", (e) => {
      const g = e.target.closest && e.target.closest("g.plot");
      if (g) this.show(g.dataset.plot);
    });
    this.svg.addEventListener("click", (e) => {
      const g = e.target.closest && e.target.closest("g.plot");
      if (g) this.select(g.dataset.plot, true);
    });
  }

  render(view, words, players, mySeat) {
    this.view = view;
    this.words = words;
    this.players = players;
    const hadFocus = this.svg.contains(document.activeElement);
    this.svg.replaceChildren();
    for (let pos = 0; pos <= 6; pos++) {
      const first = place(`${pos}A`);
      this.svg.append(el("rect", { x: first.x - 3, y: first.y - 3, width: TILE + 6, height: TILE + 6, rx: 10, class: `tile tile-${pos}` }));
      this.svg.append(el("text", { x: first.x + TILE / 2, y: first.y - 5, class: "tile-name", "text-anchor": "middle" }, tileName(pos, view, words)));
    }
    this.nodes = new Map();
    for (const p of view.plots) this.nodes.set(p.plot, drawPlot(this.svg, p, view, words, players, mySeat));
    this.nodes.get(this.current).setAttribute("tabindex", "0");
    if (hadFocus) this.nodes.get(this.current).focus();
    this.show(this.current);
  }

  show(plot) {
    if (!this.view) return;
    const lines = describe(plot, this.view, this.words, this.players);
    const [title, ...rest] = lines;
    const h = document.createElement("h3");
    h.textContent = title;
    const ul = document.createElement("ul");
    for (const line of rest) {
      const li = document.createElement("li");
      li.textContent = line;
      ul.append(li);
    }
    this.info.replaceChildren(h, ul);
  }

  select(plot, focus) {
    if (!this.nodes || !this.nodes.has(plot)) return;
    this.nodes.get(this.current).setAttribute("tabindex", "-1");
    this.current = plot;
    const node = this.nodes.get(plot);
    node.setAttribute("tabindex", "0");
    if (focus) node.focus();
    this.show(plot);
  }

  focused(e) {
    const g = e.target.closest && e.target.closest("g.plot");
    if (g && g.dataset.plot !== this.current) this.select(g.dataset.plot, false);
    else if (g) this.show(g.dataset.plot);
  }

  key(e) {
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (e.key === "Home" || e.key === "End") {
      e.preventDefault();
      this.select(e.key === "Home" ? "0A" : "6I", true);
      return;
    }
    const d = dirs[e.key];
    if (!d) return;
    e.preventDefault();
    const from = place(this.current);
    let best = null;
    let bestScore = Infinity;
    for (const plot of this.nodes.keys()) {
      const to = place(plot);
      const dx = to.x - from.x;
      const dy = to.y - from.y;
      const along = dx * d[0] + dy * d[1];
      if (along <= 1) continue;
      const across = Math.abs(dx * d[1]) + Math.abs(dy * d[0]);
      const score = along + 2 * across;
      if (score < bestScore) { bestScore = score; best = plot; }
    }
    if (best) this.select(best, true);
  }
}

/** The key under the map: tenant letters, owners and signs (letters, not colour alone). */
export function legend(container, view, words, players) {
  const kinds = view.advanced ? words.cat.tenant_subtypes : words.cat.tenant_types;
  const dl = document.createElement("ul");
  dl.className = "legend-list";
  for (const k of kinds) {
    const li = document.createElement("li");
    const chip = document.createElement("span");
    chip.className = `chip-html type-${words.typeIndex(k.tenant_type)}`;
    chip.textContent = k.letter;
    const name = view.advanced ? t("{subtype} ({type})", { subtype: k.name, type: words.typeName(k.tenant_type) }) : k.name;
    li.append(chip, " " + name);
    dl.append(li);
  }
  for (const s of view.seats) {
    const li = document.createElement("li");
    const badge = document.createElement("span");
    badge.className = `owner-html owner-bg-${s.seat}`;
    badge.textContent = s.kind === "ai" ? t("AI") : String(s.seat + 1);
    li.append(badge, ` ${words.seat(s.seat, view, players)}`);
    dl.append(li);
  }
  const home = words.typeOrder.length ? words.typeOrder[0] : "home";
  const mark = words.typeLetter(home);
  const extra = [["sale-html", t("SALE"), t("for sale at the land price")],
    ["bonus-html", `▲${mark}`, t("bonus to adjacent {type} buildings", { type: words.typeName(home) })],
    ["penalty-html", `▼${mark}`, t("penalty to adjacent {type} buildings", { type: words.typeName(home) })]];
  for (const [cls, mark, text] of extra) {
    const li = document.createElement("li");
    const m = document.createElement("span");
    m.className = cls;
    m.textContent = mark;
    li.append(m, ` ${text}`);
    dl.append(li);
  }
  container.replaceChildren(dl);
}
