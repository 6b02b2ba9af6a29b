"""Checks of the addresses players give: an email address (its syntax, by email-validator; no DNS lookup) and
a webhook or push URL the server will call (no server-side request forgery: only http(s), no credentials, and
only public addresses, both as written and as resolved at registration and at each delivery, which then connects to
the very address it checked).

URLs are parsed by httpx, the client that will call them, so the host checked is the host connected to.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket

import httpx
from email_validator import EmailNotValidError, validate_email

from infra.channels.errors import InvalidEmail, UnsafeAddress

EMAIL_MAX = 254
"""The longest address SMTP can carry (RFC 5321's 256-character path, less its angle brackets)."""
URL_MAX = 2000
RESOLVE_TIMEOUT_S = 5.0

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_LEGACY_IPV4 = re.compile(r"[0-9a-fA-FxX.]+")
"""What an IPv4 address in a form ``inet_aton`` accepts can be made of (``127.1``, ``0x7f.1``, ``2130706433``):
resolvers read such a host name as an address, so it is checked as one."""


def check_email(address: str) -> str:
    """The address, normalized (lower-cased), or :class:`InvalidEmail`. Only its syntax is checked: whether the
    domain takes mail is learnt by sending (a DNS lookup here would slow every sign-in and prove little)."""
    address = address.strip()
    if not address:
        raise InvalidEmail("an email address is required")
    if len(address) > EMAIL_MAX:
        raise InvalidEmail(f"an email address has at most {EMAIL_MAX} characters")
    try:
        valid = validate_email(address, check_deliverability=False)
    except EmailNotValidError as exc:
        raise InvalidEmail(str(exc)) from None
    normalized = valid.normalized.lower()
    if len(normalized) > EMAIL_MAX:
        raise InvalidEmail(f"an email address has at most {EMAIL_MAX} characters")
    return normalized


def check_url(url: str, *, allow_private: bool) -> str:
    """The URL as httpx will send it, or :class:`UnsafeAddress`: it must be http(s), at most 2,000 characters,
    carry no credentials and name a host; a host that is an IP address (in any form a resolver reads as one)
    must be public, and ``localhost`` is refused, unless ``allow_private``. A host name's addresses are checked
    by :func:`check_resolved`."""
    parsed = _parse(url)
    ip = ip_literal(parsed)
    if allow_private:
        return str(parsed)
    if ip is not None:
        if not is_public(ip):
            raise UnsafeAddress(f"{ip} is not a public address")
    elif _is_localhost(_host_name(parsed)):
        raise UnsafeAddress("localhost is not a public address")
    return str(parsed)


async def check_resolved(url: str, *, allow_private: bool) -> tuple[IPAddress, ...]:
    """Resolve the URL's host now and return the addresses to connect to, the ones checked, in the resolver's order
    (the caller pins the connection to them: :func:`infra.channels.webhooks.post_once`, so a name re-pointed between
    this check and the connection — DNS rebinding — changes nothing). Refused as :class:`UnsafeAddress` unless every
    address the host resolves to is public (or ``allow_private``). A host that does not resolve is refused too:
    ``temporary`` says whether the resolver only failed for now. Run at registration and before each delivery, so a
    name re-pointed at an internal address after it was registered is still refused."""
    parsed = _parse(url)
    if not allow_private:
        check_url(url, allow_private=False)
    literal = ip_literal(parsed)
    if literal is not None:
        return (literal,)
    host = _host_name(parsed)
    loop = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(RESOLVE_TIMEOUT_S):
            infos = await loop.getaddrinfo(host, parsed.port or _default_port(parsed), type=socket.SOCK_STREAM)
    except TimeoutError:
        raise UnsafeAddress(f"{host} could not be resolved in time", temporary=True) from None
    except socket.gaierror as exc:
        gone = exc.errno in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", socket.EAI_NONAME))
        raise UnsafeAddress(f"{host} does not resolve ({exc.strerror})", temporary=not gone) from None
    addresses = tuple(dict.fromkeys(ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos))
    if not addresses:
        raise UnsafeAddress(f"{host} does not resolve")
    if not allow_private:
        for ip in sorted(set(addresses), key=str):
            if not is_public(ip):
                raise UnsafeAddress(f"{host} resolves to {ip}, which is not a public address")
    return addresses


def is_public(ip: IPAddress) -> bool:
    """Whether an address is on the public internet: not loopback, private, link-local, multicast, reserved,
    unspecified or shared (carrier-grade NAT); an IPv6 address that embeds an IPv4 one (IPv4-mapped, 6to4,
    Teredo, NAT64) is judged by the address it embeds as well."""
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = [ip.ipv4_mapped, ip.sixtofour, ip.teredo[1] if ip.teredo else None]
        if ip in _NAT64:
            embedded.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
        if any(v4 is not None and not is_public(v4) for v4 in embedded):
            return False
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_loopback or ip.is_link_local
                                 or ip.is_unspecified or ip.is_private)


_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


def ip_literal(url: httpx.URL) -> IPAddress | None:
    """The URL's host as an IP address, when it is one (including IPv4 in the legacy forms ``127.1``,
    ``0x7f000001`` or ``2130706433`` that resolvers accept)."""
    host = _host_name(url)
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    if _LEGACY_IPV4.fullmatch(host):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return None


def _parse(url: str) -> httpx.URL:
    if len(url) > URL_MAX:
        raise UnsafeAddress(f"a URL has at most {URL_MAX} characters")
    try:
        parsed = httpx.URL(url.strip())
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        raise UnsafeAddress(f"not a URL ({exc})") from None
    if parsed.scheme not in ("http", "https"):
        raise UnsafeAddress("only http and https URLs can be called")
    if parsed.userinfo:
        raise UnsafeAddress("a URL with credentials in it is refused (put a secret in the path instead)")
    host = _host_name(parsed)
    if not host:
        raise UnsafeAddress("a URL names a host")
    if "%" in host:
        raise UnsafeAddress("a URL's host has no zone or percent-escape")
    return parsed


def _host_name(url: httpx.URL) -> str:
    """The host as sent (IDNA-encoded), lower-cased, without the trailing dot of a fully qualified name."""
    return url.raw_host.decode("ascii").lower().rstrip(".")


def _is_localhost(host: str) -> bool:
    return host == "localhost" or host.endswith(".localhost")  # RFC 6761 §6.3: always loopback


def _default_port(url: httpx.URL) -> int:
    return 443 if url.scheme == "https" else 80
