"""What seats (player commands) and the service (system commands) can ask of a game.

The API decodes request bodies as :data:`PlayerCommand` only, so a client can never submit a system
command. Commands carry no seat: the actor is passed to ``decide`` separately by whoever
authenticated it.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.kernel import Command, SystemCommand
from domain.kernel.datafiles import DATASET_PATTERN

from .catalog import DEFAULT_DATASET


class PlaceBid(Command, frozen=True, tag="magnate.place_bid"):
    """Phase 1: bid ``amount`` ($K) for first player (§5)."""

    amount: int


class PassBid(Command, frozen=True, tag="magnate.pass_bid"):
    """Phase 1: leave this auction for good."""


class AttractTenants(Command, frozen=True, tag="magnate.attract_tenants"):
    """Phase 2: attract to the building on ``plot``, committing ``advertising`` tokens (§6.1)."""

    plot: str
    advertising: int = 0


class UseAdvertising(Command, frozen=True, tag="magnate.use_advertising"):
    """Phase 2: turn the rolled dice at these indices into 5s (at most one per committed token)."""

    dice: tuple[int, ...] = ()


class ChooseTenants(Command, frozen=True, tag="magnate.choose_tenants"):
    """Phase 2, advanced game: the subtypes that move in (a feasible selection, §6.4)."""

    tenants: tuple[str, ...] = ()


class FinishAttracting(Command, frozen=True, tag="magnate.finish_attracting"):
    """Phase 2: stop attracting this round and collect rent."""


class BuyLand(Command, frozen=True, tag="magnate.buy_land"):
    """Phase 3: buy a 'for sale' plot, or an adjacent unmarked one at double price (§7.1)."""

    plot: str


class Build(Command, frozen=True, tag="magnate.build"):
    """Phase 3: build or rebuild on an owned plot (§7.2).

    ``returned`` names the tenants to send back when a smaller building of the same type replaces a
    fuller one (advanced game); omitted, the lowest-rent tenants go back.
    """

    plot: str
    building: str
    returned: tuple[str, ...] | None = None


class Advertise(Command, frozen=True, tag="magnate.advertise"):
    """Phase 3: take the free advertising tokens and buy ``bought`` more (§7.3)."""

    bought: int = 0


class Consult(Command, frozen=True, tag="magnate.consult"):
    """Phase 3: receive the land price (§7.4)."""


class Sell(Command, frozen=True, tag="magnate.sell"):
    """Phase 3: sell an owned plot to the bank at its plot value (§7.5)."""

    plot: str


PlayerCommand = (
    PlaceBid
    | PassBid
    | AttractTenants
    | UseAdvertising
    | ChooseTenants
    | FinishAttracting
    | BuyLand
    | Build
    | Advertise
    | Consult
    | Sell
)


Key = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern="^[a-z0-9_]+$")]
"""A key of the data tables (a company, a difficulty): lower-case letters, digits and underscores."""


class SeatSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    kind: Annotated[str, msgspec.Meta(max_length=10)] = "human"
    """"human" or "ai"."""
    company: Key | None = None
    """A company key; by default companies are dealt in catalogue order."""


class GameOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    seats: Annotated[tuple[SeatSpec, ...], msgspec.Meta(max_length=16)]
    advanced: bool = False
    tutorial: bool = False
    difficulty: Key | None = None
    """AI difficulty key (T16), required when an AI is seated."""
    dataset: Annotated[str, msgspec.Meta(pattern=DATASET_PATTERN)] = DEFAULT_DATASET
    """The version of the data tables (``v1``); recorded in the first event."""


class StartGame(SystemCommand, frozen=True, tag="magnate.start_game"):
    """Set the game up (§3), drawing tiles, markers and (advanced) tenants."""

    options: GameOptions
    seed_commitment: str


class RollDice(SystemCommand, frozen=True, tag="magnate.roll_dice"):
    """Roll the dice of the attraction in progress."""


class ProcessMarket(SystemCommand, frozen=True, tag="magnate.process_market"):
    """Phases 4 and 5 (or the crash and the end of the game)."""


class RevealSeed(SystemCommand, frozen=True, tag="magnate.reveal_seed"):
    """After the end, publish the seed (hex); it must match the commitment in GameStarted."""

    seed: str


class TakeAiTurn(SystemCommand, frozen=True, tag="magnate.ai_turn"):
    """The AI seat on turn acts (bid, attract or one action), following its cards (§11)."""


MagnateSystemCommand = StartGame | RollDice | ProcessMarket | RevealSeed | TakeAiTurn
MagnateCommand = PlayerCommand | MagnateSystemCommand
