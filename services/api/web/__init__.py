"""The play-by-web page, served by the API itself: its HTML pages (the lobby at ``/``, a game at
``/play/{game_id}``, signing in at ``/signin``, the player's notification settings at ``/settings``, a game's
leaderboard at ``/leaderboard/{game}`` and a player's ratings at ``/players/{player_id}``), the service
worker that shows Web Push notifications (``/sw.js``, at the root so that its scope is the whole site) and their
static files under ``/static`` (stylesheets and ES modules, no build step): ``static/shell/`` is what every game
shares (the lobby and its game chooser, my games, the account bar and notices, seats and invites, the live
connection, the history, the final standings) and names no game; ``static/games/<game_type>/`` is one game's
bundle (its options form, board and moves), imported by the shell on demand (``shell/bundles.js`` describes the
interface), unless the game registry puts it elsewhere (:class:`services.gameplay.registry.Registry`'s
``bundles``: served at the same URL). The pages render everything from the JSON API (views, legal commands, the
catalog, the history and the event stream). A guest's seat token travels in the invite link's fragment
(``#token=``), which browsers never send to the server, and the page keeps only its own seat's token in the
browser's local storage, sending it only as an ``Authorization`` header (the event stream is opened without it, as
the public's). A signed-in player's claimed seat is played with the session cookie instead (and every write carries
the CSRF header).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from litestar import MediaType, Response, Router, get
from litestar.datastructures import CacheControlHeader
from litestar.di import NamedDependency
from litestar.exceptions import NotFoundException
from litestar.openapi.plugins import JsonRenderPlugin, OpenAPIRenderPlugin, RedocRenderPlugin, YamlRenderPlugin
from litestar.params import FromPath, SkipValidation
from litestar.static_files import create_static_files_router

from services.gameplay.registry import Registry
from services.language.catalogs import Catalogs

from .templates import PAGES as PAGES
from .templates import render

CatalogsDep = NamedDependency[SkipValidation[Catalogs]]
LanguageDep = NamedDependency[str]
"""The reader's language (:func:`services.api.language.provide_language`) and the catalogs it is spoken from."""

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}
"""The pages load only their own scripts and send no referrer (the token lives in the fragment anyway)."""


SCHEMA_VIEWER = "/static/vendor/redoc/redoc.standalone.js"
"""Redoc's bundle, served by the API itself (``static/vendor/redoc/``: the npm package's file and licences), so
``/schema`` renders with no internet."""
SCHEMA_ICON = "<link rel='icon' type='image/png' href='/static/icons/icon-192.png'>"


def schema_viewers() -> list[OpenAPIRenderPlugin]:
    """What ``/schema`` serves: the document as JSON and YAML, and Redoc at ``/schema`` (and ``/schema/redoc``)
    with its bundle and icon from this server and no web fonts, so it renders with no internet."""
    redoc = RedocRenderPlugin(js_url=SCHEMA_VIEWER, google_fonts=False, path=["/", "/redoc"], favicon=SCHEMA_ICON)
    return [JsonRenderPlugin(), YamlRenderPlugin(), redoc]


def _html(catalogs: Catalogs, language: str, name: str) -> Response[bytes]:
    """The page ``name`` in ``language``: it varies with the account's choice (in the session cookie), the
    switch's cookie and the browser's languages."""
    headers = {**SECURITY_HEADERS, "Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language",
               "Content-Language": language}
    return Response(render(catalogs, language, name), media_type=MediaType.HTML, headers=headers)


@get("/", include_in_schema=False)
async def lobby(catalogs: CatalogsDep, language: LanguageDep) -> Response[bytes]:
    """The lobby: create a game, get the invite links, see the games this browser holds seats in."""
    return _html(catalogs, language, "lobby.html")


@get("/play/{game_id:str}", include_in_schema=False)
async def play(game_id: FromPath[str], catalogs: CatalogsDep, language: LanguageDep) -> Response[bytes]:
    """A game, as the seat whose token is in the link (or as the public, without one)."""
    del game_id  # the page reads it from its own URL
    return _html(catalogs, language, "play.html")


@get("/signin", include_in_schema=False)
async def signin(catalogs: CatalogsDep, language: LanguageDep) -> Response[bytes]:
    """Signing in: ask for a link by email; opened from that link (``#token=``), a button that signs in with it."""
    return _html(catalogs, language, "signin.html")


@get("/settings", include_in_schema=False)
async def settings_page(catalogs: CatalogsDep, language: LanguageDep) -> Response[bytes]:
    """What a signed-in player is told, and how (email, push, webhooks), and what was sent."""
    return _html(catalogs, language, "settings.html")


