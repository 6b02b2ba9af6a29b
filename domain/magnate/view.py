"""What a viewer may see (§4.2): a seat sees its own cash and advertising tokens, nobody else's; the
public sees the board; decks are counts, never orders; the auditor sees everything once it is over."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain.kernel import AUDITOR, Viewer, tag_of
from domain.kernel.viewing import opened

from . import pool
from .city import ALL_PLOTS, catalog_of, dice_count, dice_modifier, plot_value
from .pending import pending
from .state import AiState, Attraction, Auction, MagnateState, Phase, SeatKind, Standing


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    company: str
    kind: str
    cash: int | None
    """None unless the viewer may see it (own seat, the AI's public cash, the auditor)."""
    advertising: int | None
    plots: tuple[str, ...]


class PlotView(msgspec.Struct, frozen=True, kw_only=True):
    plot: str
    feature: str | None = None
    owner: int | None = None
    building: str | None = None
    tenants: tuple[str, ...] = ()
    for_sale: bool = False
    dice: int | None = None
    """For a building: how many dice it would roll now."""
    modifier: int | None = None
    """For a building: what is added to each of its dice now."""
    value: int | None = None
    """For an owned plot: its sale value now (x land price = payout)."""


class MarketView(msgspec.Struct, frozen=True, kw_only=True):
    land_price_position: int
    land_price: int
    zone: str
    crash: int
    available: dict[str, int]
    supply: dict[str, int]
    advertising_spent: int
    plots_sold: int
    risk_deck: int
    risk_discard: tuple[str, ...]
    tenant_deck: int
    tenant_discard: tuple[str, ...]
    marker_supply: int


class AiView(msgspec.Struct, frozen=True, kw_only=True):
    """The AI board (§4.2: its level, holdings and discard pile are public; its decks are counts)."""

    seat: int
    level: int
    decks: tuple[int, ...]
    """Cards not yet drawn, per level (index 0 = level I): counts only, never which cards."""
    discard: tuple[str, ...]
    last_card: str | None
    bottom_row: tuple[str | None, ...]
    """Unbuilt plots by slot (None = an empty slot)."""
    top_row: tuple[str, ...]
    """Built plots, left to right."""


class MagnateView(msgspec.Struct, frozen=True, kw_only=True):
    viewer: str
    phase: str
    round: int
    dataset: str
    advanced: bool
    tutorial: bool
    difficulty: str | None
    first_player: int
    on_turn: tuple[int, ...]
    system_job: str | None
    seats: tuple[SeatView, ...]
    neighbourhoods: tuple[str, ...]
    plots: tuple[PlotView, ...]
    market: MarketView
    auction: Auction | None
    attraction: Attraction | None
    attracted: tuple[str, ...]
    standings: tuple[Standing, ...]
    seed_commitment: str
    seed: str | None
    ai: AiView | None = None
    """The AI's board, when an AI is seated."""


def view(state: MagnateState, viewer: Viewer, game_over: bool = False) -> MagnateView:
    """The projection of ``state`` for ``viewer``.

    Args:
        state: Any state of the game, current or historical.
        viewer: A seat, the public or the auditor.
        game_over: Whether the game this state belongs to has ended (lets the auditor see a historical
            state of a finished game).

    Raises:
        ViewUnavailable: for the auditor while the game runs, or before the game was set up.
    """
    opened(viewer, game_over or state.phase == Phase.ENDED, bool(state.seats))
    cat = catalog_of(state)
    due = pending(state)
    return MagnateView(
        viewer=str(viewer),
        phase=str(state.phase),
        round=state.round,
        dataset=state.dataset,
        advanced=state.advanced,
        tutorial=state.tutorial,
        difficulty=state.difficulty,
        first_player=state.first_player,
        on_turn=tuple(due.seats),
        system_job=tag_of(due.system) if due.system is not None else None,
        seats=tuple(_seat_view(state, i, viewer) for i in range(len(state.seats))),
        neighbourhoods=state.neighbourhoods,
        plots=tuple(_plot_view(state, plot) for plot in ALL_PLOTS),
        market=MarketView(
            land_price_position=state.land_price,
            land_price=cat.price(state.land_price),
            zone=cat.zone(state.land_price).key,
            crash=state.crash,
            available=pool.as_dict(state, state.available),
            supply=pool.as_dict(state, state.supply),
            advertising_spent=state.advertising_spent,
            plots_sold=state.plots_sold,
            risk_deck=len(state.risk_deck),
            risk_discard=state.risk_discard,
            tenant_deck=len(state.tenant_deck),
            tenant_discard=state.tenant_discard,
            marker_supply=len(state.marker_supply),
        ),
        auction=state.auction,
        attraction=state.attraction,
        attracted=state.attracted,
        standings=state.standings,
        seed_commitment=state.seed_commitment,
        seed=state.seed,
        ai=_ai_view(state.ai) if state.ai is not None else None,
    )


def views(state: MagnateState, viewers: Sequence[Viewer], game_over: bool = False) -> list[MagnateView]:
    """:func:`view` for each of ``viewers``: the board, the market and the AI are the same for all of them, so they
    are made once and only the viewer and the seats (whose cash a viewer may see) differ."""
    made: list[MagnateView] = []
    for viewer in viewers:
        if not made:
            made.append(view(state, viewer, game_over))
            continue
        opened(viewer, game_over or state.phase == Phase.ENDED, bool(state.seats))
        made.append(msgspec.structs.replace(made[0], viewer=str(viewer), seats=tuple(
            _seat_view(state, i, viewer) for i in range(len(state.seats)))))
    return made


def _ai_view(ai: AiState) -> AiView:
    return AiView(
        seat=ai.seat,
        level=ai.level,
        decks=tuple(len(deck) for deck in ai.decks),
        discard=ai.discard,
        last_card=ai.last_card,
        bottom_row=ai.bottom_row,
        top_row=ai.top_row,
    )


def _seat_view(state: MagnateState, seat: int, viewer: Viewer) -> SeatView:
    s = state.seats[seat]
    # Final cash is published by GameEnded, and the AI's cash is public (§4.2).
    visible = viewer in (AUDITOR, seat) or state.phase == Phase.ENDED or s.kind == SeatKind.AI
    return SeatView(
        seat=seat,
        company=s.company,
        kind=str(s.kind),
        cash=s.cash if visible else None,
        advertising=s.advertising if visible else None,
        plots=tuple(ALL_PLOTS[i] for i, p in enumerate(state.plots) if p.owner == seat),
    )


def _plot_view(state: MagnateState, plot: str) -> PlotView:
    here = state.plots[ALL_PLOTS.index(plot)]
    built = here.building is not None
    return PlotView(
        plot=plot,
        feature=here.feature,
        owner=here.owner,
        building=here.building,
        tenants=here.tenants,
        for_sale=here.for_sale,
        dice=dice_count(state, plot) if built else None,
        modifier=dice_modifier(state, plot) if built else None,
        value=plot_value(state, plot) if here.owner is not None else None,
    )
