// The roll of the turn in progress (R3): both d10s (the higher is the income number), the tax dice and the suits
// they taxed, and what each player collected, as it happens: the dice from the view, the taxes and the income
// from the game's events (the live stream's, and the recent log's at load).

import { h } from "../../shell/dom.js";
import { suitGroup } from "./suits.js";
import { el, svgBox } from "./svg.js";
import { listing, t } from "./words.js";

/** A ten-sided die (a kite, as a d10's face looks) showing ``value``. */
function d10(value, income) {
  const label = income ? t("ten-sided die showing {value} (the income number)", { value })
    : t("ten-sided die showing {value}", { value });
  const svg = svgBox(100, 100, { cls: `die d10${income ? " income" : ""}`, label });
  svg.append(el("polygon", { points: "50,3 96,40 50,97 4,40", class: "die-face" }),
    el("text", { x: 50, y: 62, "text-anchor": "middle", class: "die-number", "font-size": value === 10 ? 34 : 42 }, String(value)));
  return svg;
}

/** A six-sided tax die showing the suit it taxes. */
function d6(face, suit, words) {
  const svg = svgBox(100, 100, { cls: "die d6 tax", label: t("tax die showing {face}: {suit}", { face, suit: words.suit(suit) }) });
  svg.append(el("rect", { x: 4, y: 4, width: 92, height: 92, rx: 16, class: "die-face" }), suitGroup(suit, 22, 14, 56),
    el("text", { x: 88, y: 92, "text-anchor": "end", class: "die-small", "font-size": 20 }, String(face)));
  return svg;
}

export class Roll {
  constructor(container, words) {
    this.container = container;
    this.words = words;
    this.turns = new Map(); // turn -> {taxed: [{seat, suit, count}], income: Map(seat -> counts), choices: [...]}
    this.turn = null; // the turn the events are at
    this.shown = null;
  }

  record(turn) {
    if (!this.turns.has(turn)) this.turns.set(turn, { taxed: [], income: new Map(), due: [] });
    return this.turns.get(turn);
  }

  /** Takes new events in; true when the roll's story changed. */
  note(events) {
    let changed = false;
    for (const e of events) {
      const p = e.payload || {};
      if (e.type === "decktet.turn_started") {
        this.turn = p.turn;
        this.record(p.turn);
      } else if (this.turn === null) {
        continue; // the events before the first turn we saw began
      } else if (e.type === "decktet.taxed") {
        this.record(this.turn).taxed.push({ seat: p.seat, suit: p.suit, count: p.count });
      } else if (e.type === "decktet.income_paid") {
        this.add(p.seat, p.tokens);
      } else if (e.type === "decktet.income_chosen") {
        const counts = this.words.suits.map((s) => (s.code === p.suit ? p.count || 1 : 0));
        this.add(p.seat, counts);
      } else if (e.type === "decktet.choices_due") {
        this.record(this.turn).due.push({ seat: p.seat, cards: p.cards });
      } else {
        continue;
      }
      changed = true;
    }
    if (this.turns.size > 12) this.turns.delete(this.turns.keys().next().value);
    return changed;
  }

  add(seat, counts) {
    const income = this.record(this.turn).income;
    const had = income.get(seat) || counts.map(() => 0);
    income.set(seat, had.map((n, i) => n + (counts[i] || 0)));
  }

  /** Draws the roll of ``view``'s turn (nothing once the game is over). */
  render(view, label) {
    const roll = view.roll;
    const story = this.turns.get(view.turn);
    const key = JSON.stringify([view.turn, roll, view.phase, story ? [story.taxed, [...story.income], story.due] : null]);
    if (key === this.shown) return;
    const fresh = this.shown !== null && JSON.parse(this.shown)[0] !== view.turn;
    this.shown = key;
    if (!roll || view.phase === "ended") {
      this.container.replaceChildren();
      return;
    }
    const words = this.words;
    const income = Math.max(...roll.dice);
    const high = roll.dice.indexOf(income);
    const dice = h("div", { class: "dice-row" }, ...roll.dice.map((v, i) => d10(v, i === high)),
      ...roll.tax_dice.map((face) => d6(face, words.suits[face - 1] ? words.suits[face - 1].code : "?", words)));
    const pays = income === 10 ? t("Income number {income}: every Crown pays its suit.", { income })
      : income === 1 ? t("Income number {income}: Aces pay.", { income })
        : t("Income number {income}: rank {income} properties pay.", { income });
    const parts = [h("h3", {}, t("Turn {turn}: {player}'s roll", { turn: view.turn, player: label(roll.seat) })), dice,
      h("p", { class: "roll-income" }, pays)];
    if (roll.taxed.length) {
      const lost = story ? story.taxed.map((x) => t("{player} loses {amount}", { player: label(x.seat), amount: words.amount(x.suit, x.count) })) : [];
      const taxed = listing(roll.taxed.map((s) => words.suit(s)));
      parts.push(h("p", { class: "roll-tax" }, t("Tax on {suits}: each player keeps at most one.", { suits: taxed }), " ",
        lost.length ? t("{losses}.", { losses: listing(lost) }) : story ? t("Nobody had more than one.") : ""));
    }
    if (story) {
      const rows = view.seats.map((s) => {
        const got = story.income.get(s.seat);
        return h("li", { "data-seat": String(s.seat) }, h("span", { class: `seat-dot owner-${s.seat}`, "aria-hidden": "true" }),
          got ? t("{player}: + {tokens}", { player: label(s.seat), tokens: words.tokens(got) })
            : t("{player}: nothing", { player: label(s.seat) }));
      });
      parts.push(h("ul", { class: "roll-paid", "aria-label": t("Income collected") }, ...rows));
      for (const d of story.due) {
        if (view.choices.length && d.seat === view.active) {
          const cards = listing(d.cards.map((c) => words.name(c)));
          parts.push(h("p", { class: "roll-due" }, d.cards.length === 1
            ? t("{player} chooses the suit that {cards} pays.", { player: label(d.seat), cards })
            : t("{player} chooses the suits that {cards} pay.", { player: label(d.seat), cards })));
        }
      }
    }
    this.container.replaceChildren(...parts);
    this.container.classList.toggle("fresh", fresh);
  }
}
