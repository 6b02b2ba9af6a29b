"""The kernel's data-file reader: a game's ``data/v<n>/*.toml``, typed; anything else is a typed DataError."""

from __future__ import annotations

import msgspec
import pytest

from domain.kernel.datafiles import DataError, DataFiles, MissingDataFile, UnknownDataset, convert

FILES = DataFiles("domain.decktet")


class _Trade(msgspec.Struct, frozen=True):
    give: int
    take: int


class _Rules(msgspec.Struct, frozen=True):
    trade: _Trade


def test_a_data_file_is_read_and_typed() -> None:
    assert FILES.read("v1", "rules.toml")["trade"]["give"] == FILES.load("v1", "rules.toml", _Rules).trade.give


def test_a_missing_file_is_refused_with_a_typed_error() -> None:
    with pytest.raises(MissingDataFile, match=r"no data file v1/nothing\.toml"):
        FILES.read("v1", "nothing.toml")


@pytest.mark.parametrize("dataset", ["v999", "../decktet", "v1/../../kernel", "", "x" * 100])
def test_only_a_dataset_folder_of_the_package_is_read(dataset: str) -> None:
    with pytest.raises(UnknownDataset, match="unknown dataset"):
        FILES.read(dataset, "rules.toml")


def test_a_file_of_the_wrong_shape_is_a_data_error() -> None:
    with pytest.raises(DataError, match=r"v1/cards\.toml"):
        FILES.load("v1", "cards.toml", _Rules)
    with pytest.raises(DataError, match="here"):
        convert({"give": "three", "take": 1}, _Trade, "here")


def test_the_typed_errors_are_data_errors() -> None:
    assert issubclass(MissingDataFile, DataError) and issubclass(UnknownDataset, DataError)
