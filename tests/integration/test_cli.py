"""The ``magnate`` command line: export and verify an audit trail, and ``run`` as one process tree that
starts embedded PostgreSQL and Redis, serves the API, and leaves nothing running after SIGTERM."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import psutil  # type: ignore[import-untyped]
import pytest

from domain.games import GAMES
from domain.magnate import GameOptions, SeatSpec
from domain.magnate.bots import RandomLegal
from infra.config import Settings
from services.gameplay.bootstrap import Runtime, build

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
STORE_VARIABLES = ("DATABASE_URL", "REDIS_URL")


def cli(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "services.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          timeout=timeout, check=False)


@pytest.fixture
async def runtime(pg_dsn: str, redis_url: str, queue_name: str) -> AsyncIterator[Runtime]:
    runtime = await build(Settings(database_url=pg_dsn, redis_url=redis_url, queue_name=queue_name))
    try:
        yield runtime
    finally:
        await runtime.close()


async def finished_game(runtime: Runtime) -> str:
    """A whole two-seat game played with random legal moves (system jobs run inline, as a worker would)."""
    gameplay = runtime.gameplay
    game_id = (await gameplay.create_game("magnate", GameOptions(seats=(SeatSpec(), SeatSpec())))).game_id
    bot = RandomLegal(3)
    for _ in range(2000):
        head = await gameplay.store.head(game_id)
        if head.status == "finished":
            return game_id
        if head.system_job is not None:
            assert await gameplay.run_system(game_id, head.version, head.system_job)
            continue
        loaded = await gameplay.load(game_id)
        seat = GAMES["magnate"].pending(loaded.state).seats[0]
        await gameplay.submit(game_id, int(seat), uuid.uuid4().hex, bot(loaded.state, seat))
    raise AssertionError("the game did not finish")


def tampered(lines: list[bytes]) -> list[bytes]:
    """Change one digit inside one event's payload (a die, an amount, an index)."""
    out = list(lines)
    for i, line in enumerate(out):
        record = json.loads(line)
        if record["kind"] != "event":
            continue
        start = line.index(b'"payload":')
        match = re.compile(rb"[0-8]").search(line, start)
        if match is not None and match.start() < line.index(b'"prev_hash"'):
            digit = match.group()
            out[i] = line[:match.start()] + bytes([digit[0] + 1]) + line[match.end():]
            return out
    raise AssertionError("no event payload with a digit")


async def test_export_then_verify(runtime: Runtime, pg_dsn: str, tmp_path: Path) -> None:
    game_id = await finished_game(runtime)
    export = tmp_path / "game.jsonl"

    exported = cli("export", game_id, "-o", str(export), env={**os.environ, "DATABASE_URL": pg_dsn})
    assert exported.returncode == 0, exported.stderr.decode()

    good = cli("verify", str(export))
    assert good.returncode == 0, good.stdout.decode() + good.stderr.decode()
    verdict = json.loads(good.stdout)
    assert verdict["ok"] is True
    assert verdict["replayed"] == verdict["commands"] > 0  # finished: the seed is revealed and replayed

    bad_file = tmp_path / "tampered.jsonl"
    bad_file.write_bytes(b"\n".join(tampered(export.read_bytes().splitlines())) + b"\n")
    bad = cli("verify", str(bad_file))
    assert bad.returncode == 1, bad.stdout.decode()
    assert json.loads(bad.stdout)["ok"] is False


def test_verify_rejects_garbage(tmp_path: Path) -> None:
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not json\n")
    assert cli("verify", str(junk)).returncode == 1


# -- magnate run ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return exc.code
    except (urllib.error.URLError, OSError):
        return 0


def alive(pid: int) -> bool:
    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False


def server_pids(data_dir: Path) -> dict[str, int]:
    """The embedded servers' pids, from their own pid files (they daemonize, so they are no children)."""
    pids: dict[str, int] = {}
    postmaster = data_dir / "postgres" / "postmaster.pid"
    if postmaster.exists():
        pids["postgres"] = int(postmaster.read_text().split()[0])
    registry = data_dir / "redis.rdb.settings"
    if registry.exists():
        pidfile = Path(json.loads(registry.read_text())["pidfile"])
        if pidfile.exists():
            pids["redis-server"] = int(pidfile.read_text().strip())
    return pids


