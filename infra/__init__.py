"""I/O adapters behind small ports: the PostgreSQL event store, the Redis job queue and notifier,
settings from the environment, and the embedded PostgreSQL/Redis used by ``make run``."""
