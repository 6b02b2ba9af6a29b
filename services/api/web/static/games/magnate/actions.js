// What this seat may do now, built only from its legal commands (GET /me): bid or pass; attract tenants
// per building (advertising, dice to turn into 5s, subtype choice), each pre-filled with the engine's
// suggestion; buy land, build or rebuild, advertise, consult, sell (the sale value shown before confirming). The
// engine's advice comes first in every phase (shell/advice.js: its best move with why, the others on demand).
// An error from the API is shown in words next to the control that caused it.

import { diceRow } from "./dice.js";
import { actionForm } from "../../shell/actionform.js";
import { suggestionPanel } from "../../shell/advice.js";
import { h } from "../../shell/dom.js";
import { money, PHASES, SYSTEM_JOBS } from "./words.js";

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
    ? `Highest bid: ${money(a.high_bid)} by ${words.seat(a.high_bidder, view, players)}.` : "No bid yet.";
  let amount = null;
  const form = actionForm(ctx, "bid", (f) => {
    f.append(h("h3", {}, "Bid for first player"), h("p", {}, `${high} The highest bidder pays and plays first; passing leaves the auction.`));
    if (place) {
      const p = paramOf(place, "amount");
      const [label, field, input] = numberField(`Your bid (${money(p.minimum)} to ${money(p.maximum)}, steps of ${p.step}K)`,
        { min: p.minimum, max: p.maximum, step: p.step, value: place.command.amount, name: "amount", suffix: "K" });
      amount = { input, p };
      f.append(h("p", { class: "row" }, label, field));
    } else {
      f.append(h("p", {}, "You cannot afford a higher bid."));
    }
    f.append(h("p", { class: "buttons" },
      place ? h("button", { type: "submit", value: "bid", class: "primary" }, "Place bid") : null,
      pass ? h("button", { type: "submit", value: "pass" }, "Pass") : null));
  }, (submitter) => {
    if (submitter && submitter.value === "pass") return pass.command;
    const v = readInt(amount.input, amount.p);
    if (v === null) {
      form.querySelector(".error").textContent =
        `Enter a bid from ${money(amount.p.minimum)} to ${money(amount.p.maximum)} in steps of ${amount.p.step}K.`;
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
  const out = [h("h3", {}, "Attract tenants"),
    h("p", {}, "Attract to each of your buildings at most once this round, in any order; then collect rent.")];
  for (const t of templates.filter((x) => x.command.type === "magnate.attract_tenants")) {
    const p = plotOf(view, t.command.plot);
    const b = words.buildings[p.building];
    const ads = paramOf(t, "advertising");
    let input = null;
    const mod = p.modifier >= 0 ? `+${p.modifier}` : `−${Math.abs(p.modifier)}`;
    const form = actionForm(ctx, "attract", (f) => {
      f.setAttribute("data-plot", p.plot);
      f.append(h("h4", {}, `${b.name} on ${p.plot}`),
        h("p", {}, `${p.tenants.length}/${b.capacity} tenants (${words.tenants(p.tenants)}). Rolls ${p.dice} ${p.dice === 1 ? "die" : "dice"}, ${mod} on each.`));
      if (ads) {
        const [label, field, el] = numberField(`Advertising tokens to commit (0 to ${ads.maximum}; each can turn a die into a 5)`,
          { min: ads.minimum, max: ads.maximum, value: t.command.advertising || 0, name: "advertising" });
        input = el;
        f.append(h("p", { class: "row" }, label, field));
      }
      f.append(h("p", { class: "buttons" }, h("button", { type: "submit", class: "primary" }, `Attract tenants to ${p.plot}`)));
    }, () => {
      if (!input) return t.command;
      const v = readInt(input, { ...ads, step: 1 });
      if (v === null) {
        form.querySelector(".error").textContent = `Commit from 0 to ${ads.maximum} advertising tokens.`;
        return null;
      }
      return { ...t.command, advertising: v };
    });
    out.push(form);
  }
  const finish = templates.find((t) => t.command.type === "magnate.finish_attracting");
  if (finish) {
    const rent = view.plots.filter((p) => p.owner === ctx.seat).reduce((sum, p) => sum + words.rent(p.tenants), 0);
    out.push(actionForm(ctx, "finish", (f) => {
      f.append(h("p", { class: "buttons" }, h("button", { type: "submit" }, `Finish attracting and collect ${money(rent)} rent`)));
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
    preview.replaceChildren(diceRow(final, { caption: `Final dice (with ${modifier >= 0 ? "+" : "−"}${Math.abs(modifier)}):`, numbers: true }));
  };
  const form = actionForm(ctx, "use-advertising", (f) => {
    f.append(h("h3", {}, `Advertising on ${a.plot}`),
      h("p", {}, `You rolled these dice and committed ${a.advertising} advertising ${a.advertising === 1 ? "token" : "tokens"}: each can turn one die into a 5. The suggestion is checked.`),
      diceRow(a.faces, { caption: "Rolled:" }));
    const fs = h("fieldset", {}, h("legend", {}, `Dice to turn into 5s (at most ${param.max_count})`));
    a.faces.forEach((face, i) => {
      const boxId = id("die");
      const box = h("input", { type: "checkbox", id: boxId, value: String(i), checked: chosen.has(i) });
      box.addEventListener("change", update);
      boxes.push(box);
      fs.append(h("p", { class: "check" }, box, h("label", { for: boxId }, `Die ${i + 1} (shows ${face})`)));
    });
    f.append(fs, preview, h("p", { class: "buttons" }, h("button", { type: "submit", class: "primary" }, "Use advertising")));
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
    f.append(h("h3", {}, `Who moves into ${a.plot}`));
    if (a.final) f.append(diceRow(a.final, { caption: "Final dice:", numbers: true }));
    const fs = h("fieldset", {}, h("legend", {}, "Choose the tenants (the first is the engine's suggestion)"));
    templates.forEach((t, i) => {
      const rId = id("tenants");
      const kinds = t.command.tenants || [];
      const radio = h("input", { type: "radio", name, id: rId, value: String(i), checked: i === 0 });
      radios.push(radio);
      const text = kinds.length ? `${words.tenants(kinds)} — rent ${money(words.rent(kinds))}` : "Nobody";
      fs.append(h("p", { class: "check" }, radio, h("label", { for: rId }, `${text}${i === 0 ? " (suggested)" : ""}`)));
    });
    f.append(fs, h("p", { class: "buttons" }, h("button", { type: "submit", class: "primary" }, "Move them in")));
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
  const cost = (t) => (plotOf(view, t.command.plot).for_sale ? price : 2 * price);
  for (const t of templates) {
    const sale = plotOf(view, t.command.plot).for_sale;
    select.append(h("option", { value: t.command.plot },
      `${t.command.plot} — ${money(cost(t))}${sale ? " (for sale)" : " (next to your plot: 2× price)"}`));
  }
  const explain = () => {
    const t = templates.find((x) => x.command.plot === select.value);
    const sale = plotOf(view, t.command.plot).for_sale;
    note.textContent = sale ? `Price ${money(price)}: the land price.` : `Price ${money(2 * price)}: twice the land price, as the plot is not on the market.`;
  };
  select.addEventListener("change", explain);
  explain();
  return actionForm(ctx, "buy", (f) => {
    f.append(h("h4", {}, "Buy land"), h("p", { class: "row" }, h("label", { for: select.id }, "Plot"), select), note,
      h("p", { class: "buttons" }, h("button", { type: "submit" }, "Buy plot")));
  }, () => templates.find((x) => x.command.plot === select.value).command);
}

function build(ctx, templates) {
  const { view, words } = ctx;
  const select = h("select", { id: id("build"), name: "building" });
  const byPlot = new Map();
  templates.forEach((t, i) => {
    if (!byPlot.has(t.command.plot)) byPlot.set(t.command.plot, []);
    byPlot.get(t.command.plot).push([t, i]);
  });
  for (const [plot, options] of byPlot) {
    const p = plotOf(view, plot);
    const group = h("optgroup", { label: p.building ? `${plot} — rebuild the ${words.building(p.building)}` : `${plot} — empty plot` });
    for (const [t, i] of options) {
      const b = words.buildings[t.command.building];
      group.append(h("option", { value: String(i) },
        `${plot}: ${b.name} — ${money(b.cost)} (${b.capacity} ${words.typeName(b.tenant_type)})`));
    }
    select.append(group);
  }
  const note = h("p", { class: "price", "aria-live": "polite" });
  const button = h("button", { type: "submit" }, "Build");
  const explain = () => {
    const t = templates[Number(select.value)];
    const p = plotOf(view, t.command.plot);
    const b = words.buildings[t.command.building];
    const rebuild = Boolean(p.building);
    button.textContent = rebuild ? "Rebuild" : "Build";
    const keep = rebuild && words.buildings[p.building].tenant_type === b.tenant_type
      ? ` Tenants of the same type stay, up to ${b.capacity}.` : rebuild && p.tenants.length ? " The current tenants go back to the available area." : "";
    note.textContent = `Cost ${money(b.cost)}; room for ${b.capacity} ${words.typeName(b.tenant_type)} ${b.capacity === 1 ? "tenant" : "tenants"}${b.bonus ? `, +${b.bonus} on every attraction die` : ""}.${rebuild ? " Replaces the building (no refund)." : ""}${keep}`;
  };
  select.addEventListener("change", explain);
  explain();
  return actionForm(ctx, "build", (f) => {
    f.append(h("h4", {}, "Build or rebuild"), h("p", { class: "row" }, h("label", { for: select.id }, "Building"), select), note,
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
    note.textContent = `You take ${free} free tokens${n ? ` and buy ${n} for ${money(n * price)}` : ""}.`;
  };
  const form = actionForm(ctx, "advertise", (f) => {
    f.append(h("h4", {}, "Advertise"));
    if (param) {
      const [label, field, el] = numberField(`Tokens to buy as well (${money(price)} each, up to ${param.maximum})`,
        { min: param.minimum, max: param.maximum, value: template.command.bought || 0, name: "bought" });
      input = el;
      input.addEventListener("input", explain);
      f.append(h("p", { class: "row" }, label, field));
    }
    f.append(note, h("p", { class: "buttons" }, h("button", { type: "submit" }, "Advertise")));
  }, () => {
    if (!input) return template.command;
    const v = readInt(input, { ...param, step: 1 });
    if (v === null) {
      form.querySelector(".error").textContent = `Buy from 0 to ${param.maximum} tokens.`;
      return null;
    }
    return { ...template.command, bought: v };
  });
  explain();
  return form;
}

function consult(ctx, template) {
  return actionForm(ctx, "consult", (f) => {
    f.append(h("h4", {}, "Consult"), h("p", { class: "buttons" },
      h("button", { type: "submit" }, `Consult: receive ${money(ctx.view.market.land_price)}`)));
  }, () => template.command);
}

function sell(ctx, templates) {
  const { view, words } = ctx;
  const price = view.market.land_price;
  const select = h("select", { id: id("sell"), name: "plot" });
  const value = (plot) => plotOf(view, plot).value;
  for (const t of templates) {
    const p = plotOf(view, t.command.plot);
    select.append(h("option", { value: t.command.plot },
      `${p.plot}${p.building ? ` (${words.building(p.building)})` : " (land)"} — value ${value(p.plot)} × ${money(price)} = ${money(value(p.plot) * price)}`));
  }
  const confirmBox = h("div", { class: "confirm", hidden: true });
  const ask = h("button", { type: "button" }, "Sell…");
  let confirmed = false;
  const form = actionForm(ctx, "sell", (f) => {
    f.append(h("h4", {}, "Sell"), h("p", { class: "row" }, h("label", { for: select.id }, "Plot"), select),
      h("p", { class: "buttons" }, ask), confirmBox);
  }, () => (confirmed ? templates.find((t) => t.command.plot === select.value).command : null));
  ask.addEventListener("click", () => {
    const plot = select.value;
    const amount = value(plot) * price;
    const text = h("p", { class: "confirm-text" },
      `Sell ${plot} to the bank for ${money(amount)} (value ${value(plot)} × land price ${money(price)})? The building and tenants stay; you lose the plot and its rent.`);
    const yes = h("button", { type: "submit", class: "danger" }, `Confirm sale of ${plot} for ${money(amount)}`);
    const no = h("button", { type: "button" }, "Cancel");
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
  const out = [h("h3", {}, "Choose one action"),
    h("p", {}, "Three passes: each seat takes one action per pass.")];
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

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A command in words, as the advice panel says it. */
export function commandText(ctx, c) {
  const { view, words } = ctx;
  const price = view.market ? view.market.land_price : 0;
  const plot = c.plot ? plotOf(view, c.plot) : null;
  switch (c.type) {
    case "magnate.place_bid": return `Bid ${money(c.amount)} to play first`;
    case "magnate.pass_bid": return "Pass: leave the auction";
    case "magnate.attract_tenants":
      return `Attract tenants to ${c.plot}${c.advertising ? ` committing ${plural(c.advertising, "advertising token")}` : ""}`;
    case "magnate.use_advertising": {
      const dice = c.dice || [];
      return dice.length ? `Turn ${dice.map((i) => `die ${i + 1}`).join(" and ")} into 5s` : "Keep the dice as rolled";
    }
    case "magnate.choose_tenants": {
      const kinds = c.tenants || [];
      return kinds.length ? `Move in ${words.tenants(kinds)} (rent ${money(words.rent(kinds))})` : "Move nobody in";
    }
    case "magnate.finish_attracting": return "Finish attracting and collect the rent";
    case "magnate.buy_land":
      return `Buy plot ${c.plot} for ${money(plot && plot.for_sale ? price : 2 * price)}`;
    case "magnate.build": {
      const b = words.buildings[c.building];
      const name = b ? b.name : c.building;
      return `${plot && plot.building ? "Rebuild" : "Build"} a ${name} on ${c.plot}${b ? ` for ${money(b.cost)}` : ""}`;
    }
    case "magnate.advertise":
      return `Advertise: take the free tokens${c.bought ? ` and buy ${c.bought} more` : ""}`;
    case "magnate.consult": return `Consult: receive ${money(price)}`;
    case "magnate.sell": return `Sell ${c.plot} to the bank for ${money((plot ? plot.value : 0) * price)}`;
    default: return c.type;
  }
}

// -- waiting ---------------------------------------------------------------------------------------------

export function waitingText(view, words, players, seat) {
  if (view.phase === "ended") return "The game is over.";
  const job = view.system_job ? SYSTEM_JOBS[view.system_job] || view.system_job : null;
  const who = view.on_turn.filter((s) => s !== seat).map((s) => words.seat(s, view, players));
  if (job === SYSTEM_JOBS["magnate.ai_turn"]) {
    const ai = view.seats.find((s) => s.kind === "ai");
    return `Waiting: ${ai ? words.seat(ai.seat, view, players) : "the AI"} is thinking…`;
  }
  if (job) return `Waiting: ${job}…`;
  if (who.length) return `Waiting for ${who.join(", ")}.`;
  return `Waiting… (${PHASES[view.phase] || view.phase})`;
}

/** Draws the seat's possible moves; ``ctx`` = {view, legal, seat, words, players, send(command)}. */
export function renderActions(container, ctx) {
  const { view, legal } = ctx;
  const focusWasHere = container.contains(document.activeElement) || document.activeElement === document.body;
  let nodes = [];
  const type = (t) => t.command.type;
  if (ctx.seat === null) {
    nodes = [h("p", { class: "waiting" }, "You are watching this game. Open your invite link to play a seat.")];
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
