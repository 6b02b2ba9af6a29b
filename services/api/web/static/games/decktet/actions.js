// What this seat may do now, built only from its legal commands (GET /me: the server's templates; the page never
// works out legality itself): the income choices its deeds are due (R9.1c), then its card plays (buy outright with
// one of the payments listed, take a deed, sell), developing a deed (the count within the template's range),
// trading with the bank, a deed's private income preference, and ending the turn. The engine's advice comes first
// (shell/advice.js: its best move with why, the others on demand); in the lists the first legal template is only
// preselected. A refused command is told in words beside the control that sent it.

import { actionForm } from "../../shell/actionform.js";
import { suggestionPanel } from "../../shell/advice.js";
import { h } from "../../shell/dom.js";
import { t, tn } from "./words.js";

let uid = 0;
const id = (base) => `${base}-${++uid}`;

const type = (x) => x.command.type;

function districtName(ctx, letter) {
  const d = ctx.view.districts.find((x) => x.letter === letter);
  return d ? t("{letter} ({card})", { letter, card: ctx.words.shortName(d.card) }) : letter;
}

function drawCount(ctx) {
  const v = ctx.view.variant;
  const key = `${v.three ? "three_" : ""}${v.mega ? "mega" : ""}`.replace(/_$/, "") || "base";
  const mode = (ctx.words.cat.modes || []).find((m) => m.key === key);
  return mode ? mode.draw : 1;
}

/** A card play in words without the card's name (the card names its form already). */
function playText(ctx, tmpl) {
  const { words } = ctx;
  const c = tmpl.command;
  switch (type(tmpl)) {
    case "decktet.buy": return t("Buy into {district} for {tokens}", { district: districtName(ctx, c.district), tokens: words.payment(c.payment) });
    case "decktet.deed": {
      const args = { district: districtName(ctx, c.district), tokens: words.deedPrice(c.card) };
      return words.card(c.card).rank === "2" ? t("Deed in {district} for {tokens} (never better than buying it)", args)
        : t("Deed in {district} for {tokens}", args);
    }
    case "decktet.sell": return t("Sell for {tokens}", { tokens: words.saleValue(c.card, ctx.view.variant) });
    default: return describe(ctx, tmpl);
  }
}

/** A template's command in words. */
export function describe(ctx, tmpl) {
  const { words } = ctx;
  const c = tmpl.command;
  switch (type(tmpl)) {
    case "decktet.choose": return t("Take {suit} from your deed {card}", { suit: words.suit(c.suit), card: words.name(c.card) });
    case "decktet.end_turn":
      return ctx.view.final_round ? t("End your turn (no more draws)")
        : tn("End your turn and draw {n} card", "End your turn and draw {n} cards", drawCount(ctx));
    case "decktet.buy": return t("Buy {card} into district {district} for {tokens}",
      { card: words.name(c.card), district: districtName(ctx, c.district), tokens: words.payment(c.payment) });
    case "decktet.deed": {
      const args = { card: words.name(c.card), district: districtName(ctx, c.district), tokens: words.deedPrice(c.card) };
      return words.card(c.card).rank === "2"
        ? t("Take a deed on {card} in district {district} for {tokens} (never better than buying it outright)", args)
        : t("Take a deed on {card} in district {district} for {tokens}", args);
    }
    case "decktet.sell": return t("Sell {card} for {tokens}", { card: words.name(c.card), tokens: words.saleValue(c.card, ctx.view.variant) });
    case "decktet.develop": return t("Put {amount} on your deed {card}", { amount: words.amount(c.suit, c.count || 1), card: words.name(c.card) });
    case "decktet.trade": {
      const p = words.prices;
      return t("Trade {given} for {taken}", { given: words.amount(c.give, p.trade_give), taken: words.amount(c.take, p.trade_take) });
    }
    case "decktet.prefer": return t("{card} pays {suit} on the others' rolls", { card: words.name(c.card), suit: words.suit(c.suit) });
    case "decktet.play_turn": {  // the engine's whole-turn advice: each action in order, then the turn's end
      const end = describe(ctx, { command: { type: "decktet.end_turn" } });
      return [...c.actions.map((action) => describe(ctx, { command: action })), end]
        .reduce((done, next) => t("{done}; then {next}", { done, next }));
    }
    default: return c.type;
  }
}

