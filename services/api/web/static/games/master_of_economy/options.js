// Master of Economy's part of the lobby's "New game" form: the number of players (2-4), a row per seat (a person,
// with the shell's name field, or the computer at a level: ``seats: [{kind, level}]`` in the options, as Decktet
// Magnate's form sends them), and every option of GameOptions with a line saying what it does: the additional
// corporation (2-3 players), 2 vs. 2 (four), the start order, the assignment, hidden cash, the commodity supply and
// whether the AC can end the game. read() sends only what differs from the server's defaults, and the player count
// always. By default one person plays against two computers (shrewd) with the additional corporation.

import { h } from "../../shell/dom.js";
import { t, tn } from "./words.js";

/** The checkbox options: [option, label, what it does, default on the server, default in this form]. */
const CHECKS = [
  ["additional_corporation", t("Additional corporation (2-3 players)"),
    t("An automated corporation joins the market; each player bets on it with sealed tokens every trade phase."), false, true],
  ["teams", t("2 vs. 2 (4 players)"), t("Seats 1 and 2 play against seats 3 and 4; a team's results are added up."), false, false],
  ["player_cash_hidden", t("Hidden player cash"), t("Each player sees only their own cash; payments stay public."), false, false],
  ["finite_commodity_supply", t("Limited commodity supply"),
    t("The commodity cubes are a hard limit: production and imports stop when they run out."), true, true],
  ["ac_triggers_end", t("The additional corporation can end the game"),
    t("Its points reaching the end threshold end the game, like any corporation's."), true, true],
];

const CHOICES = [
  ["assignment", t("Corporations"), [["pick", t("picked by the players in seat order")], ["random", t("dealt at random")]]],
  ["start_order", t("First action order"), [["random", t("drawn at random")],
    ["auction", t("a sealed auction (each bid is subtracted from its player's final result)")]]],
];

const LEVEL_WORDS = { basic: t("basic (rules of thumb)"), shrewd: t("shrewd (reads the market)") };

/** Draws the form into ``container``; returns {read(), seats()}. */
export function optionsForm(container, entry, env) {
  const levels = entry.ai_levels && entry.ai_levels.length ? entry.ai_levels : ["shrewd"];
  const strongest = levels[levels.length - 1];
  const count = h("select", { id: "seat-count", name: "seat-count" },
    ...[2, 3, 4].map((n) => h("option", { value: String(n) }, tn("{n} player", "{n} players", n, { n }))));
  count.value = "3";
  const seatList = h("ol", { id: "seat-list", class: "seat-list" });
  const boxes = {};
  const notes = {};
  const checkRows = CHECKS.map(([key, label, text, , on]) => {
    const box = h("input", { type: "checkbox", id: `moe-${key}`, name: key, checked: on ? true : null,
      "aria-describedby": `moe-${key}-text` });
    boxes[key] = box;
    notes[key] = h("span", { class: "variant-note", id: `moe-${key}-note` });
    return h("li", { class: "variant check", "data-option": key }, box,
      h("span", {}, h("label", { for: box.id }, label),
        h("span", { class: "hint variant-text", id: `moe-${key}-text` }, ` — ${text}`), " ", notes[key]));
  });
  const selects = {};
  const choiceRows = CHOICES.map(([key, label, values]) => {
    const select = h("select", { id: `moe-${key}`, name: key },
      ...values.map(([v, text]) => h("option", { value: v }, text)));
    selects[key] = select;
    return h("p", { class: "option-choice" }, h("label", { for: select.id }, label), " ", select);
  });
  container.append(
    h("fieldset", { class: "moe-seats" }, h("legend", {}, t("Players")),
      h("p", {}, h("label", { for: "seat-count" }, t("Number of players")), " ", count), seatList,
      h("p", { class: "hint" }, t("Each person gets their own invite link; the computer needs none and explains each of its moves in the log. Basic runs its corporation by rules of thumb; shrewd also reads the foreign demand left on the market board, the phases left and what a packet of shares will bring."))),
    h("fieldset", { class: "moe-options" }, h("legend", {}, t("Options")), ...choiceRows,
      h("ul", { class: "variants" }, ...checkRows)));

  const rows = () => [...seatList.querySelectorAll(".seat-row")];

  function seatRow(i, kind, level) {
    const kindId = `seat-${i}-kind`;
    const levelId = `seat-${i}-level`;
    const select = h("select", { id: kindId, name: kindId, class: "seat-kind" },
      h("option", { value: "human" }, t("A person")), h("option", { value: "ai" }, t("The computer")));
    select.value = kind;
    const levelSelect = h("select", { id: levelId, name: levelId, class: "seat-level" },
      ...levels.map((l) => h("option", { value: l }, LEVEL_WORDS[l] || l)));
    levelSelect.value = levels.includes(level) ? level : strongest;
    const levelBox = h("span", { class: "seat-level-box" }, h("label", { for: levelId }, t("at level")), " ", levelSelect);
    const name = h("span", { class: "seat-name-box" }, env.nameField(i));
    const sync = () => {
      levelBox.hidden = select.value !== "ai";
      name.hidden = select.value === "ai";
    };
    select.addEventListener("change", sync);
    sync();
    return h("li", { class: "seat-row", "data-seat": String(i) },
      h("span", { class: "seat-number" }, t("Seat {number}", { number: i + 1 })),
      h("label", { for: kindId, class: "visually-hidden" }, t("Seat {number} is played by", { number: i + 1 })), select,
      levelBox, name);
  }

  function drawSeats() {
    const n = Number(count.value);
    const old = rows().map((r) => [r.querySelector(".seat-kind").value, r.querySelector(".seat-level").value]);
    const fallback = (i) => (i === 0 ? ["human", strongest] : ["ai", strongest]);
    seatList.replaceChildren(...Array.from({ length: n }, (_, i) => seatRow(i, ...(old[i] || fallback(i)))));
  }

  /** Switches off (and says why) what the player count does not allow. */
  function sync() {
    const n = Number(count.value);
    for (const [key, why] of [["additional_corporation", n === 4 ? t("Only for 2 or 3 players.") : ""],
      ["teams", n !== 4 ? t("Only for 4 players.") : ""]]) {
      boxes[key].disabled = Boolean(why);
      if (why) boxes[key].checked = false;
      notes[key].textContent = why;
    }
    boxes.ac_triggers_end.disabled = !boxes.additional_corporation.checked;
    if (rows().length !== n) drawSeats();
  }

  count.addEventListener("change", sync);
  boxes.additional_corporation.addEventListener("change", sync);
  drawSeats();
  sync();

  const seatSpecs = () => rows().map((r) => {
    const kind = r.querySelector(".seat-kind").value;
    return kind === "ai" ? { kind, level: r.querySelector(".seat-level").value } : { kind };
  });
  return {
    seats: () => seatSpecs().map(({ kind }) => ({ kind })),
    read() {
      const options = { players: Number(count.value) };
      for (const [key, , , serverDefault] of CHECKS) {
        if (boxes[key].checked !== serverDefault && !(key === "ac_triggers_end" && boxes[key].disabled)) {
          options[key] = boxes[key].checked;
        }
      }
      if (selects.assignment.value !== "pick") options.assignment = selects.assignment.value;
      if (selects.start_order.value !== "random") options.start_order = selects.start_order.value;
      const specs = seatSpecs();
      if (specs.some((s) => s.kind === "ai")) options.seats = specs;
      return options;
    },
  };
}
