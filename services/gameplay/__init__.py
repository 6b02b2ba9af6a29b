"""The one application service used by the API and the worker: load -> decide -> append -> enqueue."""

from .cache import Loaded
from .handler import Gameplay
from .results import Applied, Created, SeatCreated

__all__ = ["Applied", "Created", "Gameplay", "Loaded", "SeatCreated"]