/** A select of templates (their indices in ``legal``), grouped, the first chosen. */
function templateSelect(ctx, name, groups, label, text = ctx.text) {
  const select = h("select", { id: id(name), name, class: "template-select" });
  for (const [title, items] of groups) {
    if (!items.length) continue;
    const parent = title ? h("optgroup", { label: title }) : select;
    for (const i of items) {
      parent.append(h("option", { value: String(i), selected: i === 0 ? true : null },
        text(ctx.legal[i])));
    }
    if (parent !== select) select.append(parent);
  }
  return [h("label", { for: select.id, class: "template-label" }, label), select];
}

function indices(ctx, pred) {
  return ctx.legal.map((x, i) => [x, i]).filter(([x]) => pred(x)).map(([, i]) => i);
}

// -- the parts of a turn --------------------------------------------------------------------------------

/** The engine's advice (shell/advice.js): its best move in words, why, and the alternatives on demand. */
function suggestion(ctx) {
  return suggestionPanel(ctx, { describe: (command) => ctx.text({ command }),
    playLabel: (command) => (command.type === "decktet.end_turn" ? t("End turn") : t("Play the suggestion")) });
}

function choices(ctx) {
  const byCard = new Map();
  indices(ctx, (x) => type(x) === "decktet.choose").forEach((i) => {
    const card = ctx.legal[i].command.card;
    if (!byCard.has(card)) byCard.set(card, []);
    byCard.get(card).push(i);
  });
  const out = [h("h3", {}, t("Choose your income")),
    h("p", {}, tn("Your roll pays {n} deed of yours: choose the suit it pays before anything else.",
      "Your roll pays {n} deeds of yours: choose the suit each one pays before anything else.", byCard.size))];
  for (const [card, items] of byCard) {
    out.push(actionForm(ctx, "choose", (f) => {
      f.setAttribute("data-card", card);
      f.append(h("p", {}, t("Your deed {card} pays one token of:", { card: ctx.words.describe(card) })),
        h("p", { class: "buttons" }, ...items.map((i) => h("button", { type: "submit", value: String(i) },
          ctx.words.suit(ctx.legal[i].command.suit)))));
    }, (submitter) => ctx.legal[Number(submitter.value)].command));
  }
  return out;
}

function endTurn(ctx, i) {
  return actionForm(ctx, "end-turn", (f) => {
    f.append(h("p", { class: "buttons" }, h("button", { type: "submit" }, ctx.text(ctx.legal[i]))));
  }, () => ctx.legal[i].command);
}

function cardPlays(ctx) {
  const hand = ctx.view.seats[ctx.seat].hand || [];
  const out = [];
  for (const card of hand) {
    const mine = (kind) => indices(ctx, (x) => type(x) === kind && x.command.card === card);
    const groups = [[t("Buy outright"), mine("decktet.buy")], [t("Take a deed"), mine("decktet.deed")], [t("Sell"), mine("decktet.sell")]];
    if (!groups.some(([, items]) => items.length)) continue;
    let select = null;
    out.push(actionForm(ctx, "play", (f) => {
      f.setAttribute("data-card", card);
      const [label, s] = templateSelect(ctx, "play", groups, ctx.words.describe(card), (x) => playText(ctx, x));
      select = s;
      f.append(label, h("p", { class: "row play-row" }, select, h("button", { type: "submit" }, t("Play"))));
    }, () => ctx.legal[Number(select.value)].command));
  }
  return out;
}

function develop(ctx, items) {
  let select = null;
  let count = null;
  const form = actionForm(ctx, "develop", (f) => {
    const [label, s] = templateSelect(ctx, "develop", [["", items]], t("Develop a deed: move tokens from your supply onto it"));
    select = s;
    count = h("input", { type: "number", id: id("count"), name: "count", min: "1", max: "1", value: "1", inputmode: "numeric" });
    const note = h("span", { class: "hint count-range", "aria-live": "polite" });
    const sync = () => {
      const tmpl = ctx.legal[Number(select.value)];
      const p = (tmpl.params || []).find((x) => x.field === "count");
      count.min = String(p ? p.minimum : 1);
      count.max = String(p ? p.maximum : 1);
      count.disabled = !p;
      if (Number(count.value) > Number(count.max) || Number(count.value) < Number(count.min)) count.value = count.min;
      note.textContent = p ? t("({minimum} to {maximum})", { minimum: p.minimum, maximum: p.maximum }) : t("(just 1)");
      [...select.options].forEach((o) => {
        const tt = ctx.legal[Number(o.value)];
        o.textContent = t("Put {suit} on {card}", { suit: ctx.words.suit(tt.command.suit), card: ctx.words.name(tt.command.card) });
      });
    };
    select.addEventListener("change", sync);
    sync();
    f.append(label, h("p", { class: "row play-row" }, select),
      h("p", { class: "row play-row" }, h("label", { for: count.id }, t("Tokens")), h("span", { class: "field" }, count, note),
        h("button", { type: "submit" }, t("Develop"))));
  }, (submitter, error) => {
    const tmpl = ctx.legal[Number(select.value)];
    const p = (tmpl.params || []).find((x) => x.field === "count");
    if (!p) return tmpl.command;
    const n = Number(count.value);
    if (!Number.isInteger(n) || n < p.minimum || n > p.maximum) {
      error.textContent = t("Put from {minimum} to {maximum} {suit} on this deed.", { minimum: p.minimum, maximum: p.maximum, suit: ctx.words.suit(tmpl.command.suit) });
      return null;
    }
    return { ...tmpl.command, count: n };
  });
  return form;
}

