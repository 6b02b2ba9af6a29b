"""The Decktet and the numbers of Decktet Magnate, loaded once from ``data/<dataset>/*.toml`` and validated.

Every card (spec §1) and every number of the rules (prices, sale values, dice, table sizes; §2.8) lives in the
data files, each value tagged with its provenance; rule modules read them only through :func:`catalog` and hold
no number of their own. Loading checks the card table's structure (§1.3: three cards per number rank, each suit
on one Ace, one Crown, eight number cards, two Pawns and two Courts), that every code is its rank followed by its
suits in printed order, that card ids with copy digits never collide, and that every value is tagged.

Reading the package's own files is the only resource access: once per dataset (cached), environment-independent.
A game records its dataset in its first event, so correcting a [RECONSTRUCTED] value means adding ``data/v2``.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import msgspec

from domain.kernel.datafiles import DataError, DataFiles

DEFAULT_DATASET = "v1"
PROVENANCE_PREFIXES = ("S1", "S2", "S3", "S4", "S5", "S6", "S7", "SPEC", "RECONSTRUCTED")
NUMBER_RANKS = tuple(str(r) for r in range(2, 10))
ACE, EXCUSE, PAWN, COURT, CROWN = "1", "0", "P", "T", "N"


class _Record(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    source: dict[str, str]
    """Provenance per field name ("*" = every field)."""


class Suit(_Record, frozen=True, kw_only=True):
    code: str
    name: str
    die: int
    """The face of the tax d6 that picks this suit (R3.2)."""


class Card(_Record, frozen=True, kw_only=True):
    code: str
    name: str
    rank: str
    suits: tuple[str, ...]
    marks: tuple[str, ...] = ()
    deck: str
    """"basic" or "extended"."""

    @property
    def number(self) -> int:
        """The rank of a number card (2-9), else 0."""
        return int(self.rank) if self.rank in NUMBER_RANKS else 0


class Dice(_Record, frozen=True, kw_only=True):
    income_sides: int
    tax_sides: int
    tax_on: int
    tax_dice: int
    taxtax_dice: int
    ace_income: int
    crown_income: int
    tax_keep: int


class Trade(_Record, frozen=True, kw_only=True):
    give: int
    take: int


class AceRule(_Record, frozen=True, kw_only=True):
    price: int
    deed_per_suit: int
    sale: int
    value: int = 0
    """A fixed district value (original Aces); 0: the suit count of R7.2."""


class NumberRule(_Record, frozen=True, kw_only=True):
    deed_per_suit: int
    sale_per_suit: int
    income_per_suit: int
    deed_income: int


class CourtRule(_Record, frozen=True, kw_only=True):
    price: int
    deed_per_suit: int
    sale_per_suit: int
    value: int


class Mode(_Record, frozen=True, kw_only=True):
    """A table size: the base game, Mega, three players, three players with Mega."""

    key: str
    name: str = ""
    """The table size in words (the rules' table of modes)."""
    players: int
    decks: int
    districts: int
    excuse: int
    crowns_each: int
    hand: int
    plays: int
    draw: int
    reshuffles: int
    builders: tuple[tuple[int, ...], ...] = ()


class _CardsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    suit: tuple[Suit, ...]
    card: tuple[Card, ...]


class Rules(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    dice: Dice
    trade: Trade
    ace: AceRule
    original_ace: AceRule
    number: NumberRule
    court: CourtRule
    mode: tuple[Mode, ...]


class Catalog(msgspec.Struct, frozen=True, kw_only=True):
    """One dataset: the suits, the cards (by base code), the rules' numbers and the table sizes."""

    dataset: str
    suits: tuple[Suit, ...]
    cards: tuple[Card, ...]
    rules: Rules
    by_code: dict[str, Card]
    modes: dict[str, Mode]

    @property
    def suit_codes(self) -> tuple[str, ...]:
        return tuple(s.code for s in self.suits)

    def of_rank(self, rank: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.rank == rank)


def card_id(code: str, copy: int, decks: int) -> str:
    """A card's id in a game: its code, plus a copy digit (1, 2) when two Decktets are used (spec §1.1, V2.1)."""
    return f"{code}{copy}" if decks > 1 else code


def base_code(card: str, decks: int) -> str:
    """The code of a card id (its copy digit removed in two-deck games)."""
    return card[:-1] if decks > 1 else card


FILES = DataFiles(__package__)


@cache
def catalog(dataset: str = DEFAULT_DATASET) -> Catalog:
    """The validated data of ``dataset`` (cached). Raises DataError when it is missing or inconsistent."""
    cards = FILES.load(dataset, "cards.toml", _CardsFile)
    rules = FILES.load(dataset, "rules.toml", Rules)
    cat = Catalog(dataset=dataset, suits=cards.suit, cards=cards.card, rules=rules,
                  by_code={c.code: c for c in cards.card}, modes={m.key: m for m in rules.mode})
    _validate(cat)
    return cat


def _validate(cat: Catalog) -> None:
    records: list[_Record] = [*cat.suits, *cat.cards, *cat.modes.values()]
    r = cat.rules
    records += [r.dice, r.trade, r.ace, r.original_ace, r.number, r.court]
    for record in records:
        _check_source(record)
    codes = cat.suit_codes
    if [s.die for s in cat.suits] != list(range(1, len(codes) + 1)) or len(set(codes)) != len(codes):
        raise DataError("suits must have distinct codes and tax die faces 1..n in printed order")
    if len(cat.by_code) != len(cat.cards):
        raise DataError("duplicate card codes")
    for card in cat.cards:
        order = [codes.index(s) for s in card.suits if s in codes]
        if len(order) != len(card.suits) or order != sorted(set(order)):
            raise DataError(f"{card.code}: suits must be known, distinct and in printed order")
        if card.code != card.rank + "".join(card.suits) and card.rank != EXCUSE:
            raise DataError(f"{card.code}: a code is its rank followed by its suits")
    _check_structure(cat)
    ids = [card_id(c.code, copy, 2) for c in cat.cards for copy in (1, 2)]
    if len(set(ids)) != len(ids) or set(ids) & set(cat.by_code):
        raise DataError("card ids with copy digits collide")
    for mode in cat.modes.values():
        if mode.builders and (len(mode.builders) != mode.districts
                              or any(not set(b) <= set(range(mode.players)) for b in mode.builders)):
            raise DataError(f"mode {mode.key}: one builder list per district, of seats 0..{mode.players - 1}")
        if not 0 <= mode.excuse < mode.districts:
            raise DataError(f"mode {mode.key}: the Excuse must be one of the districts")


def _check_structure(cat: Catalog) -> None:
    """§1.3's structural facts."""
    ranks = Counter(c.rank for c in cat.cards)
    if any(ranks[r] != 3 for r in NUMBER_RANKS) or ranks[ACE] != 6 or ranks[CROWN] != 6:
        raise DataError("each number rank has 3 cards; there are 6 Aces and 6 Crowns")
    if ranks[PAWN] != 4 or ranks[COURT] != 4 or ranks[EXCUSE] != 1:
        raise DataError("the extended deck has 4 Pawns, 4 Courts and the Excuse")
    for suit in cat.suit_codes:
        on = Counter(c.rank if not c.number else "n" for c in cat.cards if suit in c.suits)
        if (on[ACE], on[CROWN], on["n"], on[PAWN], on[COURT]) != (1, 1, 8, 2, 2):
            raise DataError(f"suit {suit}: 1 Ace, 1 Crown, 8 number cards, 2 Pawns and 2 Courts")


def _check_source(record: _Record) -> None:
    fields = set(record.__struct_fields__) - {"source", "key", "name"}  # a name is words for people, not a rule
    tagged = set(record.source)
    if "*" not in tagged and not fields <= tagged:
        raise DataError(f"{record!r}: untagged values {sorted(fields - tagged)}")
    for tag in record.source.values():
        if not tag.startswith(PROVENANCE_PREFIXES):
            raise DataError(f"{record!r}: unknown provenance {tag!r}")
        if tag.startswith("RECONSTRUCTED") and not tag.startswith("RECONSTRUCTED: "):
            raise DataError(f"{record!r}: a RECONSTRUCTED value says why")
