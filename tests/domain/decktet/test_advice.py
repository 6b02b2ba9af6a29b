"""Decktet Magnate's advice (issue #26) where the right turn is plain to a person: the advice's first option is
a whole turn (``PlayTurn``) that plays it, and its reason says so in English (and, as a phrase, in Russian)."""

from __future__ import annotations

from domain.decktet import GAME
from domain.decktet.ai.advice import advice_text, advise
from domain.decktet.commands import Buy, Develop, PlayTurn
from domain.kernel import Chance, Seat
from services.language.catalogs import Catalogs
from services.language.domains import all_domains
from services.language.render import Renderer

from .builders import supply
from .test_ai_tactics import table

CATALOGS = Catalogs(all_domains({"decktet": GAME}, {}), ("en", "ru"))


def best_turn(state: object) -> PlayTurn:
    advice = advise(state, Seat(0))  # type: ignore[arg-type]
    assert advice.best is not None
    GAME.decide(state, Seat(0), advice.best.command, Chance(b"legal", 1))  # type: ignore[arg-type]
    assert isinstance(advice.best.command, PlayTurn)
    assert advice_text(advice.best.why).startswith("Play ")
    assert advice.best.why.phrase is not None
    russian = Renderer(CATALOGS.translations("decktet", "ru"), "ru", str)
    assert russian.text(advice.best.why.phrase).startswith("Сыграть ")
    return advice.best.command


def test_it_advises_the_card_that_takes_a_district_from_the_other_player() -> None:
    """The Discovery after The Lunatic in a turns 6 to 8 into 11 to 8 (test_ai_tactics' first situation)."""
    state = table(mine={0: ("6MV",), 1: ("9LK",), 2: ("9MS",), 3: ("2SY",), 4: ("3LY",)},
                  theirs={0: ("8VL",), 1: ("2MK",), 3: ("9VY",), 4: ("8YK",)},
                  hand=("5SV", "2VL", "4YK"), tokens=supply(S=3, V=2))
    assert Buy(card="5SV", district="a", payment={"S": 3, "V": 2}) in best_turn(state).actions


def test_it_advises_completing_the_deed_that_wins_its_district() -> None:
    """The Pact has 7 of its 9 tokens: two more complete it and win b, 9 to 8."""
    state = table(mine={0: ("9LK",), 1: (("9MS", supply(M=4, S=3)),), 2: ("8VL",), 3: ("6SY",), 4: ("7ML",)},
                  theirs={0: ("5YK",), 1: ("8MS",), 2: ("3MV",), 3: ("4MS",), 4: ("2MK",)},
                  hand=("2SY", "3SK", "4VL"), tokens=supply(M=1, S=1, K=1))
    turn = best_turn(state)
    assert sum(a.count for a in turn.actions if isinstance(a, Develop) and a.card == "9MS") == 2


def test_the_options_are_whole_turns_ranked_by_their_estimated_chance() -> None:
    state = table(mine={0: ("6MV",), 1: ("9LK",)}, theirs={0: ("8VL",), 1: ("2MK",)},
                  hand=("5SV", "2VL", "4YK"), tokens=supply(S=3, V=2))
    options = advise(state, Seat(0)).options
    assert len(options) > 1
    assert all(isinstance(o.command, PlayTurn) for o in options)
    assert [o.score for o in options] == sorted((o.score for o in options), reverse=True)
    assert all(0 <= int(o.why.args["chance"]) <= 100 for o in options)
