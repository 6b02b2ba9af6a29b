"""``magnate simulate`` in-process: the same seeds give the same results (whatever the number of processes),
the summary is computed from the games it reports, and the JSON result and the SVG chart are written; any
registered game is played through its module alone (a toy game shows it); and the live bot clients' HTTP
(event streams, errors, one more try)."""

from __future__ import annotations

import hashlib
import io
import json
import random
import statistics
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from domain.games import GAMES
from domain.kernel import (
    SYSTEM,
    Actor,
    Chance,
    Command,
    CommandTemplate,
    Event,
    GameModule,
    Outcome,
    Pending,
    RuleViolation,
    Seat,
    SeatInfo,
    Standing,
    SystemCommand,
    fold,
    start_and_reveal,
)
from domain.kernel.driver import play
from domain.magnate import GAME
from services.simulation import Progress, SimSpec, Simulation, arms, simulate, write
from services.simulation.http import Connection, HttpError
from services.simulation.local import play_game
from services.simulation.summary import quantile, wilson

ROOT = Path(__file__).resolve().parents[2]


def test_a_game_is_the_same_game_every_time_and_matches_the_driver() -> None:
    spec = SimSpec(games=1, seed="t")
    assert (spec.game, spec.difficulty, spec.bot) == ("magnate", "generalised_ai", "greedy")  # the game's defaults
    first, second = play_game(spec, 0, 3), play_game(spec, 0, 3)
    assert first == second
    seed = spec.game_seed(3)
    played = play(GAME, spec.start(seed), seed, spec.bots(3))
    assert first.scores == tuple(s.cash for s in played.state.seats)
    assert first.rounds == played.state.round
    assert first.events == len(played.events) + 1  # and the revealed seed
    assert first.player_commands == sum(actor != SYSTEM for _, actor, _ in played.commands)
    assert first.seed == seed.hex()
    assert max(first.scores) == first.scores[first.winners[0]]


def test_the_seed_text_decides_the_games_and_the_difficulty_does_not_change_the_seeds() -> None:
    a, b = SimSpec(games=1, seed="x"), SimSpec(games=1, seed="y")
    assert a.game_seed(0) != b.game_seed(0) and a.game_seed(0) != a.game_seed(1)
    assert a.bot_seed(0, 0) != a.bot_seed(0, 1)
    hard = SimSpec(games=1, seed="x", difficulty="the_singularity")
    assert hard.game_seed(0) == a.game_seed(0) and hard.bot_seed(0, 0) == a.bot_seed(0, 0)
    # Magnate's games are derived as they always were, so an old --seed gives the same games.
    assert a.game_seed(5) == hashlib.sha256(b"magnate-simulate:x:5").digest()
    assert a.bot_seed(5, 1) == int.from_bytes(hashlib.sha256(b"magnate-simulate:x:5:bot:1").digest()[:8], "big")


def _simulation(processes: int) -> Simulation:
    specs = [SimSpec(games=6, seed="repro", difficulty=d) for d in ("digital_assistant", "the_singularity")]
    return simulate(specs, "inprocess", processes=processes, progress=Progress(12, io.StringIO()))


@pytest.mark.timeout(120)
def test_the_same_seeds_give_the_same_results_with_one_process_or_a_pool() -> None:
    serial, pooled, again = _simulation(1), _simulation(2), _simulation(1)
    assert serial.games == pooled.games == again.games
    assert serial.summary == pooled.summary == again.summary
    assert [(g.arm, g.game) for g in serial.games] == [(a, i) for a in range(2) for i in range(6)]
    # both difficulties played the very same games: the bot's score and the rounds agree
    easy, hard = serial.games[:6], serial.games[6:]
    assert [(g.scores[0], g.rounds, g.seed) for g in easy] == [(g.scores[0], g.rounds, g.seed) for g in hard]


def test_the_summary_is_computed_from_the_games() -> None:
    sim = _simulation(1)
    for arm in sim.summary:
        games = [g for g in sim.games if g.arm == arm.arm]
        assert arm.games == len(games) == 6
        assert arm.rounds.mean == pytest.approx(statistics.fmean(g.rounds for g in games))
        assert dict(arm.rounds_histogram) == {r: sum(g.rounds == r for g in games) for r in {g.rounds for g in games}}
        assert arm.events_mean == pytest.approx(statistics.fmean(g.events for g in games))
        for seat in arm.seats:
            scores = [g.scores[seat.seat] for g in games]
            assert seat.wins == sum(g.winners == (seat.seat,) for g in games)
            assert seat.shared_wins == sum(seat.seat in g.winners and len(g.winners) > 1 for g in games)
            assert seat.win_rate == seat.wins / 6
            assert (seat.win_rate_low, seat.win_rate_high) == wilson(seat.wins, 6)
            assert seat.score.median == statistics.median(scores)
            assert seat.score.mean == pytest.approx(statistics.fmean(scores))
            assert (seat.score.min, seat.score.max) == (min(scores), max(scores))
            assert sum(count for _, count in seat.score_histogram) == 6
        assert sum(s.wins + s.shared_wins for s in arm.seats) >= arm.games  # every game has a winner
    assert "AI (the_singularity)" in sim.text() and "greedy bot 0" in sim.text()


