// What this seat may do now, built only from its legal commands (GET /me): bid or pass; attract tenants
// per building (advertising, dice to turn into 5s, subtype choice), each pre-filled with the engine's
// suggestion; buy land, build or rebuild, advertise, consult, sell (the sale value shown before confirming). The
// engine's advice comes first in every phase (shell/advice.js: its best move with why, the others on demand).
// An error from the API is shown in words next to the control that caused it.

import { diceRow } from "./dice.js";
import { actionForm } from "../../shell/actionform.js";
import { suggestionPanel } from "../../shell/advice.js";
import { h } from "../../shell/dom.js";
import { list } from "../../shell/i18n.js";
import { money, PHASES, SYSTEM_JOBS, t, tn } from "./words.js";

let uid = 0;
const id = (base) => `${base}-${++uid}`;

function numberField(label, { min, max, step = 1, value, name, suffix = "" }) {
  const fieldId = id(name);
  const input = h("input", { type: "number", id: fieldId, name, min, max, step, value, inputmode: "numeric", required: true });
  return [h("label", { for: fieldId }, label), h("span", { class: "field" }, input, suffix ? h("span", { class: "suffix" }, suffix) : null), input];
}

function readInt(input, param) {
  const v = Number(input.value);
  if (!Number.isInteger(v) || v < param.minimum || v > param.maximum || (v - param.minimum) % (param.step || 1) !== 0) {
    return null;
  }
  return v;
}

function paramOf(template, field) {
  return (template.params || []).find((p) => p.field === field);
}

// -- phase 1 ---------------------------------------------------------------------------------------------

function bidding(ctx, templates) {
  const { view, words, players } = ctx;
  const place = templates.find((t) => t.command.type === "magnate.place_bid");
  const pass = templates.find((t) => t.command.type === "magnate.pass_bid");
  const a = view.auction;
  const high = a && a.high_bidder !== null && a.high_bidder !== undefined
    ? t("Highest bid: {amount} by {seat}.", { amount: money(a.high_bid), seat: words.seat(a.high_bidder, view, players) })
    : t("No bid yet.");
  let amount = null;
  const form = actionForm(ctx, "bid", (f) => {
    f.append(h("h3", {}, t("Bid for first player")),
      h("p", {}, high + " " + t("The highest bidder pays and plays first; passing leaves the auction.")));
    if (place) {
      const p = paramOf(place, "amount");
      const [label, field, input] = numberField(t("Your bid ({low} to {high}, steps of {step})",
        { low: money(p.minimum), high: money(p.maximum), step: money(p.step) }),
        { min: p.minimum, max: p.maximum, step: p.step, value: place.command.amount, name: "amount", suffix: t("K") });
      amount = { input, p };
      f.append(h("p", { class: "row" }, label, field));
    } else {
      f.append(h("p", {}, t("You cannot afford a higher bid.")));
    }
    f.append(h("p", { class: "buttons" },
      place ? h("button", { type: "submit", value: "bid", class: "primary" }, t("Place bid")) : null,
      pass ? h("button", { type: "submit", value: "pass" }, t("Pass")) : null));
  }, (submitter) => {
    if (submitter && submitter.value === "pass") return pass.command;
    const v = readInt(amount.input, amount.p);
    if (v === null) {
      form.querySelector(".error").textContent = t("Enter a bid from {low} to {high} in steps of {step}.",
        { low: money(amount.p.minimum), high: money(amount.p.maximum), step: money(amount.p.step) });
      return null;
    }
    return { ...place.command, amount: v };
  });
  return [form];
}

// -- phase 2 ---------------------------------------------------------------------------------------------

function plotOf(view, plot) {
  return view.plots.find((p) => p.plot === plot);
}

