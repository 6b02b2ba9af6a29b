"""The one way amounts of money are written, everywhere (the page, the history, the CLI, the simulation
summary and the benchmarks): whole $K with a comma between thousands, then ``K`` — ``49,160K``, ``-300K``.

The web page writes the same (``Number(k).toLocaleString("en-GB") + "K"`` in ``words.js``). Statistics of
cash (a mean, a quantile) are rounded to a whole $K before they are written.

The AI's explanations (``domain/magnate/ai/explain.py``) keep the rulebook's own style (``1.1M``) on
purpose: they are recorded inside ``AiDecided`` events, and rewording them would change the events of every
game stored or exported before.
"""

from __future__ import annotations


def money(amount_k: int) -> str:
    """An amount in $K as text: ``49160`` -> ``"49,160K"``, ``-300`` -> ``"-300K"``, ``0`` -> ``"0K"``."""
    return f"{amount_k:,}K"
