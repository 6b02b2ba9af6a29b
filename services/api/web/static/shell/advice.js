// The engine's advice in a game's move panel (GET /api/games/{id}/advice): its best option in words with why, played
// in one click ("Play the suggestion"), and the ranked alternatives on demand. Every game's bundle puts the panel at
// the top of its moves (suggestionPanel), in every phase; it shows nothing when the engine has nothing to suggest.
// Asked once per version of the game (the server shares one computation among every page of the seat). Shown when
// the player has not turned suggestions off for this kind of game (a switch kept in this browser), else only when
// asked ("Suggest a move").

import { actionForm } from "./actionform.js";
import { api, inWords } from "./api.js";
import { h } from "./dom.js";
import { t, tn, within } from "./i18n.js";

const page = { gameId: null, gameType: null, token: () => null, version: () => -1 };
/** version -> the advice's promise (only the current version's is kept). */
const fetched = new Map();
/** The version the player asked a suggestion for while suggestions are off. */
let askedAt = -1;
let uid = 0;

/** The game page says which game and seat it shows: ``{gameId, gameType, token() (the guest's token or null: the
 * session's seat), version() (the version the page shows)}``. */
export function configureAdvice(options) {
  Object.assign(page, options);
  const href = new URL("./advice.css", import.meta.url).href;
  if (![...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.href === href)) {
    document.head.append(h("link", { rel: "stylesheet", href }));
  }
}

const KEY = (type) => `advice:${type}`;

/** Whether suggestions show by themselves for this kind of game (the default), or only when asked. */
export function adviceOn(type = page.gameType) {
  try {
    return localStorage.getItem(KEY(type)) !== "off";
  } catch (err) {
    return true;
  }
}

function setAdviceOn(type, on) {
  try {
    if (on) localStorage.removeItem(KEY(type));
    else localStorage.setItem(KEY(type), "off");
  } catch (err) { /* private browsing: the switch lasts this page */ }
}

/** The advice for ``version``: asked once, shared by every panel drawn at that version. */
function adviceAt(version) {
  let promise = fetched.get(version);
  if (!promise) {
    fetched.clear();
    promise = api.advice(page.gameId, page.token());
    promise.catch(() => { if (fetched.get(version) === promise) fetched.delete(version); }); // asked again later
    fetched.set(version, promise);
  }
  return promise;
}

/** The suggestion panel of a move panel: a form that plays an advised option. ``ctx.send`` submits; ``describe
 * (command)`` says a command in the game's words; ``playLabel(command)`` optionally names the main button. */
export function suggestionPanel(ctx, { describe, playLabel = () => t("Play the suggestion") }) {
  let options = [];
  const body = h("div", { class: "advice-body" });
  const toggleId = `advice-toggle-${++uid}`;
  const toggle = h("input", { type: "checkbox", id: toggleId, class: "advice-toggle", checked: adviceOn() ? true : null });
  const version = page.version();

  const show = (advice) => {
    options = advice.options || [];
    if (!options.length) {
      form.hidden = true; // nothing to decide, or nothing to suggest
      return;
    }
    form.hidden = false;
    const [best, ...rest] = options;
    const nodes = [
      h("p", { class: "suggestion-text" }, ...within(t("{suggested} {move}."), {
        suggested: h("span", { class: "suggestion-mark" }, t("Suggested:")), move: describe(best.command) })),
      h("p", { class: "suggestion-why", id: "suggestion-why" }, best.why.text),
      h("p", { class: "buttons" }, h("button", { type: "submit", class: "primary", id: "play-suggestion", value: "0" },
        playLabel(best.command))),
    ];
    if (rest.length) {
      nodes.push(h("details", { class: "advice-more", id: "advice-more" },
        h("summary", {}, tn("Other options ({n}), best first", "Other options ({n}), best first", rest.length)),
        h("ol", { class: "advice-options" }, ...rest.map((o, i) => h("li", {},
          h("span", { class: "advice-option" }, describe(o.command)), " ",
          h("span", { class: "advice-why" }, t("— {why}", { why: o.why.text })), " ",
          h("button", { type: "submit", class: "small", value: String(i + 1) }, t("Play this")))))));
    }
    body.replaceChildren(...nodes);
  };

  const ask = () => {
    form.hidden = false;
    body.replaceChildren(h("p", { class: "suggestion-text advice-wait", "aria-busy": "true" }, t("The engine is thinking…")));
    adviceAt(version).then(show, (err) => {
      body.replaceChildren(h("p", { class: "advice-failed" }, t("No suggestion now: {reason}", { reason: inWords(err) })));
    });
  };

  const offer = () => {
    form.hidden = false;
    const button = h("button", { type: "button", id: "ask-suggestion" }, t("Suggest a move"));
    button.addEventListener("click", () => { askedAt = version; ask(); });
    body.replaceChildren(h("p", { class: "buttons" }, button));
  };

  const form = actionForm(ctx, "suggestion", (f) => {
    f.append(body, h("p", { class: "advice-switch check" }, toggle,
      h("label", { for: toggleId }, t("Suggest my moves in this game"))));
  }, (submitter) => {
    const chosen = options[Number(submitter && submitter.value ? submitter.value : 0)];
    return chosen ? chosen.command : null;
  });
  toggle.addEventListener("change", () => {
    setAdviceOn(page.gameType, toggle.checked);
    if (toggle.checked) ask();
    else offer();
  });
  if (adviceOn() || askedAt === version) ask();
  else offer();
  return form;
}
