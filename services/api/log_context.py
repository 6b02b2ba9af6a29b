"""What every log line of a request says about it: the game it concerns.

An app-wide ``before_request`` hook (after the guards, so the game id is a plausible one) clears the request's
logging context and binds ``game_id`` from the path (``/api/games/{game_id}/...``); the gameplay service adds the
game's ``version`` when it loads or appends. Each request runs in a task of its own, so the binding reaches every
line logged while it is handled, uvicorn's access line included, and no other request's.
"""

from __future__ import annotations

from typing import Any

from litestar import Request
from structlog.contextvars import bind_contextvars, clear_contextvars


async def bind_request(request: Request[Any, Any, Any]) -> None:
    """``before_request``: a fresh logging context, with the path's game id when there is one."""
    clear_contextvars()
    game_id = request.path_params.get("game_id")
    if isinstance(game_id, str):
        bind_contextvars(game_id=game_id)
