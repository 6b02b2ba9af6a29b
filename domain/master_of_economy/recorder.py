"""The kernel's :class:`~domain.kernel.recording.Recorder` over Master of Economy's state (its events are typed
``Any`` in the rules: the union is split over several modules)."""

from typing import Any

from domain.kernel.recording import Recorder as _Recorder

from .state import State

Recorder = _Recorder[State, Any]
