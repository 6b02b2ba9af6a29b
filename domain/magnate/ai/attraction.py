"""§11.4: the AI's phase 2 turn. It rolls nothing: every die counts as a 6, then the normal modifiers
apply; it attracts to each top-row building below capacity, left to right; then the advertising icon
of its most recently resolved card adds to the round's advertising spent. It never collects rent."""

from __future__ import annotations

from collections.abc import Mapping

from msgspec.structs import replace

from domain.kernel import Chance
from domain.kernel.phrases import say_n

from .. import pool
from ..catalog import TenantKind
from ..city import catalog_of, dice_count, dice_modifier, plot_at
from ..events import AiAdvertised, AiDecided, AiDieRolled, AttractionStarted, DiceSettled, RentCollected, TenantsMovedIn
from ..recorder import Recorder
from ..rules.attraction import room
from ..rules.sets import standard_sets
from ..state import MagnateState
from .deck import ai_of
from .tiebreak import pick

AI_FACE = 6
"""§11.4 step 2: the AI treats every die as a 6."""


def attract(rec: Recorder, chance: Chance) -> None:
    ai = ai_of(rec.state)
    for plot in ai.top_row:
        if room(rec.state, plot) > 0:
            _attract_one(rec, chance, plot)
    state = rec.state
    cat = catalog_of(state)
    tokens = cat.ai_cards[ai.last_card].ads if ai.last_card else 0
    rec.emit(AiAdvertised(seat=ai.seat, tokens=tokens, card=ai.last_card), RentCollected(seat=ai.seat, amount=0))


def _attract_one(rec: Recorder, chance: Chance, plot: str) -> None:
    state = rec.state
    seat = ai_of(state).seat
    n = dice_count(state, plot)
    m = dice_modifier(state, plot)
    value = AI_FACE + m
    rec.emit(AttractionStarted(seat=seat, plot=plot, advertising=0, dice=n),
             DiceSettled(seat=seat, plot=plot, fives=(), modifier=m, final=(value,) * n))
    cat = catalog_of(rec.state)
    here = plot_at(rec.state, plot)
    assert here.building is not None
    tenant_type = cat.buildings[here.building].tenant_type
    free = room(rec.state, plot)
    if not rec.state.advanced:
        sets = standard_sets((value,) * n, cat.kinds[tenant_type].requirement)
        moving = min(sets, free, pool.count(rec.state, rec.state.available, tenant_type))
        tenants: tuple[str, ...] = (tenant_type,) * moving
        reason = f"{n} dice as 6{m:+d} = {value}: {sets} set(s), room for {free}"
        why = say_n("{plot}: {dice} dice as 6{modifier} = {value}: sets: {sets}, room for {free} → {n} tenant",
                    "{plot}: {dice} dice as 6{modifier} = {value}: sets: {sets}, room for {free} → {n} tenants", "n",
                    plot=plot, dice=n, modifier=format(m, "+d"), value=value, sets=sets, free=free, n=len(tenants))
    else:
        available = pool.of_type(rec.state, rec.state.available, tenant_type)
        tenants, rolls = hardest_first(cat.kinds, available, value, n, free, chance, seat=seat)
        rec.emit(*rolls)
        reason = f"{n} dice as 6{m:+d} = {value}: hardest tenants first"
        why = say_n("{plot}: {dice} dice as 6{modifier} = {value}: hardest tenants first → {n} tenant",
                    "{plot}: {dice} dice as 6{modifier} = {value}: hardest tenants first → {n} tenants", "n",
                    plot=plot, dice=n, modifier=format(m, "+d"), value=value, n=len(tenants))
    rec.emit(AiDecided(seat=seat, card=None, action="attract", reason=f"{plot}: {reason} → {len(tenants)} tenant(s)",
                       why=why),
             TenantsMovedIn(seat=seat, plot=plot, tenants=tuple(sorted(tenants))))


def hardest_first(
    kinds: Mapping[str, TenantKind], available: Mapping[str, int], value: int, dice: int, room: int, chance: Chance,
    *, seat: int,
) -> tuple[tuple[str, ...], tuple[AiDieRolled, ...]]:
    """§11.4 step 4: the tenants the AI takes into a building with ``room`` free spaces, rolling ``dice`` dice
    that all show ``value``, from the ``available`` counts of each subtype of the building's type; returns them
    in the order taken and every tie-break die rolled on the way (for ``seat``).

    Repeatedly the hardest available subtype the dice allow (highest t, then k), ties by highest rent, then by
    die among the tied in ``kinds`` order (T3). ``kinds`` is the game's ``Catalog.kinds``, passed in so that the
    choice can be checked on tenant data the shipped datasets lack (no two v1 subtypes of a type tie)."""
    chosen: list[str] = []
    rolls: list[AiDieRolled] = []
    while len(chosen) < room:
        fits = [k for key, k in kinds.items()
                if available.get(key, 0) > chosen.count(key) and k.requirement.at_least <= value
                and k.requirement.dice <= dice]
        if not fits:
            break
        best = _tied_best(fits)
        if len(best) == 1:
            kind = best[0].key
        else:
            kind, faces = pick(chance, [k.key for k in best])
            rolls.append(AiDieRolled(seat=seat, purpose="tenant subtype", candidates=tuple(k.key for k in best),
                                     faces=faces, chosen=kind))
        chosen.append(kind)
        dice -= kinds[kind].requirement.dice
    return tuple(chosen), tuple(rolls)


def _tied_best(fits: list[TenantKind]) -> list[TenantKind]:
    def rank(k: TenantKind) -> tuple[int, int, int]:
        return (k.requirement.at_least, k.requirement.dice, k.rent)

    top = max(rank(k) for k in fits)
    return [k for k in fits if rank(k) == top]


def apply_advertised(state: MagnateState, event: AiAdvertised) -> MagnateState:
    return replace(state, advertising_spent=state.advertising_spent + event.tokens)
