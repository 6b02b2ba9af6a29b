// The seat tokens this browser holds (the creator's own seat of a game it created, or an invite link it opened as a
// guest), in localStorage: [{game_id, game_type, seat, token, name, kept_at}], newest first, for every kind of game.
// Never another player's seat: the creator passes the other invite links on. A seat claimed by a signed-in player
// is played with the session, and its token is forgotten. Also kept: which seat this browser hosts in each game it
// created ({game_id: seat}), so the game page offers the host its invites.

const KEY = "seats.v2";
const HOSTING = "hosting.v1";
/** Before the page knew several games, each kept its seats under "<game type>.seats.v1" (the same entries,
 * without ``game_type``): they are moved here the first time the page runs. */
const OLD = /^([a-z0-9_]+)\.seats\.v1$/;

function read(key) {
  try {
    const raw = JSON.parse(localStorage.getItem(key) || "[]");
    return Array.isArray(raw) ? raw.filter((s) => s && typeof s === "object" && s.game_id && s.token) : [];
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

function migrate() {
  let keys = [];
  try {
    keys = Object.keys(localStorage).filter((k) => OLD.test(k));
  } catch (err) {
    return;
  }
  if (!keys.length) return;
  const list = read(KEY);
  for (const key of keys) {
    const gameType = OLD.exec(key)[1];
    for (const entry of read(key)) {
      if (!list.some((s) => s.game_id === entry.game_id && s.seat === entry.seat)) list.push({ ...entry, game_type: gameType });
    }
  }
  save(list);
  try {
    for (const key of keys) localStorage.removeItem(key);
  } catch (err) {
    // kept: merged again next time, which changes nothing
  }
}

function load() {
  migrate();
  return read(KEY);
}

export const seats = {
  all: () => load(),
  forGame: (gameId) => load().filter((s) => s.game_id === gameId),
  /** Remember a seat (replacing what was known about the same game and seat). */
  keep(entry) {
    const list = load();
    const old = list.find((s) => s.game_id === entry.game_id && s.seat === entry.seat) || {};
    const rest = list.filter((s) => s !== old);
    rest.unshift({ ...old, ...entry, kept_at: old.kept_at || new Date().toISOString() });
    save(rest);
  },
  /** Forget a token the server refused (or that a claim made useless). */
  forgetToken(token) {
    save(load().filter((s) => s.token !== token));
  },
  /** This browser created the game and hosts ``seat`` (with a value), or which seat it hosts (null: none). */
  hosting(gameId, seat) {
    let hosted = {};
    try {
      hosted = JSON.parse(localStorage.getItem(HOSTING) || "{}") || {};
    } catch (err) {
      hosted = {};
    }
    if (seat === undefined) return Number.isInteger(hosted[gameId]) ? hosted[gameId] : null;
    hosted[gameId] = seat;
    try {
      localStorage.setItem(HOSTING, JSON.stringify(hosted));
    } catch (err) {
      // forgotten: the host can still manage the invites from the lobby right after creating
    }
    return seat;
  },
};
