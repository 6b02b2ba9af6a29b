"""The options a game is created with (spec §2, §12-§14, §17's table options) and the variant they resolve to,
recorded in the first event (:class:`~.events.GameStarted`), so every optional rule is fixed for the whole game."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.kernel import InvalidValue
from domain.kernel.datafiles import DATASET_PATTERN
from domain.kernel.phrases import Listing, say, say_n

from .catalog import DEFAULT_DATASET, Catalog

AI_LEVELS = ("basic", "shrewd")
"""The computer's strengths, weakest first (docs/AI.md, "Master of Economy"): ``basic`` runs its corporation by
rules of thumb; ``shrewd`` also reads the market board, the calendar and the share prices."""


class SeatSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Who plays a seat: a person, or the computer at one of :data:`AI_LEVELS`."""

    kind: Literal["human", "ai"] = "human"
    level: str | None = None
    """The computer's strength (``ai`` only; None: ``shrewd``)."""


class GameOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A new game's options."""

    players: Annotated[int, msgspec.Meta(ge=2, le=4)] = 4
    """How many people play (ME-S-1: 2-4)."""
    assignment: Literal["pick", "random"] = "pick"
    """ME-S-1: the players pick their corporations in seat order, or the service assigns them by a seeded draw."""
    start_order: Literal["random", "auction"] = "random"
    """ME-S-9: the first action sequence is a seeded random permutation, or sealed bids rank the corporations
    (each bid is subtracted from its player's final result, ME-E-7)."""
    additional_corporation: bool = False
    """§12 (2-3 players): the automated additional corporation (AC)."""
    teams: bool = False
    """§13 (4 players): 2 vs. 2, seats 1 and 2 against seats 3 and 4."""
    player_cash_hidden: bool = False
    """ME-S-10: players' cash is hidden from the other players."""
    finite_commodity_supply: bool = True
    """ME-R-5, ME-T-14: the commodity cubes are a hard limit."""
    ac_triggers_end: bool = True
    """ME-E-1: the AC reaching the end threshold ends the game like any corporation."""
    dataset: Annotated[str, msgspec.Meta(pattern=DATASET_PATTERN)] = DEFAULT_DATASET
    seats: Annotated[tuple[SeatSpec, ...], msgspec.Meta(max_length=4)] = ()
    """Who plays each seat, in order (empty: every seat is a person); as many as ``players``."""


class Variant(msgspec.Struct, frozen=True, kw_only=True):
    """The resolved options of a game, as recorded in ``GameStarted``."""

    players: int = 4
    assignment: str = "pick"
    start_order: str = "random"
    additional_corporation: bool = False
    teams: tuple[tuple[int, ...], ...] = ()
    """The two teams of §13 (seats), or empty."""
    player_cash_hidden: bool = False
    finite_commodity_supply: bool = True
    ac_triggers_end: bool = True
    dataset: str = DEFAULT_DATASET
    seats: tuple[SeatSpec, ...] = ()
    """Who plays each seat (empty: every seat is a person); a computer seat always has its level."""


def resolve(options: GameOptions, cat: Catalog) -> Variant:
    """The variant of ``options``, or InvalidValue when they do not fit together."""
    game = cat.rules.game
    if not game.min_players <= options.players <= game.max_players:
        raise InvalidValue(phrase=say("Master of Economy is for {least} to {most} players", least=game.min_players,
                                      most=game.max_players),
                           option="players")
    if options.additional_corporation and options.players >= len(cat.corporations):
        raise InvalidValue(phrase=say("the additional corporation needs a corporation nobody picks: 2 or 3 players "
                                      "(ME-V-1)"),
                           option="additional_corporation")
    if options.teams and options.players != 2 * 2:
        raise InvalidValue(phrase=say("2 vs. 2 is for four players (ME-W-1)"), option="teams")
    if options.seats and len(options.seats) != options.players:
        raise InvalidValue(phrase=say_n("this game is for {n} player: give {n} seat or none",
                                        "this game is for {n} players: give {n} seats or none", "n", n=options.players),
                           option="seats")
    for spec in options.seats:
        if spec.kind == "human" and spec.level is not None:
            raise InvalidValue(phrase=say("only a computer seat has a level"), option="seats")
        if spec.level is not None and spec.level not in AI_LEVELS:
            raise InvalidValue(phrase=say("unknown level {level}: one of {levels}", level=spec.level,
                                          levels=Listing(AI_LEVELS)), option="seats")
    seats = tuple(SeatSpec(kind="ai", level=spec.level or AI_LEVELS[-1]) if spec.kind == "ai" else SeatSpec()
                  for spec in options.seats)
    return Variant(
        players=options.players, assignment=options.assignment, start_order=options.start_order,
        additional_corporation=options.additional_corporation,
        teams=((0, 1), (2, 3)) if options.teams else (),
        player_cash_hidden=options.player_cash_hidden, finite_commodity_supply=options.finite_commodity_supply,
        ac_triggers_end=options.ac_triggers_end, dataset=options.dataset,
        seats=seats if any(spec.kind == "ai" for spec in seats) else (),
    )


def computer_level(variant: Variant, seat: int) -> str | None:
    """The computer's level when the options gave it ``seat``, else None."""
    if seat < len(variant.seats) and variant.seats[seat].kind == "ai":
        return variant.seats[seat].level
    return None
