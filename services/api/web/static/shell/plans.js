// The planned moves panel of a game page (issue #29): the seat's own standing instructions ("pass on the auction
// this round"), which the server plays for the seat at its turn, even with the page closed (GET/PUT/DELETE
// /api/games/{id}/plans). The game says which plans it offers now, in words, with the fields the seat fills in; the
// panel names no game. Only the seat's holder reads them: the panel is mounted for a seat only, and shows itself only
// when the server answers (a game that offers no plans shows nothing). A move the seat makes itself clears its plans;
// while it holds plans, the panel reads them again when the game moves (they may have been played, or expired).

import { api, inWords } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

function fieldInput(kind, field) {
  const id = `plan-${kind}-${field.name}`.replace(/[^A-Za-z0-9_-]/g, "-");
  if (field.type === "bool") {
    const box = h("input", { type: "checkbox", id, name: field.name });
    box.checked = Boolean(field.default);
    return { node: h("label", { class: "plan-field", for: id }, box, " ", field.label), read: () => box.checked };
  }
  const input = h("input", { type: "number", id, name: field.name, min: String(field.minimum),
    max: String(field.maximum), step: String(field.step), value: String(field.default), required: "" });
  return { node: h("label", { class: "plan-field", for: id }, field.label, " ", input),
    read: () => Number(input.value) };
}

/** Mount the panel in ``where`` for the seat ``token()`` plays (null: the signed-in player's seat). Returns an
 * object whose ``heard()`` the page calls when the game moves; null when the game offers no plans to this seat. */
export async function mountPlans(where, { gameId, token }) {
  let shown;
  try {
    shown = await api.plans(gameId, token());
  } catch (err) {
    return null; // no seat of the caller's here, or a game without plans: no panel
  }
  const list = h("ul", { id: "plans-list", class: "plans-list" });
  const none = h("p", { id: "plans-none", class: "hint" }, t("No planned moves."));
  const offers = h("div", { id: "plans-offers" });
  const said = h("p", { id: "plans-status", class: "form-status", role: "status" });
  const panel = h("section", { id: "plans", class: "panel plans", "aria-labelledby": "plans-title" },
    h("h2", { id: "plans-title" }, t("Planned moves")),
    h("p", { class: "hint" }, t("The server plays these for you when your turn comes, even with this page closed. "
      + "Only you see them; a move you make yourself clears them.")),
    list, none, offers, said);

  const act = async (call, done) => {
    said.className = "form-status";
    said.textContent = "";
    try {
      draw(await call());
      said.textContent = done;
    } catch (err) {
      said.className = "form-status error";
      said.textContent = inWords(err);
    }
  };

  function draw(answer) {
    shown = answer;
    list.replaceChildren(...answer.plans.map((plan) => {
      const clear = h("button", { type: "button", class: "plan-clear" }, t("Clear"));
      clear.addEventListener("click", () => act(() => api.clearPlans(gameId, plan.kind, token()), t("Cleared.")));
      return h("li", { "data-kind": plan.kind, class: "plan" }, h("span", { class: "plan-text" }, plan.text), " ", clear);
    }));
    none.hidden = answer.plans.length > 0;
    offers.replaceChildren(...answer.offered.map((offer) => {
      const inputs = offer.fields.map((field) => ({ field, ...fieldInput(offer.kind, field) }));
      const form = h("form", { class: "plan-offer", "data-kind": offer.kind },
        h("fieldset", {}, h("legend", {}, offer.title), ...inputs.map((i) => i.node),
          h("button", { type: "submit", class: "plan-set" }, t("Plan it"))));
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        const plan = { type: offer.kind };
        for (const input of inputs) plan[input.field.name] = input.read();
        act(() => api.setPlan(gameId, plan, token()), t("Planned."));
      });
      return form;
    }));
    panel.hidden = answer.plans.length === 0 && answer.offered.length === 0;
  }

  draw(shown);
  where.append(panel);
  let reading = false;
  return {
    /** The game moved: a plan held may have been played or have expired; read them again (only while holding). */
    heard() {
      if (!shown.plans.length || reading) return;
      reading = true;
      api.plans(gameId, token()).then(draw, () => {}).finally(() => { reading = false; });
    },
  };
}
