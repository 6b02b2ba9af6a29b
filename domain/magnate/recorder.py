"""The kernel's :class:`~domain.kernel.recording.Recorder` over Magnate's state and events."""

from domain.kernel.recording import Recorder as _Recorder

from .events import MagnateEvent
from .state import MagnateState

Recorder = _Recorder[MagnateState, MagnateEvent]