function attracting(ctx, templates) {
  const { view, words } = ctx;
  const out = [h("h3", {}, t("Attract tenants")),
    h("p", {}, t("Attract to each of your buildings at most once this round, in any order; then collect rent."))];
  for (const template of templates.filter((x) => x.command.type === "magnate.attract_tenants")) {
    const p = plotOf(view, template.command.plot);
    const b = words.buildings[p.building];
    const ads = paramOf(template, "advertising");
    let input = null;
    const mod = p.modifier >= 0 ? `+${p.modifier}` : `−${Math.abs(p.modifier)}`;
    const form = actionForm(ctx, "attract", (f) => {
      f.setAttribute("data-plot", p.plot);
      f.append(h("h4", {}, t("{building} on {plot}", { building: b.name, plot: p.plot })),
        h("p", {}, tn("{count}/{capacity} tenants ({tenants}). Rolls {n} die, {modifier} on each.",
          "{count}/{capacity} tenants ({tenants}). Rolls {n} dice, {modifier} on each.", p.dice,
          { count: p.tenants.length, capacity: b.capacity, tenants: words.tenants(p.tenants), modifier: mod })));
      if (ads) {
        const [label, field, el] = numberField(t("Advertising tokens to commit (0 to {max}; each can turn a die into a 5)",
          { max: ads.maximum }),
          { min: ads.minimum, max: ads.maximum, value: template.command.advertising || 0, name: "advertising" });
        input = el;
        f.append(h("p", { class: "row" }, label, field));
      }
      f.append(h("p", { class: "buttons" }, h("button", { type: "submit", class: "primary" },
        t("Attract tenants to {plot}", { plot: p.plot }))));
    }, () => {
      if (!input) return template.command;
      const v = readInt(input, { ...ads, step: 1 });
      if (v === null) {
        form.querySelector(".error").textContent = t("Commit from 0 to {max} advertising tokens.", { max: ads.maximum });
        return null;
      }
      return { ...template.command, advertising: v };
    });
    out.push(form);
  }
  const finish = templates.find((t) => t.command.type === "magnate.finish_attracting");
  if (finish) {
    const rent = view.plots.filter((p) => p.owner === ctx.seat).reduce((sum, p) => sum + words.rent(p.tenants), 0);
    out.push(actionForm(ctx, "finish", (f) => {
      f.append(h("p", { class: "buttons" }, h("button", { type: "submit" },
        t("Finish attracting and collect {amount} rent", { amount: money(rent) }))));
    }, () => finish.command));
  }
  return out;
}

function useAdvertising(ctx, template) {
  const { view } = ctx;
  const a = view.attraction;
  const param = paramOf(template, "dice");
  const chosen = new Set(template.command.dice || []);
  const plot = plotOf(view, a.plot);
  const modifier = plot && plot.modifier !== null ? plot.modifier : 0;
  const boxes = [];
  const preview = h("p", { class: "preview", "aria-live": "polite" });
  const update = () => {
    const picked = boxes.filter((b) => b.checked).map((b) => Number(b.value));
    boxes.forEach((b) => { b.disabled = !b.checked && picked.length >= param.max_count; });
    const final = a.faces.map((f, i) => (picked.includes(i) ? 5 : f) + modifier);
    const signed = `${modifier >= 0 ? "+" : "−"}${Math.abs(modifier)}`;
    preview.replaceChildren(diceRow(final, { caption: t("Final dice (with {modifier}):", { modifier: signed }), numbers: true }));
  };
  const form = actionForm(ctx, "use-advertising", (f) => {
    f.append(h("h3", {}, t("Advertising on {plot}", { plot: a.plot })),
      h("p", {}, tn("You rolled these dice and committed {n} advertising token: each can turn one die into a 5. " +
        "The suggestion is checked.", "You rolled these dice and committed {n} advertising tokens: each can turn " +
        "one die into a 5. The suggestion is checked.", a.advertising)),
      diceRow(a.faces, { caption: t("Rolled:") }));
    const fs = h("fieldset", {}, h("legend", {}, t("Dice to turn into 5s (at most {max})", { max: param.max_count })));
    a.faces.forEach((face, i) => {
      const boxId = id("die");
      const box = h("input", { type: "checkbox", id: boxId, value: String(i), checked: chosen.has(i) });
      box.addEventListener("change", update);
      boxes.push(box);
      fs.append(h("p", { class: "check" }, box, h("label", { for: boxId }, t("Die {number} (shows {face})", { number: i + 1, face }))));
    });
    f.append(fs, preview, h("p", { class: "buttons" }, h("button", { type: "submit", class: "primary" }, t("Use advertising"))));
  }, () => ({ ...template.command, dice: boxes.filter((b) => b.checked).map((b) => Number(b.value)) }));
  update();
  return [form];
}

