"""§12, the additional corporation (AC) of the 2-3 player variant: an automated corporation with points and shares
only (ME-V-4). It acts through system commands, each recorded with why: before global trade phases 1-6 it places
a blocking marker on the highlighted field of the next row of its schedule (ME-V-9), and after a trade phase's
resolution it scores the players' committed tokens (ME-V-8). Its markers take demand in Step B (:mod:`.market`)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import WrongPhase
from domain.kernel.phrases import Arg, say, say_n

from .bidding import trade_phase
from .events import AcMarkerPlaced, AcScored
from .holders import cat_of, index, with_corp
from .state import State
from .wording import euros, goods


def ac_index(state: State) -> int | None:
    return next((i for i, c in enumerate(state.corps) if c.automated), None)


def marker_due(state: State) -> str | None:
    """ME-V-9: the commodity whose row gets the AC's marker before this trade phase, if any."""
    if ac_index(state) is None:
        return None
    schedule = cat_of(state).rules.ac.schedule
    k = trade_phase(state)
    return schedule[k - 1] if k <= len(schedule) else None


def place_marker(state: State) -> list[AcMarkerPlaced]:
    commodity = marker_due(state)
    ac = ac_index(state)
    if commodity is None or ac is None:
        raise WrongPhase(phrase=say("the AC places no marker now"))
    cat = cat_of(state)
    field = cat.rules.trade.highlighted_field
    why = say("before trade phase {phase} it blocks field {field} of {goods} for the rest of the game; the marker "
              "takes one unit of that row's demand in every trade phase while demand reaches it",
              phase=trade_phase(state), field=field, goods=goods(cat, commodity))
    return [AcMarkerPlaced(corporation=state.corps[ac].key, commodity=commodity, field=field, reason=why)]


def score(state: State) -> list[AcScored]:
    """ME-V-8: the committed tokens, revealed; the AC gains their sum, up to the top of the track."""
    ac = ac_index(state)
    if ac is None:
        raise WrongPhase(phrase=say("there is no additional corporation"))
    tokens = tuple(s[0] if s else 0 for s in state.sealed)
    held = state.corps[ac]
    points = min(cat_of(state).rules.game.max_points, held.points + sum(tokens))
    cat = cat_of(state)
    before, after = cat.price(held.points), cat.price(points)
    gained = points - held.points
    args: dict[str, Arg] = {"sum": sum(tokens), "before": held.points, "n": points, "gained": gained}
    if gained != sum(tokens):
        moved = say_n("the tokens add up to {sum}, so it goes from {before} to {n} point (+{gained})",
                      "the tokens add up to {sum}, so it goes from {before} to {n} points (+{gained})", "n", **args)
    else:
        moved = say_n("the tokens add up to {sum}, so it goes from {before} to {n} point",
                      "the tokens add up to {sum}, so it goes from {before} to {n} points", "n", **args)
    if after != before:
        why = say("{moved} and its share price rises from {before} to {after}", moved=moved, before=euros(before),
                  after=euros(after))
    else:
        why = say("{moved}; its price stays {price}", moved=moved, price=euros(after))
    return [AcScored(corporation=held.key, tokens=tokens, gained=points - held.points, points=points, reason=why)]


def apply_ac_marker_placed(state: State, event: AcMarkerPlaced) -> State:
    row = cat_of(state).commodity_index(event.commodity)
    rows = list(state.rows)
    rows[row] = replace(rows[row], ac=True)
    return replace(state, rows=tuple(rows))


def apply_ac_scored(state: State, event: AcScored) -> State:
    state = with_corp(state, index(state, event.corporation), points=event.points)
    players = tuple(replace(p, locked=t) for p, t in zip(state.players, event.tokens, strict=True))
    return replace(state, players=players, sealed=tuple(None for _ in state.players))
