"""The errors of the delivery channels: a delivery that failed (and whether trying again can help), and the two
refusals of an address a player gave (shown to them as ``400`` with the error's ``code``)."""

from __future__ import annotations


class DeliveryFailed(Exception):
    """A message was not delivered. ``permanent``: the same message to the same address would fail again (a
    5xx SMTP answer, a 4xx from a webhook, an unsafe address), so it is not retried; otherwise it may be.
    ``expired``: the push service says the subscription is gone (404/410), so it should be dropped.
    ``retry_after_s``: how long the receiver asked to be left alone (its ``Retry-After``), when it said."""

    def __init__(self, reason: str, *, permanent: bool, expired: bool = False,
                 retry_after_s: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.permanent = permanent
        self.expired = expired
        self.retry_after_s = retry_after_s

    def __repr__(self) -> str:
        return f"DeliveryFailed({self.reason!r}, permanent={self.permanent}, expired={self.expired})"


class UnsafeAddress(ValueError):
    """A webhook or push URL the server must not call: not http(s), too long, with credentials, or naming or
    resolving to a loopback, private, link-local, multicast, reserved or unspecified address. ``temporary``:
    only the resolver failed, for now (the same URL may pass later), so a delivery may be tried again."""

    code = "request/unsafe_url"

    def __init__(self, message: str, *, temporary: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.temporary = temporary


class InvalidEmail(ValueError):
    """An email address that is not one (its syntax, per email-validator)."""

    code = "request/invalid_email"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
