"""A host name that resolves to this machine's loopback, for tests of what outbound requests may reach."""

from __future__ import annotations

import ipaddress
import socket

import pytest


def loopback_name() -> str:
    """This machine's host name, which resolves to a loopback address here (the test is skipped where it does not)."""
    name = socket.gethostname()
    try:
        address = ipaddress.ip_address(socket.getaddrinfo(name, 80, type=socket.SOCK_STREAM)[0][4][0])
    except (OSError, ValueError):
        pytest.skip(f"{name} does not resolve here")
    if not address.is_loopback:
        pytest.skip(f"{name} resolves to {address}, not to loopback")
    return name