function chooseTenants(ctx, templates) {
  const { view, words } = ctx;
  const a = view.attraction;
  const name = id("choice");
  const radios = [];
  const form = actionForm(ctx, "choose-tenants", (f) => {
    f.append(h("h3", {}, t("Who moves into {plot}", { plot: a.plot })));
    if (a.final) f.append(diceRow(a.final, { caption: t("Final dice:"), numbers: true }));
    const fs = h("fieldset", {}, h("legend", {}, t("Choose the tenants (the first is the engine's suggestion)")));
    templates.forEach((template, i) => {
      const rId = id("tenants");
      const kinds = template.command.tenants || [];
      const radio = h("input", { type: "radio", name, id: rId, value: String(i), checked: i === 0 });
      radios.push(radio);
      const text = kinds.length
        ? t("{tenants} — rent {amount}", { tenants: words.tenants(kinds), amount: money(words.rent(kinds)) }) : t("Nobody");
      fs.append(h("p", { class: "check" }, radio,
        h("label", { for: rId }, i === 0 ? t("{choice} (suggested)", { choice: text }) : text)));
    });
    f.append(fs, h("p", { class: "buttons" }, h("button", { type: "submit", class: "primary" }, t("Move them in"))));
  }, () => templates[Number(radios.find((r) => r.checked).value)].command);
  return [form];
}

// -- phase 3 ---------------------------------------------------------------------------------------------

function buy(ctx, all) {
  const { view } = ctx;
  const templates = [...all].sort((a, b) => Number(plotOf(view, b.command.plot).for_sale) - Number(plotOf(view, a.command.plot).for_sale));
  const price = view.market.land_price;
  const select = h("select", { id: id("buy"), name: "plot" });
  const note = h("p", { class: "price", "aria-live": "polite" });
  const cost = (template) => (plotOf(view, template.command.plot).for_sale ? price : 2 * price);
  for (const template of templates) {
    const sale = plotOf(view, template.command.plot).for_sale;
    select.append(h("option", { value: template.command.plot }, sale
      ? t("{plot} — {price} (for sale)", { plot: template.command.plot, price: money(cost(template)) })
      : t("{plot} — {price} (next to your plot: 2× price)", { plot: template.command.plot, price: money(cost(template)) })));
  }
  const explain = () => {
    const template = templates.find((x) => x.command.plot === select.value);
    const sale = plotOf(view, template.command.plot).for_sale;
    note.textContent = sale ? t("Price {price}: the land price.", { price: money(price) })
      : t("Price {price}: twice the land price, as the plot is not on the market.", { price: money(2 * price) });
  };
  select.addEventListener("change", explain);
  explain();
  return actionForm(ctx, "buy", (f) => {
    f.append(h("h4", {}, t("Buy land")), h("p", { class: "row" }, h("label", { for: select.id }, t("Plot")), select), note,
      h("p", { class: "buttons" }, h("button", { type: "submit" }, t("Buy plot"))));
  }, () => templates.find((x) => x.command.plot === select.value).command);
}

