"""Browser tests: the real API server and worker (tests/live.py) over the real PostgreSQL and Redis, driven
through the play-by-web page by Playwright with the system's Chromium (never a downloaded browser).

Chromium comes from the OS packages (``apt-get install -y chromium``; ``make test`` and ``.ci/run`` install
it when it is missing); ``MAGNATE_CHROMIUM`` points elsewhere. Screenshots of the key screens go to
``artifacts/screenshots/`` (git-ignored).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, ViewportSize, sync_playwright

from tests.conftest import drop_queue
from tests.live import ROOT, Services, running_services

CHROMIUM = os.environ.get("MAGNATE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
DESKTOP: ViewportSize = {"width": 1400, "height": 1000}
PHONE: ViewportSize = {"width": 375, "height": 812}

@pytest.fixture(scope="session")
def web(pg_dsn: str, redis_url: str) -> Iterator[Services]:
    """One API server and one worker for the browser tests of this test process (an xdist worker), on a queue of
    their own: starting them cost seconds of CPU per module. The tests share the session's database anyway, so each
    looks only at its own games and players; a module that needs other settings (another registry, the
    pseudo-locale, a database of its own) starts a server of its own. Playwright stays per module: its sync API
    marks an event loop as running in the main thread while it is started, which would break the asyncio tests
    that run after it in the same process."""
    queue = f"magnate:test:web:{uuid.uuid4().hex[:10]}"
    try:
        with running_services(pg_dsn, redis_url, queue) as running:
            yield running
    finally:
        drop_queue(redis_url, queue)


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    """Module-scoped on purpose: Playwright's sync API runs an event loop in the main thread while it is
    started, which would break every asyncio test that runs after it."""
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: run `apt-get update && apt-get install -y chromium` "
                    "(make test does it) or set MAGNATE_CHROMIUM", pytrace=False)
    launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        yield launched
    finally:
        launched.close()


class Pages:
    """Browser contexts for one test (each is a separate browser profile: its own local storage), with
    every page's script errors collected so the test can fail on them."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def open(self, viewport: ViewportSize | None = None, **options: Any) -> Page:
        """A page in a new context; ``options`` go to ``Browser.new_context`` (``has_touch=True``...)."""
        context = self.browser.new_context(viewport=viewport or DESKTOP, **options)
        context.set_default_timeout(20_000)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(f"{page.url}: {exc}"))
        page.on("console", lambda msg: self.errors.append(f"{page.url}: {msg.text}")
                if msg.type == "error" and not msg.text.startswith("Failed to load resource") else None)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Browser) -> Iterator[Pages]:
    opened = Pages(browser)
    try:
        yield opened
    finally:
        opened.close()
    assert not opened.errors, f"errors in the page: {opened.errors}"


def screenshot(page: Page, name: str, **options: Any) -> Path:
    """Save a screenshot as an artifact (``artifacts/screenshots/<name>.png``)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), **options)
    return path
