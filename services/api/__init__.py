"""The HTTP API (Litestar): maps HTTP to gameplay commands and views and back, nothing more."""

from .app import create_app

__all__ = ["create_app"]
