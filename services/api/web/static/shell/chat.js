// The game's chat panel: the lines (GET /chat, once), then live on the game page's one stream (live.js: "chat", a
// new line; "mutes", the whole chat again when the host mutes or unmutes a seat), a labelled box to post (a seat
// only), and, for the host, a mute button by every other seat's line. Names and text are always put in as text (textContent,
// never HTML): a line reading <script> shows those characters and runs nothing.

import { ApiError, cookie, inWords } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const enc = encodeURIComponent;

async function call(method, path, token, body) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const csrf = cookie("csrftoken");
  if (csrf && method !== "GET") headers["X-CSRFToken"] = csrf;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, data, response.headers.get("Retry-After"));
  return data;
}

/** Mount the panel in ``where``. ``who()`` -> {token, seat} of this page (seat null: watching). */
export function mountChat(where, gameId, who) {
  const base = `/api/games/${enc(gameId)}`;
  const list = h("ol", { id: "chat-list", class: "chat-list", "aria-live": "polite", "aria-labelledby": "chat-title" });
  const input = h("input", { id: "chat-text", type: "text", maxlength: "500", autocomplete: "off" });
  const error = h("p", { id: "chat-error", class: "error", role: "alert", hidden: true });
  const form = h("form", { id: "chat-form", class: "chat-form" },
    h("label", { for: "chat-text" }, t("Message")), input, h("button", { type: "submit" }, t("Send")));
  const panel = h("section", { id: "chat", class: "panel chat", "aria-labelledby": "chat-title" },
    h("h2", { id: "chat-title" }, t("Chat")), list, form, error);
  where.append(panel);
  const state = { seen: 0, host: null, muted: [] };

  function lineItem(line) {
    const me = who();
    const item = h("li", { class: line.hidden ? "chat-line hidden" : "chat-line", "data-seq": String(line.seq) });
    const name = h("span", { class: "chat-name" });
    name.textContent = line.name || t("Seat {seat}", { seat: line.seat + 1 });
    const text = h("span", { class: "chat-text" });
    text.textContent = line.text;
    item.append(name, ": ", text);
    if (me.seat !== null && me.seat === state.host && line.seat !== me.seat) {
      const muted = state.muted.includes(line.seat);
      const button = h("button", { type: "button", class: "chat-mute" });
      const args = { name: line.name, seat: line.seat + 1 };
      if (line.name) button.textContent = muted ? t("Unmute {name}", args) : t("Mute {name}", args);
      else button.textContent = muted ? t("Unmute seat {seat}", args) : t("Mute seat {seat}", args);
      button.addEventListener("click", async () => {
        try {
          await call(muted ? "DELETE" : "POST", `${base}/seats/${line.seat}/mute`, me.token);
          await reload();
        } catch (err) {
          show(inWords(err));
        }
      });
      item.append(" ", button);
    }
    return item;
  }

  function show(text) {
    error.textContent = text;
    error.hidden = !text;
  }

  function add(lines) {
    for (const line of lines) {
      if (line.seq <= state.seen) continue;
      state.seen = line.seq;
      list.append(lineItem(line));
    }
  }

  /** The whole chat (GET /chat's body). */
  function reset(data) {
    Object.assign(state, { seen: 0, host: data.host_seat, muted: data.muted });
    list.replaceChildren();
    add(data.lines);
  }

  async function reload() {
    reset(await call("GET", `${base}/chat`, who().token));
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const me = who();
    if (!input.value.trim()) return;
    try {
      const data = await call("POST", `${base}/chat`, me.token, { text: input.value });
      input.value = "";
      show("");
      add(data.lines);
    } catch (err) {
      show(err instanceof ApiError && err.code === "chat/muted" ? t("The host muted your chat.") : inWords(err));
    }
  });

  return {
    /** Reads the chat once; later lines come from the page's stream (``add``, ``reset``). */
    async start() {
      form.hidden = who().seat === null; // watching: read only
      try {
        await reload();
      } catch (err) {
        show(inWords(err));
      }
    },
    seen: () => state.seen,
    add: (line) => add([line]),
    reset,
  };
}
