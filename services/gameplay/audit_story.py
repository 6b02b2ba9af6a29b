"""The readable history of an export, in any language the service speaks.

An export holds events, in no language (:mod:`.audit`); its story is told from them by the game's narrator, as
the history panel tells it, and rendered in the language asked for (``magnate story FILE --lang ru``,
``magnate export GAME_ID --story --lang de``). A claim records no name in the log (the seat's name lives in the
service's seats table): told by the service (``magnate export GAME_ID --story``) a seat is named as the seats table
names it now (a deleted account's seat: "Player 2"); told from a file alone, a claimed seat is "Player 2" in that
language, unless an older log's claim recorded a name (``table.seat_claimed`` with ``name``), which names it. A seat
nobody claimed is named by the game's label for it (in that language where the game gives it as a phrase). The export
is read as it is: run ``magnate verify`` to know whether it can be trusted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from domain.kernel import GameModule, Told
from domain.kernel.phrases import Phrase
from domain.kernel.table import MovesUndone, SeatClaimed, fold_log
from infra.codec import GameCodec
from services.language.catalogs import Catalogs

from .audit_lines import LINE_DECODER, EventLine, GameLine
from .story import marked_planned, rendered, renderer
from .story_undone import taken_back


class NoStory(ValueError):
    """The export cannot be told: no game line, an unknown game, a game without a narrator, or a broken line."""


class ExportStory(msgspec.Struct, frozen=True):
    """An export's story in no language, and how its seats are named."""

    game_type: str
    told: list[Told]
    names: dict[int, str]
    """By seat: the name its player claimed, else the game's label."""
    labels: dict[int, Phrase]
    """The label in no language of each seat its player did not name."""


def told_of_export(lines: Iterable[bytes], games: Mapping[str, GameModule[Any]],
                    seats: Mapping[int, str] | None = None) -> ExportStory:
    """The story of an export in no language, and its seats' names (``seats``: the names the service's seats table
    gives now, which name the seats instead of any the log recorded)."""
    header: GameLine | None = None
    game: GameModule[Any] | None = None
    narrator = None
    codec: GameCodec | None = None
    told: list[Told] = []
    claimed: dict[int, str] = {}
    state: Any = None
    history: list[tuple[int, Any]] = []
    planned = ""
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
            header, narrator, codec, state = line, game.narrator({}), GameCodec(game), game.initial_state()
        elif isinstance(line, EventLine):
            if narrator is None or codec is None or game is None:
                raise NoStory(f"line {number}: an event before the game line")
            try:
                event = codec.decode_event(bytes(line.payload))
            except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                raise NoStory(f"line {number}: {exc}") from None
            if isinstance(event, SeatClaimed):
                claimed[event.seat] = event.name  # "" since claims record no name: "Player N" unless told
            history.append((line.version, event))
            state, told = _folded(game, state, history, told)
            said, planned = marked_planned(narrator.tell(line.version, line.type, event), line.command_id, planned)
            told.extend(said)
    if header is None or game is None:
        raise NoStory("no game line: not an export")
    infos = game.seats(state) if told else ()
    if seats is not None:
        claimed = {seat: seats[seat] for seat in claimed if seat in seats}
    names = {seat: claimed.get(seat, info.label) for seat, info in enumerate(infos)}
    labels = {seat: info.phrase for seat, info in enumerate(infos) if info.phrase is not None and seat not in claimed}
    return ExportStory(header.game_type, told, names, labels)


def _folded(game: GameModule[Any], state: Any, history: list[tuple[int, Any]], told: list[Told]
            ) -> tuple[Any, list[Told]]:
    """The state after the last event of ``history``, and the lines so far (a takeback marks those it took back:
    the game is as before them)."""
    version, event = history[-1]
    if isinstance(event, MovesUndone):
        return fold_log(game.evolve, game.initial_state(), history, 0), taken_back(told, event.back_to, version)
    return game.evolve(state, event), told


def story_of_export(lines: Iterable[bytes], games: Mapping[str, GameModule[Any]], catalogs: Catalogs,
                    language: str, seats: Mapping[int, str] | None = None) -> list[str]:
    """The export's story in ``language``, a line each, indented two spaces per depth (``seats``: as for
    :func:`told_of_export`)."""
    story = told_of_export(lines, games, seats)
    words = renderer(catalogs, story.game_type, language, story.names, story.labels)
    return ["  " * line.depth + line.text for line in rendered(story.told, words)]
