"""Every place that writes money writes it as the page does (``49,160K``, never ``$49.16M``): the history,
the simulation summary (``magnate simulate``) and the AI benchmark. The AI's explanations are the exception
on purpose: they are recorded inside events (``AiDecided.reason``), so their wording is part of stored games."""

from __future__ import annotations

from bench import ai_simulation
from domain.kernel import SYSTEM, Chance, commitment_of
from domain.magnate import GAME, GameOptions, SeatSpec, StartGame
from domain.magnate.ai.explain import money as explain_money
from domain.magnate.money import money
from domain.magnate.narrate import narrate
from services.simulation.spec import GameResult, SimSpec
from services.simulation.summary import scores_of, summarise, text


def result(game: int, cash: tuple[int, int]) -> GameResult:
    return GameResult(arm=0, game=game, difficulty="generalised_ai", seed="00", scores=cash,
                      winners=(0,) if cash[0] > cash[1] else (1,), rounds=7, events=100, player_commands=40,
                      system_jobs=30)


def test_the_simulation_summary_writes_money_as_the_page_does() -> None:
    arms = summarise([SimSpec(games=2)], [result(0, (49_160, 30_000)), result(1, (12_000, 40_001))])
    write = scores_of(arms[0])
    assert write(49_160) == "49,160K"
    assert write(7_350.4) == "7,350K" and write(-0.4) == "0K" and write(-1_200.0) == "-1,200K"
    table = text(arms)
    assert "| 30,580K | 30,580K | 15,716K – 45,444K |" in table  # mean, median, p10 – p90 of 49,160K and 12,000K
    assert "$" not in table and "M |" not in table


def test_the_ai_benchmark_writes_money_as_the_page_does() -> None:
    assert GAME.score_text(49_160) == "49,160K"
    row = ai_simulation.Row(key="k", name="Generalised AI", games=2, wins=1, ties=0, low=0.1, high=0.9,
                            ai_mean=7_350.5, ai_median=7_350.0, human_mean=-250.0, rounds=7.0)
    assert "| 7,350K | 7,350K | -250K | 7.00 |" in ai_simulation.table("greedy", [row], GAME.score_text)


def test_the_history_writes_money_as_the_page_does() -> None:
    options = GameOptions(seats=(SeatSpec(), SeatSpec()))
    started = GAME.decide(GAME.initial_state(), SYSTEM, StartGame(options=options, seed_commitment=commitment_of(b"m")),
                          Chance(b"m", 1))
    seats = list(narrate(started))[1]
    assert f"Player 1 ({money(2_000)}, 4 advertising tokens)" in seats and "2,000K" in seats


def test_the_ais_explanations_keep_the_wording_stored_in_old_games() -> None:
    assert explain_money(1_100) == "1.1M" and explain_money(500) == "500K"
