"""The readable history of an export, in any language the service speaks.

An export holds events, in no language (:mod:`.audit`); its story is told from them by the game's narrator, as
the history panel tells it, and rendered in the language asked for (``magnate story FILE --lang ru``,
``magnate export GAME_ID --story --lang de``). Seats are named by the names their players claimed (the
``table.seat_claimed`` events of the log), else "Player 2" in that language. The export is read as it is: run
``magnate verify`` to know whether it can be trusted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from domain.kernel import GameModule, Told
from domain.kernel.table import SeatClaimed
from infra.codec import GameCodec
from services.language.catalogs import Catalogs

from .audit_lines import LINE_DECODER, EventLine, GameLine
from .story import rendered, renderer


class NoStory(ValueError):
    """The export cannot be told: no game line, an unknown game, a game without a narrator, or a broken line."""


def told_of_export(lines: Iterable[bytes], games: Mapping[str, GameModule[Any]]) -> tuple[str, list[Told],
                                                                                           dict[int, str]]:
    """The game type of an export, its story in no language, and the names its players claimed (by seat)."""
    header: GameLine | None = None
    narrator = None
    codec: GameCodec | None = None
    told: list[Told] = []
    names: dict[int, str] = {}
    for number, data in enumerate(lines, start=1):
        if not data.strip():
            continue
        try:
            line = LINE_DECODER.decode(data)
        except msgspec.DecodeError as exc:
            raise NoStory(f"line {number}: {exc}") from None
        if isinstance(line, GameLine):
            game = games.get(line.game_type)
            if game is None or game.narrator is None:
                raise NoStory(f"line {number}: no narrated game {line.game_type!r} here")
            header, narrator, codec = line, game.narrator({}), GameCodec(game)
        elif isinstance(line, EventLine):
            if narrator is None or codec is None:
                raise NoStory(f"line {number}: an event before the game line")
            try:
                event = codec.decode_event(bytes(line.payload))
            except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                raise NoStory(f"line {number}: {exc}") from None
            if isinstance(event, SeatClaimed):
                names[event.seat] = event.name
            told.extend(narrator.tell(line.version, line.type, event))
    if header is None:
        raise NoStory("no game line: not an export")
    return header.game_type, told, names


def story_of_export(lines: Iterable[bytes], games: Mapping[str, GameModule[Any]], catalogs: Catalogs,
                    language: str) -> list[str]:
    """The export's story in ``language``, a line each, indented two spaces per depth."""
    game_type, told, names = told_of_export(lines, games)
    words = renderer(catalogs, game_type, language, names)
    return ["  " * line.depth + line.text for line in rendered(told, words)]
