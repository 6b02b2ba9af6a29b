// The settings page (/settings): the player's name; what they are told and how (email each time or a digest,
// push, webhooks, which kinds of notices, muted games: GET/PUT /api/me/settings); push on this device; this
// browser's own notifications; their webhooks (the signing secret shown once); the delivery log; and vacations
// (GET/POST/DELETE /api/me/vacation: every clock of their running games waits while they are away; ending one
// early lets the clocks run again).

import { ApiError, api, cookie, inWords } from "./api.js";
import { browserNotifications, mountAccount } from "./account.js";
import { h } from "./dom.js";
import { num, t, tn, when as written, within } from "./i18n.js";
import { currentSubscription, disablePush, enablePush, pushSupported } from "./push.js";
import { ratingsSection } from "./ratings.js";
import "./language.js";

const $ = (sel) => document.querySelector(sel);

const KINDS = [
  ["your_turn", t("It is your turn")],
  ["outbid", t("Someone outbid you")],
  ["market", t("The market ran")],
  ["game_over", t("A game ended")],
  ["deadline", t("A deadline is near")],
  ["undo_asked", t("Someone asks to take back a move")],
  ["undo_answered", t("Your takeback was accepted or refused")],
];
const HOURS = [1, 2, 3, 4, 6, 8, 12, 24, 48, 72, 168];
const SHAPES = [["json", t("Generic JSON")], ["discord", t("Discord")], ["slack", t("Slack")]];
const STATUSES = { pending: t("waiting"), sending: t("sending"), sent: t("sent"), skipped: t("skipped"), failed: t("failed") };
const CHANNELS = { email: t("Email"), digest: t("Email digest"), webhook: t("Webhook"), push: t("Push") };

function period(hours) {
  if (hours === 168) return t("once a week");
  if (hours % 24 === 0) return hours === 24 ? t("once a day") : tn("every {n} day", "every {n} days", hours / 24);
  return hours === 1 ? t("every hour") : tn("every {n} hour", "every {n} hours", hours);
}

function when(iso) {
  if (!iso) return "—";
  return written(iso, { dateStyle: "medium", timeStyle: "short" }) || iso;
}

function section(id, title, ...children) {
  return h("section", { id, "aria-labelledby": `${id}-title` }, h("h2", { id: `${id}-title` }, title), ...children);
}

function status(id) {
  return h("p", { id, class: "form-status", role: "status" });
}

// -- the player's name ---------------------------------------------------------------------------------------------

function accountSection(player) {
  const input = h("input", { id: "player-name", type: "text", maxlength: "40", value: player.name || "", autocomplete: "nickname",
    "aria-describedby": "player-name-hint" });
  const said = status("name-status");
  const form = h("form", { id: "name-form", novalidate: true },
    h("p", {}, ...within(t("Signed in as {email}."), { email: h("strong", {}, player.email) })),
    h("p", { class: "row" }, h("label", { for: "player-name" }, t("Your name (the other players see it)")), input),
    h("p", { class: "hint", id: "player-name-hint" }, t("A seat you claim shows this name on the board, in the history "
      + "and in the standings (a seat claimed before keeps the name it had then). Until you change it, it is the part "
      + "of your email before the @; your email itself is shown to nobody else.")),
    h("div", { class: "submit-row" }, h("button", { type: "submit" }, t("Save name")), said));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    said.className = "form-status";
    try {
      const renamed = await api.rename(input.value);
      input.value = renamed.name;
      said.textContent = t("Saved.");
    } catch (err) {
      said.className = "form-status error";
      said.textContent = inWords(err);
    }
  });
  return section("account-settings", t("Your account"), form);
}

// -- what the player is told, and how -------------------------------------------------------------------------------

function radio(name, value, text, checked) {
  const id = `${name}-${value}`;
  return h("p", { class: "check" }, h("input", { type: "radio", id, name, value, checked }), h("label", { for: id }, text));
}

function checkbox(id, text, checked, attrs = {}) {
  return h("p", { class: "check" }, h("input", { type: "checkbox", id, checked, ...attrs }), h("label", { for: id }, text));
}

