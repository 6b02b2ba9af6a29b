"""The client side of the open-streams benchmark: processes that each hold many Server-Sent Events streams on raw
asyncio connections and report the moment each stream heard each version (bench/streams.py runs them)."""

from __future__ import annotations

import asyncio
import multiprocessing
import resource
import time
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection as Pipe
from multiprocessing.process import BaseProcess

OPEN_AT_ONCE = 100
"""Streams each client process has connecting at the same moment."""


def raise_open_files() -> int:
    """The soft ``RLIMIT_NOFILE`` raised to the hard one (children inherit it); returns the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def client_process() -> None:
    """What every client process of a benchmark does first: the open-files limit raised, and its heap frozen every
    2 s, never swept (:class:`services.api.collector.FreezingCollector`): the clients are the measuring instrument, and
    a full collection of theirs (over 100 ms once they hold a few hundred games) delays their reading of every
    stream and would be counted as the server's push delay. A run lasts minutes, so the cyclic garbage left among
    frozen objects is bounded."""
    from services.api.collector import FreezingCollector  # noqa: PLC0415 (client processes only)

    raise_open_files()
    FreezingCollector(freeze_every_s=2.0, sweep_every_s=float("inf"), sweep_from=2**62).start()


# -- the client processes: hold streams, record when each version arrives ------------------------------------


async def _stream(url: str, path: str, seen: list[tuple[int, float]], connected: asyncio.Event,
                  gate: asyncio.Semaphore) -> None:
    host, _, port = url.removeprefix("http://").partition(":")
    async with gate:
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"GET {path}: {status!r}")
        while (await reader.readline()).strip():  # the headers
            pass
        while b"connected" not in await reader.readline():
            pass
    connected.set()
    try:
        while line := await reader.readline():
            if line.startswith(b"id:"):  # one per message; chunk sizes and data are other lines
                seen.append((int(line[3:]), time.monotonic()))
    finally:
        writer.close()


async def _hold(url: str, paths: Sequence[str], pipe: Pipe) -> None:
    gate = asyncio.Semaphore(OPEN_AT_ONCE)
    seen: list[list[tuple[int, float]]] = [[] for _ in paths]
    flags = [asyncio.Event() for _ in paths]
    tasks = [asyncio.create_task(_stream(url, p, s, f, gate)) for p, s, f in zip(paths, seen, flags, strict=True)]
    async def all_connected() -> None:
        for flag in flags:
            await flag.wait()

    waiting = asyncio.create_task(all_connected())
    done, _ = await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
    if waiting not in done:
        failed = next(t for t in tasks if t.done())
        pipe.send(("failed", repr(failed.exception())))
        return
    pipe.send(("open", len(paths)))
    await asyncio.to_thread(pipe.recv)  # "stop"
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    pipe.send(("seen", seen))


def client_main(url: str, paths: Sequence[str], pipe: Pipe) -> None:
    """A client process: open ``paths`` as streams, say so, hold them until told to stop, send what they saw."""
    client_process()
    asyncio.run(_hold(url, paths, pipe))


def spawn_clients(main: Callable[[str, Sequence[str], Pipe], None], url: str, paths: Sequence[str], clients: int
                  ) -> tuple[list[Pipe], list[BaseProcess], list[list[int]]]:
    """``clients`` processes running ``main``, the streams ``paths`` dealt out among them in turn: their pipes,
    the processes and each one's share (indexes into ``paths``)."""
    context = multiprocessing.get_context("spawn")
    pipes: list[Pipe] = []
    processes: list[BaseProcess] = []
    shares: list[list[int]] = []
    for c in range(clients):
        share = list(range(c, len(paths), clients))
        ours, theirs = context.Pipe()
        process = context.Process(target=main, args=(url, [paths[i] for i in share], theirs), daemon=True)
        process.start()
        pipes.append(ours)
        processes.append(process)
        shares.append(share)
    return pipes, processes, shares


async def opened(pipes: Sequence[Pipe]) -> None:
    """Waits until every client says its streams are open (RuntimeError if one could not open them)."""
    for pipe in pipes:
        kind, detail = await asyncio.to_thread(pipe.recv)
        if kind != "open":
            raise RuntimeError(f"a client could not open its streams: {detail}")
