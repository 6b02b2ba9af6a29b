"""The one way amounts of money are written, everywhere (the page, the history, the notices, the CLI, the
simulation summary and the benchmarks): whole $K grouped the reader's way, then the unit.

:func:`cash` is the amount as a phrase (``"{amount}K"``): each language's catalog writes its unit (English
``1,200K``, Russian ``1 200 тыс. $``, German ``1.200K $``) and the number is grouped per locale; the page writes
the same message with the same catalog. :func:`money` is its English text (``49,160K``, ``-300K``) for the CLI,
the logs and the benchmarks. Statistics of cash (a mean, a quantile) are rounded to a whole $K before they are
written.

The AI's recorded English explanations (``AiDecided.reason``, ``domain/magnate/ai/explain.py``) keep the
rulebook's own style (``1.1M``): rewording them would change the events of every game stored or exported before;
their phrases (``AiDecided.why``) use :func:`cash` like every other line.
"""

from __future__ import annotations

from domain.kernel.phrases import Phrase, say


def cash(amount_k: int) -> Phrase:
    """An amount in $K as a phrase, written in the reader's language."""
    return say("{amount}K", amount=amount_k)


def money(amount_k: int) -> str:
    """An amount in $K as English text: ``49160`` -> ``"49,160K"``, ``-300`` -> ``"-300K"``, ``0`` -> ``"0K"``."""
    return f"{amount_k:,}K"
