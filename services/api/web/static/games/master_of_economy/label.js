// How the page names a seat: the player's name, or "Player 2"; a seat the computer plays from the start (a
// stand-in), "Computer 2".

/** ``player`` = {seat, kind, name, payload}; ``view`` may be null (the lobby). */
export function seatLabel(player) {
  if (player.kind === "stand_in" || player.kind === "ai") return `Computer ${player.seat + 1}`;
  return player.name || `Player ${player.seat + 1}`;
}
