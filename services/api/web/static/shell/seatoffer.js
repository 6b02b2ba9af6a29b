// The seat offer of the game page (play.js), for a seat played by its invite link: a signed-in player may claim it
// (POST /claim: the session plays it from then on); a guest may sign in to keep it; either may give it up
// (POST /release: the link stops working and the seat is free for someone else) — never the creator's seat.

import { signInHref } from "./account.js";
import { api, inWords } from "./api.js";
import { h } from "./dom.js";
import { t, within } from "./i18n.js";
import { seats } from "./seats.js";

const $ = (sel) => document.querySelector(sel);

/** Shows ``children`` as the offer (none: hides it). */
export function offer(...children) {
  $("#seat-offer-body").replaceChildren(...children);
  $("#seat-offer").hidden = children.length === 0;
}

/** The link is dead now: forget it, take it out of the address bar and show the page again (as the session's seat,
 * or watching). */
function reloadWithout(token) {
  seats.forgetToken(token);
  history.replaceState(null, "", location.pathname + location.search);
  location.reload();
}

/** A button that runs ``act`` and reloads without the link's token, or says why it failed. */
function acting(button, said, token, act) {
  button.addEventListener("click", async () => {
    button.disabled = true;
    said.textContent = "";
    try {
      await act();
    } catch (err) {
      said.textContent = inWords(err);
      button.disabled = false;
      return;
    }
    reloadWithout(token);
  });
}

/** A signed-in player holding a guest's seat token ({gameId, token, seat, hostSeat}): "Claim this seat for <name>". */
export function offerClaim(held, player) {
  const who = player.name || player.email;
  const button = h("button", { type: "button", id: "claim-button", class: "primary" }, t("Claim this seat for {name}", { name: who }));
  const said = h("p", { id: "claim-status", class: "error", role: "alert" });
  acting(button, said, held.token, () => api.claim(held.gameId, held.token));
  offer(h("p", {}, t("You are playing seat {seat} with its invite link. Claim it to keep it in your account: play it "
    + "from any device you sign in on, and be told when it is your turn. The link then stops working for anyone else.",
  { seat: held.seat + 1 })), h("div", { class: "buttons" }, button), said, ...releaseControl(held));
}

/** A guest: "Sign in to keep this seat", or give it up. */
export function offerSignIn(held) {
  const link = h("a", { href: signInHref(location.pathname), id: "sign-in-to-keep" }, t("Sign in to keep this seat"));
  offer(h("p", {}, ...within(t("You are playing as a guest with this seat's link (this browser keeps it). {link} in an "
    + "account: play it from any device, and be told when it is your turn."), { link })), ...releaseControl(held));
}

/** "Give up this seat": the link stops working and the seat is free for someone else (not the creator's seat). */
function releaseControl(held) {
  if (held.seat === held.hostSeat) return [];
  const button = h("button", { type: "button", id: "release-button" }, t("Give up this seat"));
  const said = h("p", { id: "release-status", class: "error", role: "alert" });
  acting(button, said, held.token, () => api.release(held.gameId, held.token));
  return [h("p", {}, t("Not playing after all? Give seat {seat} up: your link stops working, and someone else may "
    + "take the seat.", { seat: held.seat + 1 })), h("div", { class: "buttons" }, button), said];
}