function noticesForm(prefs, games) {
  const hours = h("select", { id: "digest-hours", name: "digest_hours" },
    ...HOURS.map((n) => h("option", { value: String(n), selected: n === prefs.digest_hours }, period(n))));
  const email = h("fieldset", {}, h("legend", {}, t("Email (only while you are away: no game page open)")),
    radio("email-mode", "off", t("No email"), prefs.email_mode === "off"),
    radio("email-mode", "each", t("One email for each notice"), prefs.email_mode === "each"),
    radio("email-mode", "digest", t("A digest: at most one email per period, listing every game waiting for you"),
      prefs.email_mode === "digest"),
    h("p", { class: "row indent" }, h("label", { for: "digest-hours" }, t("Digest period")), hours));
  const paintDigest = () => { hours.disabled = !email.querySelector("#email-mode-digest").checked; };
  email.addEventListener("change", paintDigest);
  paintDigest();
  const channels = h("fieldset", {}, h("legend", {}, t("Other channels")),
    checkbox("channel-push", t("Web Push to the devices where you turned it on (only while you are away)"), prefs.push),
    checkbox("channel-webhooks", t("My webhooks (always)"), prefs.webhooks));
  const kinds = h("fieldset", {}, h("legend", {}, t("Tell me when")),
    ...KINDS.map(([kind, text]) => checkbox(`kind-${kind}`, text, prefs.kinds.includes(kind), { "data-kind": kind })));
  const muted = new Set(prefs.muted_games);
  const known = new Map(games.map((g) => [g.game_id, g]));
  const rows = [...games.map((g) => g.game_id), ...prefs.muted_games.filter((id) => !known.has(id))].map((id) => {
    const g = known.get(id);
    const names = g && g.names && g.names.length ? ` · ${g.names.filter(Boolean).join(", ")}` : "";
    const text = !g ? t("Mute game {id}", { id: id.slice(0, 8) })
      : g.status === "finished" ? t("Mute {game} (finished)", { game: `${g.title}${names}` })
        : t("Mute {game}", { game: `${g.title}${names}` });
    return checkbox(`mute-${id}`, text, muted.has(id), { "data-game": id });
  });
  const mutes = h("fieldset", { id: "muted-games" }, h("legend", {}, t("Muted games (told nothing about them)")),
    ...(rows.length ? rows : [h("p", { class: "hint" }, t("No games yet: the games whose seats you claimed are listed here."))]));
  const said = status("settings-status");
  const form = h("form", { id: "notify-form", novalidate: true }, email, kinds, channels, mutes,
    h("div", { class: "submit-row" }, h("button", { type: "submit", class: "primary", id: "save-settings" }, t("Save settings")), said));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    said.className = "form-status";
    const body = {
      email_mode: form.querySelector("input[name='email-mode']:checked")?.value || "each",
      digest_hours: Number(hours.value),
      push: form.querySelector("#channel-push").checked,
      webhooks: form.querySelector("#channel-webhooks").checked,
      kinds: [...form.querySelectorAll("input[data-kind]:checked")].map((i) => i.dataset.kind),
      muted_games: [...form.querySelectorAll("input[data-game]:checked")].map((i) => i.dataset.game),
    };
    try {
      await api.saveSettings(body);
      said.textContent = t("Saved.");
    } catch (err) {
      said.className = "form-status error";
      said.textContent = inWords(err);
    }
  });
  return section("notify-settings", t("What you are told, and how"), form);
}

// -- this device ------------------------------------------------------------------------------------------------

function deviceSection() {
  const on = h("button", { type: "button", id: "push-on" }, t("Enable push on this device"));
  const off = h("button", { type: "button", id: "push-off", hidden: true }, t("Turn push off on this device"));
  const said = status("push-status");
  const paint = async () => {
    const sub = await currentSubscription();
    on.hidden = Boolean(sub);
    off.hidden = !sub;
    if (sub && !said.textContent) said.textContent = t("Push is on for this device.");
  };
  const act = (button, work) => button.addEventListener("click", async () => {
    button.disabled = true;
    said.className = "form-status";
    try {
      said.textContent = await work();
    } catch (err) {
      said.className = "form-status error";
      said.textContent = err && err.message ? err.message : String(err);
    } finally {
      button.disabled = false;
      await paint();
    }
  });
  act(on, enablePush);
  act(off, disablePush);
  if (!pushSupported()) {
    on.disabled = true;
    said.textContent = t("This browser cannot receive push notifications here.");
  } else {
    paint();
  }
  return section("device", t("This device"),
    h("p", {}, t("Push reaches this device even when no tab of this site is open.")),
    h("div", { class: "buttons" }, on, off), said,
    h("p", {}, t("While a tab of this site is open but hidden, the browser itself can tell you:")),
    browserNotifications("settings-notify"));
}

