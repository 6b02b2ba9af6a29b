// The table around the board (every game has one): its time control in words, each seat's clock counting down
// to its deadline (by the server's time: the read's ``table.now``, never the browser's clock alone), who is on
// vacation, which seats the computer plays (a stand-in: from the start, after a timeout, or after the player left
// or resigned), and, for the viewer's own seat, "Resign", "Leave the table" and "Take my seat back".
// Also the words the lobby and the final standings use for the same things.

import { ApiError, api, inWords } from "./api.js";
import { h } from "./dom.js";
import { t, tn, when } from "./i18n.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** What happens when a seat's time runs out, as the lobby offers it and the page tells it. */
export const ON_TIMEOUT = {
  stand_in_move: { choice: t("The computer plays that turn for them"),
    hint: t("The game never waits longer than the limit: the computer makes that one move, and the player carries on with the next.") },
  stand_in_game: { choice: t("The computer takes the seat over"),
    hint: t("The computer plays the seat from then on; the player may take it back when they return, if the table allows it.") },
  forfeit: { choice: t("They forfeit the game"),
    hint: t("The seat drops to the bottom of the standings; the computer plays it out so the others can finish.") },
};

/** Why the computer plays a seat, in words ("" when it played it from the start). */
const REASONS = {
  stand_in: "",
  timeout_turn: t("played by the computer — timed out: it plays this turn"),
  timeout: t("played by the computer — timed out"),
  left: t("played by the computer — left the table"),
  resigned: t("played by the computer — resigned"),
  forfeit: t("played by the computer — forfeited"),
};

/** A final standing's note, in words. */
export const NOTES = {
  timed_out: t("timed out"),
  left: t("left — played out by the computer"),
  resigned: t("resigned"),
  forfeited: t("forfeited"),
};


