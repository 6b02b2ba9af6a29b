"""``magnate simulate`` in-process: the same seeds give the same results (whatever the number of processes),
the summary is computed from the games it reports, and the JSON result and the SVG chart are written; and the
live bot clients' HTTP (event streams, errors, one more try)."""

from __future__ import annotations

import io
import json
import statistics
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import msgspec
import pytest

from domain.kernel import SYSTEM
from domain.kernel.driver import play
from domain.magnate import GAME
from services.simulation import Progress, SimSpec, Simulation, simulate, write
from services.simulation.http import Connection, HttpError
from services.simulation.local import play_game
from services.simulation.summary import quantile, wilson

ROOT = Path(__file__).resolve().parents[2]


def test_a_game_is_the_same_game_every_time_and_matches_the_driver() -> None:
    spec = SimSpec(games=1, seed="t")
    first, second = play_game(spec, 0, 3), play_game(spec, 0, 3)
    assert first == second
    seed = spec.game_seed(3)
    played = play(GAME, spec.start(seed), seed, spec.bots(3))
    assert first.cash == tuple(s.cash for s in played.state.seats)
    assert first.rounds == played.state.round
    assert first.events == len(played.events) + 1  # and the revealed seed
    assert first.player_commands == sum(actor != SYSTEM for _, actor, _ in played.commands)
    assert first.seed == seed.hex()
    assert max(first.cash) == first.cash[first.winners[0]]


def test_the_seed_text_decides_the_games_and_the_difficulty_does_not_change_the_seeds() -> None:
    a, b = SimSpec(games=1, seed="x"), SimSpec(games=1, seed="y")
    assert a.game_seed(0) != b.game_seed(0) and a.game_seed(0) != a.game_seed(1)
    assert a.bot_seed(0, 0) != a.bot_seed(0, 1)
    hard = SimSpec(games=1, seed="x", difficulty="the_singularity")
    assert hard.game_seed(0) == a.game_seed(0) and hard.bot_seed(0, 0) == a.bot_seed(0, 0)


def _simulation(processes: int) -> Simulation:
    specs = [SimSpec(games=6, seed="repro", difficulty=d) for d in ("digital_assistant", "the_singularity")]
    return simulate(specs, "inprocess", processes=processes, progress=Progress(12, io.StringIO()))


@pytest.mark.timeout(120)
def test_the_same_seeds_give_the_same_results_with_one_process_or_a_pool() -> None:
    serial, pooled, again = _simulation(1), _simulation(2), _simulation(1)
    assert serial.games == pooled.games == again.games
    assert serial.summary == pooled.summary == again.summary
    assert [(g.arm, g.game) for g in serial.games] == [(a, i) for a in range(2) for i in range(6)]
    # both difficulties played the very same games: the bot's cash and the crash round agree
    easy, hard = serial.games[:6], serial.games[6:]
    assert [(g.cash[0], g.rounds, g.seed) for g in easy] == [(g.cash[0], g.rounds, g.seed) for g in hard]


def test_the_summary_is_computed_from_the_games() -> None:
    sim = _simulation(1)
    for arm in sim.summary:
        games = [g for g in sim.games if g.arm == arm.arm]
        assert arm.games == len(games) == 6
        assert arm.rounds.mean == pytest.approx(statistics.fmean(g.rounds for g in games))
        assert dict(arm.rounds_histogram) == {r: sum(g.rounds == r for g in games) for r in {g.rounds for g in games}}
        assert arm.events_mean == pytest.approx(statistics.fmean(g.events for g in games))
        for seat in arm.seats:
            cash = [g.cash[seat.seat] for g in games]
            assert seat.wins == sum(g.winners == (seat.seat,) for g in games)
            assert seat.shared_wins == sum(seat.seat in g.winners and len(g.winners) > 1 for g in games)
            assert seat.win_rate == seat.wins / 6
            assert (seat.win_rate_low, seat.win_rate_high) == wilson(seat.wins, 6)
            assert seat.cash.median == statistics.median(cash)
            assert seat.cash.mean == pytest.approx(statistics.fmean(cash))
            assert (seat.cash.min, seat.cash.max) == (min(cash), max(cash))
            assert sum(count for _, count in seat.cash_histogram) == 6
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
    assert "Win rate" in text and "Crash round" in text and "AI (digital_assistant)" in text


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


def test_the_cli_refuses_unknown_difficulties(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "services.cli", "simulate", "--difficulty", "nope", "-o",
                           str(tmp_path / "x.json")], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 2 and "unknown difficulty" in done.stderr


# -- the bot clients' HTTP ------------------------------------------------------------------------------


async def test_the_event_stream_gives_each_messages_data_and_skips_keep_alives() -> None:
    stream = (b": connected\r\nretry: 2000\r\n\r\nevent: events\r\nid: 3\r\ndata: {\"version\": 3}\r\n\r\n"
              b": keep-alive\n\ndata: one\ndata:two\n\n")

    def answer(request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/api/games/g/stream" and request.headers["accept"] == "text/event-stream"
        return httpx.Response(200, content=stream)

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
        return httpx.Response(200, stream=Silent())

    async with Connection("http://test", transport=httpx.MockTransport(answer)) as conn:
        with pytest.raises(TimeoutError):
            await anext(conn.events("/api/games/g/stream", 0.1))
