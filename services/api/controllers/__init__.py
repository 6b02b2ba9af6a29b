"""Route handlers, one controller per resource."""

from .commands import CommandController
from .games import GameController
from .health import health
from .stream import StreamController

__all__ = ["CommandController", "GameController", "StreamController", "health"]
