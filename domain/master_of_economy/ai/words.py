"""Names for the computer's reasons: the catalog's names as terms (:mod:`..wording`)."""

from __future__ import annotations

from domain.kernel.phrases import Arg

from .. import wording
from ..holders import cat_of
from ..state import State


def factory(state: State, key: str) -> Arg:
    return wording.factory(cat_of(state), key)


def goods(state: State, row: int) -> Arg:
    return wording.goods_at(cat_of(state), row)


def corp(state: State, key: str) -> Arg:
    return wording.corp(cat_of(state), key)
