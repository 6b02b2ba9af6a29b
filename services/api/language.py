"""The language of a request (Litestar dependencies ``language`` and ``catalogs``), and the words its errors
are told in.

The signed-in player's choice (kept with the account), else this browser's switch (the ``magnate_lang``
cookie), else ``Accept-Language``, else the default (:func:`services.language.choice.choose`). Everything the
API says in words (help, history, error texts) and every page is in this language.

The player is read once per request (:func:`.players.provide_optional_player` keeps it on the request's scope), so
a route that needs both the player and the language reads the account once. The error handlers are synchronous and
read no database: they use the player if the request read it already, else the cookie and ``Accept-Language``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from babel.support import NullTranslations
from litestar import Request
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import SkipValidation

from infra.accounts import Player
from services.language.catalogs import ENGLISH, Catalogs
from services.language.choice import COOKIE, choose
from services.language.render import Renderer

SERVER = "server"
"""The domain of what the services say (:mod:`services.language.domains`)."""

CatalogsDep = NamedDependency[SkipValidation[Catalogs]]
LanguageDep = NamedDependency[str]

PLAYER_KEY = "magnate.player"
"""Where a request's scope keeps its signed-in player once read (:func:`.players.provide_optional_player`): the
language, the route and the error handler read it, the database once."""


def request_state(request: Request[Any, Any, Any]) -> dict[str, Any]:
    """The request's own state (``scope["state"]``, shared by every ``Request`` object made over the scope)."""
    scope = cast("dict[str, Any]", request.scope)
    state = scope.get("state")
    if not isinstance(state, dict):
        state = scope["state"] = {}
    return state


def known_player(request: Request[Any, Any, Any]) -> Player | None:
    """The signed-in player if this request has read it already (never a database read)."""
    found = request_state(request).get(PLAYER_KEY)
    return found if isinstance(found, Player) else None


def provide_catalogs(state: State) -> Catalogs:
    catalogs: Catalogs = state.catalogs
    return catalogs


def catalogs_of(request: Request[Any, Any, Any]) -> Catalogs | None:
    found = getattr(request.app.state, "catalogs", None)
    return found if isinstance(found, Catalogs) else None


def _choose(request: Request[Any, Any, Any], catalogs: Catalogs, account: str | None) -> str:
    return choose(catalogs.languages, account=account, cookie=request.cookies.get(COOKIE),
                  accept=request.headers.get("accept-language"))


async def provide_language(request: Request[Any, Any, Any]) -> str:
    """Dependency: the language to answer ``request`` in."""
    from .players import provide_optional_player  # noqa: PLC0415 (players' errors are told in this language)

    catalogs: Catalogs = request.app.state.catalogs
    player = await provide_optional_player(request)
    return _choose(request, catalogs, player.language if player is not None else None)


def known_language(request: Request[Any, Any, Any]) -> str:
    """The request's language without a database read (the account's choice only if the player was read)."""
    catalogs = catalogs_of(request)
    if catalogs is None:
        return ENGLISH
    player = known_player(request)
    return _choose(request, catalogs, player.language if player is not None else None)


class Chained(NullTranslations):
    """Several domains' words as one: a message is looked up in each in turn (the first that translates it
    wins). Made afresh, so the cached translations of each domain keep their own fallbacks."""

    def __init__(self, chain: Sequence[NullTranslations]) -> None:
        super().__init__()
        self.chain = tuple(chain)

    def gettext(self, message: str) -> str:
        for translations in self.chain:
            found = translations.gettext(message)
            if found != message:
                return found
        return message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        english = msgid1 if n == 1 else msgid2
        for translations in self.chain:
            found = translations.ngettext(msgid1, msgid2, n)
            if found not in (msgid1, msgid2):
                return found
        return english

    def pgettext(self, context: str, message: str) -> str:
        for translations in self.chain:
            found = str(translations.pgettext(context, message))
            if found != message:
                return found
        return message


def seat_namer(translations: NullTranslations) -> Any:
    """Seats named as the kernel names them ("Player 2"), in the translations' language."""

    def name(seat: int) -> str:
        return translations.gettext("Player {number}").replace("{number}", str(seat + 1))

    return name


def server_words(request: Request[Any, Any, Any]) -> tuple[NullTranslations, str]:
    """The ``server`` domain's words in the request's language (no database read), and the language; English for
    an app built without catalogs."""
    language = known_language(request)
    catalogs = catalogs_of(request)
    return (catalogs.translations(SERVER, language) if catalogs is not None else NullTranslations()), language


def error_words(request: Request[Any, Any, Any]) -> Renderer:
    """The words the API's own errors are told in (the ``server`` domain), in the request's language."""
    translations, language = server_words(request)
    return Renderer(translations, language, seat_namer(translations))


def game_error_words(request: Request[Any, Any, Any]) -> Renderer:
    """The words a game's errors are told in: every game's domain (the handler cannot tell which game the request
    was about; each falls back to the kernel's and the server's words), in the request's language."""
    language = known_language(request)
    catalogs = catalogs_of(request)
    if catalogs is None:
        return Renderer(NullTranslations(), ENGLISH, seat_namer(NullTranslations()))
    games = [name for name, domain in catalogs.domains.items() if domain.fallback == "kernel"]
    chain = [catalogs.translations(name, language) for name in games] or [catalogs.translations(SERVER, language)]
    translations = Chained(chain)
    return Renderer(translations, language, seat_namer(translations))
