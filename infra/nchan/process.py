"""Running one nginx box (with nchan) as a child process: what ``magnate run`` (``MAGNATE_PUSH=nchan``), the push
test and the push benchmark start."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .config import INSTALL, NCHAN_MODULE, NGINX, NchanBox, write


class NginxMissing(RuntimeError):
    """nginx or its nchan module is not installed."""


def nginx_binary() -> str:
    """The nginx executable, when it and the nchan module are installed (:class:`NginxMissing` says how)."""
    found = shutil.which("nginx") or (NGINX if Path(NGINX).exists() else None)
    if found is None or not Path(NCHAN_MODULE).exists():
        raise NginxMissing(f"nginx with the nchan module is not installed: {INSTALL}")
    return found


def _listening(address: str) -> bool:
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), timeout=0.5):
            return True
    except OSError:
        return False


@dataclass
class NginxProcess:
    box: NchanBox
    process: subprocess.Popen[bytes]

    @classmethod
    def start(cls, box: NchanBox, timeout_s: float = 10.0) -> NginxProcess:
        """Render the box's configuration, start nginx in the foreground and wait until both its ports listen."""
        binary = nginx_binary()
        conf = write(box)
        with (box.work / "nginx.out").open("wb") as log:  # the child keeps its own descriptor
            process = subprocess.Popen([binary, "-p", str(box.work), "-c", str(conf)], stdin=subprocess.DEVNULL,
                                       stdout=log, stderr=log, process_group=0)
        running = cls(box, process)
        deadline = time.monotonic() + timeout_s
        while not (_listening(box.listen) and _listening(box.publish_listen)):
            if process.poll() is not None or time.monotonic() > deadline:
                running.stop()
                errors = box.work / "error.log"
                said = errors.read_text(errors="replace") if errors.exists() else ""
                raise RuntimeError(f"nginx did not start: {said}")
            time.sleep(0.05)
        return running

    def stop(self, timeout_s: float = 10.0) -> None:
        """nginx's fast shutdown (SIGTERM), then kill."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout_s)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
