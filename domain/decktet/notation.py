"""The move notation of §3.2 (Abstract Play's), so records can be compared: a turn is actions separated by commas,
each ``<code>:<operands>``; upper and lower case are the same and spaces are ignored.

``B:8MS@a+M3+S5`` buys, ``D:9VY@d`` takes a deed, ``S:2SY`` sells, ``A:9VY+V2+Y`` develops, ``T:Y3+M`` trades,
``P:9VY+V`` prefers and ``C:9VY+Y`` chooses. A payment is suit letters joined by ``+``, each optionally followed by
a count from 2 to 8; repeated letters add up and are written back in suit order (``M+S4+M2+S`` is ``M3+S5``).
Developing is one :class:`~.commands.Develop` per suit, in suit order. The public form of a turn (the moves list
everyone sees) leaves out the Prefer actions (R9.1a).
"""

from __future__ import annotations

import re

from domain.kernel import InvalidValue
from domain.kernel.phrases import say, say_n

from .catalog import catalog
from .commands import Buy, Choose, Deed, Develop, Prefer, Sell, Trade, TurnAction

SUITS = "MSVLYK"
_TOKEN = re.compile(r"^([MSVLYK])([2-8]?)$")


def parse_payment(text: str) -> dict[str, int]:
    """``M+S4+M2+S`` -> ``{"M": 3, "S": 5}`` (in suit order)."""
    counts: dict[str, int] = {}
    for part in text.upper().split("+"):
        match = _TOKEN.match(part)
        if match is None:
            raise InvalidValue(phrase=say("{part} is not a suit letter with an optional count 2-8", part=repr(part)),
                               notation=text)
        counts[match[1]] = counts.get(match[1], 0) + int(match[2] or 1)
    return {s: counts[s] for s in SUITS if s in counts}


def format_payment(payment: dict[str, int]) -> str:
    """``{"S": 5, "M": 3}`` -> ``M3+S5``; counts above 8 are split (``M8+M2``)."""
    parts = []
    for suit in SUITS:
        left = payment.get(suit, 0)
        while left > 0:
            n = min(left, 8)
            parts.append(suit if n == 1 else f"{suit}{n}")
            left -= n
    return "+".join(parts)


def _split(text: str, sep: str, what: str) -> tuple[str, str]:
    head, found, tail = text.partition(sep)
    if not found or not head or not tail:
        raise InvalidValue(phrase=say("expected {what}", what=what), notation=text)
    return head, tail


def parse_action(text: str) -> list[TurnAction]:
    """One action of §3.2 (a development gives one action per suit)."""
    code, body = _split(re.sub(r"\s+", "", text), ":", "<code>:<operands>")
    code = code.upper()
    if code == "S":
        return [Sell(card=body.upper())]
    if code == "D":
        card, district = _split(body, "@", "<card>@<district>")
        return [Deed(card=card.upper(), district=district.lower())]
    if code == "B":
        card, rest = _split(body, "@", "<card>@<district>+<payment>")
        district, payment = _split(rest, "+", "<district>+<payment>")
        return [Buy(card=card.upper(), district=district.lower(), payment=parse_payment(payment))]
    card, rest = _split(body, "+", "<operand>+<operand>")
    if code in ("T", "P", "C") and (len(rest) != 1 or rest.upper() not in SUITS):
        raise InvalidValue(phrase=say("{part} is not one suit letter", part=repr(rest)), notation=text)
    if code == "A":
        return [Develop(card=card.upper(), suit=s, count=n) for s, n in parse_payment(rest).items()]
    if code == "T":
        given = parse_payment(card)
        if len(given) != 1 or next(iter(given.values())) != catalog().rules.trade.give:
            give = catalog().rules.trade.give
            raise InvalidValue(phrase=say_n("a trade gives {n} token of one suit",
                                            "a trade gives {n} tokens of one suit", "n", n=give), notation=text)
        return [Trade(give=next(iter(given)), take=rest.upper())]
    if code in ("P", "C"):
        kind = Prefer if code == "P" else Choose
        return [kind(card=card.upper(), suit=rest.upper())]
    raise InvalidValue(phrase=say("unknown action code {code}; one of B D S A T P C", code=repr(code)), notation=text)


def parse_turn(text: str) -> tuple[TurnAction, ...]:
    """A whole turn: actions separated by commas."""
    return tuple(action for part in text.split(",") if part.strip() for action in parse_action(part))


def format_action(action: TurnAction) -> str:
    match action:
        case Buy(card=card, district=district, payment=payment):
            return f"B:{card}@{district}+{format_payment(payment)}"
        case Deed(card=card, district=district):
            return f"D:{card}@{district}"
        case Sell(card=card):
            return f"S:{card}"
        case Develop(card=card, suit=suit, count=count):
            return f"A:{card}+{format_payment({suit: count})}"
        case Trade(give=give, take=take):
            return f"T:{give}{catalog().rules.trade.give}+{take}"
        case Prefer(card=card, suit=suit):
            return f"P:{card}+{suit}"
        case Choose(card=card, suit=suit):
            return f"C:{card}+{suit}"
    raise AssertionError(f"unknown action {action!r}")


def format_turn(actions: tuple[TurnAction, ...], public: bool = False) -> str:
    """The display form (", " between actions); consecutive developments of one deed are written as one;
    ``public`` leaves out the Prefer actions."""
    out: list[str] = []
    merged: dict[str, int] = {}
    card = ""
    for action in actions:
        if isinstance(action, Develop) and (not merged or action.card == card):
            card = action.card
            merged[action.suit] = merged.get(action.suit, 0) + action.count
            continue
        if merged:
            out.append(f"A:{card}+{format_payment(merged)}")
            merged = {}
        if isinstance(action, Develop):
            card, merged = action.card, {action.suit: action.count}
        elif not (public and isinstance(action, Prefer)):
            out.append(format_action(action))
    if merged:
        out.append(f"A:{card}+{format_payment(merged)}")
    return ", ".join(out)
