"""The options a game is created with (spec §2.10) and the variant they resolve to, recorded in its first event.

:class:`GameOptions` is what a create request carries; :func:`resolve` checks the validity rules between the
options and fills the defaults that depend on others (``taxtax`` follows ``mega``, D3), giving the
:class:`Variant` that ``GameStarted`` records and every rule reads. What a variant implies for the table (how many
Decktets, districts, Crowns, cards in a hand; which cards are districts and which are properties) is derived here
from the data (:mod:`.catalog`), so rule modules never test option combinations themselves.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.kernel import InvalidValue
from domain.kernel.datafiles import DATASET_PATTERN
from domain.kernel.phrases import say

from .catalog import ACE, COURT, CROWN, DEFAULT_DATASET, EXCUSE, PAWN, Catalog, Mode, card_id

AI_LEVELS = ("easy", "medium", "hard")
"""The computer's strengths, weakest first (docs/AI.md, "Decktet Magnate"): ``easy`` follows rules of thumb,
``medium`` and ``hard`` search (information-set Monte Carlo tree search) with more time to think."""


class SeatSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Who plays a seat: a person, or the computer at one of :data:`AI_LEVELS`."""

    kind: Literal["human", "ai"] = "human"
    level: str | None = None
    """The computer's strength (``ai`` only; None: ``medium``)."""


class GameOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A new game's options (spec §2.10; names follow Abstract Play's variant ids where it has the variant)."""

    courts: bool = True
    """V1: the 4 Courts join the property deck (on by default, D2)."""
    mega: bool = False
    """V2: Mega-Magnate, two Decktets, 6-card hands, two card plays a turn."""
    taxtax: bool | None = None
    """V3: double taxation; None: on exactly when ``mega`` is (D3)."""
    three: bool = False
    """V4: three players in a Y (provisional: two Decktets' components, V4.6)."""
    original_aces: bool = msgspec.field(default=False, name="originalAces")
    """V5: an Ace costs 1 and is worth 1."""
    deucey: bool = False
    """V6: an Ace counts matching cards across the whole district."""
    courtpawns: bool = False
    """V7: the Courts are the districts; the Pawns are properties (with ``courts``)."""
    stacked: bool = False
    """V8: each player draws from their own deck until the reshuffle (needs ``mega``, two players)."""
    dataset: Annotated[str, msgspec.Meta(pattern=DATASET_PATTERN)] = DEFAULT_DATASET
    seats: Annotated[tuple[SeatSpec, ...], msgspec.Meta(max_length=3)] = ()
    """Who plays each seat, in order (empty: every seat is a person); as many as the variant's players."""


class Variant(msgspec.Struct, frozen=True, kw_only=True):
    """The resolved options of a game, as recorded in ``GameStarted``."""

    courts: bool = True
    mega: bool = False
    taxtax: bool = False
    three: bool = False
    original_aces: bool = msgspec.field(default=False, name="originalAces")
    deucey: bool = False
    courtpawns: bool = False
    stacked: bool = False
    dataset: str = DEFAULT_DATASET
    seats: tuple[SeatSpec, ...] = ()
    """Who plays each seat (empty: every seat is a person); a computer seat always has its level."""

    @property
    def players(self) -> int:
        return 3 if self.three else 2


def resolve(options: GameOptions) -> Variant:
    """The variant of ``options``, or InvalidValue when they break a validity rule of §2.10."""
    if options.stacked and not options.mega:
        raise InvalidValue(phrase=say("the stacked deck (V8) is a Mega variant: it needs mega"), option="stacked")
    if options.stacked and options.three:
        raise InvalidValue(phrase=say("the stacked deck (V8) is for two players"), option="stacked")
    players = 3 if options.three else 2
    if options.seats and len(options.seats) != players:
        raise InvalidValue(phrase=say("this game is for {n} players: give {n} seats or none", n=players),
                           option="seats")
    for spec in options.seats:
        if spec.kind == "human" and spec.level is not None:
            raise InvalidValue(phrase=say("only a computer seat has a level"), option="seats")
        if spec.level is not None and spec.level not in AI_LEVELS:
            raise InvalidValue(phrase=say("unknown level {level}: one of {levels}", level=repr(spec.level),
                                             levels=", ".join(AI_LEVELS)), option="seats")
    seats = tuple(SeatSpec(kind="ai", level=spec.level or "medium") if spec.kind == "ai" else SeatSpec()
                  for spec in options.seats)
    return Variant(
        courts=options.courts,
        mega=options.mega,
        taxtax=options.mega if options.taxtax is None else options.taxtax,
        three=options.three,
        original_aces=options.original_aces,
        deucey=options.deucey,
        courtpawns=options.courtpawns,
        stacked=options.stacked,
        dataset=options.dataset,
        seats=seats if any(spec.kind == "ai" for spec in seats) else (),
    )


def mode(cat: Catalog, variant: Variant) -> Mode:
    """The table size of ``variant``: base, mega, three or three_mega."""
    key = ("three_" if variant.three else "") + ("mega" if variant.mega else "")
    return cat.modes[key.rstrip("_") or "base"]


def _ids(cat: Catalog, ranks: tuple[str, ...], decks: int, copies: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(card_id(c.code, copy, decks) for copy in copies for c in cat.cards if c.rank in ranks)


def district_rank(variant: Variant) -> str:
    """Which rank lies in the districts beside the Excuse: Pawns, or Courts with V7."""
    return COURT if variant.courtpawns else PAWN


def property_ranks(cat: Catalog, variant: Variant) -> tuple[str, ...]:
    """The ranks in the property deck: Aces and number cards, plus Courts (V1), or Pawns for Courts (V7)."""
    ranks = (ACE, *(str(r) for r in range(2, 10)))
    if variant.courts:
        ranks += (PAWN if variant.courtpawns else COURT,)
    return ranks


def property_decks(cat: Catalog, variant: Variant) -> tuple[tuple[str, ...], ...]:
    """The property deck as one sorted pile, or (V8) one personal pile per seat, copy ``n`` for seat ``n - 1``."""
    m = mode(cat, variant)
    ranks = property_ranks(cat, variant)
    if variant.stacked:
        return tuple(tuple(sorted(_ids(cat, ranks, m.decks, (copy,)))) for copy in range(1, m.decks + 1))
    return (tuple(sorted(_ids(cat, ranks, m.decks, tuple(range(1, m.decks + 1))))),)


def district_candidates(cat: Catalog, variant: Variant) -> tuple[tuple[str, ...], str]:
    """The cards that may become districts beside the Excuse, and the Excuse (the first copy; V2.2)."""
    m = mode(cat, variant)
    return _ids(cat, (district_rank(variant),), m.decks, tuple(range(1, m.decks + 1))), card_id(EXCUSE, 1, m.decks)


def crowns(cat: Catalog, variant: Variant) -> tuple[str, ...]:
    """Every Crown in play (6, or 12 with two Decktets)."""
    m = mode(cat, variant)
    return _ids(cat, (CROWN,), m.decks, tuple(range(1, m.decks + 1)))