function build(ctx, templates) {
  const { view, words } = ctx;
  const select = h("select", { id: id("build"), name: "building" });
  const byPlot = new Map();
  templates.forEach((template, i) => {
    if (!byPlot.has(template.command.plot)) byPlot.set(template.command.plot, []);
    byPlot.get(template.command.plot).push([template, i]);
  });
  for (const [plot, options] of byPlot) {
    const p = plotOf(view, plot);
    const group = h("optgroup", { label: p.building
      ? t("{plot} — rebuild the {building}", { plot, building: words.building(p.building) })
      : t("{plot} — empty plot", { plot }) });
    for (const [template, i] of options) {
      const b = words.buildings[template.command.building];
      group.append(h("option", { value: String(i) }, t("{plot}: {building} — {cost} ({capacity} {type})",
        { plot, building: b.name, cost: money(b.cost), capacity: b.capacity, type: words.typeName(b.tenant_type) })));
    }
    select.append(group);
  }
  const note = h("p", { class: "price", "aria-live": "polite" });
  const button = h("button", { type: "submit" }, t("Build"));
  const explain = () => {
    const template = templates[Number(select.value)];
    const p = plotOf(view, template.command.plot);
    const b = words.buildings[template.command.building];
    const rebuild = Boolean(p.building);
    button.textContent = rebuild ? t("Rebuild") : t("Build");
    const args = { cost: money(b.cost), type: words.typeName(b.tenant_type), bonus: b.bonus };
    const sentences = [b.bonus
      ? tn("Cost {cost}; room for {n} {type} tenant, +{bonus} on every attraction die.",
        "Cost {cost}; room for {n} {type} tenants, +{bonus} on every attraction die.", b.capacity, args)
      : tn("Cost {cost}; room for {n} {type} tenant.", "Cost {cost}; room for {n} {type} tenants.", b.capacity, args)];
    if (rebuild) sentences.push(t("Replaces the building (no refund)."));
    if (rebuild && words.buildings[p.building].tenant_type === b.tenant_type) {
      sentences.push(t("Tenants of the same type stay, up to {capacity}.", { capacity: b.capacity }));
    } else if (rebuild && p.tenants.length) {
      sentences.push(t("The current tenants go back to the available area."));
    }
    note.textContent = sentences.join(" ");
  };
  select.addEventListener("change", explain);
  explain();
  return actionForm(ctx, "build", (f) => {
    f.append(h("h4", {}, t("Build or rebuild")), h("p", { class: "row" }, h("label", { for: select.id }, t("Building")), select), note,
      h("p", { class: "buttons" }, button));
  }, () => templates[Number(select.value)].command);
}

function advertise(ctx, template) {
  const { words } = ctx;
  const { free_advertising: free, advertising_price: price } = words.cat.setup;
  const param = paramOf(template, "bought");
  let input = null;
  const note = h("p", { class: "price", "aria-live": "polite" });
  const explain = () => {
    const n = input ? Number(input.value) || 0 : 0;
    note.textContent = n
      ? tn("You take {free} free tokens and buy {n} for {amount}.", "You take {free} free tokens and buy {n} for {amount}.",
        n, { free, amount: money(n * price) })
      : t("You take {free} free tokens.", { free });
  };
  const form = actionForm(ctx, "advertise", (f) => {
    f.append(h("h4", {}, t("Advertise")));
    if (param) {
      const [label, field, el] = numberField(t("Tokens to buy as well ({price} each, up to {max})",
        { price: money(price), max: param.maximum }),
        { min: param.minimum, max: param.maximum, value: template.command.bought || 0, name: "bought" });
      input = el;
      input.addEventListener("input", explain);
      f.append(h("p", { class: "row" }, label, field));
    }
    f.append(note, h("p", { class: "buttons" }, h("button", { type: "submit" }, t("Advertise"))));
  }, () => {
    if (!input) return template.command;
    const v = readInt(input, { ...param, step: 1 });
    if (v === null) {
      form.querySelector(".error").textContent = t("Buy from 0 to {max} tokens.", { max: param.maximum });
      return null;
    }
    return { ...template.command, bought: v };
  });
  explain();
  return form;
}

function consult(ctx, template) {
  return actionForm(ctx, "consult", (f) => {
    f.append(h("h4", {}, t("Consult")), h("p", { class: "buttons" },
      h("button", { type: "submit" }, t("Consult: receive {amount}", { amount: money(ctx.view.market.land_price) }))));
  }, () => template.command);
}

