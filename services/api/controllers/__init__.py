"""Route handlers, one controller per resource."""

from .catalog import CatalogController
from .commands import CommandController
from .games import GameController
from .health import health
from .stream import StreamController

__all__ = ["CatalogController", "CommandController", "GameController", "StreamController", "health"]
