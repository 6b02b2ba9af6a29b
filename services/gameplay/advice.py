"""The engine's advice to a seat, as the player gets it: computed once per (game, version, seat) and shared by every
page of that seat.

The game decides it (:attr:`domain.kernel.GameModule.advise`, on the seat's view only); this service answers it for
the seat's current state. A computed advice is kept in a bounded least-recently-used cache (sized like the game
cache), and concurrent asks for the same key share one computation (:class:`.inflight.InFlight`): a hundred pages
of a seat cost one engine decision. The engine runs in a worker thread, so a slow search does not stop the event
loop from serving other requests, and at most :data:`ENGINE_THREADS` decisions run at a time (the search is
CPU-bound: more threads would only share the same cores).

Advice is not a move: nothing here appends, enqueues or announces anything. It is kept in no language and told in
each reader's (a reason's phrase rendered with the game's catalog; a game that gives none speaks English).
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from typing import Any, Protocol

import msgspec
from cachetools import LRUCache

from domain.kernel import Command, GameModule, Seat
from domain.kernel.advice import NO_ADVICE, Advice, Reason
from domain.kernel.phrases import Phrase, plain
from services.language.catalogs import Catalogs
from services.language.render import Renderer

from .handler import Gameplay
from .inflight import InFlight
from .story import renderer

ADVICE_KEPT = 2048
"""Advices kept (one per game, version and seat): the game cache's size."""
ENGINE_THREADS = 2
"""Engine decisions running at once in this process."""


class ReasonOut(msgspec.Struct, frozen=True):
    key: str
    """The reason's key (language-neutral: a client may render it in its own words)."""
    args: dict[str, str | int]
    text: str
    """The reason in the reader's language (English where the game gives no phrase)."""
    phrase: Phrase | None = None
    """The reason in no language (a message key of the game's catalog and its arguments)."""


class AdviceOptionOut(msgspec.Struct, frozen=True):
    command: Command
    """The command exactly as the seat would submit it (one of the game's player commands)."""
    why: ReasonOut
    score: int
    """What the engine ranked by (higher is better)."""


class SeatAdvice(msgspec.Struct, frozen=True):
    """The engine's advice to ``seat`` at ``version``: ``options`` best first, none when the seat has nothing to
    decide (not its turn, the game over, or a game without advice)."""

    seat: int
    version: int
    options: tuple[AdviceOptionOut, ...]


def english(game: GameModule[Any], reason: Reason) -> str:
    """The reason in English: the game's own words (``GameModule.advice_text``), else the key's last part in words
    followed by the arguments."""
    if game.advice_text is not None:
        return game.advice_text(reason)
    words = reason.key.rsplit(".", 1)[-1].replace("_", " ").strip().capitalize()
    details = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in reason.args.items())
    return f"{words}: {details}" if details else words


def told(game: GameModule[Any], reason: Reason, words: Renderer | None) -> str:
    """The reason in ``words``' language: its phrase rendered, else the game's English."""
    if reason.phrase is not None:
        return words.text(reason.phrase) if words is not None else plain(reason.phrase)
    return english(game, reason)


def rendered(game: GameModule[Any], seat: int, version: int, advice: Advice, words: Renderer | None = None
             ) -> SeatAdvice:
    """The advice in ``words``' language (English without)."""
    return SeatAdvice(seat, version, tuple(
        AdviceOptionOut(o.command, ReasonOut(o.why.key, dict(o.why.args), told(game, o.why, words), o.why.phrase),
                        o.score)
        for o in advice.options))


class Advisor:
    """The advice of the seats of the games ``gameplay`` serves."""

    def __init__(self, gameplay: Gameplay, size: int = ADVICE_KEPT, threads: int = ENGINE_THREADS) -> None:
        self.gameplay = gameplay
        self._kept: LRUCache[tuple[str, int, int], Advice] = LRUCache(maxsize=size)
        self._computing: InFlight[Hashable, Advice] = InFlight()
        self._threads = threads
        self._slots: asyncio.Semaphore | None = None
        self.computed = 0
        """Engine decisions made (what the sharing saves is measured against it)."""

    async def of(self, game_id: str, seat: int, catalogs: Catalogs | None = None, language: str = "en"
                 ) -> SeatAdvice:
        """The advice to ``seat`` for the game's current state, in ``language`` (the game's words in
        ``catalogs``; English without), StreamNotFound for an unknown game."""
        loaded = await self.gameplay.load(game_id)
        game = self.gameplay.module(loaded.game_type)
        key = (game_id, loaded.version, seat)
        advice = self._kept.get(key)
        if advice is None:

            async def compute() -> Advice:
                decided = self._kept[key] = await self._decide(game, loaded.state, Seat(seat))
                return decided

            advice, _ = await self._computing.run(key, compute)
        words = renderer(catalogs, loaded.game_type, language, {}) if catalogs is not None else None
        return rendered(game, seat, loaded.version, advice, words)

    async def _decide(self, game: GameModule[Any], state: Any, seat: Seat) -> Advice:
        due = game.pending(state)
        if game.advise is None or due.finished or seat not in due.seats:
            return NO_ADVICE
        if self._slots is None:
            self._slots = asyncio.Semaphore(self._threads)
        async with self._slots:
            self.computed += 1
            return await asyncio.to_thread(game.advise, state, seat)


class _HasGameplay(Protocol):
    gameplay: Gameplay


def advisor_of(runtime: _HasGameplay) -> Advisor:
    """The advisor of a runtime, over its gameplay service (``Runtime.advice``, built on first use)."""
    return Advisor(runtime.gameplay)
