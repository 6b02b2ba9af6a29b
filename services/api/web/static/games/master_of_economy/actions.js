// What this seat may do now, built only from its legal commands (GET /me: the server's templates; the page never
// works out legality itself). The engine's advice comes first (shell/advice.js: its best move with why, the others
// on demand). Then one form per kind of move: a choice among its templates and, where a template lets a field vary
// (an amount, a count, the lines of a ballot), the field within the template's range. In a sealed step the choice
// is made privately: the page says how many have chosen, never what. A refused command is told in words beside the
// control that sent it.

import { actionForm } from "../../shell/actionform.js";
import { suggestionPanel } from "../../shell/advice.js";
import { h } from "../../shell/dom.js";
import { euros, plural, SEALED } from "./words.js";

let uid = 0;
const id = (base) => `${base}-${++uid}`;
const kind = (t) => t.command.type.replace("master_of_economy.", "");

/** The kinds of move in the order a turn reads them, with a heading each. */
const KINDS = [
  ["pick_corporation", "Pick your corporation"], ["bid_for_order", "Sealed bid for the first order"],
  ["commit_token", "Sealed token on the additional corporation"], ["vote_dividends", "Sealed dividend ballot"],
  ["vote_manager", "Sealed election ballot"], ["build", "Build a factory"], ["sell_factory", "Sell a factory"],
  ["supply", "Supply factories"], ["place_bid", "Place a bid"], ["place_bids", "Place your bids"],
  ["cover_shortfall", "Cover the shortfall"], ["sell_for_shortfall", "Sell a factory for the shortfall"],
  ["repay_credits", "Repay credits"], ["take_credit", "Take a credit"], ["buy_packet", "Buy shares"],
  ["sell_packet", "Sell shares"], ["exchange_packet", "Exchange shares"], ["embezzle", "Embezzle"],
  ["propose_dividend", "Propose a dividend"], ["redeem", "Redeem shares"], ["stand", "Stand for manager"],
  ["pick_manager", "Pick the manager"], ["place_receipts", "Place receipts"], ["pass", "Pass"],
];

function fieldName(ctx, commodity, field) {
  const c = ctx.words.commodity[commodity];
  if (field === 0) return "IMPORT (buy)";
  return c ? `export field ${field} (${c.fields[field - 1]} €)` : `field ${field}`;
}

/** A ballot line ("seat:0@2", "corp:blue@2", "chair@2" or a holder) in words. */
function ballotLine(ctx, line) {
  const [holder, k] = line.split("@");
  const who = holder === "chair" ? "your own voice as manager (used on an exact half)" : `${ctx.words.holder(holder, ctx.label)}'s shares`;
  return k === undefined ? who : `${who}: yes to ${euros(Number(k))} a share`;
}

