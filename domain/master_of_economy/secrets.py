"""What a viewer may not know while the game runs (spec §17): another seat's sealed choice until it is revealed
(the start auction's bid, ME-S-9; the AC token, ME-V-7; the meeting's ballots, §9) and, with
``player_cash_hidden``, another player's cash (ME-S-10); and another seat's standing shortfall preferences (§17,
"Interrupts": how much of its cash it would commit, and which factories it would give up, are its own plans).

:func:`redact` is the events as a viewer may see them: a sealed choice's event reaches every viewer (so each knows
the seat has chosen) with the secret field blanked for all but its seat; the reveal events show every choice at
once. The preferences' events reach their seat only (another viewer does not get them at all). Payments are public,
as at the table, and so is a gift or sale the rules made by a preference (``by_preference``). :func:`hide` is the
property tests' statement of the same: a state that differs only in what ``viewer`` may not know (the others'
sealed choices made anew among their legal values, the others' preferences made anew, the others' cash when
hidden), so that everything handed to ``viewer`` must be the same for both. After the end, nothing is hidden.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.kernel import AUDITOR, Chance, Viewer

from .ballots import dividend_lines, election_lines
from .bidding import tokens_available
from .events import (
    DividendVoteCast,
    ManagerVoteCast,
    ShortfallPreferencesCleared,
    ShortfallPreferencesSet,
    StartBidSealed,
    TokenCommitted,
)
from .holders import cat_of, with_player
from .state import Preferences, State, Step

SEALED_EVENTS: dict[type, str] = {StartBidSealed: "amount", TokenCommitted: "token", DividendVoteCast: "yes",
                 ManagerVoteCast: "choices"}
"""Each sealed choice's event and its secret field."""
PRIVATE_EVENTS = (ShortfallPreferencesSet, ShortfallPreferencesCleared)
"""Events only their seat sees while the game runs (§17's standing preferences)."""


def redact(event: Any, viewer: Viewer, game_over: bool) -> Any | None:
    """``event`` as ``viewer`` may see it."""
    if game_over or viewer == AUDITOR:
        return event
    if isinstance(event, PRIVATE_EVENTS):
        return event if viewer == event.seat else None
    secret = SEALED_EVENTS.get(type(event))
    if secret is None or viewer == event.seat:
        return event
    return replace(event, **{secret: None})


def hide(state: State, viewer: Viewer, seed: int) -> State:
    """``state`` with everything ``viewer`` may not know changed, differently per ``seed``."""
    if viewer == AUDITOR or state.step in (Step.SETUP, Step.ENDED) or not state.players:
        return state
    chance = Chance(f"moe-hide:{seed}".encode(), 0)
    others = [s for s in range(len(state.players)) if s != viewer]
    sealed = list(state.sealed)
    for s in others:
        if s < len(sealed) and sealed[s] is not None:
            sealed[s] = _another_choice(state, s, chance)
    state = replace(state, sealed=tuple(sealed))
    for s in others:
        state = with_player(state, s, preferences=_other_preferences(state, chance))
    if state.variant.player_cash_hidden:
        for s in others:
            cash = state.players[s].cash
            new = chance.below(2 * cash + 10)
            state = replace(with_player(state, s, cash=new), bank=state.bank + cash - new)
    return state


def _another_choice(state: State, seat: int, chance: Chance) -> tuple[int, ...]:
    """A sealed choice ``seat`` could have made at this point."""
    if state.step in (Step.AUCTION, Step.AUCTION_REVEAL):
        return (chance.below(cat_of(state).rules.start.max_start_bid + 1),)
    if state.step in (Step.VOTE, Step.VOTE_COUNT):
        return tuple(i for i in range(len(dividend_lines(state, seat))) if chance.below(2))
    if state.step in (Step.BALLOT, Step.BALLOT_COUNT):
        options = (*state.meeting.candidates, -1)
        return tuple(chance.pick(options) for _ in election_lines(state, seat))
    return (chance.pick(tokens_available(state, seat)),)  # an AC token, sealed until it is scored


def _other_preferences(state: State, chance: Chance) -> Preferences | None:
    """Standing preferences a seat could have set (or none)."""
    if not chance.below(3):
        return None
    keys = [f.key for f in cat_of(state).factories]
    ranked = chance.shuffle(keys)[: chance.below(len(keys) + 1)]
    return Preferences(cover_up_to=chance.below(30), sell_first=tuple(ranked))