/** A length of time in a player's words: "2 days 4 h", "5 h 03 min", "4:07" (under an hour). */
export function remaining(ms) {
  const left = Math.max(0, ms);
  if (left >= DAY) {
    const days = Math.floor(left / DAY);
    const hours = Math.floor((left % DAY) / HOUR);
    const whole = tn("{n} day", "{n} days", days);
    return hours ? t("{days} {hours} h", { days: whole, hours }) : whole;
  }
  if (left >= HOUR) {
    const hours = Math.floor(left / HOUR);
    const minutes = Math.floor((left % HOUR) / MINUTE);
    return t("{hours} h {minutes} min", { hours, minutes: String(minutes).padStart(2, "0") });
  }
  const seconds = Math.ceil(left / SECOND);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** A moment (ms since the epoch) in the reader's own time zone. */
export function moment(ms) {
  return when(new Date(ms), { dateStyle: "medium", timeStyle: "short" });
}

/** The table's rules in one line: "1 day per move · when time runs out, the computer takes the seat over". */
export function controlWords(table) {
  if (!table) return "";
  if (!table.clock) return t("No time limit");
  const text = table.clock_text ? table.clock_text.charAt(0).toUpperCase() + table.clock_text.slice(1) : "";
  const policy = {
    stand_in_move: t("{limit} · when time runs out, the computer plays that turn", { limit: text }),
    stand_in_game: t("{limit} · when time runs out, the computer takes the seat over", { limit: text }),
    forfeit: t("{limit} · when time runs out, the seat forfeits", { limit: text }),
  }[table.on_timeout];
  return policy || text;
}

/** The panel "The table" of the play page. ``env``: {gameId, label(seat), token(), refresh()}. */
export class TablePanel {
  constructor(panel, header, turnNote, env) {
    this.panel = panel;
    this.header = header; // the time control near the top of the page
    this.turnNote = turnNote; // the viewer's own seat's situation, in the move panel
    this.env = env;
    this.skew = 0; // the server's clock minus the browser's
    this.table = null;
    this.timer = null;
    this.control = panel.querySelector("#table-control");
    this.list = panel.querySelector("#table-seats");
    this.mine = panel.querySelector("#my-seat-actions");
    this.said = panel.querySelector("#table-status");
    this.confirmKey = null;
  }

  /** The server's time now, as best this page knows it. */
  now() {
    return Date.now() + this.skew;
  }

  /** Draws the table from a read (``game``: GET /api/games/{id}; ``data``: the seat's GET /me or the same). */
  render({ table, seat, onTurn, over }) {
    this.table = table || null;
    this.panel.hidden = !table;
    this.header.hidden = !table;
    if (!table) {
      this.turnNote.hidden = true;
      this.stop();
      return;
    }
    this.skew = Number.isFinite(table.now) ? table.now - Date.now() : 0;
    const words = controlWords(table);
    this.header.replaceChildren(h("span", { class: "control-words" }, `⏱ ${words}`), this.myClock(table, seat, over));
    if (table.clock) {
      this.control.textContent = table.takeback
        ? t("{rules}. A player whose seat the computer took over may take it back.", { rules: words })
        : t("{rules}.", { rules: words });
    } else {
      this.control.textContent = table.takeback
        ? t("No time limit: the game waits for every player. A player who left may take the seat back.")
        : t("No time limit: the game waits for every player.");
    }
    this.list.replaceChildren(...table.seats.map((s) => this.seatItem(s, seat, onTurn.includes(s.seat), over)));
    this.renderMine(seat, over);
    this.tick();
    if (!over && table.seats.some((s) => s.deadline !== null)) this.start();
    else this.stop();
  }

  seatItem(s, mySeat, onTurn, over) {
    const mine = s.seat === mySeat;
    const parts = [h("span", { class: "table-name" }, this.env.label(s.seat)), mine ? h("span", { class: "you" }, " ", t("(you)")) : null];
    const facts = [];
    if (s.stand_in) {
      const why = s.reason in REASONS ? REASONS[s.reason] : "";
      facts.push(h("span", { class: "stand-in" }, why || t("played by the computer")));
    } else if (s.mark) { // the seat's own player plays it again: the standings will still say what happened
      const times = s.timeouts || 1;
      const perTurn = this.table.on_timeout === "stand_in_move"; // the computer played those turns, nothing more
      const timedOut = perTurn
        ? (times > 1 ? tn("timed out {n} time: the computer played that turn", "timed out {n} times: the computer played those turns", times)
          : t("timed out: the computer played that turn"))
        : (times > 1 ? tn("timed out {n} time, then took the seat back", "timed out {n} times, then took the seat back", times)
          : t("timed out, then took the seat back"));
      facts.push(h("span", { class: "mark" }, {
        timed_out: timedOut,
        left: t("left the table, then took the seat back"),
      }[s.mark] || NOTES[s.mark] || s.mark));
    }
    if (s.away_until) facts.push(h("span", { class: "away" }, t("on vacation until {date}", { date: moment(s.away_until) })));
    const clock = h("span", { class: "clock", role: "timer", "data-seat": String(s.seat) });
    if (!over && s.deadline !== null) clock.dataset.deadline = String(s.deadline);
    else if (!over && this.table.clock && this.table.clock.kind === "bank" && !s.stand_in) {
      clock.textContent = t("{time} in the bank", { time: remaining(s.bank_ms) });
      clock.classList.add("stopped");
    }
    const classes = ["table-seat", mine ? "mine" : "", onTurn && !over ? "on-turn" : "", s.stand_in ? "computer" : ""]
      .filter(Boolean).join(" ");
    return h("li", { class: classes, "data-seat": String(s.seat), "data-stand-in": s.stand_in || "",
      "data-reason": s.reason || "", "data-mark": s.mark || "" },
    h("span", { class: "table-who" }, onTurn && !over ? h("span", { class: "turn-mark" },
      h("span", { "aria-hidden": "true" }, "▶ "), h("span", { class: "visually-hidden" }, t("on turn:"), " ")) : null, ...parts),
    clock, facts.length ? h("span", { class: "table-facts" }, ...facts) : null);
  }

  /** The viewer's own seat's clock, for the header (on desktop and phone): "Your clock: 4:07 left" while it runs,
   * the bank while it is stopped; nothing for a spectator, a seat the computer plays, or a table without a clock. */
  myClock(table, seat, over) {
    const s = seat !== null && seat !== undefined ? table.seats.find((x) => x.seat === seat) : null;
    const clock = h("span", { class: "clock", role: "timer", id: "my-clock", "aria-label": t("Your clock") });
    if (!s || over || !table.clock || s.stand_in) return h("span", { class: "my-clock", hidden: true }, clock);
    if (s.deadline !== null) clock.dataset.deadline = String(s.deadline);
    else if (table.clock.kind === "bank") {
      clock.textContent = t("{time} in the bank", { time: remaining(s.bank_ms) });
      clock.classList.add("stopped");
    } else {
      clock.textContent = t("not running");
      clock.classList.add("stopped");
    }
    return h("span", { class: "my-clock" }, h("span", { class: "my-clock-label" }, t("Your clock:"), " "), clock);
  }

  /** The viewer's own seat: what the computer does with it (in the move panel), and the buttons. */
  renderMine(seat, over) {
    const s = seat !== null && seat !== undefined ? this.table.seats.find((x) => x.seat === seat) : null;
    if (!s || over) {
      this.mine.replaceChildren();
      this.mine.hidden = true;
      this.turnNote.replaceChildren();
      this.turnNote.hidden = true;
      this.confirmKey = null;
      return;
    }
    const gone = s.reason === "resigned" || s.reason === "forfeit" || s.reason === "left";
    const canTakeBack = Boolean(s.stand_in) && this.table.takeback && (s.reason === "timeout" || s.reason === "left");
    const key = JSON.stringify([s.stand_in, s.reason, canTakeBack]);
    if (key === this.confirmKey) return; // kept as drawn: a confirmation may be open
    this.confirmKey = key;
    if (s.stand_in) {
      const why = {
        timeout: t("Your time ran out, so the computer took your seat over."),
        timeout_turn: t("Your time ran out, so the computer plays this turn for you; your next turn is yours again."),
        left: t("You left the table, so the computer plays your seat."),
        resigned: t("You resigned: the computer plays your seat to the end."),
        forfeit: t("Your time ran out and your seat forfeited: the computer plays it to the end."),
      }[s.reason] || "";
      const parts = [h("strong", {}, t("The computer plays your seat now.")), why ? ` ${why}` : ""];
      if (canTakeBack) {
        const back = h("button", { type: "button", id: "take-back", class: "primary" }, t("Take my seat back"));
        back.addEventListener("click", () => this.command(back, { type: "table.take_back" }, t("Your seat is yours again.")));
        parts.push(h("span", { class: "buttons" }, back));
      }
      this.turnNote.replaceChildren(...parts);
      this.turnNote.hidden = false;
    } else {
      this.turnNote.replaceChildren();
      this.turnNote.hidden = true;
    }
    const parts = [];
    if (!gone) {
      parts.push(this.confirming("resign", t("Resign…"), t("Resign the game"),
        t("Resign? The computer plays your seat to the end, and the final standings put you last, marked “resigned”. "
        + "You cannot take it back."), { type: "table.resign" }, t("You resigned.")));
      if (!s.stand_in) {
        parts.push(this.confirming("leave", t("Leave the table…"), t("Leave the table"), this.table.takeback
          ? t("Leave the table? The computer plays your seat from now on, and the final standings mark it “left”. "
            + "You may come back and take the seat back.")
          : t("Leave the table? The computer plays your seat from now on, and the final standings mark it “left”. "
            + "You cannot take it back."),
        { type: "table.leave" }, t("You left the table.")));
      }
    }
    this.mine.replaceChildren(h("h3", {}, t("Your seat")), ...parts);
    this.mine.hidden = parts.length === 0;
  }

  /** "<ask>" that opens a confirmation saying what happens, with "<yes>" and "Cancel". */
  confirming(id, ask, yes, text, command, done) {
    const open = h("button", { type: "button", id: `${id}-button`, "aria-expanded": "false", "aria-controls": `${id}-confirm` }, ask);
    const confirm = h("button", { type: "button", class: "danger", id: `${id}-confirm-button` }, yes);
    const cancel = h("button", { type: "button", id: `${id}-cancel` }, t("Cancel"));
    const box = h("div", { class: "confirm table-confirm", id: `${id}-confirm`, role: "group", "aria-labelledby": `${id}-confirm-text`, hidden: true },
      h("p", { class: "confirm-text", id: `${id}-confirm-text` }, text), h("p", { class: "buttons" }, confirm, cancel));
    const show = (on) => {
      box.hidden = !on;
      open.hidden = on;
      open.setAttribute("aria-expanded", String(on));
      (on ? cancel : open).focus();
    };
    open.addEventListener("click", () => show(true));
    cancel.addEventListener("click", () => show(false));
    box.addEventListener("keydown", (e) => {
      if (e.key === "Escape") show(false);
    });
    confirm.addEventListener("click", () => this.command(confirm, command, done));
    return h("div", { class: "table-action" }, h("p", { class: "buttons" }, open), box);
  }

  async command(button, command, done) {
    button.disabled = true;
    this.said.className = "form-status";
    this.said.textContent = "";
    try {
      // no expected version: resigning, leaving or taking a seat back does not depend on the board
      await api.submit(this.env.gameId, this.env.token(), command);
      this.said.textContent = done;
      this.confirmKey = null;
    } catch (err) {
      this.said.className = "form-status error";
      this.said.textContent = err instanceof ApiError ? inWords(err) : String(err);
      button.disabled = false;
      return;
    }
    await this.env.refresh();
  }

  /** Updates the countdowns (every second while a clock runs). */
  tick() {
    if (!this.table) return;
    const now = this.now();
    const clocks = [...this.list.querySelectorAll(".clock[data-deadline]"), ...this.header.querySelectorAll(".clock[data-deadline]")];
    for (const clock of clocks) {
      const left = Number(clock.dataset.deadline) - now;
      const text = left > 0 ? t("{time} left", { time: remaining(left) }) : t("time is up");
      if (clock.textContent !== text) clock.textContent = text;
      clock.classList.toggle("low", left > 0 && left < 60 * SECOND);
      clock.classList.toggle("up", left <= 0);
    }
  }

  start() {
    if (!this.timer) this.timer = setInterval(() => this.tick(), 1000);
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** The lobby's part of the "New game" form: the time limit, what happens when it runs out, taking seats back.
 * Returns {read() -> the ``table`` of POST /api/games, without the stand-ins}. */
export function tableOptionsForm(container) {
  const LIMITS = [
    ["none", t("No time limit"), null, t("The game waits for every player as long as it takes.")],
    ["hour", t("1 hour per move"), { kind: "per_move", seconds: 3600 }, t("Each move must be made within an hour of the turn coming round.")],
    ["day", t("1 day per move"), { kind: "per_move", seconds: 86400 }, t("Each move must be made within a day: one move a day is enough.")],
    ["3days", t("3 days per move"), { kind: "per_move", seconds: 3 * 86400 }, t("Each move must be made within three days.")],
    ["bank", t("Correspondence: 7 days, plus 1 day per move, up to 14 days"),
      { kind: "bank", seconds: 7 * 86400, increment: 86400, cap: 14 * 86400 },
      t("Each player has a bank of 7 days for all their moves; every move adds a day back, up to 14 days.")],
    ["custom", t("Custom: a time per move…"), null, t("Choose how long each move may take (at least 10 seconds, at most 30 days).")],
  ];
  const limit = h("select", { id: "time-limit", name: "time-limit", "aria-describedby": "time-limit-hint" },
    ...LIMITS.map(([value, text]) => h("option", { value }, text)));
  const limitHint = h("p", { id: "time-limit-hint", class: "hint" });
  const amount = h("input", { type: "number", id: "custom-amount", name: "custom-amount", min: "1", max: "999", value: "2", inputmode: "numeric" });
  const unit = h("select", { id: "custom-unit", name: "custom-unit" },
    h("option", { value: "60" }, t("minutes")), h("option", { value: "3600" }, t("hours")),
    h("option", { value: "86400", selected: true }, t("days")));
  const custom = h("p", { class: "row indent custom-time", hidden: true },
    h("label", { for: "custom-amount" }, t("Time per move")), amount,
    h("label", { for: "custom-unit", class: "visually-hidden" }, t("Unit")), unit);
  const policy = h("select", { id: "on-timeout", name: "on-timeout", "aria-describedby": "on-timeout-hint" },
    ...Object.entries(ON_TIMEOUT).map(([value, p]) => h("option", { value, selected: value === "stand_in_game" }, p.choice)));
  const policyHint = h("p", { id: "on-timeout-hint", class: "hint" });
  const takeback = h("input", { type: "checkbox", id: "takeback", name: "takeback", checked: true, "aria-describedby": "takeback-hint" });
  const undo = h("select", { id: "undo", name: "undo", "aria-describedby": "undo-hint" },
    h("option", { value: "consent", selected: true }, t("when the other players agree")),
    h("option", { value: "instant" }, t("at once (unrated games only)")),
    h("option", { value: "off" }, t("never")));
  const undoHint = h("p", { id: "undo-hint", class: "hint" },
    t("A player may take back their own last moves while nothing has been revealed or drawn and nobody else has moved since."));
  const fieldset = h("fieldset", { id: "table-options" },
    h("legend", {}, t("Time and absence")),
    h("p", { class: "row" }, h("label", { for: "time-limit" }, t("Time limit")), limit), limitHint, custom,
    h("p", { class: "row" }, h("label", { for: "on-timeout" }, t("When time runs out")), policy), policyHint,
    h("p", { class: "check" }, takeback, h("label", { for: "takeback" }, t("Players may take their seat back"))),
    h("p", { id: "takeback-hint", class: "hint" },
      t("A player whose seat the computer took over (after a timeout, or because they left the table) may return and play it again.")),
    h("p", { class: "row" }, h("label", { for: "undo" }, t("Moves may be taken back")), undo), undoHint);
  const sync = () => {
    const chosen = LIMITS.find(([value]) => value === limit.value) || LIMITS[0];
    limitHint.textContent = chosen[3];
    custom.hidden = limit.value !== "custom";
    policy.disabled = limit.value === "none";
    policyHint.textContent = limit.value === "none" ? t("Without a time limit, nobody runs out of time.")
      : ON_TIMEOUT[policy.value].hint;
  };
  limit.addEventListener("change", sync);
  policy.addEventListener("change", sync);
  sync();
  container.replaceChildren(fieldset);
  return {
    read() {
      let clock = (LIMITS.find(([value]) => value === limit.value) || LIMITS[0])[2];
      if (limit.value === "custom") {
        const n = Number(amount.value);
        const seconds = Math.round(n * Number(unit.value));
        if (!Number.isFinite(n) || n <= 0 || seconds < 10 || seconds > 30 * 86400) {
          throw new Error(t("The custom time per move must be at least 10 seconds and at most 30 days."));
        }
        clock = { kind: "per_move", seconds };
      }
      const table = { clock, takeback: takeback.checked };
      if (undo.value !== "consent") table.undo = undo.value;
      if (clock) table.on_timeout = policy.value;
      return table;
    },
  };
}