/** A template's command in words (its default values). */
export function describe(ctx, t) {
  const { words } = ctx;
  const c = t.command;
  switch (kind(t)) {
    case "pick_corporation": return `Pick ${words.corpName(c.corporation)}`;
    case "bid_for_order": return `Bid ${euros(c.amount)} for the first order`;
    case "build": return `Build a ${words.factoryName(c.factory)}`;
    case "sell_factory": return `Sell a ${words.factoryName(c.factory)}`;
    case "supply": return `Supply ${plural(c.count || 1, words.factoryName(c.factory).toLowerCase())}`;
    case "commit_token": return `Commit token ${c.token}`;
    case "place_bid": return `Bid on ${words.commodityName(c.commodity)}, ${fieldName(ctx, c.commodity, c.field)}`;
    case "place_bids": return `Place ${plural(c.bids.length, "bid")} at once`;
    case "cover_shortfall": return `Give ${euros(c.amount)} to cover the shortfall`;
    case "sell_for_shortfall": return `Sell a ${words.factoryName(c.factory)} to cover the shortfall`;
    case "repay_credits": return `Repay ${plural(c.count, "credit")}`;
    case "take_credit": return "Take a credit";
    case "buy_packet": return `Buy the ${c.packet}-share packet of ${words.corpShort(c.corporation)}`;
    case "sell_packet": return `Sell the ${c.packet}-share packet of ${words.corpShort(c.corporation)}`;
    case "exchange_packet":
      return `Exchange your ${c.give}-share packet of ${words.corpShort(c.corporation)} for the ${c.take}-share packet`;
    case "embezzle": return `Embezzle ${euros(c.amount)}`;
    case "propose_dividend": return `Propose a dividend of ${euros(c.per_share)} a share`;
    case "vote_dividends": return c.yes.length ? `Vote yes on ${plural(c.yes.length, "line")}` : "Vote no on every line";
    case "redeem": return `Redeem the ${c.packet}-share packet (${plural(c.shares, "share")})`;
    case "stand": return "Stand for manager";
    case "vote_manager": return `Vote for ${c.choices.map((s) => (s < 0 ? "nobody (abstain)" : ctx.label(s))).join(", ")}`;
    case "pick_manager": return `Pick ${ctx.label(c.seat)} as manager`;
    case "place_receipts": return `Place ${plural(c.count, "receipt")}`;
    case "pass": return ctx.view.step === "stand" ? "Decline to stand" : "Pass (end this turn)";
    default: return c.type;
  }
}

/** The inputs of a template's parameters; returns [nodes, read(error) -> command | null]. */
function paramInputs(ctx, t) {
  const nodes = [];
  const readers = [];
  for (const p of t.params || []) {
    if (p.type === "int") {
      const input = h("input", { type: "number", id: id(p.field), name: p.field, min: String(p.minimum),
        max: String(p.maximum), step: String(p.step || 1), value: String(t.command[p.field]), inputmode: "numeric",
        class: "param-int" });
      nodes.push(h("p", { class: "row param" }, h("label", { for: input.id }, p.field.replace("_", " ")), " ", input,
        h("span", { class: "hint" }, ` (${p.minimum} to ${p.maximum})`)));
      readers.push((cmd, error) => {
        const n = Number(input.value);
        if (!Number.isInteger(n) || n < p.minimum || n > p.maximum || (n - p.minimum) % (p.step || 1)) {
          error.textContent = `Choose a ${p.field.replace("_", " ")} from ${p.minimum} to ${p.maximum}.`;
          return null;
        }
        return { ...cmd, [p.field]: n };
      });
    } else if (p.type === "subset") {
      const lines = ctx.view.meeting.ballot || [];
      const chosen = new Set(t.command[p.field] || []);
      const boxes = Array.from({ length: p.size }, (_, i) => h("input", { type: "checkbox", id: id(`${p.field}-${i}`),
        value: String(i), checked: chosen.has(i) ? true : null }));
      nodes.push(h("fieldset", { class: "param-subset" }, h("legend", {}, "Tick each line you vote yes on"),
        ...boxes.map((b, i) => h("p", { class: "check" }, b, h("label", { for: b.id }, ballotLine(ctx, lines[i] || String(i)))))));
      readers.push((cmd, error) => {
        const picked = boxes.filter((b) => b.checked).map((b) => Number(b.value));
        if (picked.length > p.max_count) {
          error.textContent = `Tick at most ${p.max_count}.`;
          return null;
        }
        return { ...cmd, [p.field]: picked };
      });
    }
  }
  const read = (cmd, error) => readers.reduce((c, r) => (c ? r(c, error) : null), cmd);
  return [nodes, read];
}

/** The engine's advice (shell/advice.js): its best move in words, why, and the alternatives on demand. */
function suggestion(ctx) {
  return suggestionPanel(ctx, { describe: (command) => describe(ctx, { command }) });
}

