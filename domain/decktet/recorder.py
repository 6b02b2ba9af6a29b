"""The kernel's :class:`~domain.kernel.recording.Recorder` over Decktet Magnate's state and events."""

from domain.kernel.recording import Recorder as _Recorder

from .events import DecktetEvent
from .state import DecktetState

Recorder = _Recorder[DecktetState, DecktetEvent]
