"""Rendering ``nginx.conf.template`` (this directory) for one nginx box: its ports, the API processes it proxies
to, and the Redis its channels live in (Redis mode: several boxes share every channel) or none (memory mode: one
box)."""

from __future__ import annotations

import getpass
import os
import re
import resource
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

TEMPLATE = Path(__file__).with_name("nginx.conf.template")
NCHAN_MODULE = "/usr/lib/nginx/modules/ngx_nchan_module.so"
NGINX = "/usr/sbin/nginx"
INSTALL = "make nginx (apt-get install nginx libnginx-mod-nchan)"

_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


@dataclass(frozen=True)
class NchanBox:
    """One nginx box: ``listen`` (the pages' address, host:port), ``publish_listen`` (the API's, loopback or
    private), ``apis`` (host:port of each API process), ``redis_url`` (None: memory mode) with its key
    ``redis_namespace``, and ``work`` (a directory for its pid, log and temporary files)."""

    listen: str
    publish_listen: str
    apis: Sequence[str]
    work: Path
    redis_url: str | None = None
    redis_namespace: str = "magnate:push:"
    workers: int = 1
    connections: int = 16384
    buffer_length: int = 16
    """Messages a channel keeps for a page that reconnects (Last-Event-ID) or subscribes just after its read."""
    message_timeout: str = "10m"
    shared_memory: str = "64M"

    @property
    def publish_url(self) -> str:
        return f"http://{self.publish_listen}/publish"

    @property
    def url(self) -> str:
        return f"http://{self.listen}"


def _redis_server(url: str) -> str:
    """nchan's form of a Redis URL: ``redis://[:password@]host:port[/db]`` (no query, no unix socket)."""
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss") or not parts.hostname:
        raise ValueError(f"nchan needs a redis://host:port URL, not {url!r}")
    auth = f":{parts.password}@" if parts.password else ""
    db = parts.path if parts.path not in ("", "/") else ""
    return f"redis://{auth}{parts.hostname}:{parts.port or 6379}{db}"


def _redis_block(box: NchanBox) -> str:
    if box.redis_url is None:
        return ""
    return (f"    upstream magnate_push_redis {{\n        nchan_redis_server {_redis_server(box.redis_url)};\n    }}\n"
            f"    nchan_redis_namespace \"{box.redis_namespace}\";\n")


def _open_files(connections: int) -> int:
    """What a worker may open: two descriptors a connection, within this process's hard limit."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    wanted = connections * 2 + 64
    return wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)


def render(box: NchanBox) -> str:
    """The configuration text of ``box``."""
    redis = box.redis_url is not None
    values = {
        "nchan_module": NCHAN_MODULE,
        "user_line": f"user {getpass.getuser()};" if os.geteuid() == 0 else "",
        "workers": str(box.workers),
        "max_files": str(_open_files(box.connections)),
        "connections": str(box.connections),
        "work": str(box.work),
        "buffer_length": str(box.buffer_length),
        "message_timeout": box.message_timeout,
        "shared_memory": box.shared_memory,
        "redis_block": _redis_block(box),
        "redis_url": _redis_server(box.redis_url) if box.redis_url is not None else "(none: memory mode)",
        "redis_namespace": box.redis_namespace,
        "use_redis": "            nchan_redis_pass magnate_push_redis;" if redis else "",
        "api_servers": "\n".join(f"        server {api};" for api in box.apis),
        "listen": box.listen,
        "publish_listen": box.publish_listen,
    }
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], TEMPLATE.read_text())


def write(box: NchanBox) -> Path:
    """Render ``box`` into ``<work>/nginx.conf`` (making its temporary directories) and return the file."""
    for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (box.work / name).mkdir(parents=True, exist_ok=True)
    path = box.work / "nginx.conf"
    path.write_text(render(box))
    return path
