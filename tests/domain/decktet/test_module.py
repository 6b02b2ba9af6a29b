"""The game contract (domain/kernel/game.py) as Decktet Magnate fills it: stored tags, the fold's table, legal
commands, bots, the narrator told per viewer, the outcome, the catalogue and the simulation options."""

from __future__ import annotations

import typing

import msgspec
import pytest
from babel.support import NullTranslations

from domain.decktet import GAME
from domain.decktet.bots import Greedy, RandomLegal
from domain.decktet.commands import Buy, Develop, EndTurn, PlayerCommand
from domain.decktet.decider import HANDLED_EVENTS
from domain.decktet.events import DecktetEvent
from domain.decktet.variant import GameOptions
from domain.kernel import PUBLIC, Chance, Seat, tag_of
from domain.kernel.driver import play
from domain.kernel.table import seated
from services.language.render import Renderer

from .builders import arrange, fresh_turn, started, supply

TAGS = [
    "decktet.ai_turn_planned", "decktet.card_sold", "decktet.cards_drawn", "decktet.choices_due", "decktet.deed_bought",
    "decktet.deed_completed", "decktet.deed_developed", "decktet.dice_rolled", "decktet.discards_reshuffled",
    "decktet.final_round_started", "decktet.game_ended", "decktet.game_started", "decktet.hand_dealt",
    "decktet.income_chosen", "decktet.income_paid", "decktet.preference_set", "decktet.property_bought",
    "decktet.seed_revealed", "decktet.taxed", "decktet.traded", "decktet.turn_ended", "decktet.turn_started",
]


def test_stored_event_tags_never_change_and_every_event_has_an_evolve() -> None:
    events = typing.get_args(DecktetEvent)
    assert sorted(e.__struct_config__.tag for e in events) == TAGS
    assert set(events) == HANDLED_EVENTS
    commands = typing.get_args(PlayerCommand)
    assert all(c.__struct_config__.tag.startswith("decktet.") for c in commands)


def test_legal_commands_are_for_the_active_seat_and_each_is_accepted() -> None:
    _, state = started()
    assert GAME.legal_commands(state, Seat(1 - state.active)) == []
    state = arrange(fresh_turn(state, 0), 0, hand=("8MS", "2SY", "1K"), supply_=supply(M=4, S=6, K=3))
    templates = GAME.legal_commands(state, Seat(0))
    buys = [t.command for t in templates if isinstance(t.command, Buy) and t.command.card == "8MS"]
    assert {tuple(sorted(b.payment.items())) for b in buys if b.district == "c"} == {
        (("M", m), ("S", 8 - m)) for m in range(2, 5)}
    assert not any(isinstance(t.command, EndTurn) for t in templates)
    for template in templates:
        GAME.step(state, Seat(0), template.command, Chance(b"x", 1))


def test_develop_templates_offer_every_legal_count() -> None:
    from domain.decktet.state import Placed

    state = fresh_turn(started()[1], 0)
    state = arrange(state, 0, columns={0: (Placed("9MS", deed=True, tokens=supply(M=2)),)}, supply_=supply(M=9, S=9))
    develops = {t.command.suit: t.params for t in GAME.legal_commands(state, Seat(0))
                if isinstance(t.command, Develop)}
    assert develops["M"][0].maximum == 6 and develops["S"][0].maximum == 7  # type: ignore[union-attr]


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_bots_play_whole_games_choosing_only_legal_commands(bot: str) -> None:
    for game in range(3):
        played = play(GAME, GAME.start(GameOptions(mega=game == 1), "c"), f"bot{game}".encode(), GAME.bots[bot](game))
        assert GAME.outcome(played.state) is not None


def test_greedy_beats_random_most_of_the_time() -> None:
    wins = 0
    for game in range(20):
        greedy, rnd = Greedy(game), RandomLegal(game)
        played = play(GAME, GAME.start(GameOptions(), "c"), f"gr{game}".encode(),
                      lambda state, seat, g=greedy, r=rnd: g(state, seat) if seat == 0 else r(state, seat))
        outcome = GAME.outcome(played.state)
        assert outcome is not None
        wins += 0 in outcome.winners
    assert wins >= 15


def test_the_narrator_tells_each_viewer_its_own_redacted_log() -> None:
    played = play(GAME, GAME.start(GameOptions(), "c"), b"story", RandomLegal(5))
    assert GAME.narrator is not None
    for viewer in (PUBLIC, Seat(0), Seat(1)):
        narrator = GAME.narrator({0: "Ada", 1: "Bea"})
        lines = []
        for version, event in enumerate(played.events, start=1):
            shown = GAME.redact(event, viewer, False)
            if shown is not None:
                lines += narrator.tell(version, tag_of(shown), shown)
        renderer = Renderer(NullTranslations(), "en", {0: "Ada", 1: "Bea"}.__getitem__)
        rendered = [renderer.render(line.phrase) for line in lines if line.phrase is not None]
        assert len(rendered) == len(lines)
        texts = [text for text, _ in rendered]
        assert texts[0].startswith("Decktet Magnate begins") and "The game ends." in texts
        assert any(t.startswith("Turn 1: ") for t in texts)
        draws = [t for t in texts if " draws " in t]
        if viewer == PUBLIC:
            assert all(t.endswith("draws a card.") for t in draws)
        for text, seats in rendered:
            for named in seats:
                assert text[named.start:named.end] in ("Ada", "Bea")


def test_the_outcome_the_catalogue_and_the_simulation_options() -> None:
    assert GAME.catalog is not None and GAME.sim_options is not None
    cat = GAME.catalog(None)
    assert msgspec.to_builtins(cat)["game"] == "decktet" and len(msgspec.to_builtins(cat)["cards"]) == 45
    with pytest.raises(KeyError):
        GAME.catalog("v999")
    assert GAME.sim_options(("human", "human", "human"), None, frozenset()).three
    assert GAME.sim_options(("human", "human"), None, frozenset({"mega", "stacked"})).stacked
    assert [s.label for s in GAME.seats(started()[1])] == ["Player 1", "Player 2"]
    assert GAME.outcome(started()[1]) is None


def test_the_game_runs_behind_the_tables_wrapper() -> None:
    wrapped = seated(GAME)
    played = play(wrapped, wrapped.start(GameOptions(three=True), "c"), b"seated", RandomLegal(1))
    assert wrapped.outcome(played.state) is not None