function sell(ctx, templates) {
  const { view, words } = ctx;
  const price = view.market.land_price;
  const select = h("select", { id: id("sell"), name: "plot" });
  const value = (plot) => plotOf(view, plot).value;
  for (const template of templates) {
    const p = plotOf(view, template.command.plot);
    const args = { plot: p.plot, value: value(p.plot), price: money(price), amount: money(value(p.plot) * price) };
    select.append(h("option", { value: template.command.plot }, p.building
      ? t("{plot} ({building}) — value {value} × {price} = {amount}", { ...args, building: words.building(p.building) })
      : t("{plot} (land) — value {value} × {price} = {amount}", args)));
  }
  const confirmBox = h("div", { class: "confirm", hidden: true });
  const ask = h("button", { type: "button" }, t("Sell…"));
  let confirmed = false;
  const form = actionForm(ctx, "sell", (f) => {
    f.append(h("h4", {}, t("Sell")), h("p", { class: "row" }, h("label", { for: select.id }, t("Plot")), select),
      h("p", { class: "buttons" }, ask), confirmBox);
  }, () => (confirmed ? templates.find((x) => x.command.plot === select.value).command : null));
  ask.addEventListener("click", () => {
    const plot = select.value;
    const amount = value(plot) * price;
    const text = h("p", { class: "confirm-text" },
      t("Sell {plot} to the bank for {amount} (value {value} × land price {price})? The building and tenants stay; " +
        "you lose the plot and its rent.", { plot, amount: money(amount), value: value(plot), price: money(price) }));
    const yes = h("button", { type: "submit", class: "danger" },
      t("Confirm sale of {plot} for {amount}", { plot, amount: money(amount) }));
    const no = h("button", { type: "button" }, t("Cancel"));
    yes.addEventListener("click", () => { confirmed = true; });
    no.addEventListener("click", () => { confirmBox.hidden = true; ask.hidden = false; select.disabled = false; ask.focus(); });
    confirmBox.replaceChildren(text, h("p", { class: "buttons" }, yes, no));
    confirmBox.hidden = false;
    ask.hidden = true;
    select.disabled = true;
    yes.focus();
  });
  return form;
}

function actions(ctx, templates) {
  const of = (type) => templates.filter((t) => t.command.type === type);
  const out = [h("h3", {}, t("Choose one action")),
    h("p", {}, t("Three passes: each seat takes one action per pass."))];
  const items = [];
  if (of("magnate.buy_land").length) items.push(buy(ctx, of("magnate.buy_land")));
  if (of("magnate.build").length) items.push(build(ctx, of("magnate.build")));
  if (of("magnate.advertise").length) items.push(advertise(ctx, of("magnate.advertise")[0]));
  if (of("magnate.consult").length) items.push(consult(ctx, of("magnate.consult")[0]));
  if (of("magnate.sell").length) items.push(sell(ctx, of("magnate.sell")));
  out.push(h("div", { class: "action-grid" }, ...items));
  return out;
}

// -- the engine's advice ---------------------------------------------------------------------------------