/** One kind of move: a select of its templates (if more than one), their parameters, a button. */
function kindForm(ctx, name, title, items) {
  let select = null;
  let read = () => null;
  const params = h("div", { class: "params" });
  const text = (i) => describe(ctx, ctx.legal[i]);
  const redraw = () => {
    const t = ctx.legal[select ? Number(select.value) : items[0]];
    const [nodes, r] = paramInputs(ctx, t);
    params.replaceChildren(...nodes);
    read = r;
  };
  return actionForm(ctx, name, (f) => {
    f.append(h("h3", {}, title));
    if (items.length > 1) {
      select = h("select", { id: id(name), name, class: "template-select" },
        ...items.map((i) => h("option", { value: String(i), selected: i === 0 ? true : null }, text(i))));
      select.addEventListener("change", redraw);
      f.append(h("label", { for: select.id, class: "visually-hidden" }, title), h("p", { class: "row" }, select));
    } else if ((ctx.legal[items[0]].params || []).length === 0) {
      f.append(h("p", { class: "only" }, text(items[0])));
    }
    redraw();
    f.append(params, h("p", { class: "buttons" }, h("button", { type: "submit" },
      name === "pass" ? text(items[0]) : "Send")));
  }, (submitter, error) => read({ ...ctx.legal[select ? Number(select.value) : items[0]].command }, error));
}

/** "sealed: N of M have chosen" (never what). */
export function sealedCount(view) {
  if (!SEALED.has(view.step)) return null;
  const who = ["vote", "ballot"].includes(view.step) ? view.meeting.voters : view.players.map((p) => p.seat);
  const chosen = who.filter((s) => view.players[s] && view.players[s].chosen).length;
  return { chosen, of: who.length };
}

function sealedNote(ctx) {
  const count = sealedCount(ctx.view);
  if (!count) return null;
  const mine = ctx.seat !== null ? ctx.view.players[ctx.seat] : null;
  const own = mine && mine.choice ? ` Your choice: ${mine.choice.join(", ")} (only you see it).` : "";
  return h("p", { class: "sealed-note", id: "sealed-note" },
    `Sealed: ${count.chosen} of ${count.of} have chosen. The choices are revealed together once all are in.${own}`);
}

function turn(ctx) {
  const out = [suggestion(ctx)];
  const sealed = sealedNote(ctx);
  if (sealed) out.push(sealed, h("p", { class: "hint" }, "Your choice is sealed: nobody else sees it before the reveal."));
  const seen = new Set();
  for (const [name, title] of [...KINDS, ...ctx.legal.map((t) => [kind(t), kind(t)])]) {
    if (seen.has(name)) continue;
    seen.add(name);
    const items = ctx.legal.map((t, i) => [t, i]).filter(([t]) => kind(t) === name).map(([, i]) => i);
    if (items.length) out.push(kindForm(ctx, name.replace(/_/g, "-"), title, items));
  }
  return out;
}

export function waitingText(ctx) {
  const { view } = ctx;
  if (view.step === "ended") return "The game is over.";
  const sealed = sealedNote(ctx);
  if (sealed) return sealed.textContent;
  const who = view.waiting.map((s) => ctx.label(s));
  return who.length ? `Waiting for ${who.join(", ")}.` : "Waiting…";
}

/** Draws the seat's possible moves; ``ctx`` = {view, legal, seat, words, label(seat), send(command)}. */
export function renderActions(container, ctx) {
  const focusWasHere = container.contains(document.activeElement);
  let nodes;
  if (ctx.seat === null || ctx.seat === undefined) {
    nodes = [h("p", { class: "waiting" }, "You are watching this game. Open your invite link to play a seat."),
      sealedNote({ ...ctx, seat: null })];
  } else if (!ctx.legal.length) {
    nodes = [h("p", { class: "waiting", id: "waiting" }, waitingText(ctx))];
  } else {
    nodes = turn(ctx);
  }
  container.replaceChildren(...nodes.filter(Boolean));
  if (focusWasHere && ctx.legal.length) {
    const first = container.querySelector("button");
    if (first) first.focus({ preventScroll: true });
  }
}
