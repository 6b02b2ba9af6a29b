// The private notes panel of a game page (issue #29): the signed-in player's own note on a game they hold a seat in
// (GET/PUT /api/games/{id}/notes). Only its author ever reads it; the panel shows itself only when the server
// answers the note (a signed-out visitor, a guest without an account and a spectator see nothing of it). The text is
// put in as text, never as HTML.

import { ApiError, cookie, inWords } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const MAX = 10000;

async function call(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const csrf = cookie("csrftoken");
  if (csrf && method !== "GET") headers["X-CSRFToken"] = csrf;
  const response = await fetch(path, { method, headers, credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (err) {
    data = { message: text };
  }
  if (!response.ok) throw new ApiError(response.status, data, response.headers.get("Retry-After"));
  return data;
}

/** Mount the panel in ``where`` once the server says the signed-in player keeps notes on ``gameId``. */
export async function mountNotes(where, gameId) {
  const path = `/api/games/${encodeURIComponent(gameId)}/notes`;
  let note;
  try {
    note = await call("GET", path);
  } catch (err) {
    return null; // signed out, or no seat of this player's here: no panel
  }
  const box = h("textarea", { id: "notes-text", rows: "5", maxlength: String(MAX), "aria-describedby": "notes-hint" });
  box.value = note.text;
  const said = h("p", { id: "notes-status", class: "form-status", role: "status" });
  const form = h("form", { id: "notes-form", class: "notes-form" },
    h("label", { for: "notes-text" }, t("Your notes on this game")), box,
    h("p", { id: "notes-hint", class: "hint" }, t("Only you see these notes: not the other players, not the game's history or its export.")),
    h("div", { class: "submit-row" }, h("button", { type: "submit", id: "notes-save" }, t("Save notes")), said));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    said.className = "form-status";
    try {
      const saved = await call("PUT", path, { text: box.value });
      box.value = saved.text;
      said.textContent = t("Saved.");
    } catch (err) {
      said.className = "form-status error";
      said.textContent = inWords(err);
    }
  });
  const panel = h("section", { id: "notes", class: "panel notes", "aria-labelledby": "notes-title" },
    h("h2", { id: "notes-title" }, t("Private notes")), form);
  where.append(panel);
  return panel;
}
