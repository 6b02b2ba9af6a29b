"""A small Server-Sent Events reader for tests: every wait is bounded by a timeout."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import httpx

WAIT_S = 10.0


@dataclass
class Message:
    id: str | None = None
    event: str | None = None
    data: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    retry: int | None = None

    def json(self) -> dict[str, Any]:
        return dict(json.loads("\n".join(self.data)))


class EventStream:
    def __init__(self, response: httpx.Response) -> None:
        assert response.status_code == 200, response.text
        assert response.headers["content-type"].startswith("text/event-stream")
        self._lines = response.aiter_lines()

    async def message(self, timeout_s: float = WAIT_S) -> Message:
        """The next message (comment-only ones included)."""
        async with asyncio.timeout(timeout_s):
            message = Message()
            while True:
                line = await anext(self._lines)
                if not line:
                    if message != Message():
                        return message
                    continue
                name, _, value = line.partition(":")
                value = value.removeprefix(" ")
                match name:
                    case "":
                        message.comments.append(value)
                    case "id":
                        message.id = value
                    case "event":
                        message.event = value
                    case "data":
                        message.data.append(value)
                    case "retry":
                        message.retry = int(value)

    async def events(self, timeout_s: float = WAIT_S) -> Message:
        """The next ``events`` message, skipping comments and keep-alives."""
        async with asyncio.timeout(timeout_s):
            while True:
                message = await self.message(timeout_s)
                if message.event == "events":
                    return message

    async def until_version(self, version: int, timeout_s: float = WAIT_S) -> list[Message]:
        """Every ``events`` message up to the one that reaches ``version``."""
        received: list[Message] = []
        async with asyncio.timeout(timeout_s):
            while not received or int((received[-1].id or "0").partition(".")[0]) < version:
                received.append(await self.events(timeout_s))
        return received
