// The story of the game so far (GET /history: the server tells the events in sentences, as this page's
// caller may see them).
//
// Events know a seat only by its in-game name, so the server's sentences name seats that way; each line says
// where it names which seat (``seats``: start and end in the text), and the page puts there the name its
// headers use (the game's bundle says which: "Ada (Vector Properties)").

import { h } from "./dom.js";

export class History {
  /** ``lineClass(line)``: extra classes of a line (the game's bundle may mark some). */
  constructor(list, lineClass = () => "") {
    this.list = list;
    this.lineClass = lineClass;
    this.lines = [];
    this.version = 0;
  }

  /** Adds lines (from GET /history?after=...), each seat named by ``name(seat)``, and returns the new ones. */
  add(page, name) {
    const fresh = page.lines.filter((l) => l.version > this.version).map((l) => ({ ...l, text: named(l, name) }));
    if (!fresh.length) {
      this.version = Math.max(this.version, page.version);
      return [];
    }
    const wrap = this.list;
    const atBottom = !wrap || wrap.scrollHeight - wrap.scrollTop - wrap.clientHeight < 40;
    for (const line of fresh) {
      const extra = this.lineClass(line);
      const li = h("li", { class: `depth-${line.depth}${extra ? ` ${extra}` : ""}`,
        "data-event": line.event, "data-version": String(line.version) }, line.text);
      this.list.append(li);
    }
    this.lines.push(...fresh);
    this.version = Math.max(this.version, page.version);
    if (atBottom && wrap) wrap.scrollTop = wrap.scrollHeight;
    return fresh;
  }

  /** Marks the lines of versions ``from`` up to (not including) ``to`` as taken back (a takeback the stream just
   * brought; lines read after it come marked by the server), adding ``word`` to each. */
  markTakenBack(from, to, word) {
    for (const li of this.list.querySelectorAll("li[data-version]")) {
      const version = Number(li.dataset.version);
      if (version >= from && version < to && !li.classList.contains("taken-back")) {
        li.classList.add("taken-back");
        li.append(" ", word);
      }
    }
    for (const line of this.lines) {
      if (line.version >= from && line.version < to && !line.takenBack) Object.assign(line, { takenBack: true, text: `${line.text} ${word}` });
    }
  }
}

/** A line's text with each seat it names (``line.seats``, UTF-16 offsets as JavaScript counts) named by
 * ``name(seat)``. */
export function named(line, name) {
  if (!name || !line.seats || !line.seats.length) return line.text;
  let text = "";
  let at = 0;
  for (const s of line.seats) {
    text += line.text.slice(at, s.start) + name(s.seat);
    at = s.end;
  }
  return text + line.text.slice(at);
}
