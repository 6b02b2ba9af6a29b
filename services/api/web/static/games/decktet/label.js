// How the page names a seat: the player's name, or "Player 2"; a seat the computer plays, "Computer (medium)".

import { t, tc } from "./words.js";

/** ``player`` = {seat, kind, name, payload}; ``view`` may be null (the lobby). */
export function seatLabel(player, view) {
  const spec = view && view.variant && view.variant.seats ? view.variant.seats[player.seat] : null;
  const ai = player.kind === "ai" || (spec && spec.kind === "ai");
  if (!ai) return player.name || t("Player {number}", { number: player.seat + 1 });
  const level = (player.payload && player.payload.level) || (spec && spec.level) || "";
  const computers = view && view.variant && view.variant.seats ? view.variant.seats.filter((s) => s.kind === "ai").length : 1;
  const many = computers > 1;
  if (!level) return many ? t("Computer {number}", { number: player.seat + 1 }) : t("Computer");
  const said = levelName(level);
  return many ? t("Computer {number} ({level})", { number: player.seat + 1, level: said }) : t("Computer ({level})", { level: said });
}

/** A computer's level in words ("medium"). */
export function levelName(level) {
  switch (level) {
    case "easy": return tc("level", "easy");
    case "medium": return tc("level", "medium");
    case "hard": return tc("level", "hard");
    default: return level;
  }
}