def test_quantile_and_wilson() -> None:
    assert quantile([1, 2, 3, 4, 5], 0.5) == 3
    assert quantile([1, 2], 0.5) == 1.5
    assert quantile([7], 0.9) == 7
    low, high = wilson(0, 10)
    assert low == 0 and 0.2 < high < 0.35
    assert wilson(5, 10)[0] < 0.5 < wilson(5, 10)[1]


def test_the_json_result_and_the_chart_are_written(tmp_path: Path) -> None:
    sim = _simulation(1)
    json_path, chart_path = write(sim, tmp_path / "out" / "sim.json")
    assert chart_path == tmp_path / "out" / "sim.svg"
    decoded = msgspec.json.decode(json_path.read_bytes(), type=Simulation)
    assert decoded.games == sim.games and decoded.summary == sim.summary
    root = ET.fromstring(chart_path.read_text(encoding="utf-8"))
    assert root.tag.endswith("svg")
    text = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    assert "Win rate" in text and "Rounds played" in text and "AI (digital_assistant)" in text


def test_the_progress_bar_reports_every_tenth_when_not_on_a_terminal() -> None:
    out = io.StringIO()
    progress = Progress(20, out)
    for _ in range(20):
        progress()
    lines = out.getvalue().splitlines()
    assert len(lines) == 10 and lines[-1].startswith("[##############################] 20/20 games")


@pytest.mark.timeout(180)
def test_the_cli_writes_the_result_and_gives_the_same_games_for_the_same_seed(tmp_path: Path) -> None:
    def cli(name: str, *extra: str) -> dict[str, object]:
        done = subprocess.run(
            [sys.executable, "-m", "services.cli", "simulate", "-n", "4", "--seed", "cli", "--no-progress",
             "-o", str(tmp_path / f"{name}.json"), *extra],
            cwd=ROOT, capture_output=True, text=True, timeout=150, check=False,
        )
        assert done.returncode == 0, done.stderr
        assert "win rate" in done.stdout and (tmp_path / f"{name}.svg").exists()
        result: dict[str, object] = json.loads((tmp_path / f"{name}.json").read_text())
        return result

    one = cli("one", "--processes", "1")
    two = cli("two", "--processes", "2")
    assert one["games"] == two["games"] and one["summary"] == two["summary"]
    assert len(one["games"]) == 4  # type: ignore[arg-type]
    every = cli("all", "--processes", "2", "--difficulty", "all", "--bot", "random", "--seats", "3")
    assert len(every["summary"]) == 4  # type: ignore[arg-type]


