"""What the computer expects of the rest of the game, from public facts and its own seat only (never another
player's hidden cash or sealed choice): how many productions and trade phases are left, what a corporation's share
will be worth at the end, and what a packet of it brings its holder once the corporation's cash is shared out."""

from __future__ import annotations

from ..bidding import trade_phase
from ..holders import cat_of, held, player_holders
from ..state import Corp, State

LAST_TRADE = 8
"""The game ends after the eighth trade phase at the latest (ME-E-1, ME-G-6)."""
_BEFORE_RESOLUTION = frozenset({"ac_move", "tokens", "bids", "resolve"})
"""The steps of a trade phase before its market is resolved."""


def trades_done(state: State) -> int:
    """Trade phases already resolved."""
    if state.number < 4:
        return 2 * (state.stage - 1)
    if state.number == 4:
        return 2 * (state.stage - 1) + (1 if state.step not in _BEFORE_RESOLUTION else 0)
    if state.number < 9:
        return 2 * (state.stage - 1) + 1
    return 2 * (state.stage - 1) + (2 if state.number > 9 or state.step not in _BEFORE_RESOLUTION else 1)


def trades_left(state: State) -> int:
    """Trade phases still to come, the current one included while its bids are open; fewer when a corporation
    is close to the end's points (ME-E-1)."""
    left = LAST_TRADE - trades_done(state)
    end = cat_of(state).rules.game.end_points
    leader = max((c.points for c in state.corps), default=0)
    if leader >= end - 8:
        left = min(left, 1 + max(0, end - leader) // 5)
    return max(left, 0)


def is_last_trade(state: State) -> bool:
    """The trade phase whose bids are open is (probably) the last one."""
    return (state.stage >= 1 and trade_phase(state) >= LAST_TRADE) or trades_left(state) <= 1


def productions_left(state: State) -> int:
    """Productions still to come whose goods can still be sold (each is followed by a trade phase)."""
    return trades_left(state) if state.number <= 3 or 5 <= state.number <= 8 else max(trades_left(state) - 1, 0)


def final_points(state: State, corp: Corp, far: bool) -> int:
    """The points ``corp`` should end with: now, or (``far``) at its pace so far for the phases left."""
    if not far or corp.automated:
        return corp.points
    done = max(trades_done(state), 1)
    pace = corp.points // done + 1
    return min(corp.points + pace * trades_left(state), cat_of(state).rules.game.max_points)


def final_price(state: State, corp: Corp, far: bool) -> int:
    return cat_of(state).price(final_points(state, corp, far))


def end_share(state: State, corp: Corp, holder: str, extra: int, far: bool) -> int:
    """What ``holder`` gets at the end from ``corp`` holding ``extra`` more shares: its shares at the final price
    plus its part of the corporation's cash net of credits (ME-E-3, ME-E-4)."""
    mine = sum(held(corp, holder)) + extra
    if mine <= 0:
        return 0
    others = sum(sum(held(corp, f"seat:{s}")) for s in player_holders(corp) if f"seat:{s}" != holder)
    cash = max(corp.cash - cat_of(state).rules.credits.reserve * corp.credits, 0)
    part = cash * mine // (mine + others) if not corp.automated and holder.startswith("seat:") else 0
    return mine * final_price(state, corp, far) + part
