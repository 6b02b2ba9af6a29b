// The invites a game's host hands out: one link per other person's seat, to copy and pass on, and "Revoke" / "New
// link" while nobody has claimed the seat (DELETE / POST /api/games/{id}/seats/{seat}/invite, as the host: its seat's
// token, or the session of the player who claimed the host's seat). Used by the lobby (right after creating a
// game) and by the game page (the host's "Invites" panel).

import { api, inWords } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

export function copyButton(seat, inputId, url) {
  const copy = h("button", { type: "button" }, t("Copy link for seat {seat}", { seat: seat + 1 }));
  const copied = h("span", { class: "copied", role: "status" });
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url());
      copied.textContent = t("Copied.");
    } catch (err) {
      document.getElementById(inputId).select();
      copied.textContent = t("Select the link and copy it.");
    }
  });
  return [copy, copied];
}

/** An invite the host passes on: the link to copy, and "Revoke" / "New link" (as the host: ``hostToken``, or the
 * session when null). Shared with the game page. */
export function inviteItem({ gameId, seat, label, inviteUrl, hostToken,
  placeholder = t("the link you handed out is not kept here: “New link” replaces it") }) {
  const inputId = `invite-${seat}`;
  let current = inviteUrl;
  const input = h("input", { id: inputId, type: "text", readonly: true, value: current || "", class: "invite-url",
    placeholder });
  const [copy, copied] = copyButton(seat, inputId, () => current);
  const revoke = h("button", { type: "button", class: "revoke" }, t("Revoke link for seat {seat}", { seat: seat + 1 }));
  const renew = h("button", { type: "button", class: "renew" }, t("New link for seat {seat}", { seat: seat + 1 }));
  const said = h("span", { class: "invite-status", role: "status" });
  let revoked = false;
  const paint = () => {
    input.value = current || "";
    copy.disabled = !current;
    revoke.disabled = revoked;
  };
  revoke.addEventListener("click", async () => {
    said.className = "invite-status";
    try {
      await api.revokeInvite(gameId, seat, hostToken);
      current = null;
      revoked = true;
      input.placeholder = t("revoked: “New link” issues another");
      said.textContent = t("Revoked: the old link no longer opens the seat.");
    } catch (err) {
      said.className = "invite-status error";
      said.textContent = inWords(err);
    }
    paint();
  });
  renew.addEventListener("click", async () => {
    said.className = "invite-status";
    try {
      const made = await api.newInvite(gameId, seat, hostToken);
      current = made.invite_url;
      revoked = false;
      said.textContent = t("A new link: the old one no longer opens the seat.");
    } catch (err) {
      said.className = "invite-status error";
      said.textContent = inWords(err);
    }
    paint();
  });
  paint();
  return h("li", { class: "invite", "data-seat": String(seat) },
    h("strong", {}, t("Seat {seat}: {name}", { seat: seat + 1, name: label })),
    h("label", { for: inputId, class: "visually-hidden" }, t("Invite link for seat {seat}", { seat: seat + 1 })),
    input,
    h("span", { class: "buttons" }, copy, revoke, renew, copied, said));
}
