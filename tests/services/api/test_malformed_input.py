"""Malformed input is a 4xx with a code, never a 500 (issue #24, items 9 and 10), over the real app on in-memory
twins: bodies that are not UTF-8, ``Cookie`` headers Python's ``SimpleCookie`` refuses but Litestar parses, any
bytes at all in either (a property test), and names with nothing visible or with control characters."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.gameplay.bootstrap import Runtime

from .table import Table, game_body
from .test_players import csrf, sign_in

BAD_UTF8 = b'{"email": "\xff\xfe@example.org", "name": "\xc3\x28", "token": "\xed\xa0\x80"}'
JSON = {"Content-Type": "application/json"}
COOKIES = ["junk; session=x", 'session="', "session=%00", 'a="b; session=abc', "session=" + "ab" * 32,
           "session=null", "session=; csrftoken=", "session=\x7f\x01", "=; =session", "session=a=b=c",
           'session="\\"', "csrftoken=" + "0" * 200]


async def test_a_body_that_is_not_utf8_is_a_400_on_every_json_route(
    client: httpx.AsyncClient, runtime: Runtime, table: Table
) -> None:
    game = await table.create(humans=2)
    seat = {"Authorization": f"Bearer {game.tokens[0]}"}
    routes = [("POST", "/api/games"), ("POST", f"/api/games/{game.id}/commands"), ("POST", "/api/auth/link"),
              ("POST", "/api/auth/session"), ("PATCH", "/api/me"), ("PUT", "/api/me/settings"),
              ("POST", "/api/me/notices/read"), ("POST", f"/api/games/{game.id}/chat")]
    for method, path in routes[:2]:  # a bot: no session
        answer = await client.request(method, path, content=BAD_UTF8, headers={**JSON, **seat})
        assert answer.status_code == 400, (path, answer.text)
        assert answer.json()["code"] in ("request/malformed", "request/invalid"), (path, answer.text)
    await sign_in(client, runtime, "utf8@example.org")
    for method, path in routes:
        response = await client.request(method, path, content=BAD_UTF8, headers={**JSON, **csrf(client), **seat})
        assert 400 <= response.status_code < 500, (path, response.status_code, response.text)
        assert response.json()["code"], path


@pytest.mark.parametrize("cookie", COOKIES)
async def test_a_cookie_header_of_any_shape_is_no_session_and_no_500(
    client: httpx.AsyncClient, table: Table, cookie: str
) -> None:
    game = await table.create(humans=2)
    for method, path, body in [("GET", "/api/me", None), ("GET", "/api/me/games", None),
                               ("GET", f"/api/games/{game.id}", None), ("GET", "/api/auth/csrf", None),
                               ("GET", "/", None), ("POST", "/api/auth/session", {"token": "x"}),
                               ("POST", "/api/games", {"options": {}}), ("DELETE", "/api/auth/session", None)]:
        response = await client.request(method, path, json=body, headers={"Cookie": cookie})
        assert response.status_code < 500, (cookie, path, response.text)
    me = await client.get("/api/me", headers={"Cookie": cookie})
    assert (me.status_code, me.json()["code"]) == (401, "auth/signed_out")


printable_cookie = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7e), max_size=80)
cookie_bytes = st.one_of(st.binary(max_size=80).filter(lambda b: b"\r" not in b and b"\n" not in b),
                         printable_cookie.map(lambda t: t.encode()),
                         st.lists(st.tuples(st.sampled_from(["session", "csrftoken", "", "x"]), printable_cookie),
                                  max_size=3).map(lambda kv: "; ".join(f"{k}={v}" for k, v in kv).encode()))
body_bytes = st.one_of(st.binary(max_size=200),
                       st.sampled_from([b'{"token":"\xff"}', b'{"name":"\xc3"}', b'{"a":1,"a":2}', b"[" * 5000,
                                        b'{"email":"a@b.example","email":"c@d.example"}']))


@given(cookie=cookie_bytes, body=body_bytes, route=st.sampled_from(
    [("POST", "/api/auth/session"), ("POST", "/api/auth/link"), ("PATCH", "/api/me"), ("POST", "/api/games"),
     ("GET", "/api/me"), ("GET", "/api/auth/csrf"), ("DELETE", "/api/auth/session")]),
    content_type=st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded", ""]))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
async def test_no_header_or_body_bytes_make_a_500(
    client: httpx.AsyncClient, cookie: bytes, body: bytes, route: tuple[str, str], content_type: str
) -> None:
    method, path = route
    headers: list[tuple[bytes, bytes]] = [(b"cookie", cookie)]
    if content_type:
        headers.append((b"content-type", content_type.encode()))
    response = await client.request(method, path, content=body, headers=headers)
    assert response.status_code < 500, (cookie, body, response.text)
    if response.status_code >= 400:
        assert response.json()["code"]


NAMES_REFUSED = ["\u200b", " \u200b\u200b ", "Ada\nLovelace", "Ada\r\n", "\u202egnirts", "\x07bell", "\u2028",
                 "\u00ad", "\ufe0f"]


@pytest.mark.parametrize("name", NAMES_REFUSED)
async def test_a_name_needs_a_visible_character_and_no_control_character(
    client: httpx.AsyncClient, runtime: Runtime, name: str
) -> None:
    await sign_in(client, runtime, "names@example.org")
    renamed = await client.patch("/api/me", json={"name": name}, headers=csrf(client))
    assert (renamed.status_code, renamed.json()["code"]) == (400, "request/invalid_name"), renamed.text
    assert (await client.get("/api/me")).json()["name"] == "names"
    created = await client.post("/api/games", json=creation(names=["Ada", name]), headers=csrf(client))
    assert (created.status_code, created.json()["code"]) == (400, "request/invalid_name"), created.text


@pytest.mark.parametrize("name", ["Ada", "  Bea  ", "Zoë", "李", "👩\u200d💻 Dev", "O'Brien-Smith"])
async def test_ordinary_names_stay_accepted(client: httpx.AsyncClient, runtime: Runtime, name: str) -> None:
    await sign_in(client, runtime, "ok@example.org")
    renamed = await client.patch("/api/me", json={"name": name}, headers=csrf(client))
    assert renamed.status_code == 200 and renamed.json()["name"] == name.strip()
    created = await client.post("/api/games", json=creation(names=[name, None]), headers=csrf(client))
    assert created.status_code == 201, created.text


def creation(**extra: Any) -> dict[str, Any]:
    return {**game_body([{"kind": "human"}, {"kind": "human"}]), **extra}
