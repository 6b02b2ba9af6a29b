"""What a viewer may see (spec §17, "Hidden information"): everything but another seat's sealed choice while it is
sealed (the auction bid, the AC token, the meeting's ballots: a viewer sees only whether each seat has chosen) and,
with ``player_cash_hidden``, another player's cash, and another seat's standing shortfall preferences (§17,
"Interrupts"). Corporations' cash, goods, factories, credits, packets and points are public (ME-G-3), as is every
bid on the market board. Once the game is over everything is shown and the auditor's view opens.
"""

from __future__ import annotations

import msgspec

from domain.kernel import Viewer
from domain.kernel.viewing import opened

from .ballots import dividend_lines, election_lines, voters
from .bidding import bids_of, tokens_available, trade_phase
from .cursor import CORPORATION_STEPS, SEALED_STEPS, actor, target_corp
from .holders import cat_of, held, price, seat_holder
from .pending import pending
from .shortfall import most_cover
from .state import Preferences, Result, State, Step
from .variant import Variant


class CorpView(msgspec.Struct, frozen=True, kw_only=True):
    key: str
    name: str
    automated: bool
    cash: int
    points: int
    price: int
    goods: tuple[int, ...]
    factories: tuple[int, ...]
    supplied: tuple[int, ...]
    credits: int
    receipts: int
    packets: tuple[str, ...]
    """The holder of each packet, denomination 1 first."""
    manager: int | None
    elected: int | None
    bids: int
    """Bids it has on the market board now."""


class PlayerView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    corporation: str | None
    """The corporation the player picked at the start."""
    cash: int | None
    """None: hidden from this viewer (ME-S-10)."""
    receipts: int
    tokens: tuple[int, ...]
    """The AC tokens available now (ME-V-7; the one committed last trade phase is not)."""
    start_bid: int | None
    """The auction bid, once revealed (ME-S-9)."""
    shares: dict[str, tuple[int, ...]]
    """Packets held, per corporation."""
    chosen: bool | None
    """In a sealed step (and, for AC tokens, until they are scored): whether the seat has made its choice."""
    choice: tuple[int, ...] | None
    """The seat's own sealed choice, for that seat only (and everyone once revealed or over)."""
    preferences: Preferences | None = None
    """The seat's standing shortfall preferences (§17), for that seat only (and everyone once the game is over);
    None: none set, or not this viewer's to see."""


class RowView(msgspec.Struct, frozen=True, kw_only=True):
    commodity: str
    imports: tuple[str, ...]
    aside: tuple[str, ...]
    exports: tuple[str | None, ...]
    ac: bool
    demand: int
    stage: int


class ShortfallView(msgspec.Struct, frozen=True, kw_only=True):
    corporation: str
    due: int
    reason: str
    covered: bool
    sold: bool
    most_cover: int | None
    """The largest gift the manager may give (for the manager, or everyone while cash is open)."""


class MeetingView(msgspec.Struct, frozen=True, kw_only=True):
    proposals: tuple[int, ...]
    candidates: tuple[int, ...]
    declined: tuple[int, ...]
    tied: tuple[int, ...]
    ballot: tuple[str, ...]
    """This viewer's ballot lines at a vote: ``holder`` (election) or ``holder@dividend`` (``chair@k``: the
    manager's own voice for an exact half)."""
    voters: tuple[int, ...]


class MoeView(msgspec.Struct, frozen=True, kw_only=True):
    viewer: str
    variant: Variant
    step: str
    stage: int
    phase: int
    trade_phase: int
    turn: int
    round: int
    target: str | None
    """The corporation a meeting step or the receipts treat now."""
    actor: str | None
    """The corporation (key) or seat (``seat:N``) whose turn it is."""
    waiting: tuple[int, ...]
    order: tuple[str, ...]
    corps: tuple[CorpView, ...]
    players: tuple[PlayerView, ...]
    rows: tuple[RowView, ...]
    shortfall: ShortfallView | None
    meeting: MeetingView
    results: tuple[Result, ...]
    seed_commitment: str
    seed: str | None


