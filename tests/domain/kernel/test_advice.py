"""The advice contract (issue #26), held for every game: each option is a legal command of the seat (the game's
``decide`` accepts it), the options are ranked best first, the seat gets none when it has nothing to decide, the
reasons render in English, and the advice is the same for two states that differ only in what the seat may not
see (``hide``)."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.games import GAMES
from domain.kernel import Chance, Seat, commitment_of
from domain.kernel.advice import Advice, AdviceOption, Reason, ranked, render, view_seed
from domain.kernel.driver import play
from domain.kernel.phrases import say

GAME_KEYS = ("decktet", "master_of_economy", "magnate")
EVERY = {"decktet": 6, "master_of_economy": 5, "magnate": 3}
TABLE = {"magnate": ("human", "human", "ai")}
"""Magnate hides only another person's cash and tokens: its table has two people beside the computer."""
"""Keep every n-th decision of the seat (the searching games cost most per advice)."""


@cache
def decisions(game: str, seed: str = "advice-test") -> tuple[tuple[Any, Seat], ...]:
    """States where a person's seat decides, from a seeded game of the greedy bot against the weakest level."""
    module = GAMES[game]
    assert module.sim_options is not None
    options = module.sim_options(TABLE.get(game, ("human", "ai")), module.ai_levels[0], frozenset())
    greedy = module.bots["greedy"](1)
    seen: list[tuple[Any, Seat]] = []

    def policy(state: Any, seat: Seat) -> Any:
        seen.append((state, seat))
        return greedy(state, seat)

    raw = seed.encode()
    play(module, module.start(options, commitment_of(raw)), raw, policy)
    return tuple(seen[:: EVERY[game]])


def advice(game: str, state: Any, seat: Seat) -> Advice:
    advise = GAMES[game].advise
    assert advise is not None
    return advise(state, seat)


@pytest.mark.parametrize("game", GAME_KEYS)
def test_every_option_is_legal_ranked_and_explained(game: str) -> None:
    module = GAMES[game]
    assert module.advice_text is not None
    for state, seat in decisions(game)[:12]:
        options = advice(game, state, seat).options
        assert options, "a seat that decides gets advice"
        assert [o.score for o in options] == sorted((o.score for o in options), reverse=True)
        assert len({msgspec_key(o.command) for o in options}) == len(options), "no option twice"
        for option in options:
            module.decide(state, seat, option.command, Chance(b"legal", 1))
            text = module.advice_text(option.why)
            assert text and "{" not in text and text != option.why.key


def msgspec_key(command: Any) -> bytes:
    return msgspec.json.encode(command)


@pytest.mark.parametrize("game", GAME_KEYS)
def test_no_advice_for_a_seat_that_has_nothing_to_decide(game: str) -> None:
    state, seat = decisions(game)[0]
    for other in range(len(TABLE.get(game, (0, 1)))):
        if other != seat:
            assert advice(game, state, Seat(other)).options == ()


@pytest.mark.parametrize("game", GAME_KEYS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_advice_reads_only_what_the_seat_may_see(game: str, data: st.DataObject) -> None:
    """The other seats' secrets changed by ``hide``: the same advice, option for option."""
    module = GAMES[game]
    assert module.hide is not None
    states = decisions(game)
    state, seat = states[data.draw(st.integers(0, len(states) - 1), label="decision")]
    k = data.draw(st.integers(1, 10_000), label="hide seed")
    hidden = module.hide(state, seat, k)
    assert advice(game, hidden, seat) == advice(game, state, seat)


@pytest.mark.parametrize("game", GAME_KEYS)
def test_the_seat_may_not_see_something_in_most_of_these_states(game: str) -> None:
    """The property above is not vacuous: ``hide`` changes most of the states it is drawn from."""
    module = GAMES[game]
    assert module.hide is not None
    states = decisions(game)
    assert sum(module.hide(state, seat, 7) != state for state, seat in states) * 2 > len(states)


def test_ranked_is_stable_and_best_first() -> None:
    a, b, c = (AdviceOption(command=name, why=Reason("k"), score=s) for name, s in (("a", 1), ("b", 5), ("c", 1)))
    assert [o.command for o in ranked([a, b, c]).options] == ["b", "a", "c"]
    assert ranked([]).best is None and ranked([a, b]).best == b


def test_render_fills_a_template_and_falls_back_to_the_key() -> None:
    templates = {"buy": "Buy {plot} for {price}K."}
    assert render(templates, Reason("buy", {"plot": "1A", "price": 300})) == "Buy 1A for 300K."
    assert render(templates, Reason("unknown")) == "unknown"
    assert render(templates, Reason("buy", {"plot": "1A"})) == "Buy {plot} for {price}K."


def test_a_reason_with_a_phrase_is_told_by_its_phrase_and_decodes_as_before() -> None:
    phrase = say("Buy {plot} for {price}K.", plot="1A", price=1_200)
    reason = Reason("buy", {"plot": "1A", "price": 1_200}, phrase)
    assert render({"buy": "Old {plot}"}, reason) == "Buy 1A for 1,200K."
    assert msgspec.json.decode(msgspec.json.encode(reason), type=Reason) == reason
    assert msgspec.json.decode(b'{"key":"buy","args":{"plot":"1A"}}', type=Reason) == Reason("buy", {"plot": "1A"})


def test_view_seed_depends_on_the_view_and_the_salt_only() -> None:
    view = Reason("v", {"x": 1})
    assert view_seed(view, 3) == view_seed(Reason("v", {"x": 1}), 3)
    assert view_seed(view, 3) != view_seed(view, 4) != view_seed(Reason("v", {"x": 2}), 4)


def test_the_measurement_runs_in_its_quick_mode() -> None:
    """bench/advice.py's table over one game a game and bot (``make bench-full`` plays 500)."""
    from bench.advice import BOTS, table

    lines = table(1, 1, GAME_KEYS)
    assert len(lines) == 2 + len(GAME_KEYS) * len(BOTS)
    assert all(row.count("|") == 9 for row in lines)