// -- webhooks ---------------------------------------------------------------------------------------------------

function webhooksSection() {
  const body = h("tbody", { id: "webhook-rows" });
  const table = h("table", { id: "webhooks-table" }, h("caption", {}, t("Your webhooks")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("URL")), h("th", { scope: "col" }, t("Shape")),
      h("th", { scope: "col" }, t("State")), h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("Actions"))))),
    body);
  const empty = h("p", { id: "webhooks-empty", class: "hint" }, t("No webhooks yet."));
  const said = status("webhook-status");
  const secret = h("div", { id: "webhook-secret", class: "secret", hidden: true });
  const url = h("input", { id: "webhook-url", type: "url", maxlength: "2000", placeholder: "https://discord.com/api/webhooks/…", autocomplete: "off" });
  const shape = h("select", { id: "webhook-shape" }, ...SHAPES.map(([v, text]) => h("option", { value: v }, text)));
  const form = h("form", { id: "webhook-form", novalidate: true },
    h("p", { class: "row" }, h("label", { for: "webhook-url" }, t("Webhook URL")), url),
    h("p", { class: "row" }, h("label", { for: "webhook-shape" }, t("Message shape")), shape),
    h("div", { class: "submit-row" }, h("button", { type: "submit" }, t("Add webhook")), said));

  const load = async () => {
    let hooks = [];
    try {
      hooks = (await api.webhooks()).webhooks;
    } catch (err) {
      said.className = "form-status error";
      said.textContent = inWords(err);
      return;
    }
    empty.hidden = hooks.length > 0;
    table.hidden = hooks.length === 0;
    body.replaceChildren(...hooks.map((w) => {
      const remove = h("button", { type: "button", class: "danger", "aria-label": t("Remove webhook {url}", { url: w.url }) }, t("Remove"));
      remove.addEventListener("click", async () => {
        remove.disabled = true;
        try {
          await api.removeWebhook(w.webhook_id);
          said.className = "form-status";
          said.textContent = t("Webhook removed.");
        } catch (err) {
          said.className = "form-status error";
          said.textContent = inWords(err);
        }
        await load();
      });
      const state = w.disabled ? tn("turned off after {n} failure in a row", "turned off after {n} failures in a row", w.failures)
        : w.failures ? tn("on ({n} failed in a row)", "on ({n} failed in a row)", w.failures) : t("on");
      return h("tr", { "data-webhook": w.webhook_id }, h("td", { class: "url" }, w.url),
        h("td", {}, (SHAPES.find(([v]) => v === w.shape) || [w.shape, w.shape])[1]), h("td", {}, state), h("td", {}, remove));
    }));
  };
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    said.className = "form-status";
    said.textContent = "";
    secret.hidden = true;
    try {
      const made = await api.addWebhook(url.value.trim(), shape.value);
      url.value = "";
      secret.replaceChildren(
        h("p", {}, h("strong", {}, t("Signing secret (shown this once: copy it now)"))),
        h("p", {}, h("label", { for: "webhook-secret-value", class: "visually-hidden" }, t("Signing secret")),
          h("input", { id: "webhook-secret-value", type: "text", readonly: true, value: made.secret, class: "invite-url" })),
        h("p", { class: "hint" }, t("Every message is signed with it as Standard Webhooks do (headers webhook-id, webhook-timestamp, webhook-signature).")));
      secret.hidden = false;
      said.textContent = t("Webhook added.");
      await load();
    } catch (err) {
      said.className = "form-status error";
      said.textContent = inWords(err);
      url.focus();
    }
  });
  load();
  return section("webhooks", t("Webhooks"),
    h("p", {}, t("We post each notice to your URL: generic JSON, or a Discord or Slack message.")),
    empty, table, form, secret);
}

