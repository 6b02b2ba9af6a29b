// Decktet Magnate's part of the lobby's "New game" form: every variant of the spec's §2.10 as a checkbox with a
// line saying what it does (the combinations the rules do not allow are switched off, with the reason), and a
// row per seat: a person (with the shell's name field) or the computer at a level. By default one plays alone
// against the computer (medium). read() sends only what differs from the server's defaults.

import { h } from "../../shell/dom.js";
import { levelName } from "./label.js";
import { t } from "./words.js";

/** The variants, in the spec's order: [option, label, what it does, default]. */
const VARIANTS = [
  ["courts", t("Courts"), t("The four Courts join the deck: they cost 10, never pay income and are worth 10."), true],
  ["mega", t("Mega-Magnate"), t("Two Decktets: nine districts, six-card hands, two card plays and two draws a turn."), false],
  ["taxtax", t("Double taxation"), t("A tax roll throws two tax dice: both suits are taxed (on by default with Mega)."), false],
  ["three", t("Three players"), t("Three players around a Y of seven districts (provisional rules, two Decktets' components)."), false],
  ["originalAces", t("Original Aces"), t("An Ace costs one token and is worth 1, without the suit bonus."), false],
  ["deucey", t("Acey deucey"), t("An Ace counts the matching cards of the whole district: both sides and the district card."), false],
  ["courtpawns", t("Courts for Pawns"), t("The Courts are the districts and the Pawns join the deck as Courts do."), false],
  ["stacked", t("Stacked deck"), t("Each player draws from a deck of their own until the reshuffle."), false],
];

const LEVEL_WORDS = { easy: t("easy (rules of thumb)"), medium: levelName("medium"), hard: t("hard (thinks longest)") };

/** Draws the form into ``container``; returns {read() -> options, seats() -> [{kind}]}. */
export function optionsForm(container, entry, env) {
  const levels = entry.ai_levels && entry.ai_levels.length ? entry.ai_levels : ["medium"];
  const boxes = {};
  const notes = {};
  let taxtaxTouched = false;

  const variantRows = VARIANTS.map(([key, label, text, on]) => {
    const box = h("input", { type: "checkbox", id: `variant-${key}`, name: key, checked: on ? true : null,
      "aria-describedby": `variant-${key}-text` });
    boxes[key] = box;
    notes[key] = h("span", { class: "variant-note", id: `variant-${key}-note` });
    return h("li", { class: "variant check", "data-variant": key }, box,
      h("span", {}, h("label", { for: box.id }, label),
        h("span", { class: "hint variant-text", id: `variant-${key}-text` }, " — ", text), " ", notes[key]));
  });

  const seatList = h("ol", { id: "seat-list", class: "seat-list" });
  container.append(
    h("fieldset", { class: "decktet-seats" }, h("legend", {}, t("Players")), seatList,
      h("p", { class: "hint" }, t("Each person gets their own invite link; the computer needs none."))),
    h("fieldset", { class: "decktet-variants" }, h("legend", {}, t("Variants")), h("ul", { class: "variants" }, ...variantRows)));

  const rows = () => [...seatList.querySelectorAll(".seat-row")];

  function seatRow(i, kind, level) {
    const kindId = `seat-${i}-kind`;
    const levelId = `seat-${i}-level`;
    const select = h("select", { id: kindId, name: kindId, class: "seat-kind" },
      h("option", { value: "human" }, t("A person")), h("option", { value: "ai" }, t("The computer")));
    select.value = kind;
    const levelSelect = h("select", { id: levelId, name: levelId, class: "seat-level" },
      ...levels.map((l) => h("option", { value: l }, LEVEL_WORDS[l] || l)));
    levelSelect.value = levels.includes(level) ? level : levels[Math.floor(levels.length / 2)];
    const levelBox = h("span", { class: "seat-level-box" }, h("label", { for: levelId }, t("at level")), " ", levelSelect);
    const name = h("span", { class: "seat-name-box" }, env.nameField(i)); // hidden for the computer (not the shell's own field)
    const row = h("li", { class: "seat-row", "data-seat": String(i) },
      h("span", { class: "seat-number" }, t("Seat {number}", { number: i + 1 })),
      h("label", { for: kindId, class: "visually-hidden" }, t("Seat {number} is played by", { number: i + 1 })),
      select, levelBox, name);
    const sync = () => {
      levelBox.hidden = select.value !== "ai";
      name.hidden = select.value === "ai";
    };
    select.addEventListener("change", sync);
    sync();
    return row;
  }

  function drawSeats() {
    const n = boxes.three.checked ? 3 : 2;
    const old = rows().map((r) => [r.querySelector(".seat-kind").value, r.querySelector(".seat-level").value]);
    const fallback = (i) => (i === 0 ? ["human", "medium"] : ["ai", "medium"]);
    seatList.replaceChildren(...Array.from({ length: n }, (_, i) => seatRow(i, ...(old[i] || fallback(i)))));
  }

  /** Switches off (and says why) what the other choices do not allow. */
  function sync() {
    if (!taxtaxTouched) boxes.taxtax.checked = boxes.mega.checked;
    const stackedWhy = !boxes.mega.checked ? t("Needs Mega-Magnate.") : boxes.three.checked ? t("Only for two players.") : "";
    const pawnsWhy = boxes.courts.checked ? "" : t("Needs Courts.");
    for (const [key, why] of [["stacked", stackedWhy], ["courtpawns", pawnsWhy]]) {
      boxes[key].disabled = Boolean(why);
      if (why) boxes[key].checked = false;
      notes[key].textContent = why;
    }
    notes.taxtax.textContent = taxtaxTouched ? "" : t("(follows Mega until you change it)");
    notes.taxtax.classList.add("follows");
    if (rows().length !== (boxes.three.checked ? 3 : 2)) drawSeats();
  }

  boxes.taxtax.addEventListener("change", () => { taxtaxTouched = true; sync(); });
  for (const key of ["courts", "mega", "three"]) boxes[key].addEventListener("change", sync);
  drawSeats();
  sync();

  const seatSpecs = () => rows().map((r) => {
    const kind = r.querySelector(".seat-kind").value;
    return kind === "ai" ? { kind, level: r.querySelector(".seat-level").value } : { kind };
  });

  return {
    seats: () => seatSpecs().map(({ kind }) => ({ kind })),
    read() {
      const options = {};
      for (const [key, , , on] of VARIANTS) {
        if (key === "taxtax") continue;
        if (boxes[key].checked !== on) options[key] = boxes[key].checked;
      }
      if (boxes.taxtax.checked !== boxes.mega.checked) options.taxtax = boxes.taxtax.checked; // D3: it follows mega
      const specs = seatSpecs();
      if (specs.some((s) => s.kind === "ai")) options.seats = specs;
      return options;
    },
  };
}
