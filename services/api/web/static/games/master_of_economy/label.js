// How the page names a seat: the player's name, or "Player 2"; a seat the computer plays, "Computer 2 (shrewd)"
// (its level from the seat's payload or the variant); a seat the table's stand-in plays from the start, "Computer 2".

import { t } from "./words.js";

const LEVELS = { basic: t("basic"), shrewd: t("shrewd") };

/** ``player`` = {seat, kind, name, payload}; ``view`` may be null (the lobby). */
export function seatLabel(player, view) {
  const spec = view && view.variant && view.variant.seats ? view.variant.seats[player.seat] : null;
  const ai = player.kind === "ai" || (spec && spec.kind === "ai");
  if (!ai && player.kind !== "stand_in") return player.name || t("Player {number}", { number: player.seat + 1 });
  const level = ai ? (player.payload && player.payload.level) || (spec && spec.level) || "" : "";
  return level ? t("Computer {number} ({level})", { number: player.seat + 1, level: LEVELS[level] || level })
    : t("Computer {number}", { number: player.seat + 1 });
}
