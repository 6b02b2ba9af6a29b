// What this seat may do now, built only from its legal commands (GET /me: the server's templates; the page never
// works out legality itself). The engine's advice comes first (shell/advice.js: its best move with why, the others
// on demand). Then one form per kind of move: a choice among its templates and, where a template lets a field vary
// (an amount, a count, the lines of a ballot), the field within the template's range. In a sealed step the choice
// is made privately: the page says how many have chosen, never what. A refused command is told in words beside the
// control that sent it.

import { actionForm } from "../../shell/actionform.js";
import { suggestionPanel } from "../../shell/advice.js";
import { h } from "../../shell/dom.js";
import { list, num } from "../../shell/i18n.js";
import { euros, SEALED, t, tn } from "./words.js";

let uid = 0;
const id = (base) => `${base}-${++uid}`;
const kind = (template) => template.command.type.replace("master_of_economy.", "");

/** The kinds of move in the order a turn reads them, with a heading each. */
const KINDS = [
  ["pick_corporation", t("Pick your corporation")], ["bid_for_order", t("Sealed bid for the first order")],
  ["commit_token", t("Sealed token on the additional corporation")], ["vote_dividends", t("Sealed dividend ballot")],
  ["vote_manager", t("Sealed election ballot")], ["build", t("Build a factory")], ["sell_factory", t("Sell a factory")],
  ["supply", t("Supply factories")], ["place_bid", t("Place a bid")], ["place_bids", t("Place your bids")],
  ["cover_shortfall", t("Cover the shortfall")], ["sell_for_shortfall", t("Sell a factory for the shortfall")],
  ["repay_credits", t("Repay credits")], ["take_credit", t("Take a credit")], ["buy_packet", t("Buy shares")],
  ["sell_packet", t("Sell shares")], ["exchange_packet", t("Exchange shares")], ["embezzle", t("Embezzle")],
  ["propose_dividend", t("Propose a dividend")], ["redeem", t("Redeem shares")], ["stand", t("Stand for manager")],
  ["pick_manager", t("Pick the manager")], ["place_receipts", t("Place receipts")], ["pass", t("Pass")],
];

/** The parameters' names, as the inputs' labels say them. */
const PARAMS = { amount: t("amount"), count: t("count"), per_share: t("per share"), shares: t("shares"),
  token: t("token"), cover_up_to: t("cover up to") };

function bidText(ctx, commodity, field) {
  const c = ctx.words.commodity[commodity];
  const goods = ctx.words.commodityName(commodity);
  if (field === 0) return t("Bid on {goods}, IMPORT (buy)", { goods });
  return c ? t("Bid on {goods}, export field {field} ({price})", { goods, field, price: euros(Number(c.fields[field - 1])) })
    : t("Bid on {goods}, field {field}", { goods, field });
}

/** A ballot line ("seat:0@2", "corp:blue@2", "chair@2" or a holder) in words. */
function ballotLine(ctx, line) {
  const [holder, k] = line.split("@");
  const chair = holder === "chair";
  const who = chair ? "" : ctx.words.holder(holder, ctx.label);
  if (k === undefined) {
    return chair ? t("your own voice as manager (used on an exact half)") : t("{holder}'s shares", { holder: who });
  }
  const amount = euros(Number(k));
  return chair ? t("your own voice as manager (used on an exact half): yes to {amount} a share", { amount })
    : t("{holder}'s shares: yes to {amount} a share", { holder: who, amount });
}

/** A template's command in words (its default values). */
export function describe(ctx, template) {
  const { words } = ctx;
  const c = template.command;
  switch (kind(template)) {
    case "pick_corporation": return t("Pick {corporation}", { corporation: words.corpName(c.corporation) });
    case "bid_for_order": return t("Bid {amount} for the first order", { amount: euros(c.amount) });
    case "build": return t("Build one {factory}", { factory: words.factoryName(c.factory) });
    case "sell_factory": return t("Sell one {factory}", { factory: words.factoryName(c.factory) });
    case "supply": return tn("Supply {n} {factory}", "Supply {n} × {factory}", c.count || 1,
      { n: c.count || 1, factory: words.factoryName(c.factory) });
    case "commit_token": return t("Commit token {token}", { token: c.token });
    case "place_bid": return bidText(ctx, c.commodity, c.field);
    case "place_bids": return tn("Place {n} bid at once", "Place {n} bids at once", c.bids.length, { n: c.bids.length });
    case "cover_shortfall": return t("Give {amount} to cover the shortfall", { amount: euros(c.amount) });
    case "sell_for_shortfall": return t("Sell one {factory} to cover the shortfall",
      { factory: words.factoryName(c.factory) });
    case "repay_credits": return tn("Repay {n} credit", "Repay {n} credits", c.count, { n: c.count });
    case "take_credit": return t("Take a credit");
    case "buy_packet": return t("Buy the {packet}-share packet of {corporation}",
      { packet: c.packet, corporation: words.corpShort(c.corporation) });
    case "sell_packet": return t("Sell the {packet}-share packet of {corporation}",
      { packet: c.packet, corporation: words.corpShort(c.corporation) });
    case "exchange_packet":
      return t("Exchange your {give}-share packet of {corporation} for the {take}-share packet",
        { give: c.give, take: c.take, corporation: words.corpShort(c.corporation) });
    case "embezzle": return t("Embezzle {amount}", { amount: euros(c.amount) });
    case "propose_dividend": return t("Propose a dividend of {amount} a share", { amount: euros(c.per_share) });
    case "vote_dividends": return c.yes.length ? tn("Vote yes on {n} line", "Vote yes on {n} lines", c.yes.length,
      { n: c.yes.length }) : t("Vote no on every line");
    case "redeem": return tn("Redeem the {packet}-share packet ({n} share)", "Redeem the {packet}-share packet ({n} shares)",
      c.shares, { packet: c.packet, n: c.shares });
    case "stand": return t("Stand for manager");
    case "vote_manager": return t("Vote for {choices}",
      { choices: c.choices.map((s) => (s < 0 ? t("nobody (abstain)") : ctx.label(s))).join(", ") });
    case "pick_manager": return t("Pick {seat} as manager", { seat: ctx.label(c.seat) });
    case "place_receipts": return tn("Place {n} receipt", "Place {n} receipts", c.count, { n: c.count });
    case "pass": return ctx.view.step === "stand" ? t("Decline to stand") : t("Pass (end this turn)");
    default: return c.type;
  }
}

