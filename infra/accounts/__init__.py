"""Players who are people: accounts by email, one-time sign-in links, and the web sessions that remember them."""

from .link_limits import InMemoryLinkLimits, LinkCounter, LinkLimits, mailbox
from .players import (
    InMemoryPlayerStore,
    LinkExpired,
    LinkInvalid,
    LinkUsed,
    Player,
    Players,
    PlayerStore,
    SignInLink,
    TooManyLinks,
)
from .sessions import PostgresSessionStore

__all__ = [
    "InMemoryLinkLimits",
    "InMemoryPlayerStore",
    "LinkCounter",
    "LinkExpired",
    "LinkInvalid",
    "LinkLimits",
    "LinkUsed",
    "Player",
    "PlayerStore",
    "Players",
    "PostgresSessionStore",
    "SignInLink",
    "TooManyLinks",
    "mailbox",
]