@pytest.mark.parametrize(("args", "says"), [
    (["--difficulty", "nope"], "unknown difficulty 'nope' for magnate; one of digital_assistant, "),
    (["--game", "chess"], "unknown game 'chess'; one of magnate"),
    (["--bot", "clever"], "unknown bot 'clever' for magnate; one of greedy, random"),
    (["--flag", "fast", "--advanced"], "unknown flag(s) fast for magnate; one of advanced"),
])
def test_the_cli_refuses_what_the_game_does_not_have(tmp_path: Path, args: list[str], says: str) -> None:
    done = subprocess.run([sys.executable, "-m", "services.cli", "simulate", *args, "-o", str(tmp_path / "x.json")],
                          cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and says in done.stderr, done.stderr


# -- any registered game ------------------------------------------------------------------------------
# A toy game: each round the system rolls a bonus die for the round's first seat, then every seat in turn adds
# 1 to 3 to its score (the AI seat adds its level's number); after ``rounds`` rounds the highest score wins.


class RaceOptions(msgspec.Struct, frozen=True):
    seats: tuple[str, ...]
    level: str | None = None
    rounds: int = 3
    bonus: bool = False


class RaceStart(SystemCommand, frozen=True, tag="race.start"):
    options: RaceOptions
    seed_commitment: str


class RaceRoll(SystemCommand, frozen=True, tag="race.roll"):
    pass


class RaceAiTurn(SystemCommand, frozen=True, tag="race.ai_turn"):
    pass


class RaceReveal(SystemCommand, frozen=True, tag="race.reveal"):
    seed: str


class RaceStep(Command, frozen=True, tag="race.step"):
    n: int = 1


class RaceStarted(Event, frozen=True, tag="race.started"):
    options: RaceOptions


class RaceRolled(Event, frozen=True, tag="race.rolled"):
    seat: int
    n: int


class RaceStepped(Event, frozen=True, tag="race.stepped"):
    seat: int
    n: int


class RaceRevealed(Event, frozen=True, tag="race.revealed"):
    seed: str


class RaceState(msgspec.Struct, frozen=True):
    options: RaceOptions | None = None
    scores: tuple[int, ...] = ()
    round: int = 1
    turn: int = 0
    rolled: bool = False


LEVELS = ("easy", "hard")


def _race_decide(state: RaceState, actor: Actor, command: Any, chance: Chance) -> list[Any]:
    match command:
        case RaceStart(options=options):
            return [RaceStarted(options=options)]
        case RaceRoll():
            return [RaceRolled(seat=state.turn, n=chance.below(3) if state.options and state.options.bonus else 0)]
        case RaceAiTurn():
            assert state.options is not None and state.options.level is not None
            return [RaceStepped(seat=state.turn, n=1 + 2 * LEVELS.index(state.options.level))]
        case RaceStep(n=n) if 1 <= n <= 3 and actor == state.turn:
            return [RaceStepped(seat=state.turn, n=n)]
        case RaceReveal(seed=seed):
            return [RaceRevealed(seed=seed)]
    raise RuleViolation(f"{command!r} by {actor!r} is not allowed now")


def _race_evolve(state: RaceState, event: Any) -> RaceState:
    match event:
        case RaceStarted(options=options):
            return RaceState(options=options, scores=(0,) * len(options.seats))
        case RaceRolled(seat=seat, n=n) | RaceStepped(seat=seat, n=n):
            scores = tuple(score + n * (i == seat) for i, score in enumerate(state.scores))
            if isinstance(event, RaceRolled):
                return msgspec.structs.replace(state, scores=scores, rolled=True)
            last = state.turn == len(scores) - 1
            return msgspec.structs.replace(state, scores=scores, turn=0 if last else state.turn + 1,
                                           round=state.round + last, rolled=state.rolled and not last)
    return state


def _race_step(state: RaceState, actor: Actor, command: Any, chance: Chance) -> tuple[list[Any], RaceState]:
    events = _race_decide(state, actor, command, chance)
    return events, fold(_race_evolve, events, state)


def _race_pending(state: RaceState) -> Pending:
    if state.options is None or state.round > state.options.rounds:
        return Pending(finished=True)
    if not state.rolled:
        return Pending(system=RaceRoll())
    if state.options.seats[state.turn] == "ai":
        return Pending(system=RaceAiTurn())
    return Pending(seats=(Seat(state.turn),))


def _race_outcome(state: RaceState) -> Outcome | None:
    if not _race_pending(state).finished or state.options is None:
        return None
    ranked = sorted(range(len(state.scores)), key=lambda i: (-state.scores[i], i))
    return Outcome(tuple(Standing(i, 1 + sum(o > state.scores[i] for o in state.scores), state.scores[i])
                         for i in ranked), state.round - 1)


def _race_bot(seed: int) -> Callable[[Any, Any], Any]:
    rng = random.Random(seed)
    return lambda state, seat: RaceStep(n=rng.randint(1, 3))


RACE: GameModule[RaceState] = GameModule(
    name="race", state_type=RaceState, player_command_type=RaceStep,
    system_command_type=RaceStart | RaceRoll | RaceAiTurn | RaceReveal,
    event_type=RaceStarted | RaceRolled | RaceStepped | RaceRevealed, options_type=RaceOptions,
    **start_and_reveal(RaceStart, RaceReveal),
    seats=lambda state: tuple(SeatInfo(kind, f"seat {i}") for i, kind in enumerate(state.options.seats))
    if state.options else (),
    initial_state=RaceState, decide=_race_decide, step=_race_step, evolve=_race_evolve, pending=_race_pending,
    view=lambda state, viewer, over: state, legal_commands=lambda state, seat: [CommandTemplate(RaceStep())],
    outcome=_race_outcome, bots={"random": _race_bot, "ones": lambda seed: lambda state, seat: RaceStep()},
    ai_levels=LEVELS, sim_options=lambda kinds, level, flags: RaceOptions(kinds, level, bonus="bonus" in flags),
    sim_flags=("bonus",),
)


@pytest.fixture
def race(monkeypatch: pytest.MonkeyPatch) -> GameModule[RaceState]:
    monkeypatch.setitem(GAMES, "race", RACE)
    return RACE


def test_any_registered_game_is_simulated_through_its_module(race: GameModule[RaceState]) -> None:
    specs = arms(5, game="race", seats=3, difficulty="all", flags=frozenset({"bonus"}), seed="r")
    bonus = frozenset({"bonus"})
    assert [(s.difficulty, s.bot, s.flags) for s in specs] == [("easy", "random", bonus), ("hard", "random", bonus)]
    assert specs[0].game_seed(2) == hashlib.sha256(b"race-simulate:r:2").digest()  # prefixed with the game's name
    sim = simulate(specs, "inprocess", processes=1, progress=Progress(10, io.StringIO()))
    assert [s["game"] for s in sim.specs] == ["race", "race"]
    for result in sim.games:
        spec = specs[result.arm]
        seed = spec.game_seed(result.game)
        played = play(race, spec.start(seed), seed, spec.bots(result.game))
        assert result.scores == played.state.scores and result.rounds == 3
        assert result.winners == tuple(i for i, s in enumerate(result.scores) if s == max(result.scores))
        assert result.system_jobs == 3 * 2 and result.player_commands == 3 * 2  # a roll and an AI turn a round
        assert result.events == len(played.events) + 1
    easy, hard = sim.summary
    assert hard.seats[2].score.mean - easy.seats[2].score.mean == 6  # the AI adds 3 rather than 1, three times
    assert "AI (hard)" in sim.text() and "random bot 0" in sim.text()
    assert SimSpec(games=1, game="race").difficulty == "easy"  # the middle level (the weaker of two)


def test_a_spec_is_checked_against_its_game(race: GameModule[RaceState]) -> None:
    with pytest.raises(ValueError, match="unknown bot 'greedy' for race; one of random, ones"):
        SimSpec(games=1, game="race", bot="greedy")
    with pytest.raises(ValueError, match="unknown flag"):
        SimSpec(games=1, game="race", flags=frozenset({"advanced"}))
    with pytest.raises(ValueError, match="unknown difficulty 'the_singularity' for race; one of easy, hard"):
        arms(1, game="race", difficulty="the_singularity")
    assert [s.difficulty for s in arms(1, game="race", difficulty="none")] == [None]


# -- the bot clients' HTTP ------------------------------------------------------------------------------


async def test_the_event_stream_gives_each_messages_data_and_skips_keep_alives() -> None:
    stream = (b": connected\r\nretry: 2000\r\n\r\nevent: events\r\nid: 3\r\ndata: {\"version\": 3}\r\n\r\n"
              b"event: history\ndata: {\"lines\": []}\n\n: keep-alive\n\ndata: one\ndata:two\n\n")

    def answer(request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/api/games/g/stream" and request.headers["accept"] == "text/event-stream"
        return httpx.Response(200, content=stream, headers={"content-type": "text/event-stream"})

    async with Connection("http://test", transport=httpx.MockTransport(answer)) as conn:
        assert [data async for data in conn.events("/api/games/g/stream?after=0", 5)] == ['{"version": 3}',
                                                                                          "one\ntwo"]


async def test_a_stream_that_is_not_200_and_a_request_without_answer_are_http_errors() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/broken":
            raise httpx.ConnectError("refused", request=request)
        return httpx.Response(404, json={"code": "not_found/game"})

    async with Connection("http://test", transport=httpx.MockTransport(answer)) as conn:
        with pytest.raises(HttpError, match="404"):
            await anext(conn.events("/api/games/nope/stream", 5))
        with pytest.raises(HttpError, match="refused"):
            await conn.request("GET", "/broken")
        response = await conn.request("GET", "/api/games/nope")
        assert response.status == 404 and response.json() == {"code": "not_found/game"}


async def test_a_request_whose_connection_the_server_closed_is_sent_once_more() -> None:
    sent: list[bytes] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request.content)
        if len(sent) == 1:
            raise httpx.RemoteProtocolError("Server disconnected without sending a response.", request=request)
        return httpx.Response(200, content=b"{}", headers={"Retry-After": "1"})

    async with Connection("http://test", transport=httpx.MockTransport(answer)) as conn:
        response = await conn.request("POST", "/api/games/g/commands", b'{"command_id": "sim-3"}')
    assert sent == [b'{"command_id": "sim-3"}'] * 2
    assert response.status == 200 and response.headers["retry-after"] == "1"


async def test_a_silent_stream_times_out() -> None:
    class Silent(httpx.AsyncByteStream):
        async def __aiter__(self) -> AsyncIterator[bytes]:
            yield b": connected\n\n"
            raise httpx.ReadTimeout("silence")

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, stream=Silent(), headers={"content-type": "text/event-stream"})

    async with Connection("http://test", transport=httpx.MockTransport(answer)) as conn:
        with pytest.raises(TimeoutError):
            await anext(conn.events("/api/games/g/stream", 0.1))
