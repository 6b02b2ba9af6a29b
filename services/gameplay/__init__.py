"""The one application service used by the API and the worker: load -> decide -> append -> enqueue."""

from .handler import Applied, Created, Gameplay, Loaded, SeatCreated

__all__ = ["Applied", "Created", "Gameplay", "Loaded", "SeatCreated"]
