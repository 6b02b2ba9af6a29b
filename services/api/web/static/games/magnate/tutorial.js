// The tutorial against the computer: what the shell's help (shell/help.js) needs to know of a Magnate position to
// pick the tutorial's step (the steps and their words are the game's help, domain/magnate/help/en.toml): whether
// the seat is to move, and whether it owns land, a building, tenants. Only facts of the seat's own view.

/** The facts of ``state`` ({view, legal, seat}) the tutorial's steps name beside the view's own fields. */
export function tutorialFacts({ view, legal, seat }) {
  const mine = (view && seat !== null ? view.plots : []).filter((p) => p.owner === seat);
  return {
    mine_on_turn: seat !== null && (legal || []).length > 0,
    owns_land: mine.length > 0,
    owns_building: mine.some((p) => p.building),
    has_tenants: mine.some((p) => p.building && p.tenants.length > 0),
  };
}
