"""Words as data: what a game says, as a message key and its arguments, in no language.

A :class:`Phrase` is a gettext message id (the English text, with ``{name}`` placeholders) and the arguments that
fill it; the services render it in the reader's language from the catalogs (``services/language``). An event may
carry a phrase (the AI's reasons); a narrator tells each event as phrases; nothing in the domain holds a
translated word.

Arguments are plain numbers (written the reader's way: ``1,200`` / ``1 200`` / ``1.200``), literal strings that
are not words (plot coordinates, card ids, dice), a :class:`SeatRef` (named by whoever renders it), a
:class:`Term` (a word from the game's catalog, translated), a :class:`Listing` (joined the language's way: "a, b
and c") or another :class:`Phrase` (rendered and put in place).

Write phrases with :func:`say`, :func:`say_n` and :func:`term`: Babel's extraction finds their first arguments
(the keywords are listed in ``services/language/domains.py``), so a key written any other way is not translated.
"""

from __future__ import annotations

from typing import Union

import msgspec


class SeatRef(msgspec.Struct, frozen=True, tag="seat"):
    """A seat, named by the renderer (its player's name, or "Player 2")."""

    seat: int


class Term(msgspec.Struct, frozen=True, tag="term"):
    """A word from the game's catalog (a tenant type, a building, a suit), translated in context ``ctx``."""

    key: str
    ctx: str | None = None


class Listing(msgspec.Struct, frozen=True, tag="list"):
    """Several arguments joined as the language joins a list ("a, b and c", "a, b и c")."""

    items: tuple[Arg, ...]


class Phrase(msgspec.Struct, frozen=True, tag="msg"):
    """A message key (the English text, ``{name}`` placeholders) and its arguments.

    ``plural`` is the English plural form and ``count`` names the integer argument that chooses the form (Russian
    has three: 1 арендатор, 2 арендатора, 5 арендаторов)."""

    key: str
    args: dict[str, Arg] = {}
    plural: str | None = None
    count: str | None = None


Arg = Union[int, str, SeatRef, Term, Listing, Phrase]  # noqa: UP007 (a forward reference msgspec resolves)


def say(key: str, /, **args: Arg) -> Phrase:
    """The phrase ``key`` with its arguments (``say("{seat} passes", seat=SeatRef(0))``)."""
    return Phrase(key, args)


def say_n(key: str, plural: str, count: str, /, **args: Arg) -> Phrase:
    """A phrase with a singular and a plural form, chosen by the integer argument named ``count``."""
    if not isinstance(args.get(count), int):
        raise ValueError(f"the count {count!r} of {key!r} is not an integer argument")
    return Phrase(key, args, plural, count)


def term(key: str, ctx: str | None = None) -> Term:
    """A word from the catalog, translated (``term("home", "tenant")``)."""
    return Term(key, ctx)


def seat(number: int) -> SeatRef:
    """The seat ``number``, named by the renderer."""
    return SeatRef(number)


def plain(phrase: Phrase) -> str:
    """The phrase in English, seats as "Player 2": for logs, the CLI and tests (the services render properly)."""

    def arg(value: Arg) -> str:
        if isinstance(value, Phrase):
            return plain(value)
        if isinstance(value, SeatRef):
            return f"Player {value.seat + 1}"
        if isinstance(value, Term):
            return value.key
        if isinstance(value, Listing):
            items = [arg(item) for item in value.items]
            return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
        return f"{value:,}" if isinstance(value, int) else value

    key = phrase.key
    if phrase.plural is not None and phrase.count is not None and phrase.args.get(phrase.count) != 1:
        key = phrase.plural
    return key.format_map({name: arg(value) for name, value in phrase.args.items()})