// -- vacations --------------------------------------------------------------------------------------------------

const dayCount = (n) => tn("{n} day", "{n} days", n);
const gameCount = (n) => tn("{n} game", "{n} games", n);

function vacationSection() {
  const facts = h("p", { id: "vacation-facts" }, t("Loading…"));
  const awayText = h("span", { id: "vacation-until" });
  const back = h("button", { type: "button", id: "vacation-end" }, t("End my vacation now"));
  const away = h("p", { id: "vacation-away", class: "notice", hidden: true }, awayText, " ", back);
  const days = h("input", { id: "vacation-days", type: "number", min: "1", step: "1", value: "7", inputmode: "numeric",
    "aria-describedby": "vacation-hint" });
  const said = status("vacation-status");
  const button = h("button", { type: "submit", id: "vacation-go" }, t("Go on vacation"));
  const form = h("form", { id: "vacation-form", novalidate: true },
    h("p", { class: "row" }, h("label", { for: "vacation-days" }, t("Go on vacation for (days)")), days),
    h("p", { id: "vacation-hint", class: "hint" }, t("From now: your clocks in every game you play stop until then, and "
      + "your seats are shown as on vacation. A turn that comes meanwhile gets its full time when you are back.")),
    h("div", { class: "submit-row" }, button, said));
  let left = null;
  const paint = (v) => {
    left = v.left_days;
    facts.textContent = t("You may be away {allowance} a year: {used} used, {left} left this year.",
      { allowance: dayCount(v.allowance_days), used: dayCount(v.used_days), left: dayCount(v.left_days) });
    away.hidden = !v.away_until;
    awayText.textContent = v.away_until ? t("You are on vacation until {date}.", { date: when(v.away_until) }) : "";
    back.disabled = false;
    days.max = String(Math.max(1, v.left_days));
    button.disabled = Boolean(v.away_until) || v.left_days < 1;
  };
  const load = async () => {
    try {
      paint(await api.vacation());
    } catch (err) {
      facts.textContent = inWords(err);
    }
  };
  back.addEventListener("click", async () => {
    said.className = "form-status";
    said.textContent = "";
    back.disabled = true;
    try {
      const ended = await api.comeBack();
      paint(ended);
      said.textContent = t("Welcome back: your clocks run again in {games}.", { games: gameCount(ended.games || 0) });
      button.focus();
    } catch (err) {
      said.className = "form-status error";
      said.textContent = inWords(err);
      await load();
    }
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    said.className = "form-status";
    said.textContent = "";
    const n = Number(days.value);
    if (!Number.isInteger(n) || n < 1) {
      said.className = "form-status error";
      said.textContent = t("Enter a whole number of days, at least 1.");
      days.focus();
      return;
    }
    if (n > 366 && left !== null) { // more than any year holds: said here, as the server would
      said.className = "form-status error";
      said.textContent = t("That is more than you have left: at most {days} this year.", { days: dayCount(left) });
      days.focus();
      return;
    }
    button.disabled = true;
    try {
      const taken = await api.goAway(n);
      paint(taken);
      said.textContent = t("Enjoy your vacation: your clocks wait in {games}.", { games: gameCount(taken.games || 0) });
    } catch (err) {
      said.className = "form-status error";
      if (err instanceof ApiError && err.code === "vacation/too_long") {
        const rest = Number.isInteger(err.details.left) ? err.details.left : left;
        said.textContent = rest > 0 ? t("That is more than you have left: at most {days} this year.", { days: dayCount(rest) })
          : t("You have no vacation days left this year.");
      } else if (err instanceof ApiError && err.code === "vacation/away") {
        said.textContent = err.details.until ? t("You are on vacation already, until {date}.", { date: when(err.details.until) }) : inWords(err);
      } else {
        said.textContent = inWords(err);
      }
      button.disabled = false;
      days.focus();
      await load();
    }
  });
  load();
  return section("vacation", t("Vacation"), facts, away, form);
}

