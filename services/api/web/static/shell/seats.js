// The seat tokens this browser holds (from games it created or invite links it opened), in localStorage.

const KEY = "magnate.seats.v1";

function load() {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(raw) ? raw : [];
  } catch (err) {
    return [];
  }
}

function save(list) {
  try {
    localStorage.setItem(KEY, JSON.stringify(list));
  } catch (err) {
    // private mode or a full store: the invite link still works, the list just forgets
  }
}

export const seats = {
  all: () => load(),
  forGame: (gameId) => load().filter((s) => s.game_id === gameId),
  /** Remember a seat (replacing what was known about the same game and seat). */
  keep(entry) {
    const list = load().filter((s) => !(s.game_id === entry.game_id && s.seat === entry.seat));
    const old = load().find((s) => s.game_id === entry.game_id && s.seat === entry.seat) || {};
    list.unshift({ ...old, ...entry, kept_at: old.kept_at || new Date().toISOString() });
    save(list);
  },
  /** Forget a token the server refused. */
  forgetToken(token) {
    save(load().filter((s) => s.token !== token));
  },
};
