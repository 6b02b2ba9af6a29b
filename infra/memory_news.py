"""News of new versions within one process: the twin of :class:`infra.notify.RedisNotifier` (a runtime of twins, the
API's tests), held to one contract suite (tests/integration/test_news_twin.py). A version published here wakes every
listener of the game in this process, as Redis wakes every listener of every process."""

from __future__ import annotations

import asyncio

from .notify import QUIET, Heard


class _Listener:
    """One event stream's wait on a game: registered when made, so a read made after it misses nothing."""

    def __init__(self, news: InMemoryNotifier, game_id: str, timeout_s: float) -> None:
        self._news, self._game_id, self._timeout_s = news, game_id, timeout_s
        self.heard: asyncio.Queue[int] = asyncio.Queue()
        news.listeners.setdefault(game_id, set()).add(self)

    def __aiter__(self) -> _Listener:
        return self

    async def __anext__(self) -> Heard:
        try:
            return await asyncio.wait_for(self.heard.get(), self._timeout_s)
        except TimeoutError:
            return QUIET  # nothing is lost within a process: a silence is only a keep-alive

    async def aclose(self) -> None:
        waiting = self._news.listeners.get(self._game_id, set())
        waiting.discard(self)
        if not waiting:
            self._news.listeners.pop(self._game_id, None)


class InMemoryNotifier:
    """A :class:`~infra.notify.Notifier` and :class:`~infra.notify.Subscriber` within one process."""

    def __init__(self) -> None:
        self.listeners: dict[str, set[_Listener]] = {}
        self.published_versions: list[tuple[str, int]] = []

    async def published(self, game_id: str, version: int) -> None:
        self.published_versions.append((game_id, version))
        for listener in list(self.listeners.get(game_id, ())):
            listener.heard.put_nowait(version)

    def listen(self, game_id: str, timeout_s: float) -> _Listener:
        return _Listener(self, game_id, timeout_s)

    def watched(self) -> int:
        """Games this process's event streams watch."""
        return len(self.listeners)

    async def aclose(self) -> None:
        self.listeners.clear()
