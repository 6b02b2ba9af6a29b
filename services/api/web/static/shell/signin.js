// The sign-in page (/signin): an email form that mails a one-time link (POST /api/auth/link), and, when the page is
// opened from that link (/signin#token=...), a button that signs in with it (POST /api/auth/session). The token is
// never sent on load: a mail scanner that opens links by itself signs nobody in and uses up nothing. Once signed
// in, the page goes where the player was going (``next``: the invite they were about to claim, say).

import { api, inWords } from "./api.js";
import { mountAccount } from "./account.js";
import { t, tn, within } from "./i18n.js";
import "./language.js";

const $ = (sel) => document.querySelector(sel);

/** A path on this server to go to after signing in (never another site). */
function safeNext(value) {
  return value && value.startsWith("/") && !value.startsWith("//") && !value.includes("\\") ? value : "/";
}

const next = safeNext(new URLSearchParams(location.search).get("next"));

function done(player, where) {
  $("#redeem").hidden = true;
  $("#ask").hidden = true;
  $("#signed-in").hidden = false;
  $("#signed-in-text").textContent = t("Signed in as {name} ({email}).", { name: player.name || player.email, email: player.email });
  const link = $("#continue-link");
  link.href = where;
  link.focus();
}

let pending = null; // the token the button signs in with

function redeem(token) {
  pending = token;
  $("#redeem").hidden = false;
  $("#ask").hidden = true;
  $("#link-sent").hidden = true;
  $("#redeem-status").textContent = "";
  $("#redeem-button").disabled = false;
  $("#redeem-button").focus();
}

function redeemButton() {
  const button = $("#redeem-button");
  const status = $("#redeem-status");
  button.addEventListener("click", async () => {
    const token = pending;
    if (!token) return;
    button.disabled = true;
    status.className = "";
    status.textContent = t("Signing in…");
    try {
      const player = await api.signIn(token);
      const where = safeNext(player.next || next);
      status.textContent = "";
      done(player, where);
      location.assign(where);
    } catch (err) {
      status.className = "error";
      status.textContent = inWords(err);
      $("#ask").hidden = false;
      $("#email").focus();
    }
  });
}

async function ask(e) {
  e.preventDefault();
  const field = $("#email");
  const error = $("#link-error");
  const sent = $("#link-sent");
  error.textContent = "";
  const email = field.value.trim();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
    error.textContent = t("Enter your email address (like name@example.com).");
    field.setAttribute("aria-invalid", "true");
    field.focus();
    return;
  }
  field.removeAttribute("aria-invalid");
  const button = $("#link-button");
  button.disabled = true;
  try {
    const answer = await api.sendLink(email, next);
    const minutes = answer && answer.expires_in_minutes ? answer.expires_in_minutes : 15;
    sent.replaceChildren(document.createTextNode(tn(
      "Check your mail: we sent a sign-in link to {email}. It works once, within {n} minute.",
      "Check your mail: we sent a sign-in link to {email}. It works once, within {n} minutes.", minutes, { email })));
    const mailbox = document.getElementById("dev-mail-link");
    if (mailbox) {
      const p = document.createElement("p");
      const a = document.createElement("a");
      a.href = "/dev/mail";
      a.textContent = t("open the development mailbox");
      p.append(...within(t("This server keeps its mail instead of sending it: {link}."), { link: a }));
      sent.append(p);
    }
    sent.hidden = false;
  } catch (err) {
    error.textContent = inWords(err);
    field.focus();
  } finally {
    button.disabled = false;
  }
}

/** The link's token, taken out of the address bar (so it is not kept in the history or shown). */
function takeToken() {
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  if (token) history.replaceState(null, "", location.pathname + location.search);
  return token;
}

async function start() {
  const token = takeToken();
  $("#link-form").addEventListener("submit", ask);
  redeemButton();
  window.addEventListener("hashchange", () => { // the link opened in this very tab
    const again = takeToken();
    if (again) redeem(again);
  });
  const player = await mountAccount({ live: false, signInLink: false });
  if (token) {
    redeem(token);
  } else if (player) {
    done(player, next);
    $("#ask").hidden = false;
  }
}

start();
