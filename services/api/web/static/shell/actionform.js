// A game's move form: it sends one command on submit and tells a refused one in words beside its controls.
// Shared by the games' bundles (their action panels), so every game's moves behave alike: the controls are
// disabled while the command is on its way, and given back (the first focused) when the server refuses it.

import { inWords } from "./api.js";
import { h } from "./dom.js";

/** A form named ``name``: ``build(form)`` fills it; on submit ``command(submitter, error)`` gives the command to
 * send (or nothing, having said why in ``error``), which ``ctx.send`` submits. */
export function actionForm(ctx, name, build, command) {
  const form = h("form", { class: `action action-${name}`, "data-action": name, novalidate: true });
  const error = h("p", { class: "error", role: "alert" });
  build(form);
  form.append(error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const cmd = command(e.submitter, error);
    if (!cmd) return;
    error.textContent = "";
    const controls = [...form.querySelectorAll("button, select, input")];
    controls.forEach((c) => { c.disabled = true; });
    form.setAttribute("aria-busy", "true");
    try {
      await ctx.send(cmd);
    } catch (err) {
      error.textContent = inWords(err);
      controls.forEach((c) => { c.disabled = false; });
      form.removeAttribute("aria-busy");
      const first = form.querySelector("select, input, button");
      if (first) first.focus();
    }
  });
  return form;
}