@get("/rules/{game:str}", include_in_schema=False)
async def rules_page(game: FromPath[str], catalogs: CatalogsDep, language: LanguageDep) -> Response[bytes]:
    """A game's "How to play" (``shell/help.js`` draws it from ``/api/catalog/{game}/help``)."""
    del game  # the page reads it from its own URL
    return _html(catalogs, language, "rules.html")


@get("/leaderboard/{game:str}", include_in_schema=False)
async def leaderboard_page(game: FromPath[str], catalogs: CatalogsDep, language: LanguageDep) -> Response[bytes]:
    """A game's leaderboard (``shell/ratingpages.js`` draws it from ``/api/ratings/{game}/leaderboard``)."""
    del game  # the page reads it from its own URL
    return _html(catalogs, language, "leaderboard.html")


@get("/players/{player_id:str}", include_in_schema=False)
async def player_page(player_id: FromPath[str], catalogs: CatalogsDep, language: LanguageDep) -> Response[bytes]:
    """A player's public page: their rating in each game (from ``/api/players/{player_id}/ratings``)."""
    del player_id  # the page reads it from its own URL
    return _html(catalogs, language, "player.html")


@get("/sw.js", include_in_schema=False)
async def service_worker() -> Response[bytes]:
    """The service worker (``static/shell/sw.js``) from the site's root, so it may control every page (``scope: /``);
    revalidated on every load, as browsers also do for workers at least daily."""
    return Response((STATIC / "shell" / "sw.js").read_bytes(), media_type="text/javascript; charset=utf-8",
                    headers={**SECURITY_HEADERS, "Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})


@get("/manifest.webmanifest", include_in_schema=False)
async def manifest() -> Response[bytes]:
    """The web app manifest (``static/manifest.webmanifest``): the name and icons that let a phone install the site
    as an app (and so receive its pushes there); every page links it."""
    return Response((STATIC / "manifest.webmanifest").read_bytes(), media_type="application/manifest+json",
                    headers={"Cache-Control": "no-cache"})


def bundle_dirs(registry: Registry) -> dict[str, Path]:
    """Where each registered game's bundle is: where the registry says, else ``static/games/<name>/``."""
    return {name: registry.bundles.get(name, STATIC / "games" / name) for name in registry.games}


def words_route(catalogs: Catalogs) -> Router:
    """``GET /i18n/{domain}/{lang}.json``: a domain's words in a language, as the page's modules read them
    (``shell/i18n.js``): compiled once from the catalogs, revalidated by ETag."""

    @get("/{domain:str}/{file:str}", include_in_schema=False, cache_control=CacheControlHeader(no_cache=True))
    async def words(domain: FromPath[str], file: FromPath[str]) -> Response[bytes]:
        language, dot, extension = file.rpartition(".")
        if extension != "json" or not dot or domain not in catalogs.domains or not catalogs.speaks(language):
            raise NotFoundException(f"no words for {domain}/{file}")
        body = catalogs.page(domain, language)
        return Response(body, media_type=MediaType.JSON, headers={"ETag": f'"{hashlib.sha256(body).hexdigest()[:20]}"'})

    return Router(path="/i18n", route_handlers=[words], tags=["web"])


def web_router(registry: Registry, catalogs: Catalogs) -> Router:
    """The pages and their static files (revalidated on every load, so a new release shows at once): the shell's,
    and each registered game's bundle at ``/static/games/<name>/``, the URL the shell imports it from; the app
    icons (``/static/icons/``) and the vendored viewer of ``/schema`` (``/static/vendor/``, see
    :data:`SCHEMA_VIEWER`)."""
    revalidate = CacheControlHeader(no_cache=True)
    shell = create_static_files_router(path="/static/shell", directories=[STATIC / "shell"], cache_control=revalidate)
    icons = create_static_files_router(path="/static/icons", directories=[STATIC / "icons"], cache_control=revalidate,
                                       name="icons")
    vendor = create_static_files_router(path="/static/vendor", directories=[STATIC / "vendor"],
                                        cache_control=CacheControlHeader(max_age=86_400), name="vendor")
    bundles = [create_static_files_router(path=f"/static/games/{name}", directories=[directory],
                                          cache_control=revalidate, name=f"bundle:{name}")
               for name, directory in bundle_dirs(registry).items()]
    pages = [lobby, play, signin, settings_page, rules_page, leaderboard_page, player_page, service_worker, manifest]
    return Router(path="/", route_handlers=[*pages, shell, icons, vendor, *bundles, words_route(catalogs)],
                  tags=["web"])
