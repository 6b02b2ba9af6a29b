"""What each viewer may see (§4.2): a seat its own cash and advertising, the public neither; the AI's cash
is public; decks are counts, never contents; the auditor sees everything, but only once the game is over."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from domain.kernel import AUDITOR, PUBLIC, SYSTEM, Seat, ViewUnavailable
from domain.magnate import MagnateState, initial_state, view
from domain.magnate.commands import RevealSeed
from domain.magnate.events import GameEnded, RoundStarted
from domain.magnate.state import Phase, SeatState

from .builders import GAME_SEED, given, play_to_end, run, started, tutorial, with_ai_built, with_ai_level

CASH = (2100, 1700, 2000, 900, 3400)
ADVERTISING = (4, 0, 7, 2, 5)


def _with_wallets(state: MagnateState) -> MagnateState:
    """The tutorial's five seats holding different cash and advertising, so a leak is visible."""
    seats = tuple(
        SeatState(s.company, s.kind, cash, ads) for s, cash, ads in zip(state.seats, CASH, ADVERTISING, strict=True)
    )
    return replace(state, seats=seats)


@cache
def _played() -> Any:
    return play_to_end(3)


def _mid_game() -> MagnateState:
    """The played game at the start of round 3: risk and new tenant cards have been drawn by then."""
    state = initial_state()
    for event in _played().events:
        state = given(state, event)
        if isinstance(event, RoundStarted) and event.round == 3:
            return state
    raise AssertionError("the game ended before round 3")


def _ended() -> MagnateState:
    state: MagnateState = _played().state
    assert state.phase == Phase.ENDED
    return state


# --- private cash and advertising ------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", range(5))
def test_a_seat_sees_its_own_cash_and_advertising_and_no_other_seats(viewer: int) -> None:
    seen = view(_with_wallets(tutorial()), Seat(viewer))
    assert seen.viewer == str(viewer)
    assert [(s.cash, s.advertising) for s in seen.seats] == [
        (CASH[i], ADVERTISING[i]) if i == viewer else (None, None) for i in range(5)
    ]


def test_the_public_sees_no_human_cash_or_advertising() -> None:
    seen = view(_with_wallets(tutorial()), PUBLIC)
    assert seen.viewer == "public"
    assert [(s.cash, s.advertising) for s in seen.seats] == [(None, None)] * 5
    # ...but everything else about the seats is public.
    assert [s.company for s in seen.seats] == [
        "vector_properties", "greyfield", "penforth_davey", "urhme", "humble_foundation",
    ]


def test_a_seats_view_does_not_leak_other_wallets_anywhere() -> None:
    state = _with_wallets(tutorial())
    encoded = msgspec.json.encode(view(state, Seat(0))).decode()
    for other in (1, 3, 4):  # 2,000K is also the tutorial's unchanged seat 2 and would match anything
        assert f'"cash":{CASH[other]}' not in encoded
        assert f'"advertising":{ADVERTISING[other]}' not in encoded


def test_the_ais_cash_is_public() -> None:
    state = started(2, ai=True)
    assert [s.kind for s in view(state, PUBLIC).seats] == ["human", "ai"]
    assert [(s.cash, s.advertising) for s in view(state, PUBLIC).seats] == [(None, None), (2000, 0)]
    assert [(s.cash, s.advertising) for s in view(state, Seat(0)).seats] == [(2000, 4), (2000, 0)]


def test_the_ai_board_is_public_but_its_decks_are_counts() -> None:
    state = with_ai_built(with_ai_level(started(2, ai=True), 2), "1A")
    assert state.ai is not None
    for viewer in (PUBLIC, Seat(0)):
        board = view(state, viewer).ai
        assert board is not None
        assert (board.seat, board.level, board.top_row) == (1, 2, ("1A",))
        assert board.decks == tuple(len(deck) for deck in state.ai.decks)
        encoded = msgspec.json.encode(view(state, viewer)).decode()
        for deck in state.ai.decks:
            for card in deck:
                assert f'"{card}"' not in encoded, f"undrawn AI card {card} visible"
    assert view(tutorial(), PUBLIC).ai is None


# --- hidden decks ----------------------------------------------------------------------------------------


def test_a_fresh_game_shows_its_decks_as_counts_only() -> None:
    state = tutorial()
    market = view(state, PUBLIC).market
    assert (market.risk_deck, market.tenant_deck, market.marker_supply) == (19, 36, 42)
    assert (market.risk_discard, market.tenant_discard) == ((), ())
    encoded = msgspec.json.encode(view(state, Seat(0))).decode()
    for card in (*state.risk_deck, *state.tenant_deck):
        assert f'"{card}"' not in encoded


