"""Who acts at the current step: the actors a turn-based step walks through (corporations in action order, players
in the order the step uses), the corporation a step treats, and the seats a simultaneous step waits for.

These read the state only; :mod:`.flow` moves the cursor, :mod:`.pending` and :mod:`.legal` ask it who is due.
"""

from __future__ import annotations

from msgspec.structs import replace

from .bidding import empty_rows
from .events import MarketClosed, PhaseBegan, StageBegan, StepBegan
from .holders import cat_of, controller, held, holders
from .state import Corp, Meeting, State, Step

CORPORATION_STEPS = frozenset({Step.INVEST, Step.PROCURE, Step.BIDS, Step.INTEREST, Step.BANK_TRADE, Step.CREDIT,
                               Step.EMBEZZLE, Step.REDEEM})
"""Steps whose actors are the player-run corporations in action order (ME-G-7)."""
SEAT_STEPS = frozenset({Step.PICK, Step.PROPOSE, Step.PLAYER_TRADE, Step.RECEIPTS, Step.TIEBREAK})
"""Steps whose actors are players, one at a time."""
SEALED_STEPS = frozenset({Step.AUCTION, Step.TOKENS, Step.VOTE, Step.BALLOT})
"""Simultaneous steps whose choices are sealed (§17)."""
SYSTEM_STEPS = frozenset({Step.AUCTION_REVEAL, Step.AC_MOVE, Step.RESOLVE, Step.AC_SCORE, Step.VOTE_COUNT,
                          Step.BALLOT_COUNT})


def seats(state: State) -> range:
    return range(len(state.players))


def rounds(state: State) -> int:
    """How many rounds the current step has."""
    rules = cat_of(state).rules
    if state.step == Step.BANK_TRADE:
        return rules.shares.corporation_rounds
    if state.step == Step.PLAYER_TRADE:
        return rules.player_trade.rounds
    return 1


def next_manager(corp: Corp) -> int | None:
    """Who manages ``corp`` in the next stage: the elected manager once chosen, else the current one."""
    return corp.elected if corp.elected is not None else corp.manager


def manages_next(state: State, seat: int) -> bool:
    return any(next_manager(state.corps[c]) == seat for c in state.order)


def target_corp(state: State) -> int:
    """The corporation at position ``target`` of the action sequence (the one a meeting step treats)."""
    return state.order[state.target]


def actors(state: State) -> tuple[int, ...]:
    """The actors of the current turn-based step, for the current round and target."""
    step = state.step
    if step in CORPORATION_STEPS:
        return state.order
    n = len(state.players)
    if step == Step.PICK:
        return tuple(seats(state))
    if step == Step.PROPOSE:
        manager = state.corps[target_corp(state)].manager or 0
        return tuple((manager + i) % n for i in range(n))
    if step == Step.PLAYER_TRADE:
        return player_trade_order(state)
    if step == Step.RECEIPTS:
        return receipts_order(state)
    if step == Step.TIEBREAK:
        return (tiebreak_picker(state)[1],)
    return ()


def player_trade_order(state: State) -> tuple[int, ...]:
    """ME-H-6.1-2: from the manager of the last corporation in the action sequence, counter-clockwise (the previous
    seat); in round 3 only the players who manage no corporation in the next stage."""
    n = len(state.players)
    first = state.corps[state.order[-1]].manager or 0
    order = tuple((first - i) % n for i in range(n))
    if state.round >= cat_of(state).rules.player_trade.rounds:
        order = tuple(s for s in order if not manages_next(state, s))
    return order


def receipts_order(state: State) -> tuple[int, ...]:
    """ME-N-2: the managers of the corporations at positions 1, 2, ... (once each), then the others in seat order."""
    managers = [state.corps[c].manager for c in state.order]
    ordered = [s for s in dict.fromkeys(managers) if s is not None]
    return tuple(ordered + [s for s in seats(state) if s not in ordered])


def tiebreak_picker(state: State) -> tuple[str, int]:
    """ME-H-5.3: the holder with the most shares (then the largest single packet) and the seat deciding for it."""
    corp = state.corps[target_corp(state)]
    best = max(holders(corp), key=lambda h: (sum(held(corp, h)), max(held(corp, h))))
    seat = controller(state, best)
    assert seat is not None
    return best, seat


def actor(state: State) -> int | None:
    """The actor whose turn it is in a turn-based step (None when the step is not turn-based or is over)."""
    if state.step not in CORPORATION_STEPS | SEAT_STEPS:
        return None
    walk = actors(state)
    return walk[state.turn] if state.turn < len(walk) else None


def acting_seat(state: State) -> int | None:
    """The seat that decides now in a turn-based step (a corporation's manager, or the player)."""
    who = actor(state)
    if who is None:
        return None
    if state.step in CORPORATION_STEPS:
        return state.corps[who].manager
    return who



# -- evolve: the cursor's own events ------------------------------------------------------------------------------


def apply_stage_began(state: State, event: StageBegan) -> State:
    corps = tuple(replace(c, elected=None) for c in state.corps)
    return replace(state, stage=event.stage, number=0, corps=corps)


def apply_phase_began(state: State, event: PhaseBegan) -> State:
    corps = tuple(replace(c, interest_paid=0, interest_missed=0) for c in state.corps)
    return replace(state, number=event.number, corps=corps)


def apply_step_began(state: State, event: StepBegan) -> State:
    step = Step(event.step)
    changes: dict[str, object] = {"step": step, "turn": event.turn, "round": event.round, "target": event.target,
                                  "done": False, "builds": (), "sales": 0}
    if step != state.step:
        changes["trades"] = ()
    if step in SEALED_STEPS:
        changes["sealed"] = tuple(None for _ in state.players)
    if step in (Step.PROPOSE, Step.STAND) and (step != state.step or event.target != state.target):
        changes["meeting"] = Meeting()
    return replace(state, **changes)


def apply_market_closed(state: State, event: MarketClosed) -> State:
    return replace(state, rows=empty_rows(state), row=0)
