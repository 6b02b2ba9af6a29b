// Game bundles: what each game adds to the shared shell. The shell (lobby, my games, seats and invites, the
// live connection, the history, the final standings) never names a game; a game of type T is drawn by the
// bundle at /static/games/T/index.js, imported on demand. Adding a game is one new folder there (or wherever the
// game registry says: the server serves each registered game's bundle folder at that URL).
//
// A bundle's default export (every function may be async unless said otherwise):
//
//   title: string                      short name for the page header ("<title> — Ada")
//   styles: [url]                      its stylesheets (absolute URLs: new URL("./x.css", import.meta.url))
//   labels: {seat, score}              column headings of the final standings ("Player", "Score" if absent)
//
//   optionsForm(container, entry, env) -> {read(), seats()}
//       Draws the game's part of the "New game" form into ``container``. ``entry`` is the game's line of
//       GET /api/catalog: {game, title, data_version, ai_levels, options_schema}. ``env.nameField(i)`` is the
//       shell's name field of seat i (an element to place in the seat's row; the shell reads it).
//       read() -> the game's ``options`` for POST /api/games; seats() -> [{kind: "human"|"ai"}], one per seat;
//       table() -> optional: more of the request's ``table`` ({stand_ins: [seat]}: human seats the computer
//       plays from the start); the shell adds its own choices (time limit, timeouts, take-back).
//
//   mount(slots, env) -> board
//       Builds the game's panels. ``slots``: {actions, turn, side, main} (elements: the move panel's controls,
//       more of the move panel, the side column, the main column). ``env``: {gameId, game (GET /api/games/{id}),
//       send(command) (submits a command as this seat; rejects with an ApiError to show in words),
//       lines() (the history so far: [{version, event, depth, text}], seats named; while replaying, up to the
//       version drawn)}.
//       board.render(state) -> {data attributes for <body>} | undefined; state = {view, legal, seat, players,
//           version, over}: the seat's view and legal commands (GET /me) or the public view (seat null).
//           Called when the game moved on, and by the replay (replay.js) with a past version's view (GET
//           /state?at=N; legal: [], and no events for onEvents meanwhile).
//       board.status(state) -> string     the header's status line (round, phase, whose turn)
//       board.onEvents(events)            sync, optional: new events (the stream's, and the recent log at
//                                         load), each as GET /events gives it (``redacted`` when hidden)
//       board.onHistory(lines)            sync, optional: the history got new lines (and nothing else changed)
//
//   seatLabel(player, view) -> string  sync: how headers, history and standings name a seat. ``player`` is
//                                      {seat, kind, name, payload} (GET /me, /api/games/{id}, a created
//                                      seat); ``view`` may be null (the lobby).
//   formatScore(score) -> string       sync: a standing's score ("1,200K")
//   seed(view) -> {commitment, seed}   sync, optional: the committed seed and, once revealed, the seed
//   lineClass(line) -> string          sync, optional: extra class of a history line
//   summary(view) -> string            sync, optional: the state in a few words for "My games" ("round 3")
//   tutorialFacts(state) -> {facts}    sync, optional: what the game's tutorial steps (its help's) name beside
//                                      the view's fields ({mine_on_turn: true}); see help.js

import { t } from "./i18n.js";

const loaded = new Map();
const REQUIRED = ["optionsForm", "mount", "seatLabel", "formatScore"];
const NAME = /^[a-z0-9_]{1,40}$/;

function addStyles(urls) {
  return Promise.all((urls || []).map((href) => {
    if ([...document.styleSheets].some((s) => s.href === href)) return null;
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    const ready = new Promise((resolve) => {
      link.addEventListener("load", resolve);
      link.addEventListener("error", resolve); // unstyled is still usable
    });
    document.head.append(link);
    return ready;
  }));
}

/** The bundle of a game type (its module imported once, its stylesheets loaded); an Error if there is none. */
export function bundleOf(gameType, { styles = true } = {}) {
  if (!NAME.test(gameType || "")) return Promise.reject(new Error(t("This server has no game called “{game}”.", { game: String(gameType) })));
  if (!loaded.has(gameType)) {
    loaded.set(gameType, import(`/static/games/${gameType}/index.js`).then((module) => {
      const bundle = module.default;
      const missing = REQUIRED.filter((name) => !bundle || typeof bundle[name] !== "function");
      if (missing.length) throw new Error(t("The page of the game “{game}” lacks {parts}.", { game: gameType, parts: missing.join(", ") }));
      return bundle;
    }).catch((err) => {
      loaded.delete(gameType);
      throw err;
    }));
  }
  return loaded.get(gameType).then(async (bundle) => {
    if (styles) await addStyles(bundle.styles);
    return bundle;
  });
}

/** A seat's player from a players list ({seat, kind, name, payload}), or a nameless one. */
export function playerOf(seat, players) {
  return (players || []).find((p) => p.seat === seat) || { seat, kind: "", name: "", payload: {} };
}