def _paths(node: Any, target: str, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Where ``target`` occurs as a string value in a decoded JSON document."""
    if node == target:
        yield path
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, target, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, target, (*path, index))


@pytest.mark.parametrize("viewer", [PUBLIC, Seat(0), Seat(1)], ids=str)
def test_mid_game_only_drawn_cards_appear_and_the_marker_supply_is_never_listed(viewer: Any) -> None:
    state = _mid_game()
    assert state.risk_discard and state.tenant_discard  # cards have been drawn and discarded
    seen = view(state, viewer)
    market = seen.market
    assert market.risk_deck == 19 - len(state.risk_discard)
    assert market.tenant_deck == 36 - len(state.tenant_discard)
    assert market.marker_supply == len(state.marker_supply)
    assert market.risk_discard == state.risk_discard
    assert market.tenant_discard == state.tenant_discard

    document = msgspec.json.decode(msgspec.json.encode(seen))
    for card in (*state.risk_deck, *state.tenant_deck):
        assert list(_paths(document, card)) == [], f"undrawn card {card} visible"
    for card in state.risk_discard:
        assert list(_paths(document, card)) == [("market", "risk_discard", state.risk_discard.index(card))]
    # A coordinate still in the supply appears only as a plot's own name (never marked for sale) or in
    # lists of plots the seats own or attracted to: no field enumerates the supply.
    for coordinate in state.marker_supply:
        for path in _paths(document, coordinate):
            if path[0] == "plots":
                assert path[2] == "plot"
                assert document["plots"][path[1]]["for_sale"] is False
            else:
                assert path[0] in ("seats", "attracted", "attraction"), path


def test_the_seed_stays_secret_until_revealed() -> None:
    assert view(_mid_game(), PUBLIC).seed is None
    assert view(_ended(), PUBLIC).seed is None
    _, revealed = run(_ended(), SYSTEM, RevealSeed(seed=GAME_SEED.hex()))
    assert view(revealed, PUBLIC).seed == GAME_SEED.hex()
    assert view(revealed, PUBLIC).seed_commitment == view(_mid_game(), PUBLIC).seed_commitment


# --- the auditor and the end -----------------------------------------------------------------------------


@pytest.mark.parametrize("state", [tutorial(), started(2, ai=True), _mid_game()], ids=["fresh", "ai", "mid-game"])
def test_the_auditor_view_is_unavailable_while_the_game_runs(state: MagnateState) -> None:
    with pytest.raises(ViewUnavailable) as caught:
        view(state, AUDITOR)
    assert caught.value.code == "view/unavailable"


def test_no_view_exists_before_the_game_has_started() -> None:
    with pytest.raises(ViewUnavailable) as caught:
        view(initial_state(), PUBLIC)
    assert caught.value.code == "view/unavailable"


def test_the_auditor_sees_everything_once_the_game_is_over() -> None:
    state = _ended()
    seen = view(state, AUDITOR)
    assert seen.phase == "ended"
    assert seen.system_job is None and seen.on_turn == ()
    assert [(s.cash, s.advertising) for s in seen.seats] == [(s.cash, s.advertising) for s in state.seats]


@pytest.mark.parametrize("viewer", [PUBLIC, AUDITOR, Seat(0), Seat(1), Seat(2)], ids=str)
def test_after_the_end_every_seats_cash_is_visible_to_everyone(viewer: Any) -> None:
    final = next(e for e in _played().events if isinstance(e, GameEnded))
    seen = view(_ended(), viewer)
    assert tuple(s.cash for s in seen.seats) == final.cash
    assert sorted((s.seat, s.cash) for s in seen.standings) == list(enumerate(final.cash))
    assert {s.seat for s in seen.standings if s.rank == 1} == set(final.winners)
    assert all(s.plots == () for s in seen.seats)  # everything was liquidated at the crash


def test_the_auditor_may_see_a_historical_state_of_a_finished_game_in_full() -> None:
    from domain.kernel import AUDITOR, fold
    from domain.kernel.driver import play
    from domain.magnate import GAME, GameOptions, SeatSpec, StartGame
    from domain.magnate.bots import RandomLegal

    played = play(GAME, StartGame(options=GameOptions(seats=(SeatSpec(), SeatSpec())), seed_commitment="x"),
                  b"history", RandomLegal(3))
    midway = fold(GAME.evolve, played.events[: len(played.events) // 2], GAME.initial_state())
    with pytest.raises(ViewUnavailable):
        GAME.view(midway, AUDITOR, False)
    audit = GAME.view(midway, AUDITOR, True)
    assert [s.cash for s in audit.seats] == [s.cash for s in midway.seats]


def test_the_state_right_after_setup_can_be_viewed_before_the_first_round() -> None:
    from domain.kernel import PUBLIC
    from domain.magnate import GAME

    from .builders import start_events

    first = start_events(3)[0]
    set_up = GAME.evolve(GAME.initial_state(), first)
    seen = GAME.view(set_up, PUBLIC, False)
    assert seen.phase == "setup" and len(seen.seats) == 3
    with pytest.raises(ViewUnavailable):
        GAME.view(GAME.initial_state(), PUBLIC, False)


def test_the_views_made_together_are_each_viewers_own_at_every_state_of_a_game() -> None:
    """``views`` shares the board between viewers (the page's messages of a version need them all): what it gives
    each viewer is exactly :func:`view`'s, at every state of a played game, cash and advertising included."""
    from domain.magnate import GAME

    state = initial_state()
    checked = 0
    for event in _played().events:
        state = given(state, event)
        if not state.seats:
            continue
        over = state.phase == Phase.ENDED
        viewers = [PUBLIC, *(Seat(i) for i in range(len(state.seats))), *([AUDITOR] if over else [])]
        together = GAME.view_each(state, viewers, over)
        alone = [view(state, v, over) for v in viewers]
        assert together == alone
        checked += 1
    assert checked > 50


def test_views_made_together_refuse_the_auditor_while_the_game_runs() -> None:
    from domain.magnate import GAME

    with pytest.raises(ViewUnavailable):
        GAME.view_each(_mid_game(), [PUBLIC, AUDITOR], False)