/** The inputs of a template's parameters; returns [nodes, read(error) -> command | null]. */
function paramInputs(ctx, template) {
  const nodes = [];
  const readers = [];
  for (const p of template.params || []) {
    if (p.type === "int") {
      const input = h("input", { type: "number", id: id(p.field), name: p.field, min: String(p.minimum),
        max: String(p.maximum), step: String(p.step || 1), value: String(template.command[p.field]), inputmode: "numeric",
        class: "param-int" });
      const field = PARAMS[p.field] || p.field.replace("_", " ");
      nodes.push(h("p", { class: "row param" }, h("label", { for: input.id }, field), " ", input,
        h("span", { class: "hint" }, t(" ({least} to {most})", { least: p.minimum, most: p.maximum }))));
      readers.push((cmd, error) => {
        const n = Number(input.value);
        if (!Number.isInteger(n) || n < p.minimum || n > p.maximum || (n - p.minimum) % (p.step || 1)) {
          error.textContent = t("Choose a value of “{field}” from {least} to {most}.",
            { field, least: p.minimum, most: p.maximum });
          return null;
        }
        return { ...cmd, [p.field]: n };
      });
    } else if (p.type === "subset") {
      const lines = ctx.view.meeting.ballot || [];
      const chosen = new Set(template.command[p.field] || []);
      const boxes = Array.from({ length: p.size }, (_, i) => h("input", { type: "checkbox", id: id(`${p.field}-${i}`),
        value: String(i), checked: chosen.has(i) ? true : null }));
      nodes.push(h("fieldset", { class: "param-subset" }, h("legend", {}, t("Tick each line you vote yes on")),
        ...boxes.map((b, i) => h("p", { class: "check" }, b, h("label", { for: b.id }, ballotLine(ctx, lines[i] || String(i)))))));
      readers.push((cmd, error) => {
        const picked = boxes.filter((b) => b.checked).map((b) => Number(b.value));
        if (picked.length > p.max_count) {
          error.textContent = t("Tick at most {n}.", { n: p.max_count });
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
    const chosen = ctx.legal[select ? Number(select.value) : items[0]];
    const [nodes, r] = paramInputs(ctx, chosen);
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
      name === "pass" ? text(items[0]) : t("Send"))));
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
  const args = { chosen: count.chosen, of: count.of, choice: mine && mine.choice ? mine.choice.map(num).join(", ") : "" };
  return h("p", { class: "sealed-note", id: "sealed-note" }, mine && mine.choice
    ? t("Sealed: {chosen} of {of} have chosen. The choices are revealed together once all are in. Your choice: {choice} (only you see it).", args)
    : t("Sealed: {chosen} of {of} have chosen. The choices are revealed together once all are in.", args));
}

function turn(ctx) {
  const out = [suggestion(ctx)];
  const sealed = sealedNote(ctx);
  if (sealed) out.push(sealed, h("p", { class: "hint" }, t("Your choice is sealed: nobody else sees it before the reveal.")));
  const seen = new Set();
  for (const [name, title] of [...KINDS, ...ctx.legal.map((template) => [kind(template), kind(template)])]) {
    if (seen.has(name)) continue;
    seen.add(name);
    const items = ctx.legal.map((template, i) => [template, i]).filter(([template]) => kind(template) === name).map(([, i]) => i);
    if (items.length) out.push(kindForm(ctx, name.replace(/_/g, "-"), title, items));
  }
  return out;
}

export function waitingText(ctx) {
  const { view } = ctx;
  if (view.step === "ended") return t("The game is over.");
  const sealed = sealedNote(ctx);
  if (sealed) return sealed.textContent;
  const who = view.waiting.map((s) => ctx.label(s));
  return who.length ? t("Waiting for {seats}.", { seats: list(who) }) : t("Waiting…");
}

/** Draws the seat's possible moves; ``ctx`` = {view, legal, seat, words, label(seat), send(command)}. */
export function renderActions(container, ctx) {
  const focusWasHere = container.contains(document.activeElement);
  let nodes;
  if (ctx.seat === null || ctx.seat === undefined) {
    nodes = [h("p", { class: "waiting" }, t("You are watching this game. Open your invite link to play a seat.")),
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
