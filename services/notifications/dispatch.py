"""Handing deliveries to the workers and telling players' pages: the port and its adapters are
:mod:`infra.notifications.dispatch` (arq and Redis, or recorded in memory); named here for the worker, which
registers :data:`DELIVER`."""

from __future__ import annotations

from infra.notifications.dispatch import DELIVER, Dispatch, RecordingDispatch, RedisDispatch

__all__ = ["DELIVER", "Dispatch", "RecordingDispatch", "RedisDispatch"]
