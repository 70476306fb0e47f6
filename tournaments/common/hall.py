"""The hall address: where the tables' tablets reach the laptop.

``bin/serve`` finds the laptop's addresses on the hall network, prints them with a QR
code of the console, and passes the first (or ``HALL_ADDRESS``) on as ``HALL_URL``; table
links and QR codes are built from it, whatever address the console was opened at, and the
console warns when it was opened at a loopback address the tablets cannot reach.

Every address a person or a QR code follows (the tablets' links, the players' event page
on the projector, the sheets and the cards) is made by ``absolute_url`` and every QR code
by ``qr_code``: a page opened on the laptop at 127.0.0.1 must still send a hall full of
phones to an address they can reach. tests/test_hall.py fails when another place builds
an address or a QR code its own way.
"""

from __future__ import annotations

import ipaddress
import socket
import subprocess

import segno
from django.conf import settings
from django.http import HttpRequest
from django.http.request import split_domain_port

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def request_host(request: HttpRequest) -> str:
    return split_domain_port(request.get_host())[0]


def absolute_url(request: HttpRequest, path: str) -> str:
    """A URL that the tablets can open: at the hall address when one is known."""
    if settings.HALL_URL:
        return settings.HALL_URL + path
    return request.build_absolute_uri(path)


def qr_code(url: str) -> segno.QRCode:
    """The QR code of an address made by ``absolute_url``; medium error correction survives
    a smudged card or a glare on the projector screen."""
    return segno.make(url, error="m")


def context(request: HttpRequest) -> dict[str, object]:
    """For the director's pages: the loopback warning (never on the projector, which
    may well run on the laptop itself)."""
    if not request.path.startswith("/director/"):
        return {}
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    if not is_loopback(request_host(request)):
        return {}
    return {"loopback_warning": True, "hall_url": settings.HALL_URL}


def hall_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, as the system lists them."""
    found: list[str] = []
    try:
        out = subprocess.run(
            ["ip", "-o", "-4", "addr", "show", "up"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        ).stdout
        for line in out.splitlines():
            parts = line.split()
            if "inet" in parts:
                found.append(parts[parts.index("inet") + 1].split("/")[0])
    except OSError:
        pass
    if not found:
        try:
            found = [
                str(info[4][0])
                for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
            ]
        except OSError:
            found = []
    unique = []
    for address in found:
        if address not in unique and not ipaddress.ip_address(address).is_loopback:
            unique.append(address)
    return unique


def client_ip(request: HttpRequest) -> str:
    """The address a trusted proxy saw, or the peer's (the sign-in throttle, the table
    codes' throttle and the access log all ask here)."""
    remote = str(request.META.get("REMOTE_ADDR", ""))
    if remote not in settings.TRUSTED_PROXIES:
        return remote
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    # Right to left: the first address that is not one of our proxies is the one our
    # proxies saw; anything left of it the client may have written itself.
    for address in reversed(forwarded):
        if address and address not in settings.TRUSTED_PROXIES:
            return str(address)
    return remote
