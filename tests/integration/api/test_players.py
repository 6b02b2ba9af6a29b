"""An expired sign-in link, expired in the REAL PostgreSQL (the rest of signing in:
tests/services/api/test_players.py, on twins)."""

from __future__ import annotations

import httpx

from services.gameplay.bootstrap import Runtime
from tests.services.api.test_players import mailed_token, redeem


async def test_an_expired_link_is_refused(client: httpx.AsyncClient, runtime: Runtime) -> None:
    await client.post("/api/auth/link", json={"email": "late@example.com"})
    token = await mailed_token(runtime, "late@example.com")
    async with runtime.pool.acquire() as conn:
        await conn.execute("UPDATE sign_in_links SET expires_at = now() - interval '1 second'"
                           " WHERE email = 'late@example.com'")
    expired = await redeem(client, token)
    assert (expired.status_code, expired.json()["code"]) == (410, "auth/link_expired")
