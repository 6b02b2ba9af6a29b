"""Each game's "How to play" (:mod:`services.api.help`): the page at ``/rules/{game}`` draws it, and the game page
takes from it the sentence of the current phase and of each kind of move, and the tutorial's steps. It is read in
the request's language (the game's catalog), with the sections of that language's edition."""

from __future__ import annotations

from litestar import Controller, get
from litestar.datastructures import CacheControlHeader, ResponseHeader
from litestar.params import FromPath

from domain.kernel.phrases import say
from services.language.render import Renderer

from ..deps import GameplayDep
from ..errors import ApiError, documented
from ..help import HelpOut, help_of
from ..language import CatalogsDep, LanguageDep

CACHED = CacheControlHeader(max_age=3600, private=True)
"""Kept an hour by the reader's browser only: the same address reads in each reader's language."""
VARY = ResponseHeader(name="Vary", value="Accept-Language, Cookie")

KERNEL = "kernel"


def _nobody(seat: int) -> str:
    return ""  # the rules name no seat


class RulesController(Controller):
    path = "/api/catalog"
    tags = ("catalog",)

    @get("/{game:str}/help", summary="How to play a game", responses=documented(404), cache_control=CACHED,
         response_headers=[VARY])
    async def help(self, game: FromPath[str], gameplay: GameplayDep, catalogs: CatalogsDep,
                   language: LanguageDep) -> HelpOut:
        """The game's rules in a few sections (what you are trying to do, the turn, each kind of move, how it ends),
        with the numbers of its current data; a sentence per phase (by the value of the view's ``phase_field``) and
        per kind of move (by command type); and, for a game with a tutorial, its steps. In the request's language;
        where that language's printed rulebook states a rule otherwise, a last section says which reading the
        service plays. 404 ``help/not_found`` for a game this server does not offer or that has no help."""
        module = gameplay.games.get(game)
        found = None
        if module is not None:
            words = catalogs.translations(game if game in catalogs.domains else KERNEL, language)
            found = help_of(module, words.gettext, language, Renderer(words, language, _nobody).text)
        if found is None:
            raise ApiError(404, "help/not_found", say("no help for game '{game}'", game=game),
                           known=sorted(gameplay.games))
        return found
