"""Master of Economy's words as phrases (:mod:`domain.kernel.phrases`): money, the catalog's names, holders and
quantities, for the narrator, the computer's reasons and the errors. Names are the data files' English names as
terms (translated from the catalogs); nothing here holds a word in any language but the message keys."""

from __future__ import annotations

from domain.kernel.phrases import Arg, Listing, Phrase, Term, say, seat, term

from .catalog import Catalog


def euros(amount: int) -> Phrase:
    """An amount of money ("12 €"): the catalog decides where the sign goes."""
    return say("{amount} €", amount=amount)


def corp(cat: Catalog, key: str) -> Arg:
    """A corporation by its name (its key when the catalog has none)."""
    return next((term(c.name) for c in cat.corporations if c.key == key), key)


def goods(cat: Catalog, key: str) -> Arg:
    """A commodity by its name."""
    return next((term(c.name) for c in cat.commodities if c.key == key), key)


def goods_at(cat: Catalog, row: int) -> Term:
    return term(cat.commodities[row].name)


def factory(cat: Catalog, key: str) -> Arg:
    """A factory type by its name."""
    return next((term(f.name) for f in cat.factories if f.key == key), key)


def holder(cat: Catalog, holder_: str) -> Arg:
    """A packet's holder: a seat, a corporation or the bank."""
    if holder_.startswith("seat:"):
        return seat(int(holder_[5:]))
    return corp(cat, holder_[5:]) if holder_.startswith("corp:") else say("the bank")


def quantity(n: int, name: Arg) -> Phrase:
    """``n`` units of a commodity, or ``n`` factories of a type ("2 coal", "2 × Quarry")."""
    return say("{n} {goods}", n=n, goods=name)


def times(n: int, name: Arg) -> Arg:
    """A name once, or counted ("2 × Quarry")."""
    return say("{n} × {name}", n=n, name=name) if n > 1 else name


def amounts(cat: Catalog, counts: tuple[int, ...] | list[int]) -> Phrase:
    """Quantities of commodities, listed ("2 Coal and 1 Steel"), or "nothing"."""
    items = tuple(quantity(n, goods_at(cat, i)) for i, n in enumerate(counts) if n)
    return say("{items}", items=Listing(items)) if items else say("nothing")


def counted(names: list[Arg]) -> Listing:
    """Names listed with their counts, first appearance first (``[quarry, quarry, mine]`` -> "2 × Quarry and
    Mine")."""
    out: list[Arg] = []
    seen: list[Arg] = []
    for name in names:
        if name not in seen:
            seen.append(name)
            out.append(times(names.count(name), name))
    return Listing(tuple(out))


def numbers(values: list[int] | tuple[int, ...]) -> Listing:
    """Numbers listed ("2, 3 and 5")."""
    return Listing(tuple(values))


def field(cat: Catalog, commodity: str, number: int) -> Phrase:
    """A field of a commodity's market row (0 is IMPORT)."""
    if number == 0:
        return say("IMPORT of {goods}", goods=goods(cat, commodity))
    return say("{goods} field {field}", goods=goods(cat, commodity), field=number)
