"""The kernel's public catalog: the current dataset by default, each dataset built once, KeyError for an unknown
one."""

from __future__ import annotations

import pytest

from domain.kernel.catalogs import public_catalog
from domain.kernel.datafiles import UnknownDataset


def test_the_current_dataset_is_served_when_none_is_named_and_each_is_built_once() -> None:
    built: list[str] = []

    def build(dataset: str) -> tuple[str, int]:
        if dataset not in ("v1", "v2"):
            raise UnknownDataset(f"unknown dataset {dataset!r}")
        built.append(dataset)
        return dataset, len(built)

    catalog = public_catalog(build, "v1")
    assert catalog(None) == ("v1", 1)
    assert catalog("v2") == ("v2", 2)
    assert catalog("v1") is catalog(None)
    assert built == ["v1", "v2"]
    with pytest.raises(KeyError):
        catalog("v3")


def test_every_game_serves_its_tables_and_refuses_an_unknown_dataset() -> None:
    from domain.games import GAMES

    for game in GAMES.values():
        assert game.catalog is not None
        assert game.catalog(None) is game.catalog(game.data_version)
        with pytest.raises(KeyError):
            game.catalog("v999")
