"""A game's data files: ``data/<dataset>/<name>.toml`` inside its package, read and typed.

Every number and name of a game's rules lives in these files; the game's catalog module reads them through
:class:`DataFiles` and validates what it read (its own rules). Reading the package's own files is the only resource
access in ``domain/``: once per dataset (the catalogs cache), never depending on the environment. A dataset is a
folder ``v<n>`` (:data:`DATASET_PATTERN`); no other path is read.
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, TypeVar

import msgspec

T = TypeVar("T")

DATASET_PATTERN = r"^v[0-9]{1,4}$"
"""A dataset is a folder ``data/v<n>`` of the game's package."""


class DataError(Exception):
    """A game's data files are missing or inconsistent; raised at load time, never during play."""


class UnknownDataset(DataError):
    """The name is not a dataset of the game (not ``v<n>``, or no such folder)."""


class MissingDataFile(DataError):
    """The dataset lacks a file the game reads."""


class DataFiles:
    """The data files of one game package (``DataFiles(__package__)`` in the game's catalog module)."""

    __slots__ = ("package",)

    def __init__(self, package: str | None) -> None:
        if not package:
            raise ValueError("data files belong to a package")
        self.package = package

    def folder(self, dataset: str) -> Traversable:
        """The folder of ``dataset``; UnknownDataset unless it is one of the package's ``data/v<n>``."""
        if not re.fullmatch(DATASET_PATTERN, dataset):
            raise UnknownDataset(f"unknown dataset {dataset[:40]!r}")
        folder = resources.files(self.package).joinpath("data", dataset)
        if not folder.is_dir():
            raise UnknownDataset(f"unknown dataset {dataset!r}")
        return folder

    def read(self, dataset: str, name: str) -> dict[str, Any]:
        """The parsed TOML file ``name`` (with its ``.toml``) of ``dataset``; MissingDataFile when it is absent,
        DataError when it is not TOML."""
        try:
            text = self.folder(dataset).joinpath(name).read_text(encoding="utf-8")
        except (FileNotFoundError, NotADirectoryError) as exc:
            raise MissingDataFile(f"no data file {dataset}/{name}") from exc
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise DataError(f"{dataset}/{name}: {exc}") from exc

    def load(self, dataset: str, name: str, into: type[T]) -> T:
        """The file ``name`` of ``dataset`` as ``into`` (DataError when its shape does not fit)."""
        return convert(self.read(dataset, name), into, f"{dataset}/{name}")


def convert(raw: Any, into: type[T], where: str) -> T:
    """``raw`` (parsed data files) as ``into``; DataError naming ``where`` when its shape does not fit."""
    try:
        return msgspec.convert(raw, into)
    except msgspec.ValidationError as exc:
        raise DataError(f"{where}: {exc}") from exc