/** A command in words, as the advice panel says it. */
export function commandText(ctx, c) {
  const { view, words } = ctx;
  const price = view.market ? view.market.land_price : 0;
  const plot = c.plot ? plotOf(view, c.plot) : null;
  switch (c.type) {
    case "magnate.place_bid": return t("Bid {amount} to play first", { amount: money(c.amount) });
    case "magnate.pass_bid": return t("Pass: leave the auction");
    case "magnate.attract_tenants":
      return c.advertising
        ? tn("Attract tenants to {plot} committing {n} advertising token",
          "Attract tenants to {plot} committing {n} advertising tokens", c.advertising, { plot: c.plot })
        : t("Attract tenants to {plot}", { plot: c.plot });
    case "magnate.use_advertising": {
      const dice = c.dice || [];
      return dice.length ? tn("Turn die {dice} into a 5", "Turn dice {dice} into 5s", dice.length,
        { dice: list(dice.map((i) => String(i + 1))) }) : t("Keep the dice as rolled");
    }
    case "magnate.choose_tenants": {
      const kinds = c.tenants || [];
      return kinds.length ? t("Move in {tenants} (rent {amount})", { tenants: words.tenants(kinds), amount: money(words.rent(kinds)) })
        : t("Move nobody in");
    }
    case "magnate.finish_attracting": return t("Finish attracting and collect the rent");
    case "magnate.buy_land":
      return t("Buy plot {plot} for {amount}", { plot: c.plot, amount: money(plot && plot.for_sale ? price : 2 * price) });
    case "magnate.build": {
      const b = words.buildings[c.building];
      const args = { building: b ? b.name : c.building, plot: c.plot, amount: b ? money(b.cost) : "" };
      if (plot && plot.building) return b ? t("Rebuild: {building} on {plot} for {amount}", args) : t("Rebuild: {building} on {plot}", args);
      return b ? t("Build: {building} on {plot} for {amount}", args) : t("Build: {building} on {plot}", args);
    }
    case "magnate.advertise":
      return c.bought ? tn("Advertise: take the free tokens and buy {n} more", "Advertise: take the free tokens and buy {n} more",
        c.bought) : t("Advertise: take the free tokens");
    case "magnate.consult": return t("Consult: receive {amount}", { amount: money(price) });
    case "magnate.sell": return t("Sell {plot} to the bank for {amount}", { plot: c.plot, amount: money((plot ? plot.value : 0) * price) });
    default: return c.type;
  }
}

// -- waiting ---------------------------------------------------------------------------------------------

export function waitingText(view, words, players, seat) {
  if (view.phase === "ended") return t("The game is over.");
  const job = view.system_job ? SYSTEM_JOBS[view.system_job] || view.system_job : null;
  const who = view.on_turn.filter((s) => s !== seat).map((s) => words.seat(s, view, players));
  if (job === SYSTEM_JOBS["magnate.ai_turn"]) {
    const ai = view.seats.find((s) => s.kind === "ai");
    return ai ? t("Waiting: {seat} is thinking…", { seat: words.seat(ai.seat, view, players) }) : t("Waiting: the AI is thinking…");
  }
  if (job) return t("Waiting: {job}…", { job });
  if (who.length) return t("Waiting for {seats}.", { seats: list(who) });
  return t("Waiting… ({phase})", { phase: PHASES[view.phase] || view.phase });
}

/** Draws the seat's possible moves; ``ctx`` = {view, legal, seat, words, players, send(command)}. */
export function renderActions(container, ctx) {
  const { view, legal } = ctx;
  const focusWasHere = container.contains(document.activeElement) || document.activeElement === document.body;
  let nodes = [];
  const type = (t) => t.command.type;
  if (ctx.seat === null) {
    nodes = [h("p", { class: "waiting" }, t("You are watching this game. Open your invite link to play a seat."))];
  } else if (!legal.length) {
    nodes = [h("p", { class: "waiting", id: "waiting" }, waitingText(view, ctx.words, ctx.players, ctx.seat))];
  } else if (legal.some((t) => ["magnate.place_bid", "magnate.pass_bid"].includes(type(t)))) {
    nodes = bidding(ctx, legal);
  } else if (legal.some((t) => type(t) === "magnate.use_advertising")) {
    nodes = useAdvertising(ctx, legal.find((t) => type(t) === "magnate.use_advertising"));
  } else if (legal.some((t) => type(t) === "magnate.choose_tenants")) {
    nodes = chooseTenants(ctx, legal.filter((t) => type(t) === "magnate.choose_tenants"));
  } else if (legal.some((t) => ["magnate.attract_tenants", "magnate.finish_attracting"].includes(type(t)))) {
    nodes = attracting(ctx, legal);
  } else {
    nodes = actions(ctx, legal);
  }
  if (ctx.seat !== null && legal.length) nodes.unshift(suggestionPanel(ctx, { describe: (c) => commandText(ctx, c) }));
  container.replaceChildren(...nodes);
  if (focusWasHere && legal.length) {
    const first = container.querySelector(["input", "select", "button"].map((c) => `form:not(.action-suggestion) ${c}`).join(", "));
    if (first) first.focus({ preventScroll: true });
  }
}