// -- the delivery log -----------------------------------------------------------------------------------------------

function deliveriesSection() {
  const body = h("tbody", { id: "delivery-rows" });
  const table = h("table", { id: "deliveries-table" }, h("caption", {}, t("What was sent to you, newest first")),
    h("thead", {}, h("tr", {}, ...[t("When"), t("Channel"), t("To"), t("Status"), t("Attempts"), t("Detail")].map((text) => h("th", { scope: "col" }, text)))),
    body);
  const empty = h("p", { id: "deliveries-empty", class: "hint" }, t("Nothing was sent to you yet."));
  const refresh = h("button", { type: "button", id: "deliveries-refresh" }, t("Refresh"));
  const load = async () => {
    let rows = [];
    try {
      rows = (await api.deliveries()).deliveries;
    } catch (err) {
      empty.hidden = false;
      empty.textContent = inWords(err);
      return;
    }
    empty.hidden = rows.length > 0;
    table.hidden = rows.length === 0;
    body.replaceChildren(...rows.map((d) => h("tr", { "data-channel": d.channel, "data-status": d.status },
      h("td", {}, when(d.sent_at || d.created_at)), h("td", {}, CHANNELS[d.channel] || d.channel),
      h("td", { class: "url" }, d.target), h("td", {}, STATUSES[d.status] || d.status), h("td", { class: "num" }, num(d.attempts)),
      h("td", {}, d.detail || ""))));
  };
  refresh.addEventListener("click", load);
  load();
  return section("deliveries", t("Delivery log"), empty, table, h("p", {}, refresh));
}

// -- the player's own data: download it, or delete the account ------------------------------------------------------

function dataSection(player) {
  const download = h("a", { id: "my-data-download", class: "button-link", href: "/api/me/export", download: "my-data.json" },
    t("Download my data"));
  const confirm = h("input", { id: "erase-confirm", type: "email", autocomplete: "off", "aria-describedby": "erase-hint" });
  const said = status("erase-status");
  const form = h("form", { id: "erase-form", novalidate: true },
    h("p", { class: "hint", id: "erase-hint" }, t("Deleting your account removes your name, address, notes, "
      + "notification settings, channels, delivery log and vacations, and signs you out everywhere. Your seats stay in "
      + "their games, named by their number (Player 2), so the games can still be checked. This cannot be undone.")),
    h("p", { class: "row" }, h("label", { for: "erase-confirm" }, t("Type your email address to confirm")), confirm),
    h("div", { class: "submit-row" }, h("button", { type: "submit", id: "erase-account", class: "danger" }, t("Delete my account")), said));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    said.className = "form-status";
    const headers = { Accept: "application/json", "Content-Type": "application/json" };
    const csrf = cookie("csrftoken");
    if (csrf) headers["X-CSRFToken"] = csrf;
    try {
      const response = await fetch("/api/me", { method: "DELETE", headers, body: JSON.stringify({ confirm_email: confirm.value }) });
      const text = await response.text();
      const data = text ? JSON.parse(text) : null;
      if (!response.ok) throw new ApiError(response.status, data, response.headers.get("Retry-After"));
      location.assign("/");
    } catch (err) {
      said.className = "form-status error";
      said.textContent = inWords(err);
    }
  });
  return section("my-data", t("Your data"),
    h("p", {}, t("Everything the service keeps about you, as one JSON file (webhook signing secrets are never included).")),
    h("p", {}, download), form);
}

async function start() {
  const player = await mountAccount();
  $("#settings-load").hidden = true;
  if (!player) {
    $("#signed-out").hidden = false;
    return;
  }
  let prefs;
  let games = [];
  try {
    [prefs, games] = await Promise.all([api.settings(), api.myGames().then((g) => g.games).catch(() => [])]);
  } catch (err) {
    $("#settings-load").hidden = false;
    $("#settings-load").textContent = inWords(err);
    return;
  }
  const container = $("#settings-body");
  container.replaceChildren(accountSection(player), ratingsSection(player), noticesForm(prefs, games), vacationSection(), deviceSection(),
    webhooksSection(), deliveriesSection(), dataSection(player));
  container.hidden = false;
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

start();
