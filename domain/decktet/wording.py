"""Decktet Magnate's things as words in no language: cards and suits as catalog terms, token amounts as counted
phrases (each suit its own plural, since a language counts "1 Moon, 5 Moons" its own way).

The narrator (:mod:`.narrate`) and the computer's reasons (:mod:`.ai.explain`) name things through these, so
the history reads the same either way; the services render them in the reader's language.
"""

from __future__ import annotations

from collections.abc import Iterable

from domain.kernel.phrases import Arg, Listing, Phrase, Term, say, say_n, term

from .cards import info, known
from .catalog import catalog


def amount(code: str, n: int, dataset: str) -> Phrase:
    """``n`` tokens of the suit ``code``: "1 Moon", "3 Moons"."""
    code = code.upper()
    if code == "M":
        return say_n("{n} Moon", "{n} Moons", "n", n=n)
    if code == "S":
        return say_n("{n} Sun", "{n} Suns", "n", n=n)
    if code == "V":
        return say_n("{n} Wave", "{n} Waves", "n", n=n)
    if code == "L":
        return say_n("{n} Leaf", "{n} Leaves", "n", n=n)
    if code == "Y":
        return say_n("{n} Wyrm", "{n} Wyrms", "n", n=n)
    if code == "K":
        return say_n("{n} Knot", "{n} Knots", "n", n=n)
    return say_n("{n} token of {suit}", "{n} tokens of {suit}", "n", n=n, suit=suit(code, dataset))


def suit(code: str, dataset: str) -> Term:
    """A suit by its code, as the catalog names it ("Moons")."""
    return term(next((s.name for s in catalog(dataset).suits if s.code == code.upper()), code))


def suits(codes: Iterable[str], dataset: str) -> Listing:
    """Suits by their codes: "Moons and Suns"."""
    return Listing(tuple(suit(c, dataset) for c in codes))


def tokens(counts: Iterable[int], dataset: str) -> Arg:
    """Token counts in printed suit order: "3 Moons and 1 Knot" ("nothing" when all are 0)."""
    codes = catalog(dataset).suit_codes
    parts: tuple[Arg, ...] = tuple(amount(codes[i], n, dataset) for i, n in enumerate(counts) if n)
    return Listing(parts) if parts else say("nothing")


def card(card_id: str, dataset: str) -> Term:
    """A card by its id, as the catalog names it ("the Author")."""
    return term(info(dataset, card_id).name)


def cards(card_ids: Iterable[str], dataset: str) -> Listing:
    return Listing(tuple(card(c, dataset) for c in card_ids))


def named_card(card_id: str, dataset: str) -> Arg:
    """A card id a player sent: the card's name when it is one, else the id as sent."""
    return card(card_id, dataset) if known(dataset, card_id) else card_id
