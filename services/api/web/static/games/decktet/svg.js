// Building SVG: one helper for elements, one for text that must fit a width.

export const SVG = "http://www.w3.org/2000/svg";

/** An SVG element: el("rect", {x: 1, class: "c"}, child, "text", ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null && v !== false) node.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return node;
}

/** A <text> squeezed to ``width`` when its letters would need more room (estimated from the font size). */
export function fitted(x, y, content, { size, width, cls = "", anchor = "start" }) {
  const node = el("text", { x, y, class: cls, "text-anchor": anchor, "font-size": size }, content);
  if (content.length * size * 0.56 > width) {
    node.setAttribute("textLength", String(width));
    node.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
  return node;
}

/** A standalone <svg> of the given box, for HTML (``label`` names it for screen readers). */
export function svgBox(width, height, { cls = "", label = "" } = {}) {
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, class: cls, focusable: "false" });
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  return svg;
}
