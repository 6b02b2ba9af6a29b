"""Words for the AI's explanations: the English recorded in ``AiDecided.reason`` (amounts as the rulebook writes
them: 500K, 1.1M) and the names of its actions as catalog terms for the reason's phrase (``AiDecided.why``)."""

from __future__ import annotations

from domain.kernel.phrases import Term, term

_THOUSAND = 1000


def money(k: int) -> str:
    """An amount in $K as text: 500 -> "500K", 1000 -> "1M", 1650 -> "1.65M"."""
    if abs(k) < _THOUSAND:
        return f"{k}K"
    whole, rest = divmod(k, _THOUSAND)
    return f"{whole}.{rest:03d}".rstrip("0").rstrip(".") + "M"


ACTION_NAMES = {"buy": "Buy land", "build": "Build", "sell": "Sell", "consult": "Consult"}
ACTION_TERMS: dict[str, Term] = {
    "buy": term("Buy land", "ai action"), "build": term("Build", "ai action"), "sell": term("Sell", "ai action"),
    "consult": term("Consult", "ai action"),
}
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}
