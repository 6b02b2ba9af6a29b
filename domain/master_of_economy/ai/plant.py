"""The computer's factories: which corporation to pick, what to build or sell (§4) and what to supply (§5).

It builds along the production chain (quarries for the building material, then the energy and coal loop, then iron
ore, steel and ships), keeping cash for the inputs and the bids; ``counts_time`` stops when a new factory cannot
produce enough before the end, and sells idle factories for cash in the last investments (factories are worth
nothing at the end, ME-E-2)."""

from __future__ import annotations

from domain.kernel import Chance, Seat
from domain.kernel.phrases import Arg, Listing, Phrase, say

from ..commands import Build, Pass, PickCorporation, PlayerCommand, SellFactory, Supply
from ..folding import evolve
from ..holders import cat_of
from ..legal import legal_commands
from ..playing import play
from ..recorder import Recorder
from ..state import State
from ..wording import counted, times
from . import words
from .levels import Profile
from .outlook import productions_left

BUILD_ORDER = ("quarry", "power_plant", "coal_mine", "quarry", "ore_mine", "steel_works", "power_plant",
               "coal_mine", "shipyard", "shipyard", "steel_works", "ore_mine", "power_plant", "coal_mine",
               "shipyard", "quarry", "steel_works", "shipyard", "power_plant", "coal_mine")
"""The factories a corporation aims to own, in the order it builds them."""
SUPPLY_ORDER = ("shipyard", "steel_works", "coal_mine", "ore_mine", "power_plant")
"""Which factories get their inputs first when they run short: the most valuable output first, then the loop."""
RESERVE = 4
"""Cash a corporation keeps after its builds (for an input bought abroad, a fine, the interest)."""

Plan = tuple[tuple[PlayerCommand, ...], Phrase]


def pick(state: State, seat: int, profile: Profile) -> Plan:
    """ME-S-1: the first corporation left (they differ only in name and colour)."""
    choice = next(t.command for t in legal_commands(state, Seat(seat)) if isinstance(t.command, PickCorporation))
    assert isinstance(choice, PickCorporation)
    return (choice,), say("picks {corporation}: the corporations differ only in colour.",
                          corporation=words.corp(state, choice.corporation))


def _wanted(owned: dict[str, int], chance: Chance) -> str | None:
    """The next factory of the build order the corporation lacks; now and then (one time in four) the one after
    it, so that no two games are played alike."""
    seen: dict[str, int] = {}
    lacking: list[str] = []
    for key in BUILD_ORDER:
        seen[key] = seen.get(key, 0) + 1
        if owned.get(key, 0) < seen[key] and key not in lacking:
            lacking.append(key)
            if len(lacking) == 2:
                break
    if not lacking:
        return None
    return lacking[1] if len(lacking) > 1 and chance.below(4) == 0 else lacking[0]


def invest(state: State, seat: int, corp: int, profile: Profile, chance: Chance) -> Plan:
    """ME-I-1..5: the builds of the build order the corporation can afford, or the last investments' sales."""
    cat = cat_of(state)
    left = productions_left(state)
    rec = Recorder(state, evolve)
    moves: list[PlayerCommand] = []
    if profile.counts_time and left <= 1:
        sales = _idle(state, corp)
        for key in sales:
            sale = SellFactory(factory=key)
            if any(t.command == sale for t in legal_commands(rec.state, Seat(seat))):
                play(rec, seat, sale)
                moves.append(sale)
        sold = [words.factory(state, m.factory) for m in moves if isinstance(m, SellFactory)]
        why = (say("sells {factories} for cash: factories are worth nothing at the end.", factories=counted(sold))
               if sold else say("builds nothing: a new factory could not pay for itself before the end."))
        return (*moves, Pass()), why
    reserve = RESERVE + (2 if profile.counts_time else 0)
    while True:
        held = rec.state.corps[corp]
        owned = {f.key: n for f, n in zip(cat.factories, held.factories, strict=True)}
        wanted = _wanted(owned, chance)
        if wanted is None or (profile.counts_time and left < 2):
            break
        move = Build(factory=wanted)
        spec = cat.factories[cat.factory_index(wanted)]
        if held.cash - spec.build_cash < reserve or not any(t.command == move
                                                            for t in legal_commands(rec.state, Seat(seat))):
            break
        play(rec, seat, move)
        moves.append(move)
    built = [words.factory(state, m.factory) for m in moves if isinstance(m, Build)]
    if built:
        why = say("builds {factories}, the next links of its production chain.", factories=counted(built))
    elif profile.counts_time and left < 2:
        why = say("builds nothing: a new factory could not pay for itself before the end.")
    else:
        why = say("builds nothing this time: it keeps its cash (or lacks the building material).")
    return (*moves, Pass()), why


def _idle(state: State, corp: int) -> list[str]:
    """Up to two factories to sell in the last investments: ones that cannot be supplied, then quarries."""
    cat = cat_of(state)
    held = state.corps[corp]
    out: list[str] = []
    for t, f in enumerate(cat.factories):
        need = cat.inputs(t)
        if held.factories[t] and any(need) and any(n and held.goods[c] < n for c, n in enumerate(need)):
            out += [f.key] * min(held.factories[t], 2)
    quarry = next(t for t, f in enumerate(cat.factories) if not any(cat.inputs(t)))
    out += [cat.factories[quarry].key] * held.factories[quarry]
    return out[:cat.rules.investments.max_sales]


def procure(state: State, seat: int, corp: int, profile: Profile) -> Plan:
    """ME-P-1: every factory it can supply, the most valuable output first."""
    rec = Recorder(state, evolve)
    moves: list[PlayerCommand] = []
    for key in SUPPLY_ORDER:
        for template in legal_commands(rec.state, Seat(seat)):
            command = template.command
            if isinstance(command, Supply) and command.factory == key:
                play(rec, seat, command)
                moves.append(command)
    supplied: list[Arg] = [times(m.count, words.factory(state, m.factory)) for m in moves if isinstance(m, Supply)]
    why = (say("supplies {factories}.", factories=Listing(tuple(supplied))) if supplied
           else say("has no inputs for its factories this time."))
    return (*moves, Pass()), why
