"""A game's chat: the :class:`ChatLines` port, its PostgreSQL adapter and its in-memory twin."""

from .base import RATE_WINDOW_S, ChatLine, ChatLines, Posted, chat_channel
from .memory import InMemoryChatStore
from .postgres import ChatStore, PostgresChatStore

__all__ = ["RATE_WINDOW_S", "ChatLine", "ChatLines", "ChatStore", "InMemoryChatStore", "Posted", "PostgresChatStore",
           "chat_channel"]
