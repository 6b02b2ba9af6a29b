// Dice Race in the play-by-web shell: the test-only game's bundle (the interface is described in
// /static/shell/bundles.js). The registry that serves the game (tests/games/registry.py) says this folder is its
// bundle; the server serves it at /static/games/dice_race/, where the shell imports every game's bundle from.

import { h } from "../../shell/dom.js";

/** Two seat rows (a person with the shell's name field, or the computer) and the goal square. */
function optionsForm(container, entry, env) {
  const kinds = [0, 1].map((i) => {
    const select = h("select", { id: `race-seat-${i}`, class: "race-seat-kind" },
      h("option", { value: "human" }, "A person"), h("option", { value: "ai" }, "The computer"));
    container.append(h("p", { class: "race-seat", "data-seat": String(i) },
      h("label", { for: select.id }, `Runner ${i + 1} is`), " ", select, " ", env.nameField(i)));
    return select;
  });
  const goal = h("input", { id: "race-goal", type: "number", min: "6", max: "60", value: "20" });
  container.append(h("p", {}, h("label", { for: goal.id }, "Goal square"), " ", goal));
  return {
    read: () => ({ seats: kinds.map((k) => k.value), goal: Number(goal.value) }),
    seats: () => kinds.map((k) => ({ kind: k.value })),
  };
}

/** The squares of each runner, this seat's own secret number (everyone's at the end) and a Roll button. */
function mount(slots, env) {
  const track = h("ol", { id: "race-track", class: "race-track" });
  const secret = h("p", { id: "race-secret" });
  slots.main.append(track, secret);
  const roll = h("button", { id: "race-roll", type: "button" }, "Roll");
  roll.addEventListener("click", () => env.send({ type: "dice_race.roll" }).catch(() => {}));
  slots.actions.append(roll);
  return {
    render(state) {
      const { view, seat } = state;
      track.replaceChildren(...view.squares.map((square, i) => h("li", {
        class: "race-runner", "data-seat": String(i), "data-square": String(square),
      }, `Runner ${i + 1}: square ${square} of ${view.goal}`)));
      const known = view.secrets.map((s, i) => (s === null ? null : `Runner ${i + 1}: ${s}`)).filter(Boolean);
      secret.textContent = known.length ? `Secret numbers known to you: ${known.join(", ")}` : "No secret number known.";
      roll.hidden = !state.legal.some((t) => t.command.type === "dice_race.roll");
      return { raceSeat: seat === null ? "public" : String(seat) };
    },
    status: (state) => (state.view.over ? "The race is over"
      : state.view.asked ? `Runner ${state.view.turn + 1}'s die is being thrown` : `Runner ${state.view.turn + 1} to roll`),
  };
}

export default {
  title: "Dice Race",
  labels: { seat: "Runner", score: "Score" },
  optionsForm,
  mount,
  seatLabel: (player) => player.name || `Runner ${player.seat + 1}`,
  formatScore: (score) => String(score),
  seed: (view) => (view ? { commitment: view.seed_commitment, seed: view.seed } : null),
  summary: (view) => (view.over ? "finished" : `runner ${view.turn + 1} to roll`),
};