def view(state: State, viewer: Viewer, game_over: bool = False) -> MoeView:
    """The projection of ``state`` for ``viewer``.

    Raises:
        ViewUnavailable: for the auditor while the game runs, or before the game was set up.
    """
    over = game_over or state.step == Step.ENDED
    sees_all = opened(viewer, over, bool(state.players))
    cat = cat_of(state)
    keys = [c.key for c in state.corps]
    corps = tuple(CorpView(
        key=c.key, name=cat.corporation(c.key).name, automated=c.automated, cash=c.cash, points=c.points,
        price=price(state, i), goods=c.goods, factories=c.factories, supplied=c.supplied, credits=c.credits,
        receipts=c.receipts, packets=c.packets, manager=c.manager, elected=c.elected, bids=bids_of(state, i))
        for i, c in enumerate(state.corps))
    sealed_now = state.step in SEALED_STEPS or any(s is not None for s in state.sealed)
    players = tuple(PlayerView(
        seat=s, corporation=p.corporation,
        cash=p.cash if sees_all or viewer == s or not state.variant.player_cash_hidden else None,
        receipts=p.receipts, tokens=tokens_available(state, s) if state.corps and any(
            c.automated for c in state.corps) else (),
        start_bid=p.start_bid,
        shares={k: held(c, seat_holder(s)) for k, c in zip(keys, state.corps, strict=True) if held(c, seat_holder(s))},
        chosen=(state.sealed[s] is not None) if sealed_now and s < len(state.sealed) else None,
        choice=state.sealed[s] if s < len(state.sealed) and (sees_all or viewer == s) else None,
        preferences=p.preferences if sees_all or viewer == s else None)
        for s, p in enumerate(state.players))
    rows = tuple(RowView(
        commodity=cat.commodities[r].key, imports=tuple(keys[c] for c in row.imports),
        aside=tuple(keys[c] for c in row.aside), exports=tuple(keys[c] if c is not None else None for c in row.exports),
        ac=row.ac, demand=row.demand, stage=row.stage) for r, row in enumerate(state.rows))
    return MoeView(
        viewer=str(viewer), variant=state.variant, step=str(state.step), stage=state.stage, phase=state.number,
        trade_phase=trade_phase(state) if state.number in (4, 9) else 0, turn=state.turn, round=state.round,
        target=keys[target_corp(state)] if state.order and state.target < len(state.order) else None,
        actor=_actor(state), waiting=tuple(int(s) for s in pending(state).seats),
        order=tuple(keys[c] for c in state.order), corps=corps, players=players, rows=rows,
        shortfall=_shortfall(state, viewer, sees_all), meeting=_meeting(state, viewer),
        results=state.results, seed_commitment=state.seed_commitment, seed=state.seed)


def _actor(state: State) -> str | None:
    who = actor(state)
    if who is None:
        return None
    return state.corps[who].key if state.step in CORPORATION_STEPS else seat_holder(who)


def _shortfall(state: State, viewer: Viewer, sees_all: bool) -> ShortfallView | None:
    sf = state.shortfall
    if sf is None:
        return None
    manager = state.corps[sf.corporation].manager
    show = sees_all or not state.variant.player_cash_hidden or viewer == manager
    return ShortfallView(corporation=state.corps[sf.corporation].key, due=sf.due, reason=sf.reason,
                         covered=sf.covered, sold=sf.sold, most_cover=most_cover(state) if show else None)


def _meeting(state: State, viewer: Viewer) -> MeetingView:
    m = state.meeting
    lines: tuple[str, ...] = ()
    who: tuple[int, ...] = ()
    if state.step in (Step.VOTE, Step.BALLOT):
        dividend = state.step == Step.VOTE
        who = voters(state, dividend)
        if isinstance(viewer, int):
            lines = (tuple(f"{h}@{k}" for h, k in dividend_lines(state, viewer)) if dividend
                     else election_lines(state, viewer))
    return MeetingView(proposals=m.proposals, candidates=m.candidates, declined=m.declined, tied=m.tied,
                       ballot=lines, voters=who)
