// Takebacks of moves (table.undo_ask, docs/PLAYERS.md "Taking a move back"): the viewer's seat may ask to take
// back its last move while the table allows it; the server alone judges whether anything crossed to another seat
// since (then it refuses, in words). A pending request shows in a banner: the seats asked get "Accept" and
// "Refuse", the asking seat "waiting" and "Withdraw", everyone else what is asked. The answer arrives on the
// stream (its events), and the banner says it.

import { ApiError, api, inWords } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

export class Takebacks {
  constructor(box, env) {
    this.box = box; // the banner, in the move panel
    this.env = env; // {gameId, label(seat), token(), refresh()}
    this.said = ""; // the last answer or refusal, in words
    this.failed = false; // ... a refusal of this page's own request
    this.key = null;
    this.seat = null;
    this.last = null; // what was drawn last (to draw a refusal at once)
  }

  /** Draws the banner from the table's facts (``table.undo``: the pending request; ``table.undo_mode``). */
  render({ table, seat, over }) {
    this.last = { table, seat, over };
    this.seat = seat;
    const request = table && !over ? table.undo : null;
    const mine = seat !== null && seat !== undefined && !over && Boolean(table) && table.undo_mode !== "off";
    const key = JSON.stringify([request, mine, seat, this.said, this.failed]);
    if (key === this.key) return;
    this.key = key;
    const parts = [];
    if (request) {
      const who = this.env.label(request.seat);
      if (request.seat === seat) {
        parts.push(h("p", { id: "takeback-waiting" },
          t("You asked to take back your last move: waiting for the other players' answer.")));
        parts.push(h("p", { class: "buttons" }, this.button("takeback-withdraw", t("Withdraw"), { type: "table.undo_cancel" })));
      } else if ((request.waiting || []).includes(seat)) {
        parts.push(h("p", { id: "takeback-asked" }, h("strong", {}, t("{name} asks to take back their last move.", { name: who }))));
        parts.push(h("p", { class: "buttons" },
          this.button("takeback-accept", t("Accept"), { type: "table.undo_answer", accept: true }, "primary"),
          this.button("takeback-refuse", t("Refuse"), { type: "table.undo_answer", accept: false })));
      } else {
        parts.push(h("p", {}, t("{name} asks to take back their last move.", { name: who })));
      }
    } else if (mine) {
      parts.push(h("p", { class: "buttons" }, this.button("takeback-ask", t("Take back my last move"), { type: "table.undo_ask" })));
    }
    if (this.said) {
      parts.push(h("p", { id: "takeback-said", class: this.failed ? "form-status error" : "form-status" }, this.said));
    }
    this.box.replaceChildren(...parts);
    this.box.hidden = parts.length === 0;
  }

  /** The stream's events: an answer to this seat's request, or moves taken back, said in words. */
  heard(events) {
    for (const e of events) {
      if (e.type.startsWith("table.undo") || e.type === "table.moves_undone") this.failed = false;
      const p = e.payload || {};
      if (e.type === "table.undo_answered" && p.accept === false) {
        this.said = t("{name} refused to take the move back.", { name: this.env.label(p.seat) });
      } else if (e.type === "table.moves_undone") {
        this.said = p.seat === this.seat ? t("Your move was taken back.")
          : t("{name}'s move was taken back.", { name: this.env.label(p.seat) });
      } else if (e.type === "table.undo_asked") {
        this.said = "";
      }
    }
  }

  button(id, text, command, kind = "") {
    const b = h("button", { type: "button", id, class: kind }, text);
    b.addEventListener("click", () => this.send(b, command));
    return b;
  }

  async send(button, command) {
    button.disabled = true;
    try {
      // no expected version: the server judges the request on the game as it is
      await api.submit(this.env.gameId, this.env.token(), command);
      this.said = "";
      this.failed = false;
    } catch (err) {
      const words = err instanceof ApiError ? inWords(err) : String(err);
      this.said = words.charAt(0).toUpperCase() + words.slice(1) + (words.endsWith(".") ? "" : ".");
      this.failed = true;
      this.key = null;
      button.disabled = false;
      this.render(this.last);
      return;
    }
    await this.env.refresh();
  }
}
