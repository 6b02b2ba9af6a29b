"""Signing out holds against a request that read the session before it and answers after it (a page's read or event
stream crossing the sign-out): the session middleware as the API mounts it (services/api/players.py,
services/api/sessions.py) never writes back a session it did not change, so the signed-out session stays gone and
its cookie is not set again. Litestar's backend writes the session as every response starts: that request brought
the session back (the browser test of signing out failed about one run in ten under load)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from litestar import Litestar, Request, delete, get, post
from litestar.stores.memory import MemoryStore

from services.api.players import SESSION_COOKIE, session_config, sessions_for_signed_in
from services.api.sessions import SIGN_IN_PATH, start_session

GATE = "gate"


@post(SIGN_IN_PATH, status_code=200)
async def sign_in(request: Request[Any, Any, Any]) -> None:
    await start_session(request, {"player_id": "ada"})


@delete(SIGN_IN_PATH, status_code=204)
async def sign_out(request: Request[Any, Any, Any]) -> None:
    request.clear_session()


@get("/slow")
async def slow(request: Request[Any, Any, Any]) -> str:
    """Reads the session, then answers only when the test opens the gate."""
    seen = str(request.session.get("player_id"))
    await request.app.state[GATE].wait()
    return seen


@get("/who")
async def who(request: Request[Any, Any, Any]) -> str:
    session = request.scope.get("session")  # none where the middleware did not run: no plausible session cookie
    return str(session.get("player_id")) if isinstance(session, dict) else "nobody"


def app() -> Litestar:
    made = Litestar([sign_in, sign_out, slow, who], middleware=[sessions_for_signed_in(session_config(False))],
                    stores={"sessions": MemoryStore()})
    made.state[GATE] = asyncio.Event()
    return made


async def test_a_request_that_read_the_session_before_the_sign_out_does_not_bring_it_back() -> None:
    served = app()
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=served), base_url="http://test") as browser:
        assert (await browser.post(SIGN_IN_PATH)).status_code == 200
        cookie = browser.cookies[SESSION_COOKIE]
        assert (await browser.get("/who")).text == "ada"

        crossing = asyncio.create_task(browser.get("/slow"))  # reads the session, then waits
        await asyncio.sleep(0.05)
        assert (await browser.delete(SIGN_IN_PATH)).status_code == 204
        served.state[GATE].set()
        late = await crossing
        assert late.text == "ada"  # it read the session while there was one
        assert SESSION_COOKIE not in late.headers.get("set-cookie", "")  # and sets no cookie for it

        # The old cookie (as a browser that still held it, or the one the late answer would have set) is no session.
        again = httpx.AsyncClient(transport=httpx.ASGITransport(app=served), base_url="http://test",
                                  cookies={SESSION_COOKIE: cookie})
        async with again:
            assert (await again.get("/who")).text == "None"
        assert (await browser.get("/who")).text == "nobody"


async def test_a_changed_session_is_still_written() -> None:
    served = app()
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=served), base_url="http://test") as browser:
        first = await browser.post(SIGN_IN_PATH)
        old = browser.cookies[SESSION_COOKIE]
        assert SESSION_COOKIE in first.headers["set-cookie"]
        assert (await browser.post(SIGN_IN_PATH)).status_code == 200  # signing in again: a new id, written
        assert browser.cookies[SESSION_COOKIE] != old
        assert (await browser.get("/who")).text == "ada"
