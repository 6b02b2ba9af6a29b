"""Setup (§3): seats, tiles, 'for sale' markers, starting tenants, money and advertising; the advanced
variant's random subtype draws (§3.2) and the tutorial's fixed setup (§3.3).

Random draws happen in this order (the audit re-derives them the same way): neighbourhood tiles,
centre tenants (advanced), available tenants (advanced), 'for sale' markers, first player.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import Chance, InvalidValue
from domain.kernel.datafiles import DataError
from domain.kernel.phrases import Listing, say, term

from ..ai.deck import initial_ai
from ..catalog import LETTERS, Catalog, catalog
from ..city import ALL_PLOTS, CENTRE, position_of
from ..commands import GameOptions, StartGame
from ..events import CentreBuilding, GameStarted, RoundStarted, SeatSetup
from ..state import MagnateState, Phase, PlotState, SeatKind, SeatState


def start(command: StartGame, chance: Chance) -> list[GameStarted | RoundStarted]:
    """Decide the whole setup. Raises InvalidValue for impossible options."""
    options = command.options
    cat = _catalog(options.dataset)
    seats = _seats(cat, options)
    n = len(seats)
    board = cat.board(n)
    supply = {kind: cat.kinds[kind].tokens for kind in cat.kind_keys(options.advanced)}
    if options.tutorial:
        tut = cat.setup.tutorial
        neighbourhoods = tut.neighbourhoods
        start_tenants = tut.start_tenants
    else:
        neighbourhoods = tuple(chance.shuffle(sorted(cat.neighbourhoods))[: cat.setup.neighbourhoods_in_play])
        start_tenants = board.start_tenants
    centre = tuple(
        CentreBuilding(f"{CENTRE}{c.letter}", c.building, _draw(chance, cat, supply, c.tenant_type, c.tenants))
        for c in cat.files.city_centre
        if c.building
    )
    available = tuple(
        kind for t in cat.type_order for kind in _draw(chance, cat, supply, t, start_tenants.get(t, 0))
    )
    for_sale: list[str] = list(cat.setup.tutorial.for_sale)
    removed: list[str] = []
    if not options.tutorial:
        for_sale, removed = _draw_markers(chance, cat, neighbourhoods, board.setup_for_sale)
    if options.tutorial:
        first = [s.company for s in seats].index(cat.setup.tutorial.first_player)
        crash = cat.setup.tutorial.crash_start
    else:
        first = chance.below(n)
        crash = cat.crash.start
    is_ai = [s.kind == SeatKind.AI for s in seats]
    started = GameStarted(
        dataset=cat.dataset,
        advanced=options.advanced,
        tutorial=options.tutorial,
        difficulty=options.difficulty if any(is_ai) else None,
        seats=seats,
        cash=tuple(cat.setup.ai_cash if ai else cat.setup.cash for ai in is_ai),
        advertising=tuple(cat.setup.ai_advertising if ai else cat.setup.advertising for ai in is_ai),
        neighbourhoods=tuple(neighbourhoods),
        centre=centre,
        available=available,
        for_sale=tuple(for_sale),
        removed_markers=tuple(removed),
        land_price=cat.setup.land_price_start,
        crash=crash,
        first_player=first,
        seed_commitment=command.seed_commitment,
    )
    return [started, RoundStarted(round=1, opener=first)]


def _catalog(dataset: str) -> Catalog:
    try:
        return catalog(dataset)
    except DataError as exc:
        raise InvalidValue(phrase=say("unknown dataset {dataset}", dataset=dataset), dataset=dataset) from exc


def _seats(cat: Catalog, options: GameOptions) -> tuple[SeatSetup, ...]:
    specs = options.seats
    setup = cat.setup
    if options.tutorial:
        if len(specs) != len(setup.tutorial.seats) or options.advanced:
            raise InvalidValue(phrase=say("the tutorial setup is for exactly 5 seats on the standard side"))
        if any(s.kind != SeatKind.HUMAN for s in specs):
            raise InvalidValue(phrase=say("the tutorial setup has no AI seat"))
        return tuple(SeatSetup(company, SeatKind.HUMAN) for company in setup.tutorial.seats)
    if not setup.min_seats <= len(specs) <= setup.max_seats:
        raise InvalidValue(phrase=say("a game has {low} to {high} seats (the AI counts as one)", low=setup.min_seats,
                                      high=setup.max_seats))
    kinds = [s.kind for s in specs]
    if any(k not in tuple(SeatKind) for k in kinds):
        raise InvalidValue(phrase=say("a seat is 'human' or 'ai'"))
    if kinds.count(SeatKind.AI) > 1:
        raise InvalidValue(phrase=say("only one AI component set exists: at most one AI seat"))
    if SeatKind.HUMAN not in kinds:
        raise InvalidValue(phrase=say("a game needs at least one human seat"))
    if SeatKind.AI in kinds and options.difficulty not in cat.ai_difficulties:
        raise InvalidValue(phrase=say("an AI seat needs a difficulty, one of {levels}", levels=Listing(tuple(
            term(d.name) for d in cat.ai_difficulties.values()))))
    known = [c.key for c in setup.companies]
    chosen = [s.company for s in specs if s.company is not None]
    if any(c not in known for c in chosen) or len(set(chosen)) != len(chosen):
        raise InvalidValue(phrase=say("companies must be distinct, from {known}", known=Listing(tuple(
            term(c.name) for c in setup.companies))))
    spare = iter(c for c in known if c not in chosen)
    return tuple(
        SeatSetup(setup.ai_company.key if s.kind == SeatKind.AI else s.company or next(spare), s.kind)
        for s in specs
    )


def _draw(chance: Chance, cat: Catalog, supply: dict[str, int], tenant_type: str, count: int) -> tuple[str, ...]:
    """Take ``count`` tokens of a type from the supply: in the standard game the type itself, in the
    advanced game subtypes drawn at random without replacement (weighted by what is left, §3.2)."""
    if tenant_type in supply:
        supply[tenant_type] -= count
        return (tenant_type,) * count
    drawn: list[str] = []
    for _ in range(count):
        kinds = [k for k in supply if cat.kinds[k].tenant_type == tenant_type and supply[k] > 0]
        kind = kinds[chance.pick_weighted([supply[k] for k in kinds])]
        supply[kind] -= 1
        drawn.append(kind)
    return tuple(sorted(drawn))


def _draw_markers(
    chance: Chance, cat: Catalog, neighbourhoods: tuple[str, ...], wanted: int
) -> tuple[list[str], list[str]]:
    """§3.1 step 4: draw until ``wanted`` markers lie on buildable plots; feature plots' markers leave
    the game and are replaced."""
    supply = list(cat.for_sale.coordinates)
    placed: list[str] = []
    removed: list[str] = []
    while len(placed) < wanted and supply:
        coordinate = supply.pop(chance.below(len(supply)))
        tile = cat.neighbourhoods[neighbourhoods[int(coordinate[0]) - 1]]
        (removed if coordinate[1] in tile.features else placed).append(coordinate)
    return placed, removed


def apply_game_started(state: MagnateState, event: GameStarted) -> MagnateState:
    cat = catalog(event.dataset)
    features = {
        f"{position}{letter}": tile_feature
        for position, key in enumerate(event.neighbourhoods, start=1)
        for letter, tile_feature in cat.neighbourhoods[key].features.items()
    }
    centre = {c.plot: c for c in event.centre}
    for_sale = set(event.for_sale)
    plots = tuple(
        PlotState(
            feature=features.get(plot),
            building=centre[plot].building if plot in centre else None,
            tenants=centre[plot].tenants if plot in centre else (),
            for_sale=plot in for_sale,
        )
        for plot in ALL_PLOTS
    )
    kinds = cat.kind_keys(event.advanced)
    placed = [k for c in event.centre for k in c.tenants] + list(event.available)
    supply = tuple(cat.kinds[k].tokens - placed.count(k) for k in kinds)
    available = tuple(event.available.count(k) for k in kinds)
    used_markers = for_sale | set(event.removed_markers)
    assert all(position_of(p) != CENTRE and p[1] in LETTERS for p in for_sale)
    state = MagnateState(
        phase=Phase.SETUP,
        dataset=event.dataset,
        advanced=event.advanced,
        tutorial=event.tutorial,
        difficulty=event.difficulty,
        seed_commitment=event.seed_commitment,
        seats=tuple(
            SeatState(s.company, SeatKind(s.kind), cash, ads)
            for s, cash, ads in zip(event.seats, event.cash, event.advertising, strict=True)
        ),
        neighbourhoods=event.neighbourhoods,
        plots=plots,
        land_price=event.land_price,
        crash=event.crash,
        first_player=event.first_player,
        supply=supply,
        available=available,
        risk_deck=tuple(c.id for c in cat.files.risk_cards),
        tenant_deck=tuple(c.id for c in cat.files.new_tenant_cards),
        marker_supply=tuple(c for c in cat.for_sale.coordinates if c not in used_markers),
    )
    ai_seats = [i for i, s in enumerate(event.seats) if s.kind == SeatKind.AI]
    return replace(state, ai=initial_ai(state, ai_seats[0])) if ai_seats else state
