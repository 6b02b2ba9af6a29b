"""A game's public catalog: the data tables a client needs to draw the game (``GameModule.catalog``, served at
``GET /api/catalog/<game>``), so no client hard-codes a number.

A game writes only ``build(dataset) -> its tables``; :func:`public_catalog` makes the contract's function of it:
the current dataset when none is named, each dataset built once (cached: the tables are immutable), and
``KeyError`` for a dataset the game does not have (the game's :class:`~domain.kernel.datafiles.DataError`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TypeVar

from .datafiles import DataError

C = TypeVar("C")


def public_catalog(build: Callable[[str], C], current: str) -> Callable[[str | None], C]:
    """``catalog(dataset)`` for the game contract, from ``build`` and the game's ``current`` dataset."""
    built = cache(build)

    def catalog(dataset: str | None = None) -> C:
        """The tables of ``dataset`` (None: the current one); KeyError for an unknown dataset."""
        try:
            return built(dataset or current)
        except DataError as exc:
            raise KeyError(dataset) from exc

    return catalog
