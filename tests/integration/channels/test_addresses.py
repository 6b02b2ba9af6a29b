"""The checks of the addresses players give: email syntax (email-validator), and webhook and push URLs that
must not reach the server's own network, as written and as resolved by the real resolver."""

from __future__ import annotations

import ipaddress
import socket

import pytest

from infra.channels import InvalidEmail, UnsafeAddress, check_email, check_resolved, check_url
from infra.channels.addresses import is_public

pytestmark = pytest.mark.integration

NOT_HTTP = ["file:///etc/passwd", "ftp://example.com/hook", "javascript:alert(1)", "gopher://example.com/",
            "example.com/hook", "http:///nohost", ""]
PRIVATE = [
    "http://127.0.0.1/hook", "http://127.8.9.10:8080/", "http://10.0.0.1/", "http://172.16.3.4/", "http://192.168.1.1/",
    "http://[::1]/", "http://169.254.169.254/latest/meta-data/", "http://localhost/", "http://LOCALHOST.:8000/",
    "http://api.localhost/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:a00:1]/", "http://[fe80::1]/",
    "http://[fc00::1]/", "http://0.0.0.0/", "http://[::]/", "http://224.0.0.1/", "http://[ff02::1]/",
    "http://100.64.0.1/", "http://240.0.0.1/", "http://255.255.255.255/", "http://127.1/", "http://0x7f000001/",
    "http://2130706433/", "http://[2002:7f00:1::]/", "http://[64:ff9b::a9fe:a9fe]/",
]
OVERLONG = "https://example.com/" + "a" * 1990


@pytest.mark.parametrize("url", NOT_HTTP)
def test_only_http_and_https_urls_are_called(url: str) -> None:
    for allow_private in (False, True):
        with pytest.raises(UnsafeAddress) as refused:
            check_url(url, allow_private=allow_private)
        assert refused.value.code == "request/unsafe_url" and refused.value.message


@pytest.mark.parametrize("url", PRIVATE)
def test_private_addresses_are_refused_unless_allowed(url: str) -> None:
    with pytest.raises(UnsafeAddress, match="not a public address"):
        check_url(url, allow_private=False)
    assert check_url(url, allow_private=True)


@pytest.mark.parametrize("url", ["http://user:pass@example.com/", "https://token@example.com/", OVERLONG])
def test_credentials_and_overlong_urls_are_refused_even_when_private_is_allowed(url: str) -> None:
    for allow_private in (False, True):
        with pytest.raises(UnsafeAddress):
            check_url(url, allow_private=allow_private)


def test_public_urls_pass_as_httpx_will_send_them() -> None:
    assert check_url("https://Hooks.Example.COM/a b?x=1", allow_private=False) == "https://hooks.example.com/a%20b?x=1"
    assert check_url("http://93.184.216.34:8080/h", allow_private=False) == "http://93.184.216.34:8080/h"
    assert check_url("https://[2606:4700:4700::1111]/", allow_private=False) == "https://[2606:4700:4700::1111]/"
    assert check_url("https://bücher.example/", allow_private=False) == "https://xn--bcher-kva.example/"
    assert len(check_url("https://example.com/" + "a" * 1980, allow_private=False)) == 2000


def test_embedded_ipv4_addresses_are_judged_too() -> None:
    assert not is_public(ipaddress.ip_address("::ffff:10.1.2.3"))  # IPv4-mapped: refused whatever it maps
    assert not is_public(ipaddress.ip_address("2002:c0a8:101::1"))  # 6to4 of 192.168.1.1
    assert is_public(ipaddress.ip_address("2002:5db8:d822::1"))  # 6to4 of 93.184.216.34
    assert not is_public(ipaddress.ip_address("64:ff9b::7f00:1"))  # NAT64 of 127.0.0.1


async def test_a_name_is_judged_by_what_it_resolves_to() -> None:
    """The machine's own name resolves (through /etc/hosts, the real resolver) to addresses that are checked
    one by one: here, where it is loopback, it is refused; a name that does not resolve is refused too."""
    host = socket.gethostname()
    resolved = {info[4][0] for info in socket.getaddrinfo(host, 80, type=socket.SOCK_STREAM)}
    url = f"http://{host}/hook"
    assert check_url(url, allow_private=False) == url  # a name passes the written check...
    if all(is_public(ipaddress.ip_address(ip)) for ip in resolved):
        await check_resolved(url, allow_private=False)
    else:
        with pytest.raises(UnsafeAddress, match="not a public address") as refused:
            await check_resolved(url, allow_private=False)  # ...but not what it resolves to
        assert not refused.value.temporary
    await check_resolved(url, allow_private=True)
    with pytest.raises(UnsafeAddress, match="does not resolve"):
        await check_resolved("https://no-such-host.invalid/hook", allow_private=False)
    with pytest.raises(UnsafeAddress, match="not a public address"):
        await check_resolved("http://127.0.0.1/", allow_private=False)
    with pytest.raises(UnsafeAddress, match="only http"):
        await check_resolved("file:///etc/passwd", allow_private=True)
    await check_resolved("http://[2606:4700:4700::1111]/", allow_private=False)  # a public literal: no lookup


@pytest.mark.parametrize(("given", "normalized"), [
    ("Ada@Example.COM", "ada@example.com"),
    ("  bob.smith+games@mail.example.org ", "bob.smith+games@mail.example.org"),
    ("ÉLODIE@exämple.com", "élodie@exämple.com"),
])
def test_email_addresses_are_normalized(given: str, normalized: str) -> None:
    assert check_email(given) == normalized


@pytest.mark.parametrize("address", [
    "", "ada", "ada@", "@example.com", "ada@example", "ada@@example.com", "Ada <ada@example.com>",
    "ada@example..com", "ada example@example.com", "ada@localhost", "a" * 245 + "@example.com",
    "ada@example.com\r\nBcc: eve@example.com",
])
def test_invalid_email_addresses_are_refused(address: str) -> None:
    with pytest.raises(InvalidEmail) as refused:
        check_email(address)
    assert refused.value.code == "request/invalid_email" and refused.value.message
