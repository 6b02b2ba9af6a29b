"""The per-process game cache: it never moves a game backwards, and it answers for events only when it
holds every one of them."""

from __future__ import annotations

from infra.eventstore import StoredEvent
from services.gameplay.cache import RECENT_EVENTS, GameCache, Loaded


def event(version: int) -> StoredEvent:
    return StoredEvent(version, "t", "system", f"c{version}", "2026-01-01T00:00:00.000000Z", b"{}", "p", f"h{version}")


def events(first: int, last: int) -> list[StoredEvent]:
    return [event(v) for v in range(first, last + 1)]


def test_a_slower_reader_does_not_replace_a_newer_state() -> None:
    cache = GameCache(8)
    cache.remember("g", Loaded("magnate", 5, "five"), events(1, 5))
    cache.remember("g", Loaded("magnate", 3, "three"), events(1, 3))
    assert cache.get("g") == Loaded("magnate", 5, "five")
    assert cache.events_after("g", 2) == events(3, 5)


def test_events_join_on_and_are_answered_only_when_all_are_held() -> None:
    cache = GameCache(8)
    cache.remember("g", Loaded("magnate", 4, "s4"), events(3, 4))
    cache.remember("g", Loaded("magnate", 7, "s7"), events(5, 7))
    assert cache.events_after("g", 2) == events(3, 7)
    assert cache.events_after("g", 1) is None  # event 2 was never held
    assert cache.events_after("g", 7) == [] and cache.events_after("g", 9) == []
    cache.remember("g", Loaded("magnate", 9, "s9"), events(9, 9))  # a gap: 8 is missing
    assert cache.events_after("g", 7) is None and cache.events_after("g", 8) == events(9, 9)
    cache.remember("g", Loaded("magnate", 12, "s12"))  # a state without its events (a snapshot)
    assert cache.events_after("g", 11) is None and cache.events_after("g", 12) == []


def test_only_the_recent_events_and_the_recently_used_games_are_kept() -> None:
    cache = GameCache(2)
    cache.remember("g", Loaded("magnate", 100, "s"), events(1, 100))
    assert cache.events_after("g", 100 - RECENT_EVENTS) == events(101 - RECENT_EVENTS, 100)
    assert cache.events_after("g", 99 - RECENT_EVENTS) is None
    cache.remember("h", Loaded("magnate", 1, "h"))
    assert cache.get("g") is not None  # g is now the most recently used
    cache.remember("i", Loaded("magnate", 1, "i"))
    assert cache.get("h") is None and cache.get("g") is not None and cache.get("i") is not None


def test_a_state_is_known_current_only_while_followed_and_not_behind_a_heard_version() -> None:
    cache = GameCache(8)
    cache.remember("g", Loaded("magnate", 5, "s5"), events(1, 5))
    assert cache.known_current("g") is None  # nobody follows the game: it may have moved anywhere
    cache.follow("g")
    assert cache.known_current("g") == Loaded("magnate", 5, "s5")
    cache.heard("g", 7)  # another process appended up to 7; this one still holds 5
    assert cache.known_current("g") is None
    cache.remember("g", Loaded("magnate", 7, "s7"), events(6, 7))
    assert cache.known_current("g") == Loaded("magnate", 7, "s7")
    cache.heard("g", 6)  # a late announcement changes nothing
    assert cache.known_current("g") == Loaded("magnate", 7, "s7")
    cache.follow("g")  # two streams
    cache.unfollow("g")
    assert cache.known_current("g") is not None
    cache.unfollow("g")
    assert cache.known_current("g") is None
    cache.follow("g")
    cache.heard("h", 3)  # a game nobody follows: not recorded
    assert cache.known_current("g") is not None and cache.known_current("h") is None