def processes_using(data_dir: Path) -> list[psutil.Process]:
    """Every live process whose command line names the data directory (postgres -D <dir>/postgres)."""
    found = []
    for proc in psutil.process_iter(["cmdline", "status"]):
        if proc.info["status"] != psutil.STATUS_ZOMBIE and any(str(data_dir) in a for a in proc.info["cmdline"] or ()):
            found.append(proc)
    return found


def worker_of(pid: int, default: object = ...) -> psutil.Process:
    """The `magnate worker` child of the supervisor ``pid``."""
    for child in psutil.Process(pid).children():
        with contextlib.suppress(psutil.NoSuchProcess):
            if child.cmdline()[-1:] == ["worker"] and child.status() != psutil.STATUS_ZOMBIE:
                return child
    if default is ...:
        raise AssertionError("no worker child")
    return default  # type: ignore[return-value]


def create_solo_game(base: str) -> str:
    body = json.dumps({"game": "magnate", "options": {"seats": [{"kind": "human"}, {"kind": "ai"}],
                                                      "difficulty": "generalised_ai"}}).encode()
    request = urllib.request.Request(f"{base}/api/games", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return str(json.loads(response.read())["game_id"])


def test_run_starts_everything_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    data_dir = tmp_path / "var"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in STORE_VARIABLES}
    env.update({"MAGNATE_DATA_DIR": str(data_dir), "HOST": "127.0.0.1", "PORT": str(port),
                "MAGNATE_QUEUE_NAME": f"magnate:test:{uuid.uuid4().hex[:10]}"})
    log = (tmp_path / "run.log").open("wb")
    run = subprocess.Popen([sys.executable, "-m", "services.cli", "run"], cwd=ROOT, env=env, stdout=log,
                           stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while get(f"{base}/health") != 200:
            assert run.poll() is None, f"magnate run exited early:\n{(tmp_path / 'run.log').read_text()}"
            assert time.monotonic() < deadline, f"/health never answered:\n{(tmp_path / 'run.log').read_text()}"
            time.sleep(0.25)
        assert get(f"{base}/schema/openapi.json") == 200

        servers = server_pids(data_dir)
        assert set(servers) == {"postgres", "redis-server"}
        assert all(alive(pid) for pid in servers.values())

        # A crashed child is started again, and the service goes on.
        crashed = worker_of(run.pid)
        crashed.kill()
        deadline = time.monotonic() + 20
        while (restarted := worker_of(run.pid, default=None)) is None or restarted.pid == crashed.pid:
            assert run.poll() is None, f"magnate run stopped with its worker:\n{(tmp_path / 'run.log').read_text()}"
            assert time.monotonic() < deadline, f"the worker was not restarted:\n{(tmp_path / 'run.log').read_text()}"
            time.sleep(0.2)
        assert get(f"{base}/health") == 200

        # The audit tools reach the embedded database with no URL to copy.
        game = create_solo_game(base)
        exported = cli("export", game, "-o", str(tmp_path / "game.jsonl"), env=env)
        assert exported.returncode == 0, exported.stderr.decode()
        assert cli("verify", str(tmp_path / "game.jsonl")).returncode == 0

        children = psutil.Process(run.pid).children(recursive=True)
        assert len(children) >= 2  # the API server and the worker

        started = time.monotonic()
        run.send_signal(signal.SIGTERM)
        assert run.wait(20) == 0, (tmp_path / "run.log").read_text()
        assert time.monotonic() - started < 20
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
        log.close()

    left = [p.pid for p in children if alive(p.pid)] + [pid for pid in servers.values() if alive(pid)]
    assert left == [], f"still running: {left}\n{(tmp_path / 'run.log').read_text()}"
    assert processes_using(data_dir) == []
    assert get(f"{base}/health") == 0
    # The data stays for the next start.
    assert (data_dir / "postgres" / "PG_VERSION").exists()
    assert (data_dir / "redis.rdb").exists()