function simpleForm(ctx, name, items, label, button, hint = "") {
  let select = null;
  return actionForm(ctx, name, (f) => {
    const [l, s] = templateSelect(ctx, name, [["", items]], label);
    select = s;
    f.append(l, h("p", { class: "row play-row" }, select, h("button", { type: "submit" }, button)));
    if (hint) f.append(h("p", { class: "hint" }, hint));
  }, () => ctx.legal[Number(select.value)].command);
}

function turn(ctx) {
  const { view } = ctx;
  const out = [suggestion(ctx)];
  if (ctx.legal.some((x) => type(x) === "decktet.choose")) return [...out, ...choices(ctx)];
  const made = tn("{plays} of {n} card play made.", "{plays} of {n} card plays made.", view.plays_required, { plays: view.plays });
  out.push(h("p", { class: "plays-made", id: "plays-made" }, made,
    view.final_round ? ` ${t("Final round: no draw at the end of this turn.")}` : ""));
  const end = ctx.legal.findIndex((x) => type(x) === "decktet.end_turn");
  if (end >= 0) out.push(endTurn(ctx, end));
  const plays = cardPlays(ctx);
  if (plays.length) out.push(h("h3", {}, t("Play a card")), ...plays);
  const free = [];
  const dev = indices(ctx, (x) => type(x) === "decktet.develop");
  if (dev.length) free.push(develop(ctx, dev));
  const trades = indices(ctx, (x) => type(x) === "decktet.trade");
  if (trades.length) free.push(simpleForm(ctx, "trade", trades, t("Trade with the bank"), t("Trade")));
  const prefs = indices(ctx, (x) => type(x) === "decktet.prefer");
  if (prefs.length) {
    free.push(simpleForm(ctx, "prefer", prefs, t("Income preference of a deed"), t("Set preference"),
      t("Which suit a deed pays on the others' rolls. Private: the others never see it.")));
  }
  if (free.length) out.push(h("h3", {}, t("Free actions")), ...free);
  return out;
}

export function waitingText(view, label, seat) {
  if (view.phase === "ended") return t("The game is over.");
  const spec = view.variant.seats[view.active];
  if (spec && spec.kind === "ai") return t("Waiting: the computer is playing {player}'s turn…", { player: label(view.active) });
  if (view.active === seat) return t("Waiting…");
  return t("Waiting for {player}.", { player: label(view.active) });
}

/** Draws the seat's possible moves; ``ctx`` = {view, legal, seat, words, label(seat), send(command)}. */
export function renderActions(container, ctx) {
  const full = { ...ctx, text: (x) => describe(full, x) };
  const focusWasHere = container.contains(document.activeElement);
  let nodes;
  if (ctx.seat === null || ctx.seat === undefined) {
    nodes = [h("p", { class: "waiting" }, t("You are watching this game. Open your invite link to play a seat."))];
  } else if (!ctx.legal.length) {
    nodes = [h("p", { class: "waiting", id: "waiting" }, waitingText(ctx.view, ctx.label, ctx.seat))];
  } else {
    nodes = turn(full);
  }
  container.replaceChildren(...nodes);
  if (focusWasHere && ctx.legal.length) {
    const first = container.querySelector("button");
    if (first) first.focus({ preventScroll: true });
  }
}

/** Moves the focus to the form that plays ``card`` (a click on the card in the hand). */
export function focusCard(container, card) {
  const form = [...container.querySelectorAll("form[data-action='play']")].find((f) => f.dataset.card === card);
  if (!form) return false;
  form.scrollIntoView({ block: "nearest" });
  form.querySelector("select").focus();
  return true;
}
