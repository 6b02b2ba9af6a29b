// How the page names a seat: the player's name, or "Player 2"; a seat the computer plays, "Computer (medium)".

/** ``player`` = {seat, kind, name, payload}; ``view`` may be null (the lobby). */
export function seatLabel(player, view) {
  const spec = view && view.variant && view.variant.seats ? view.variant.seats[player.seat] : null;
  const ai = player.kind === "ai" || (spec && spec.kind === "ai");
  if (!ai) return player.name || `Player ${player.seat + 1}`;
  const level = (player.payload && player.payload.level) || (spec && spec.level) || "";
  const computers = view && view.variant && view.variant.seats ? view.variant.seats.filter((s) => s.kind === "ai").length : 1;
  const who = computers > 1 ? `Computer ${player.seat + 1}` : "Computer";
  return level ? `${who} (${level})` : who;
}
